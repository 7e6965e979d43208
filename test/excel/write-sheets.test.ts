/**
 * Writing tables into new sheets against the Excel fake: the 5 MB rule, numbers staying
 * numbers, text staying text, all-or-nothing on failure or cancellation, and name collisions.
 */
import { createFakeExcel, FakeExcel } from "../../testing/fake-excel";
import {
  writeSheetsAtomically,
  writeTableToNewSheet,
  type NewSheetSpec,
  type WriteProgress,
} from "../../src/excel/write-sheets";
import type { CellValue } from "../../src/shaping/types";
import { TIMESERIES_HEADER_START } from "../support/fixtures";

const LIMIT = 5_000_000;

/** A timeseries-like table: 7 asset/series columns and 123 year columns of real-looking numbers. */
function bigTable(rows: number): NewSheetSpec {
  const years = Array.from({ length: 123 }, (_, i) => String(1978 + i));
  const header = [...TIMESERIES_HEADER_START, ...years];
  const data: CellValue[][] = [];
  for (let r = 0; r < rows; r++) {
    const row: CellValue[] = [
      r,
      `A-${String(r).padStart(5, "0")}`,
      `Site ${r} – Zürich`,
      "wildfire",
      "unified_prob",
      "ssp585",
      "mid",
    ];
    for (let y = 0; y < years.length; y++) row.push(Math.sin(r * 7 + y) * 0.123456789 + r / 1e5);
    data.push(row);
  }
  return { sheetName: "Timeseries", header, rows: data };
}

async function existingState(fake: FakeExcel): Promise<string> {
  return JSON.stringify(fake.snapshot());
}

function seedUserSheets(fake: FakeExcel): void {
  fake.setValues("Sheet1", "A1:C2", [
    ["entity_id", "lat", "lng"],
    ["x1", 47.3, 8.5],
  ]);
  fake.addSheet("Timeseries");
  fake.setValues("Timeseries", "A1", [["the user's own sheet"]]);
}

