/**
 * Refreshing a pasted table in place when the result changes width or length (src/excel/replace-table.ts):
 * the table takes the new columns where the cells it grows into are empty, the user's columns inside
 * it move with its right edge, conditional formats and chart series follow their columns by header
 * name, and a refusal, a failure or a Cancel leaves the sheet exactly as it was.
 */
import {
  createFakeExcel,
  EXCEL_BUILDS,
  FakeErrorCodes,
  FakeExcelError,
  installFakeOffice,
  type FakeExcel,
  type RequirementLevel,
} from "../../testing/fake-excel";
import { readProvenance } from "../../src/excel/provenance-sheets";
import { PastedSheetChangedError, replaceTableInPlace, type ReplaceOptions } from "../../src/excel/replace-table";
import { writeTableToNewSheet } from "../../src/excel/write-sheets";
import type { ProvenanceRecord } from "../../src/shaping/paste-provenance";
import type { CellValue } from "../../src/shaping/types";

const SHEET = "Counts";
const HEADER = ["label", "flood", "heat"];
const ROWS: CellValue[][] = [
  ["LOW", 1, 2],
  ["MEDIUM", 3, 4],
  ["HIGH", 5, 6],
];

/**
 * A label-count sheet as the pane pastes it: labels coloured by conditional formats, a chart with a
 * series per label row over the hazard columns, and a second chart of the flood column (series by column).
 */
async function pasted(level?: RequirementLevel): Promise<{ fake: FakeExcel; record: ProvenanceRecord }> {
  const fake = createFakeExcel({ requirements: level });
  restore.push(installFakeOffice(globalThis as unknown as Record<string, unknown>, fake.requirements));
  await fake.run(async (context) => {
    await writeTableToNewSheet(context, {
      sheetName: SHEET,
      header: HEADER,
      rows: ROWS,
      conditionalLabels: [0],
      chart: { type: "Line", dataRows: [0, 1, 2], firstValueColumn: 1, seriesNames: ROWS.map((row) => String(row[0])) },
      provenance: { operation: "label-counts", baseUrl: "http://127.0.0.1:9", filters: {}, addinVersion: "test" },
    });
    const sheet = context.workbook.worksheets.getItem(SHEET);
    const flood = sheet.charts.add("Line", sheet.getRange("B2:B4"), "Columns");
    // The first series of each chart reads its source; named explicitly, the model compares plainly.
    const charts = sheet.charts.load("items/name");
    await context.sync();
    charts.items[0].series.getItemAt(0).setValues(sheet.getRange("B2:C2"));
    flood.series.getItemAt(0).setValues(sheet.getRange("B2:B4"));
    await context.sync();
  });
  const { records } = await fake.run((context) => readProvenance(context));
  return { fake, record: records[0] };
}

const restore: Array<() => void> = [];
afterEach(() => {
  while (restore.length > 0) restore.pop()!();
});

function replace(
  fake: FakeExcel,
  record: ProvenanceRecord,
  header: string[],
  rows: CellValue[][],
  options?: ReplaceOptions,
): Promise<ProvenanceRecord> {
  return fake.run((context) => replaceTableInPlace(context, record, header, rows, options));
}

/** What a user would see of the sheet besides its cells: the table, coloured ranges, chart series. */
function decorations(fake: FakeExcel) {
  const sheet = fake.model.findSheet(SHEET)!;
  return {
    table: fake.snapshot().tables.find((t) => t.name.startsWith(SHEET))?.address,
    formats: sheet.conditionalFormats.map((cf) => cf.address),
    series: sheet.charts.map((c) => c.series.map((s) => [s.values, s.xValues])),
  };
}

/** The whole sheet as JSON (cells with values, formulas and formats) plus its decorations. */
function state(fake: FakeExcel): string {
  return JSON.stringify([fake.snapshot().sheets.find((s) => s.name === SHEET), decorations(fake)]);
}

