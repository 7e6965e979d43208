/** Reading the selection or a table for a sync, and selecting a problem's cell, against the fake. */
import { createFakeExcel } from "../../testing/fake-excel";
import { listTables, queueRead, readBlock, readBlocks, readSelection, readTable } from "../../src/excel/read-range";
import { selectCell } from "../../src/excel/select-cell";
import { validateAssetRange } from "../../src/taskpane/features/sync/model/validate-assets";

function sitesSheet() {
  const fake = createFakeExcel();
  fake.addSheet("Site list");
  fake.setValues("Site list", "B2:E5", [
    ["ID", "Name", "Latitude", "Longitude"],
    ["a", "Zürich", 47.4, 8.5],
    ["b", "Oslo", 59.9, 10.7],
    ["c", "Lima", -12, -77],
  ]);
  return fake;
}

describe("readSelection", () => {
  it("reads the selected range with its address, and validation points into the sheet", async () => {
    const fake = sitesSheet();
    fake.setSelection("Site list", "B2:E5");
    const snap = await fake.run((context) => readSelection(context));
    expect(snap).toMatchObject({ address: "'Site list'!B2:E5", sheetName: "Site list", totalRows: 4, mergedAreas: [] });
    expect(snap.values[1]).toEqual(["a", "Zürich", 47.4, 8.5]);
    fake.setValues("Site list", "D4", [["north"]]);
    const again = await fake.run((context) => readSelection(context));
    const problems = validateAssetRange(again).problems;
    expect(problems.map((p) => p.address)).toEqual(["'Site list'!D4"]);
  });

  it("cuts whole-column selections to the data", async () => {
    const fake = sitesSheet();
    fake.setSelection("Site list", "A:F");
    const snap = await fake.run((context) => readSelection(context));
    expect(snap.address).toBe("'Site list'!B2:E5");
    expect(snap.values).toHaveLength(4);
  });

  it("reports merged areas in the selection", async () => {
    const fake = sitesSheet();
    fake.merge("Site list", "C3:D3");
    fake.setSelection("Site list", "B2:E5");
    const snap = await fake.run((context) => readSelection(context));
    expect(snap.mergedAreas).toEqual(["'Site list'!C3:D3"]);
    expect(validateAssetRange(snap).problems.map((p) => p.cell)).toContain("C3");
  });

  it("reads big ranges in several requests, each response under 5 MB", async () => {
    const fake = createFakeExcel();
    const rows = Array.from({ length: 5_001 }, (_, i) =>
      i === 0 ? ["id", "lat", "lng", "note"] : [`id${i}`, 1, 2, "x".repeat(300)],
    );
    fake.setValues("Sheet1", "A1:D5001", rows);
    fake.setSelection("Sheet1", "A1:D5001");
    fake.resetSyncs();
    const snap = await fake.run((context) => readSelection(context, { cellsPerRead: 4_000 }));
    expect(snap.values).toEqual(rows);
    expect(fake.syncs.filter((s) => s.responseBytes > 100_000).length).toBeGreaterThan(1);
    expect(Math.max(...fake.syncs.map((s) => s.responseBytes))).toBeLessThan(5_000_000);
  });

  it("returns no values for an empty sheet", async () => {
    const fake = createFakeExcel();
    const snap = await fake.run((context) => readSelection(context));
    expect(snap.values).toEqual([]);
  });

  it("stops at maxRows and reports the real row count", async () => {
    const fake = createFakeExcel();
    fake.setValues(
      "Sheet1",
      "A1:B30",
      Array.from({ length: 30 }, (_, i) => [i === 0 ? "lat" : 1, i === 0 ? "lng" : 2]),
    );
    fake.setSelection("Sheet1", "A1:B30");
    const snap = await fake.run((context) => readSelection(context, { maxRows: 10 }));
    expect([snap.values.length, snap.totalRows]).toEqual([10, 30]);
  });
});