describe("writeTableToNewSheet", () => {
  it("writes 5,000 × 130 with every request under 5 MB, numbers as numbers", async () => {
    const fake = createFakeExcel();
    const spec = bigTable(5_000);
    // How fast is a figure of `npm run bench` (timeseries paste), not a wall-clock assertion here.
    const written = await fake.run((context) => writeTableToNewSheet(context, spec));

    expect(written).toMatchObject({
      sheetName: "Timeseries",
      rowCount: 5_000,
      columnCount: 130,
      tableAddress: "A1:DZ5001",
    });
    const sizes = fake.syncs.map((s) => s.requestBytes);
    expect(Math.max(...sizes)).toBeLessThan(LIMIT);
    expect(sizes.filter((b) => b > 1_000_000).length).toBeGreaterThan(1); // really chunked
    expect(fake.syncs.every((s) => !s.failed)).toBe(true);
    const body = fake.read("Timeseries", "A2:DZ5001");
    expect(body).toEqual(spec.rows);
    expect(typeof body[4_999][129]).toBe("number");
    expect(fake.read("Timeseries", "A1:DZ1")).toEqual([spec.header]);
    expect(fake.model.tables.map((t) => t.name)).toEqual(["Timeseries"]);
    expect(fake.activeSheetName()).toBe("Timeseries");
  });

  it("keeps formula-looking and number-looking strings as text and never makes formulas", async () => {
    const fake = createFakeExcel();
    const nasty = [
      '=HYPERLINK("http://x","click")',
      "+cmd|' /C calc'!A0",
      "-2+3",
      "@SUM(A1:A9)",
      "\tTAB",
      "\rCR",
      "007",
      "TRUE",
      "1/2",
    ];
    const spec: NewSheetSpec = {
      sheetName: "Applied",
      header: ["name", "value", "mixed"],
      rows: nasty.map((s, i) => [s, i * 1.5, i % 2 === 0 ? s : i]),
    };
    await fake.run((context) => writeTableToNewSheet(context, spec));
    const formulas = fake.read("Applied", "A2:C10", "formulas");
    expect(formulas).toEqual(spec.rows);
    expect(fake.read("Applied", "A2:C10", "valueTypes")).toEqual(
      spec.rows.map((r) => r.map((v) => (typeof v === "number" ? "Double" : "String"))),
    );
    const cells = fake.snapshot().sheets.find((s) => s.name === "Applied")!.cells;
    expect(cells.filter(([, , formula]) => formula !== undefined)).toEqual([]);
  });

  it("makes the header text even when it says 2030", async () => {
    const fake = createFakeExcel();
    await fake.run((context) =>
      writeTableToNewSheet(context, { sheetName: "Years", header: ["id", "2030", "2050"], rows: [["a", 1, 2]] }),
    );
    expect(fake.read("Years", "A1:C1")).toEqual([["id", "2030", "2050"]]);
  });

  it("picks a fresh valid sheet and table name on collisions and leaves the other sheets alone", async () => {
    const fake = createFakeExcel();
    seedUserSheets(fake);
    const before = fake.snapshot().sheets;
    const a = await fake.run((context) =>
      writeTableToNewSheet(context, { sheetName: "timeseries", header: ["a"], rows: [[1]] }),
    );
    const b = await fake.run((context) =>
      writeTableToNewSheet(context, { sheetName: "Timeseries", header: ["a"], rows: [[2]] }),
    );
    const c = await fake.run((context) =>
      writeTableToNewSheet(context, { sheetName: "Exposure: ssp585 / mid [2030-2100]*?", header: ["a"], rows: [[3]] }),
    );
    expect([a.sheetName, b.sheetName]).toEqual(["timeseries (2)", "Timeseries (3)"]);
    expect(c.sheetName).toMatch(/^Exposure_ ssp585 _ mid _2030-2/);
    expect(c.sheetName).not.toMatch(/[[\]:*?/\\]/);
    expect(c.sheetName).toHaveLength(31);
    expect(new Set([a.tableName, b.tableName, c.tableName]).size).toBe(3);
    const after = fake.snapshot().sheets;
    expect(after.slice(0, 2)).toEqual(before);
  });

  it("colours LOW/MEDIUM/HIGH columns and draws a line chart of the chosen rows", async () => {
    const fake = createFakeExcel();
    const spec: NewSheetSpec = {
      sheetName: "Summary",
      header: ["entity_id", "wildfire_risk_class", "2030", "2040"],
      rows: [
        ["a", "LOW", 1, 2],
        ["b", "HIGH", 3, 4],
        ["c", "MEDIUM", 5, 6],
      ],
      conditionalLabels: [1],
      chart: { type: "Line", dataRows: [0, 2], firstValueColumn: 2, seriesNames: ["a", "c"], title: "Exposure" },
    };
    await fake.run((context) => writeTableToNewSheet(context, spec));
    const sheet = fake.model.findSheet("Summary")!;
    expect(
      sheet.conditionalFormats.map((c) => [c.address, (c.settings["textComparison.rule"] as { text: string }).text]),
    ).toEqual([
      ["Summary!B2:B4", "LOW"],
      ["Summary!B2:B4", "MEDIUM"],
      ["Summary!B2:B4", "HIGH"],
    ]);
    expect(sheet.charts).toHaveLength(1);
    expect(sheet.charts[0]).toMatchObject({
      type: "Line",
      sourceAddress: "Summary!C2:D2",
      settings: { "title.text": "Exposure" },
    });
    expect(sheet.charts[0].series).toEqual([
      { name: "a", xValues: "Summary!C1:D1" },
      { name: "c", values: "Summary!C4:D4", xValues: "Summary!C1:D1" },
    ]);
  });

  it("rejects malformed rows before touching the workbook, naming row and column", async () => {
    const fake = createFakeExcel();
    const before = await existingState(fake);
    await expect(
      fake.run((context) => writeTableToNewSheet(context, { sheetName: "X", header: ["a", "b"], rows: [[1, 2], [3]] })),
    ).rejects.toThrow("row 2 has 1 cells but the header has 2 columns");
    await expect(
      fake.run((context) => writeTableToNewSheet(context, { sheetName: "X", header: ["a"], rows: [[NaN]] })),
    ).rejects.toThrow('row 1, column "a"');
    expect(await existingState(fake)).toBe(before);
  });
});

