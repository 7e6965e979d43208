/**
 * What the ribbon's buttons and "Check the add-in" read from the workbook, against the fake: the
 * selected cell's formula (or the one that spilled into it), whether it is a pasted score, whether
 * a static copy exists, and a formula evaluated in a scratch sheet that leaves nothing behind.
 */
import { createFakeExcel } from "../../testing/fake-excel";
import { recordProvenance } from "../../src/excel/provenance-sheets";
import {
  SCRATCH_SHEET,
  evaluateInScratchSheet,
  hasStaticCopy,
  readSelectedCellAddress,
  readSelectedCellFacts,
} from "../../src/excel/ribbon-context";
import { explainable } from "../../src/commands/ribbon-state";
import type { ProvenanceRecord } from "../../src/shaping/paste-provenance";

describe("the selected cell, for Explain's button", () => {
  it("offers Explain on a RISK formula and on a pasted summary's data cells, not on other cells", async () => {
    const fake = createFakeExcel({ evaluateFormula: () => 0.42 });
    fake.addSheet("Summary demo");
    fake.setValues("Sheet1", "A1:B1", [['=RISK.SEARCH(1, 2, "floods", "30yr")', "plain"]]);
    fake.setValues("Summary demo", "A1:B3", [
      ["entity_id", "flood_risk_score"],
      ["a", 0.3],
      ["b", 0.7],
    ]);
    const record = {
      operation: "summary",
      baseUrl: "http://127.0.0.1:4010",
      portfolio: "demo",
      filters: {},
      addinVersion: "test",
      sheetId: "s1",
      sheetName: "Summary demo",
      tableName: "SummaryDemo",
      tableAddress: "A1:B3",
      header: ["entity_id", "flood_risk_score"],
      rows: 2,
      writtenAt: "2026-11-25T08:00:00Z",
      fingerprint: "x",
    } as ProvenanceRecord;
    await fake.run((context) => recordProvenance(context, [record]));
    const at = async (sheet: string, address: string) => {
      fake.setSelection(sheet, address);
      return fake.run((context) => readSelectedCellFacts(context));
    };
    expect(explainable(await at("Sheet1", "A1"))).toBe(true);
    expect(explainable(await at("Sheet1", "B1"))).toBe(false);
    expect(explainable(await at("Summary demo", "B2"))).toBe(true);
    expect(explainable(await at("Summary demo", "A1"))).toBe(false); // the header row
    expect(explainable(await at("Summary demo", "C2"))).toBe(false); // beside the table
    fake.setSelection("Summary demo", "B3:B4");
    expect(await fake.run((context) => readSelectedCellAddress(context))).toBe("'Summary demo'!B3");
  });

  it("knows whether a static copy exists", async () => {
    const fake = createFakeExcel();
    expect(await fake.run((context) => hasStaticCopy(context))).toBe(false);
  });
});

describe("a RISK formula evaluated for the check", () => {
  it("reports the value and leaves no sheet behind", async () => {
    const fake = createFakeExcel({ evaluateFormula: () => 0.42 });
    const before = fake.sheetNames();
    const result = await fake.run((context) => evaluateInScratchSheet(context, '=RISK.SEARCH(1,2,"floods","30yr")'));
    expect(result).toEqual({ value: 0.42, settled: true });
    expect(fake.sheetNames()).toEqual(before);
  });

  it("says #NAME? where the functions are not loaded, and still removes the sheet", async () => {
    const fake = createFakeExcel();
    const result = await fake.run((context) => evaluateInScratchSheet(context, '=RISK.SEARCH(1,2,"floods","30yr")'));
    expect(result.value).toBe("#NAME?");
    expect(fake.sheetNames()).not.toContain(SCRATCH_SHEET);
  });
});