test("a wider and longer result refreshes in place: new header, formats and series follow their columns", async () => {
  const { fake, record } = await pasted();
  fake.setValues(SHEET, "C2:C4", [[2], [4], [6]]); // unchanged values, but the user formats heat as percent
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem(SHEET).getRange("C2:C4").numberFormat = [["0.0%"], ["0.0%"], ["0.0%"]];
  });
  // The service now also reports wind, between flood and heat, and a fourth label.
  const header = ["label", "flood", "wind", "heat"];
  const rows: CellValue[][] = [
    ["LOW", 1, 7, 2],
    ["MEDIUM", 3, 8, 4],
    ["HIGH", 5, 9, 6],
    ["NONE", 0, 0, 0],
  ];
  const updated = await replace(fake, record, header, rows);
  expect(updated).toMatchObject({ header, rows: 4, tableAddress: "A1:D5" });
  expect(fake.read(SHEET, "A1:D5")).toEqual([header, ...rows]);
  expect(decorations(fake)).toEqual({
    table: "Counts!A1:D5",
    // The label colours cover every label row.
    formats: ["Counts!A2:A5", "Counts!A2:A5", "Counts!A2:A5"],
    series: [
      // A series per label over every hazard, wind included, with the new header as categories.
      [
        ["Counts!B2:D2", "Counts!B1:D1"],
        ["Counts!B3:D3", "Counts!B1:D1"],
        ["Counts!B4:D4", "Counts!B1:D1"],
      ],
      // The flood column's chart runs down to the new last row.
      [["Counts!B2:B5", undefined]],
    ],
  });
  // The percent format went with the heat column; wind, a new column, is General.
  expect(fake.read(SHEET, "D2:D5", "numberFormat").flat()).toEqual(["0.0%", "0.0%", "0.0%", "0.0%"]);
  expect(fake.read(SHEET, "C2:C5", "numberFormat").flat()).toEqual(["General", "General", "General", "General"]);
});

test("a narrower result refreshes in place: the table loses the column, its cells are emptied", async () => {
  const { fake, record } = await pasted();
  const header = ["label", "heat"];
  const rows: CellValue[][] = [
    ["LOW", 2],
    ["MEDIUM", 4],
  ];
  const updated = await replace(fake, record, header, rows);
  expect(updated).toMatchObject({ header, rows: 2, tableAddress: "A1:B3" });
  expect(fake.read(SHEET, "A1:C4")).toEqual([
    ["label", "heat", ""],
    ["LOW", 2, ""],
    ["MEDIUM", 4, ""],
    ["", "", ""],
  ]);
  const after = decorations(fake);
  expect(after.table).toBe("Counts!A1:B3");
  expect(after.formats).toEqual(["Counts!A2:A3", "Counts!A2:A3", "Counts!A2:A3"]);
  // Rows still in the table cover the heat column; the HIGH row is gone, so its series stays as it was.
  expect(after.series[0]).toEqual([
    ["Counts!B2", "Counts!B1"],
    ["Counts!B3", "Counts!B1"],
    ["Counts!B4:C4", "Counts!B1:C1"],
  ]);
});

test("growth into cells that hold data is refused naming them, and nothing changes", async () => {
  const { fake, record } = await pasted();
  fake.setValues(SHEET, "D3", [["the user's"]]);
  const before = state(fake);
  const wider = await replace(
    fake,
    record,
    [...HEADER, "wind"],
    [
      ["LOW", 1, 2, 7],
      ["MEDIUM", 3, 4, 8],
      ["HIGH", 5, 6, 9],
    ],
  ).catch((error: unknown) => error);
  expect(wider).toBeInstanceOf(PastedSheetChangedError);
  expect((wider as Error).message).toBe(
    'Sheet "Counts": the refreshed table has 1 more column (4 instead of 3), but cells it would grow into (D3) hold data. Move them, then refresh again. Nothing was changed.',
  );
  expect(state(fake)).toBe(before);

  fake.setValues(SHEET, "B6", [["below"]]);
  const longer = await replace(fake, record, HEADER, [...ROWS, ["NONE", 0, 0], ["OTHER", 0, 0]]).catch(
    (error: unknown) => error,
  );
  expect((longer as Error).message).toMatch(/has 2 more rows, but cells it would grow into \(B6\) hold data/);
});

