import {
  buildFormula,
  formulasFor,
  insertFormulas,
  loadChoices,
  previewFormula,
  problemsOf,
  readSelection,
  referenceTo,
} from "../../../../src/taskpane/features/builder/formula-builder-actions";
import { newWorkbook, usePaneTestService, useDefaultEngine } from "../../support";
import { english } from "../../../support/english";

/**
 * The formula builder: lists from the service, formula text (quoted values, bare references,
 * trailing optionals dropped), bad choices explained, a live preview through the real functions,
 * Insert into one cell, as a column formula, or filled down — never over the user's data.
 */

const service = usePaneTestService();
useDefaultEngine(service);

test("lists come from the service, in each function's vocabulary", async () => {
  const portfolios = await loadChoices(service.client, "portfolio", {});
  expect(portfolios.map((c) => c.value)).toContain("demo-portfolio");
  const assets = await loadChoices(service.client, "asset", { portfolio: "demo-portfolio" });
  expect(assets[0]).toEqual({ value: "0", label: expect.stringContaining("(#0)") });
  expect(await loadChoices(service.client, "asset", {})).toEqual([]); // no portfolio yet: nothing to pick
  expect((await loadChoices(service.client, "hazard-portfolio", {})).map((c) => c.value)).toContain("flood_potential");
  expect((await loadChoices(service.client, "hazard-search", {})).map((c) => c.value)).toContain("floods");
  const metrics = await loadChoices(service.client, "metric", {
    portfolio: "demo-portfolio",
    scenario: "ssp585",
    hazard: "flood",
    index: "0",
  });
  expect(metrics.length).toBeGreaterThan(3);
  expect(metrics.map((m) => m.value)).toContain("summary_score_30yr");
});

test("formula text, problems explained, and a live preview through the real functions", async () => {
  const values = {
    portfolio: { kind: "value" as const, value: "demo-portfolio" },
    index: { kind: "value" as const, value: "3" },
    hazard: { kind: "value" as const, value: "heatwave" },
  };
  expect(buildFormula("SUMMARY", values)).toBe('=RISK.SUMMARY("demo-portfolio",3,"heatwave")');
  expect(buildFormula("SUMMARY", { ...values, field: { kind: "value", value: "class" } })).toBe(
    '=RISK.SUMMARY("demo-portfolio",3,"heatwave",,,"class")',
  );
  expect(problemsOf("SUMMARY", values)).toEqual([]);
  expect(problemsOf("SUMMARY", { hazard: { kind: "value", value: "floods" } }).map(english)).toEqual([
    "Portfolio: choose a portfolio.",
    "Asset: choose an asset (or a cell holding its portfolio_index).",
    'Hazard: "floods" is not one of flood_potential, cyclone, water_stress, heatwave, sea_level_rise, wildfire.',
  ]);
  const preview = await previewFormula(null, "SUMMARY", values);
  expect(typeof preview.value).toBe("number");
  const asClass = await previewFormula(null, "SUMMARY", { ...values, field: { kind: "value", value: "class" } });
  expect(["LOW", "MEDIUM", "HIGH"]).toContain(asClass.value);
  const bad = await previewFormula(null, "SUMMARY", { ...values, portfolio: { kind: "value", value: "no-such" } });
  expect(bad.error).toMatch(/^#N\/A .*no-such/);
  const table = await previewFormula(null, "ASSETS", { portfolio: { kind: "value", value: "demo-portfolio" } });
  expect(table.rows).toBeGreaterThan(2);
});

test("Insert: one cell, column form, fill down; never over the user's data", async () => {
  const { fake, run } = newWorkbook();
  fake.setValues("Sheet1", "A1:A4", [["index"], [0], [1], [2]]);
  fake.setSelection("Sheet1", "A2");
  const index = { kind: "cell" as const, address: referenceTo(await readSelection(run), "Sheet1") };
  expect(index.address).toBe("A2");
  const values = {
    portfolio: { kind: "value" as const, value: "demo-portfolio" },
    index,
    hazard: { kind: "value" as const, value: "heatwave" },
  };
  const preview = await previewFormula(run, "SUMMARY", values);
  expect(typeof preview.value).toBe("number");

  fake.setSelection("Sheet1", "B2:B4");
  const target = await readSelection(run);
  expect(formulasFor("SUMMARY", values, target, "column")).toEqual([
    '=RISK.SUMMARY("demo-portfolio",A2:A4,"heatwave")',
  ]);
  const filled = formulasFor("SUMMARY", values, target, "fill");
  expect(filled).toEqual([
    '=RISK.SUMMARY("demo-portfolio",A2,"heatwave")',
    '=RISK.SUMMARY("demo-portfolio",A3,"heatwave")',
    '=RISK.SUMMARY("demo-portfolio",A4,"heatwave")',
  ]);
  expect(await insertFormulas(run, target, filled)).toBe("Sheet1!B2:B4");
  expect(fake.read("Sheet1", "B2:B4", "formulas")).toEqual(filled.map((f) => [f]));

  // Over data: refused, nothing written.
  fake.setSelection("Sheet1", "A1:A2");
  const before = fake.snapshot();
  await expect(insertFormulas(run, await readSelection(run), ["=RISK.PORTFOLIOS()"])).rejects.toThrow(
    "Sheet1!A1 is not empty: select empty cells to insert into. Nothing was written.",
  );
  await expect(insertFormulas(run, await readSelection(run), ["RISK.PORTFOLIOS()"])).rejects.toThrow(
    /must start with “=”/,
  );
  expect(fake.snapshot()).toEqual(before);
});

test("Insert into an Excel table: the column form is refused (Excel cannot spill there), fill down is written", async () => {
  const { fake, run } = newWorkbook();
  fake.setValues("Sheet1", "A1:B4", [
    ["index", "score"],
    [0, ""],
    [1, ""],
    [2, ""],
  ]);
  await run(async (context) => {
    context.workbook.tables.add("Sheet1!A1:B4", true).name = "Sites";
  });
  const values = {
    portfolio: { kind: "value" as const, value: "demo-portfolio" },
    index: { kind: "cell" as const, address: "A2" },
    hazard: { kind: "value" as const, value: "heatwave" },
  };
  fake.setSelection("Sheet1", "B2:B4");
  const target = await readSelection(run);
  const before = fake.snapshot();
  await expect(
    insertFormulas(run, target, formulasFor("SUMMARY", values, target, "column"), { spills: true }),
  ).rejects.toThrow(
    'Sheet1!B2 is in the table "Sites", where Excel cannot spill a column of answers (it would show #SPILL!): choose "fill down, one formula per row", or select cells beside the table. Nothing was written.',
  );
  expect(fake.snapshot()).toEqual(before);
  // The same column form beside the table spills; one formula per row goes into the table.
  const filled = formulasFor("SUMMARY", values, target, "fill");
  expect(await insertFormulas(run, target, filled)).toBe("Sheet1!B2:B4");
  fake.setSelection("Sheet1", "D2:D4");
  const beside = await readSelection(run);
  expect(await insertFormulas(run, beside, formulasFor("SUMMARY", values, beside, "column"), { spills: true })).toBe(
    "Sheet1!D2",
  );
});
