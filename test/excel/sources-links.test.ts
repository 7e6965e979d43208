/**
 * The "Climate Risk sources" sheet links each row's sheet name to the pasted table, so a reader of
 * a workbook sent on can go from the source to the data: quoted as Excel quotes sheet names, to a
 * renamed sheet under its new name, and never as a broken link to a sheet deleted since.
 */
import { readProvenance, recordProvenance, writeProvenance } from "../../src/excel/provenance-sheets";
import { parseA1 } from "../../src/shaping/a1";
import { SOURCES_SHEET, type ProvenanceRecord } from "../../src/shaping/paste-provenance";
import { createFakeExcel, EXCEL_BUILDS, type FakeExcel } from "../../testing/fake-excel";

/** A provenance record of a table at A1:C4 on `sheetName` (the sheet's id read from the fake). */
async function recordFor(fake: FakeExcel, sheetName: string): Promise<ProvenanceRecord> {
  const sheetId = await fake.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    sheet.load("id");
    await context.sync();
    return sheet.id;
  });
  return {
    operation: "summary",
    baseUrl: "http://127.0.0.1:1",
    filters: {},
    addinVersion: "test",
    sheetId,
    sheetName,
    tableName: `T_${sheetId}`,
    tableAddress: "A1:C4",
    header: ["a", "b", "c"],
    rows: 3,
    writtenAt: "2026-11-23T22:00:00Z",
    fingerprint: "x",
  };
}

/** The hyperlink and text of each Sheet cell of the Sources sheet, row by row under the header. */
async function sheetColumn(
  fake: FakeExcel,
  rows: number,
): Promise<Array<{ text: unknown; link: Excel.RangeHyperlink }>> {
  return fake.run(async (context) => {
    const sources = context.workbook.worksheets.getItem(SOURCES_SHEET);
    const cells = Array.from({ length: rows }, (_, i) => {
      const cell = sources.getCell(i + 1, 0);
      cell.load("values, hyperlink");
      return cell;
    });
    await context.sync();
    return cells.map((c) => ({ text: c.values[0]![0], link: c.hyperlink }));
  });
}

/** Where a link leads in the fake workbook: the sheet's name and the address, or why it does not. */
function follow(fake: FakeExcel, link: Excel.RangeHyperlink): string {
  const target = parseA1(link.documentReference ?? "");
  if (target.sheet === undefined || !fake.sheetNames().includes(target.sheet))
    return `broken: ${link.documentReference}`;
  return `${target.sheet}|${link.documentReference!.slice(link.documentReference!.lastIndexOf("!") + 1)}`;
}

test("each sheet name links to its table, a name with spaces and quotes quoted as Excel does", async () => {
  const fake = createFakeExcel();
  fake.addSheet("Summary");
  fake.addSheet("Paris & Lyon's 2050");
  const records = [await recordFor(fake, "Summary"), await recordFor(fake, "Paris & Lyon's 2050")];
  await fake.run((context) => recordProvenance(context, records));

  const [plain, quoted] = await sheetColumn(fake, 2);
  expect(plain!.text).toBe("Summary");
  expect(plain!.link.documentReference).toBe("Summary!A1:C4");
  expect(quoted!.text).toBe("Paris & Lyon's 2050");
  expect(quoted!.link.documentReference).toBe("'Paris & Lyon''s 2050'!A1:C4");
  expect(follow(fake, quoted!.link)).toBe("Paris & Lyon's 2050|A1:C4");
  expect(follow(fake, plain!.link)).toBe("Summary|A1:C4");
});

test("a renamed sheet is linked under its new name; a deleted one keeps its row, without a link", async () => {
  const fake = createFakeExcel();
  fake.addSheet("Timeseries");
  fake.addSheet("Summary");
  const records = [await recordFor(fake, "Timeseries"), await recordFor(fake, "Summary")];
  await fake.run((context) => recordProvenance(context, records));
  expect((await sheetColumn(fake, 2)).map((c) => follow(fake, c.link))).toEqual(["Timeseries|A1:C4", "Summary|A1:C4"]);

  await fake.run(async (context) => {
    context.workbook.worksheets.getItem("Timeseries").delete();
    context.workbook.worksheets.getItem("Summary").name = "Summary 2026";
    await context.sync();
  });
  // A rewrite that keeps every record (as a static copy does): the deleted sheet's row stays as text.
  await fake.run(async (context) => writeProvenance(context, (await readProvenance(context)).records));
  const [deleted, renamed] = await sheetColumn(fake, 2);
  expect(deleted).toEqual({ text: "Timeseries", link: {} });
  expect(renamed!.text).toBe("Summary"); // the name it was pasted under, as the record says
  expect(follow(fake, renamed!.link)).toBe("Summary 2026|A1:C4");

  // The next paste drops the deleted sheet's record: rows move up, and no link is left behind on them.
  fake.addSheet("Later");
  await fake.run(async (context) => recordProvenance(context, [await recordFor(fake, "Later")]));
  const column = await sheetColumn(fake, 3);
  expect(column.map((c) => c.text)).toEqual(["Summary", "Later", ""]);
  expect(column.map((c) => (c.text === "" ? c.link : follow(fake, c.link)))).toEqual([
    "Summary 2026|A1:C4",
    "Later|A1:C4",
    {},
  ]);
});

test("the fake refuses range.hyperlink below ExcelApi 1.7, reading and writing, as office.js does", () => {
  const fake = createFakeExcel({ requirements: { ...EXCEL_BUILDS.windows2008, ExcelApi: "1.6" } });
  return fake.run(async (context) => {
    const cell = context.workbook.worksheets.getItem("Sheet1").getRange("A1");
    expect(() => {
      cell.hyperlink = { documentReference: "Sheet1!B2" };
    }).toThrow(/ExcelApi 1.7/);
    expect(() => cell.hyperlink).toThrow(/ExcelApi 1.7/);
    await context.sync();
  });
});

test("the fake's hyperlinks: text to display in the top-left cell; kept by clearing contents, gone with the links", async () => {
  const fake = createFakeExcel();
  const read = () =>
    fake.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sheet1").getRange("B2");
      range.load("hyperlink, values");
      await context.sync();
      return { link: range.hyperlink, value: range.values[0]![0] };
    });
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem("Sheet1").getRange("B2:C2").hyperlink = {
      documentReference: "'My sheet'!A1",
      textToDisplay: "=not a formula",
    };
    await context.sync();
  });
  expect(await read()).toEqual({
    link: { documentReference: "'My sheet'!A1", textToDisplay: "=not a formula" },
    value: "=not a formula",
  });
  expect(fake.read("Sheet1", "C2", "formulas")).toEqual([[""]]); // only the top-left cell shows the text
  const clear = (applyTo: string) =>
    fake.run(async (context) => {
      context.workbook.worksheets
        .getItem("Sheet1")
        .getRange("B2")
        .clear(applyTo as Excel.ClearApplyTo);
      await context.sync();
    });
  await clear("Contents");
  expect(await read()).toEqual({
    link: { documentReference: "'My sheet'!A1", textToDisplay: "=not a formula" },
    value: "",
  });
  await clear("Hyperlinks");
  expect(await read()).toEqual({ link: {}, value: "" });
  await expect(
    fake.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("B2").hyperlink = { target: "x" } as never;
      await context.sync();
    }),
  ).rejects.toThrow(/no field 'target'/);
});
