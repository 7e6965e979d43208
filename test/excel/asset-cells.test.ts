/**
 * What a sync may change in the analyst's range when they accept it: converted coordinates (only
 * the previewed cells, only if unchanged since) and the dropdown of published types, whose list
 * comes from a very hidden sheet because it is longer than a typed list may be. The fake models
 * Range.dataValidation as Excel does (testing/fake-excel/data-validation.ts).
 */
import {
  CellsChangedError,
  TYPE_LIST_SHEET,
  TYPE_LIST_SOURCE,
  addAssetTypeDropdown,
  applyCellChanges,
} from "../../src/excel/asset-cells";
import { readValueCurrency, rememberValueCurrency } from "../../src/excel/value-currencies";
import { ASSET_TYPES } from "../../src/shared/vocabulary";
import { createFakeExcel } from "../../testing/fake-excel";

function sites() {
  const fake = createFakeExcel({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:D4", [
    ["Site", "Latitude", "Longitude", "Type"],
    ["Paris", `48°51'24"N`, 2.35, "Commercial"],
    ["Rome", "41.9N", "12,5", "Warehouse"],
    ["Oslo", 59.91, 10.75, ""],
  ]);
  return fake;
}

describe("converting coordinates", () => {
  test("writes the previewed numbers into their cells, and nothing else changes", async () => {
    const fake = sites();
    const before = fake.snapshot();
    await fake.run((context) =>
      applyCellChanges(context, [
        { address: "Sites!B2", before: `48°51'24"N`, after: 48.856667 },
        { address: "Sites!B3", before: "41.9N", after: 41.9 },
        { address: "Sites!C3", before: "12,5", after: 12.5 },
      ]),
    );
    expect(fake.read("Sites", "A1:D4")).toEqual([
      ["Site", "Latitude", "Longitude", "Type"],
      ["Paris", 48.856667, 2.35, "Commercial"],
      ["Rome", 41.9, 12.5, "Warehouse"],
      ["Oslo", 59.91, 10.75, ""],
    ]);
    expect(fake.snapshot().sheets.map((s) => s.name)).toEqual(before.sheets.map((s) => s.name));
  });

  test("a cell edited since the preview stops the conversion before anything is written", async () => {
    const fake = sites();
    fake.setValues("Sites", "B3", [["41.95N"]]);
    const before = fake.snapshot();
    const converting = fake.run((context) =>
      applyCellChanges(context, [
        { address: "Sites!B2", before: `48°51'24"N`, after: 48.856667 },
        { address: "Sites!B3", before: "41.9N", after: 41.9 },
      ]),
    );
    await expect(converting).rejects.toThrow(CellsChangedError);
    await expect(converting).rejects.toThrow(/Sites!B3 changed since the preview: nothing was written/);
    expect(fake.snapshot()).toEqual(before);
  });

  test("a text-formatted cell gets a number, not the number's text", async () => {
    const fake = sites();
    await fake.run(async (context) => {
      const cell = context.workbook.worksheets.getItem("Sites").getRange("C3");
      cell.numberFormat = [["@"]];
      cell.values = [["12,5"]];
      await context.sync();
    });
    await fake.run((context) => applyCellChanges(context, [{ address: "Sites!C3", before: "12,5", after: 12.5 }]));
    expect(fake.read("Sites", "C3")).toEqual([[12.5]]);
    expect(fake.read("Sites", "C3", "valueTypes")).toEqual([["Double"]]);
  });
});