describe("readBlock", () => {
  it("reads long formulas whole: a slice whose answer passes 5 MB is read again in halves", async () => {
    // 40,000 formulas of ~140 characters each (a financial impact sheet's) answer about 5.6 MB.
    const fake = createFakeExcel();
    const text = (i: number) => `="${"x".repeat(130)}${i}"`;
    fake.setValues(
      "Sheet1",
      "A1:A40000",
      Array.from({ length: 40_000 }, (_, i) => [text(i)]),
    );
    fake.resetSyncs();
    const formulas = await fake.run((context) =>
      readBlock(context, context.workbook.worksheets.getItem("Sheet1"), 0, 0, 40_000, 1, "formulas"),
    );
    expect(formulas).toHaveLength(40_000);
    expect(formulas[39_999]).toEqual([text(39_999)]);
    expect(fake.syncs.some((s) => s.failed === "ResponsePayloadSizeLimitExceeded")).toBe(true);
    expect(Math.max(...fake.syncs.filter((s) => !s.failed).map((s) => s.responseBytes))).toBeLessThan(5_000_000);
  });

  it("reads a large block in round trips near 4 MB each, not one per 40,000 cells", async () => {
    // 300,000 cells of about 12 bytes each: 3.6 MB, one read after the first 40,000 cells.
    const fake = createFakeExcel();
    const rows = Array.from({ length: 30_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => r * 10 + c + 0.5));
    fake.setValues("Sheet1", "A1:J30000", rows);
    fake.resetSyncs();
    const values = await fake.run((context) =>
      readBlock(context, context.workbook.worksheets.getItem("Sheet1"), 0, 0, 30_000, 10, "values"),
    );
    expect(values).toEqual(rows);
    expect(fake.syncs).toHaveLength(2);
    expect(fake.syncs.every((s) => !s.failed && s.responseBytes < 5_000_000)).toBe(true);
  });
});

describe("readBlocks", () => {
  it("reads many small blocks' formulas and formats in one round trip, and a batch too large for one answer in parts", async () => {
    const fake = createFakeExcel();
    fake.setValues(
      "Sheet1",
      "A1:C400",
      Array.from({ length: 400 }, (_, r) => [r, `="${"y".repeat(40)}${r}"`, `t${r}`]),
    );
    const blocks = (sheet: Excel.Worksheet) =>
      Array.from({ length: 200 }, (_, i) => ({
        sheet,
        row: 2 * i,
        col: 1,
        rows: 1,
        cols: 2,
        properties: ["formulas", "numberFormat"] as const,
      }));
    fake.resetSyncs();
    const read = await fake.run((context) =>
      readBlocks(context, blocks(context.workbook.worksheets.getItem("Sheet1"))),
    );
    expect(fake.syncs).toHaveLength(1);
    expect(read).toHaveLength(200);
    expect(read[7]).toEqual({ formulas: [[`="${"y".repeat(40)}14"`, "t14"]], numberFormat: [["General", "General"]] });

    // Under a 6 KB answer limit the same blocks take several requests, each answer whole.
    const small = createFakeExcel({ responseLimitBytes: 6_000 });
    small.setValues("Sheet1", "A1:C400", fake.read("Sheet1", "A1:C400", "formulas"));
    small.resetSyncs();
    const again = await small.run((context) =>
      readBlocks(context, blocks(context.workbook.worksheets.getItem("Sheet1"))),
    );
    expect(again).toEqual(read);
    expect(small.syncs.filter((s) => !s.failed).length).toBeGreaterThan(1);
  });

  it("reads a table's header, a body larger than one request and the columns beside it in two requests, not one or more a block", async () => {
    const fake = createFakeExcel();
    const body = Array.from({ length: 3_000 }, (_, r) => [r, `site ${r}`, r / 7, r % 3]);
    fake.setValues("Sheet1", "A1:D1", [["id", "name", "score", "band"]]);
    fake.setValues("Sheet1", "A2:D3001", body);
    fake.setValues("Sheet1", "F1:F3001", [["note"], ...body.map((_, r) => [`=A${r + 2}*2`])]);
    fake.resetSyncs();
    const [head, values, beside] = await fake.run((context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      return readBlocks(context, [
        { sheet, row: 0, col: 0, rows: 1, cols: 4, properties: ["values"] },
        // 12,000 cells, then 3,001: over the first request's 40,000 cells together with a wider block.
        { sheet, row: 1, col: 0, rows: 3_000, cols: 4, properties: ["values", "numberFormat"] },
        { sheet, row: 0, col: 4, rows: 3_001, cols: 12, properties: ["formulas"] },
      ]);
    });
    expect(head.values).toEqual([["id", "name", "score", "band"]]);
    expect(values.values).toEqual(body);
    expect(values.numberFormat).toHaveLength(3_000);
    expect(beside.formulas).toHaveLength(3_001);
    expect(beside.formulas![5][1]).toBe("=A6*2"); // sheet row 6, the body's fifth
    // 4 + 24,000 + 36,012 cells: the first request's 40,000, then the rest, sized by what they weighed.
    expect(fake.syncs).toHaveLength(2);
  });
});