test("the user's column inside the table moves with its right edge and keeps its values per row", async () => {
  const { fake, record } = await pasted();
  // The user types a notes column next to the table, which takes it in (as Excel does).
  fake.setValues(SHEET, "D1:D4", [["notes"], ["fine"], ["=B3*2"], ["check"]]);
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem(SHEET).tables.getItem(record.tableName).resize("A1:D4");
  });
  const header = ["label", "flood", "wind", "heat"];
  const rows: CellValue[][] = [
    ["LOW", 1, 7, 2],
    ["MEDIUM", 3, 8, 4],
    ["HIGH", 5, 9, 6],
  ];
  const updated = await replace(fake, record, header, rows);
  expect(fake.read(SHEET, "A1:E4")).toEqual([
    [...header, "notes"],
    ["LOW", 1, 7, 2, "fine"],
    ["MEDIUM", 3, 8, 4, expect.anything()],
    ["HIGH", 5, 9, 6, "check"],
  ]);
  expect(fake.read(SHEET, "E3", "formulas")).toEqual([["=B3*2"]]);
  expect(decorations(fake).table).toBe("Counts!A1:E4");
  // Refreshed again at the new width, the notes stay where they are now.
  const again = await replace(fake, updated, header, rows);
  expect(fake.read(SHEET, "E1:E4").flat()).toEqual(["notes", "fine", expect.anything(), "check"]);
  // Narrower: the notes move left with the table's edge; the cells they left are empty.
  await replace(
    fake,
    again,
    ["label", "heat"],
    [
      ["LOW", 2],
      ["MEDIUM", 4],
      ["HIGH", 6],
    ],
  );
  expect(fake.read(SHEET, "A1:E2")).toEqual([
    ["label", "heat", "notes", "", ""],
    ["LOW", 2, "fine", "", ""],
  ]);
  expect(fake.read(SHEET, "C3", "formulas")).toEqual([["=B3*2"]]);
  expect(decorations(fake).table).toBe("Counts!A1:C4");
});

test("a Cancel or a failure part-way puts back the cells, the table, the formats and the series", async () => {
  const header = ["label", "flood", "wind", "heat"];
  const rows: CellValue[][] = Array.from({ length: 400 }, (_, i) => [`L${i}`, i, i, i]);

  // Cancel while the rows are written (a small request limit makes many chunks).
  let { fake, record } = await pasted();
  let before = state(fake);
  const cancel = new AbortController();
  const cancelled = replace(fake, record, header, rows, {
    signal: cancel.signal,
    maxRequestBytes: 4_000,
    onProgress: (done) => {
      if (done > 100) cancel.abort();
    },
  });
  await expect(cancelled).rejects.toThrow();
  expect(state(fake)).toBe(before);

  // Fail the sync that moves the conditional formats and chart series, after part of it applied.
  ({ fake, record } = await pasted());
  before = state(fake);
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.some((op) => op.includes("setRanges"))) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected failure"), applyFirst: 2 };
  });
  await expect(replace(fake, record, header, rows)).rejects.toThrow("injected failure");
  expect(failed).toBe(true);
  expect(state(fake)).toBe(before);
});

test("without Table.resize (ExcelApi 1.13) a result of another width is refused before anything is written", async () => {
  const { fake, record } = await pasted(EXCEL_BUILDS.windows2101);
  const before = state(fake);
  await expect(replace(fake, record, ["label", "flood"], [["LOW", 1]])).rejects.toThrow(
    /has 2 columns instead of 3, and this version of Excel cannot resize a table/,
  );
  expect(state(fake)).toBe(before);
});

test("with Table.resize but without moving formats (ExcelApi 1.17) or reading series (1.15), those keep their ranges", async () => {
  const { fake, record } = await pasted(EXCEL_BUILDS.office2021);
  const before = decorations(fake);
  await replace(fake, record, ["label", "flood", "heat"], [...ROWS, ["NONE", 0, 0]]);
  expect(fake.read(SHEET, "A5:C5")).toEqual([["NONE", 0, 0]]);
  expect(decorations(fake)).toEqual({ ...before, table: "Counts!A1:C5" });
});