describe("all or nothing", () => {
  /** How many syncs a clean write of `spec` takes (measured, not assumed). */
  async function syncsOf(specs: NewSheetSpec[]): Promise<number> {
    const fake = createFakeExcel();
    await fake.run((context) => writeSheetsAtomically(context, specs, { maxRequestBytes: 200_000 }));
    return fake.syncCount;
  }

  const specs = (): NewSheetSpec[] => {
    const big = bigTable(300);
    return [big, { ...big, sheetName: "Second", rows: big.rows.slice(0, 50), conditionalLabels: [3] }];
  };

  it("leaves exactly the sheets that existed, unchanged, whichever sync fails", async () => {
    const total = await syncsOf(specs());
    // The names read, several requests of rows (the second sheet shares the first's last one), the showing.
    expect(total).toBeGreaterThan(4);
    for (let n = 1; n <= total; n++) {
      for (const applyFirst of [0, 1]) {
        const fake = createFakeExcel();
        seedUserSheets(fake);
        const before = await existingState(fake);
        fake.failSync(n, { applyFirst });
        await expect(
          fake.run((context) => writeSheetsAtomically(context, specs(), { maxRequestBytes: 200_000 })),
        ).rejects.toMatchObject({ code: "GeneralException" });
        expect(await existingState(fake)).toBe(before);
      }
    }
  });

  it("never deletes a sheet of the analyst's that took the new sheet's name between the writer's read and its add", async () => {
    const fake = createFakeExcel();
    let made = false;
    // The request that adds the sheet: just before it reaches Excel, the analyst makes a sheet of that name.
    fake.setFaultInjector((info) => {
      if (!made && info.operations.includes("add")) {
        made = true;
        fake.addSheet("Changes");
        fake.setValues("Changes", "A1:A1", [["the analyst's own"]]);
      }
      return undefined;
    });
    await expect(
      fake.run((context) => writeSheetsAtomically(context, [{ sheetName: "Changes", header: ["a"], rows: [[1]] }], {})),
    ).rejects.toBeInstanceOf(Error);
    expect(made).toBe(true);
    expect(fake.sheetNames()).toContain("Changes");
    expect(fake.read("Changes", "A1", "values")).toEqual([["the analyst's own"]]);
  });

  it("cleans up after a cancel in the middle and rethrows the abort", async () => {
    const fake = createFakeExcel();
    seedUserSheets(fake);
    const before = await existingState(fake);
    const controller = new AbortController();
    const seen: WriteProgress[] = [];
    const write = fake.run((context) =>
      writeSheetsAtomically(context, specs(), {
        maxRequestBytes: 200_000,
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (seen.length === 3) controller.abort();
        },
      }),
    );
    await expect(write).rejects.toMatchObject({ name: "AbortError" });
    expect(seen[2].rowsWritten).toBeGreaterThan(0);
    expect(seen[2].fraction).toBeLessThan(1);
    expect(await existingState(fake)).toBe(before);
  });

  it("cleans up when Excel rejects a request as too large", async () => {
    const fake = createFakeExcel({ requestLimitBytes: 300_000 });
    seedUserSheets(fake);
    const before = await existingState(fake);
    await expect(
      fake.run((context) => writeSheetsAtomically(context, specs(), { maxRequestBytes: 1_000_000 })),
    ).rejects.toMatchObject({ code: "RequestPayloadSizeLimitExceeded" });
    expect(await existingState(fake)).toBe(before);
  });

  it("writes several sheets and reports progress up to 1", async () => {
    const fake = createFakeExcel();
    const fractions: number[] = [];
    const result = await fake.run((context) =>
      writeSheetsAtomically(context, specs(), {
        maxRequestBytes: 200_000,
        onProgress: (p) => fractions.push(p.fraction),
      }),
    );
    expect(result.map((r) => r.sheetName)).toEqual(["Timeseries", "Second"]);
    expect(fake.sheetNames()).toEqual(["Sheet1", "Timeseries", "Second"]);
    expect(fake.snapshot().sheets.every((s) => s.visibility === "Visible")).toBe(true);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(fake.activeSheetName()).toBe("Timeseries");
  });
});