describe("readBlocks with more blocks learned after its first request", () => {
  it("packs them with the rest, each block's rows sized by what its own cells weigh", async () => {
    // A light block of numbers (about 3.4 MB) and a heavy one of long texts (about 1.6 MB) known only
    // after the first request: together in two requests after the first, not one more for the texts.
    const fake = createFakeExcel();
    const numbers = Array.from({ length: 50_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => r + c / 10));
    const texts = Array.from({ length: 4_000 }, (_, r) => [`${"t".repeat(400)}${r}`]);
    fake.setValues("Sheet1", "A1:J50000", numbers);
    fake.setValues("Sheet1", "L1:L4000", texts);
    fake.resetSyncs();
    const read = await fake.run((context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      return readBlocks(context, [{ sheet, row: 0, col: 0, rows: 50_000, cols: 10, properties: ["values"] }], {
        more: async () => [{ sheet, row: 0, col: 11, rows: 4_000, cols: 1, properties: ["values"], bytesPerCell: 405 }],
      });
    });
    expect(read[0].values).toEqual(numbers);
    expect(read[1].values).toEqual(texts);
    expect(fake.syncs.every((s) => !s.failed && s.responseBytes < 5_000_000)).toBe(true);
    expect(fake.syncs).toHaveLength(3);
  });
});

describe("queueRead", () => {
  it("goes with the caller's next request, and is read on its own when no request carried it", async () => {
    const fake = createFakeExcel();
    fake.setValues("Sheet1", "A1:B3", [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    fake.setValues("Sheet1", "D1", [["queued"]]);
    fake.resetSyncs();
    const [blocks, along] = await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      const later = queueRead(context, () => {
        const cell = sheet.getRange("D1");
        cell.load("values");
        return () => cell.values;
      });
      const read = await readBlocks(context, [{ sheet, row: 0, col: 0, rows: 3, cols: 2, properties: ["values"] }]);
      return [read, await later()] as const;
    });
    expect(blocks[0].values).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    expect(along).toEqual([["queued"]]);
    expect(fake.syncs).toHaveLength(1);

    // Nothing sent after it was queued (an empty table's read sends nothing): it reads itself.
    fake.resetSyncs();
    const alone = await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      const later = queueRead(context, () => {
        const cell = sheet.getRange("D1");
        cell.load("values");
        return () => cell.values;
      });
      await readBlocks(context, [{ sheet, row: 0, col: 0, rows: 0, cols: 2, properties: ["values"] }]);
      return later();
    });
    expect(alone).toEqual([["queued"]]);
    expect(fake.syncs).toHaveLength(1);
  });
});

describe("readTable and listTables", () => {
  it("reads a named table with its header and lists tables with their sheets", async () => {
    const fake = sitesSheet();
    await fake.run(async (context) => {
      const t = context.workbook.worksheets.getItem("Site list").tables.add("B2:E5", true);
      t.name = "Sites";
      await context.sync();
    });
    const snap = await fake.run((context) => readTable(context, "sites"));
    expect(snap.address).toBe("'Site list'!B2:E5");
    expect(snap.values[0]).toEqual(["ID", "Name", "Latitude", "Longitude"]);
    expect(await fake.run((context) => listTables(context))).toEqual([{ name: "Sites", sheetName: "Site list" }]);
    await expect(fake.run((context) => readTable(context, "Nope"))).rejects.toThrow(
      'There is no table named "Nope" in this workbook.',
    );
  });
});

describe("selectCell", () => {
  it("activates the sheet and selects the cell of a problem", async () => {
    const fake = sitesSheet();
    expect(fake.activeSheetName()).toBe("Sheet1");
    await fake.run((context) => selectCell(context, "'Site list'!D4"));
    expect(fake.activeSheetName()).toBe("Site list");
    expect(fake.selectionAddress()).toBe("'Site list'!D4");
    await fake.run((context) => selectCell(context, "B2"));
    expect(fake.selectionAddress()).toBe("'Site list'!B2");
    await expect(fake.run((context) => selectCell(context, "Gone!A1"))).rejects.toThrow(
      'The sheet "Gone" no longer exists.',
    );
  });
});
