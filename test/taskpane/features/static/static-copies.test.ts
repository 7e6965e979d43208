import { assets, summary } from "../../../../src/functions/functions";
import { STATIC_COPIES_HEADER } from "../../../../src/excel/provenance-sheets";
import { FORMULA_STORE_SHEET, SOURCES_SHEET } from "../../../../src/shaping/paste-provenance";
import {
  convertToValues,
  countConvertible,
  countRestorable,
  restoreFormulas,
} from "../../../../src/taskpane/features/static/static-copy-actions";
import { calculatingWorkbook, usePaneTestService, useDefaultEngine } from "../../support";

/**
 * Static copies: RISK formulas (spilled ranges included) become plain values, the formulas are
 * kept in the workbook, the Sources sheet says when the copy was taken, and "Restore formulas"
 * puts every formula back exactly. Real functions over the emulator, the harness's calculation.
 */

const service = usePaneTestService();
useDefaultEngine(service);

const SUMMARY_F = '=RISK.SUMMARY("demo-portfolio",0,"heatwave","ssp585",30,"score")';
const ASSETS_F = '=RISK.ASSETS("demo-portfolio")';

async function workbook() {
  const { fake, run, calc } = calculatingWorkbook({ SUMMARY: summary, ASSETS: assets });
  fake.setValues("Sheet1", "A1", [[SUMMARY_F]]);
  fake.setValues("Sheet1", "C1", [[ASSETS_F]]);
  fake.setValues("Sheet1", "A3", [["my own note"]]);
  await calc.waitForIdle(20_000);
  return { fake, run, calc };
}

test("convert the workbook to values (spills included), then restore every formula exactly", async () => {
  const { fake, run, calc } = await workbook();
  const used = fake.usedAddress("Sheet1")!.split("!")[1];
  const shown = fake.read("Sheet1", used);
  expect(typeof shown[0][0]).toBe("number");
  expect(shown.length).toBeGreaterThan(3); // the assets list spilled down
  expect(await countConvertible(run, "workbook")).toBe(2);

  const result = await convertToValues({ run, scope: "workbook" });
  expect(result).toMatchObject({ converted: 2, sheets: ["Sheet1"] });
  expect(result.spilledCells).toBeGreaterThan(3);
  // Same values everywhere, and no formula left.
  expect(fake.read("Sheet1", used)).toEqual(shown);
  expect(
    fake
      .read("Sheet1", used, "formulas")
      .flat()
      .some((f) => String(f).startsWith("=")),
  ).toBe(false);
  // The formulas are kept (very hidden); the Sources sheet says a static copy was taken and when.
  expect(fake.snapshot().sheets.find((s) => s.name === FORMULA_STORE_SHEET)?.visibility).toBe("VeryHidden");
  const sources = fake.read(SOURCES_SHEET, "A1:C4");
  expect(sources[2]).toEqual(STATIC_COPIES_HEADER);
  expect(sources[3].slice(0, 2)).toEqual(["Sheet1", 2]);
  expect(sources[3][2]).toBe(result.takenAt);

  expect(await countRestorable(run, "workbook")).toBe(2);
  const restored = await restoreFormulas({ run, scope: "workbook" });
  expect(restored).toEqual({ restored: 2, skipped: [] });
  await calc.waitForIdle(20_000);
  expect(fake.read("Sheet1", "A1", "formulas")[0][0]).toBe(SUMMARY_F);
  expect(fake.read("Sheet1", "C1", "formulas")[0][0]).toBe(ASSETS_F);
  expect(fake.read("Sheet1", used)).toEqual(shown); // spilled again, not #SPILL!
  expect(fake.read("Sheet1", "A3")[0][0]).toBe("my own note");
  expect(await countRestorable(run, "workbook")).toBe(0);
});

test("selection scope; a value edited after the copy is left alone; empty scopes say so", async () => {
  const { fake, run } = await workbook();
  fake.setSelection("Sheet1", "A3");
  const before = fake.snapshot();
  await expect(convertToValues({ run, scope: "selection" })).rejects.toThrow(
    "The selection has no RISK formulas: nothing was converted.",
  );
  await expect(restoreFormulas({ run, scope: "selection" })).rejects.toThrow(/nothing to restore/);
  expect(fake.snapshot()).toEqual(before);

  fake.setSelection("Sheet1", "A1");
  const result = await convertToValues({ run, scope: "selection" });
  expect(result.converted).toBe(1);
  expect(fake.read("Sheet1", "C1", "formulas")[0][0]).toBe(ASSETS_F); // outside the selection: untouched
  fake.setValues("Sheet1", "A1", [[42]]); // the user edits the static value
  const restored = await restoreFormulas({ run, scope: "sheet" });
  expect(restored).toEqual({ restored: 0, skipped: ["Sheet1!A1"] });
  expect(fake.read("Sheet1", "A1")[0][0]).toBe(42);
});