describe("the dropdown of published types", () => {
  test("a list validation on the type cells, sourced from a very hidden sheet of the 33 types; other text stays allowed", async () => {
    const fake = sites();
    const outcome = await fake.run((context) => addAssetTypeDropdown(context, "Sites!D2:D4"));
    expect(outcome).toEqual({ added: true, address: "Sites!D2:D4" });
    expect(fake.snapshot().sheets.find((s) => s.name === TYPE_LIST_SHEET)?.visibility).toBe("VeryHidden");
    expect(fake.read(TYPE_LIST_SHEET, `A1:A${ASSET_TYPES.length}`).flat()).toEqual([...ASSET_TYPES]);
    const read = await fake.run(async (context) => {
      const validation = context.workbook.worksheets.getItem("Sites").getRange("D2:D4").dataValidation;
      validation.load("type, rule, errorAlert, valid");
      const paris = context.workbook.worksheets.getItem("Sites").getRange("D2").dataValidation;
      paris.load("valid");
      await context.sync();
      return {
        type: validation.type,
        rule: validation.rule,
        alert: validation.errorAlert,
        valid: validation.valid,
        paris: paris.valid,
      };
    });
    expect(read.type).toBe("List");
    expect(read.rule).toEqual({ list: { inCellDropDown: true, source: TYPE_LIST_SOURCE } });
    expect(read.alert.style).toBe("Warning");
    // "Commercial" is published, "Warehouse" is not, and a blank is ignored: some valid, some not.
    expect(read.valid).toBeNull();
    expect(read.paris).toBe(true);
    expect(fake.read("Sites", "D2:D4")).toEqual([["Commercial"], ["Warehouse"], [""]]);

    const again = await fake.run((context) => addAssetTypeDropdown(context, "Sites!D2:D4"));
    expect(again).toEqual({
      added: false,
      address: "Sites!D2:D4",
      reason: expect.stringMatching(/already has the dropdown/),
    });
  });

  test("cells with a validation of the analyst's own keep it", async () => {
    const fake = sites();
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem("Sites").getRange("D2:D4").dataValidation.rule = {
        list: { inCellDropDown: true, source: "Office,Plant,Depot" },
      };
      await context.sync();
    });
    const outcome = await fake.run((context) => addAssetTypeDropdown(context, "Sites!D2:D4"));
    expect(outcome).toMatchObject({
      added: false,
      reason: expect.stringMatching(/data validation of its own \(List\)/),
    });
    expect(fake.sheetNames()).not.toContain(TYPE_LIST_SHEET);
  });
});

describe("the fake's data validation follows Excel", () => {
  test("refuses a typed list over 255 characters and a rule with two criteria; clear() removes only the overlap", async () => {
    const fake = sites();
    const set = (address: string, rule: unknown) =>
      fake.run(async (context) => {
        context.workbook.worksheets.getItem("Sites").getRange(address).dataValidation.rule =
          rule as Excel.DataValidationRule;
        await context.sync();
      });
    await expect(set("D2", { list: { inCellDropDown: true, source: ASSET_TYPES.join(",") } })).rejects.toMatchObject({
      code: "InvalidArgument",
    });
    await expect(
      set("D2", { list: { source: "a,b" }, wholeNumber: { formula1: 0, operator: "GreaterThan" } }),
    ).rejects.toMatchObject({ code: "InvalidArgument" });
    await set("D2:D4", { list: { source: "a,b" } });
    const types = await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sites");
      sheet.getRange("D3").dataValidation.clear();
      const whole = sheet.getRange("D2:D4").dataValidation;
      const kept = sheet.getRange("D4").dataValidation;
      whole.load("type");
      kept.load("type, rule");
      await context.sync();
      return [whole.type, kept.type, kept.rule];
    });
    expect(types).toEqual(["MixedCriteria", "List", { list: { source: "a,b", inCellDropDown: true } }]);
  });
});

describe("the currency of a value column", () => {
  test("is remembered per portfolio and value source in a very hidden sheet, and restated replaces it", async () => {
    const fake = sites();
    const read = (portfolio: string, source: string) =>
      fake.run((context) => readValueCurrency(context, portfolio, source));
    expect(await read("Demo", "label:value")).toBeUndefined();
    await fake.run((context) =>
      rememberValueCurrency(context, { portfolio: "Demo", source: "label:value", currency: "EUR" }),
    );
    await fake.run((context) =>
      rememberValueCurrency(context, { portfolio: "demo", source: "Insured", currency: "GBP" }),
    );
    expect(await read("demo", "LABEL:VALUE")).toBe("EUR");
    expect(await read("demo", "insured")).toBe("GBP");
    expect(await read("other", "insured")).toBeUndefined();
    await fake.run((context) =>
      rememberValueCurrency(context, { portfolio: "demo", source: "label:value", currency: "CHF" }),
    );
    expect(await read("demo", "label:value")).toBe("CHF");
    expect(fake.snapshot().sheets.find((s) => s.name === "_ClimateRiskValueCurrencies")?.visibility).toBe("VeryHidden");
  });
});
