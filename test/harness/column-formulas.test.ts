import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import path from "node:path";
import { createFakeExcel, type FakeExcel } from "../../testing/fake-excel";
import { FunctionRegistry } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex, type FunctionMetadata } from "../../harness/formula/metadata";
import { WorkbookController } from "../../harness/workbook-controller";
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as RISK from "../../src/functions/functions";
import { installCustomFunctionsStub } from "../functions/support/custom-functions-stub";
import { type TestService, startTestService } from "../support/emulator";

/**
 * What an analyst types, evaluated by the harness's formula engine over the fake workbook, with
 * the real functions and the functions.json the metadata plugin generates from their JSDoc:
 * range references, spilled results, #SPILL! when blocked, dependents of spilled cells.
 */

let fixture: TestService;
let risk: RiskEngine;
let uninstall: () => void;
let metadata: FunctionMetadata[];

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startTestService();
  risk = new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0 });
  setDefaultEngine(risk);
  const generated = await generateCustomFunctionsMetadata(path.join(__dirname, "../../src/functions/functions.ts"));
  expect(generated.errors).toEqual([]);
  metadata = (JSON.parse(generated.metadataJson) as { functions: FunctionMetadata[] }).functions;
});

afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await fixture.emulator.close();
});

function newHarness(): { fake: FakeExcel; engine: FormulaEngine; workbook: WorkbookController } {
  const fake = createFakeExcel();
  const registry = new FunctionRegistry();
  const byId: Record<string, unknown> = {
    SEARCH: RISK.search,
    SUMMARY: RISK.summary,
    METRIC: RISK.metric,
    IMPACT: RISK.impact,
    LAYER: RISK.layer,
    NATURE: RISK.nature,
    TIMESERIES: RISK.timeseries,
    ASSETS: RISK.assets,
  };
  for (const [id, fn] of Object.entries(byId)) registry.register(id, fn as (...args: unknown[]) => unknown);
  const engine = new FormulaEngine(fake, registry, new MetadataIndex(metadata));
  fake.setFormulaEvaluator(engine.evaluator);
  return { fake, engine, workbook: new WorkbookController(fake, engine) };
}

test("functions.json declares every per-row parameter of the column functions as a matrix, and a matrix result", () => {
  for (const id of ["SEARCH", "SUMMARY", "METRIC", "IMPACT", "LAYER", "NATURE"]) {
    const fn = metadata.find((f) => f.id === id)!;
    expect(fn.parameters.map((p) => [p.name, p.dimensionality])).toEqual(fn.parameters.map((p) => [p.name, "matrix"]));
    expect((fn as unknown as { result: { dimensionality: string } }).result.dimensionality).toBe("matrix");
    expect(fn.options).toMatchObject({ cancelable: true, requiresAddress: true });
  }
  expect(metadata.find((f) => f.id === "SEARCH")!.parameters.map((p) => p.name)).toEqual([
    "lat",
    "lng",
    "hazard",
    "horizon",
    "extent",
    "field",
  ]);
  expect(
    metadata
      .find((f) => f.id === "SUMMARY")!
      .parameters.map((p) => p.name)
      .slice(0, 3),
  ).toEqual(["portfolio", "index", "hazard"]);
});

test("=RISK.SEARCH(B2:B7, C2:C7, ...) spills one score per row; a blank row stays blank, a bad row shows its error; dependents follow", async () => {
  const { engine, workbook } = newHarness();
  workbook.setCells("Sheet1!A1", [
    ["Site", "Lat", "Lng"],
    ["London", 51.5, -0.12],
    ["Mumbai", 19.07, 72.87],
    ["", "", ""],
    ["Nowhere", 95, 0],
    ["London again", 51.5, -0.12],
    ["Miami", 25.76, -80.19],
  ]);
  await fixture.resetStats();
  workbook.setCell("Sheet1!D2", '=RISK.SEARCH(B2:B7,C2:C7,"floods","30yr")');
  workbook.setCell("Sheet1!D10", '=RISK.SEARCH(B2,C2,"floods","30yr")');
  workbook.setCell("Sheet1!E3", "=D3");
  await engine.waitForIdle();

  expect(await fixture.routes()).toEqual({ "GET /api/search": 3 });
  const shown = [2, 3, 4, 5, 6, 7].map((row) => workbook.getCell(`Sheet1!D${row}`));
  expect(shown[0]!.value).toEqual(expect.any(Number));
  expect(shown[0]!.value).toBe(workbook.getCell("Sheet1!D10").value); // the single-cell form agrees
  expect(shown[2]!.value).toBe("");
  expect(shown[3]!.value).toBe("#VALUE!");
  expect(shown[3]!.error).toEqual({ code: "#VALUE!", message: "lat must be from -90 to 90 (got 95)" });
  expect(shown[4]!.value).toBe(shown[0]!.value);
  expect(shown.slice(1).every((cell) => cell.spilledFrom === "Sheet1!D2")).toBe(true);
  expect(workbook.getCell("Sheet1!E3").value).toBe(shown[1]!.value);

  // A new latitude in the column: the spill recalculates, and so does the cell that reads it.
  workbook.setCell("Sheet1!B3", 25.76);
  workbook.setCell("Sheet1!C3", -80.19);
  await engine.waitForIdle();
  expect(workbook.getCell("Sheet1!D3").value).toBe(workbook.getCell("Sheet1!D7").value);
  expect(workbook.getCell("Sheet1!E3").value).toBe(workbook.getCell("Sheet1!D7").value);
});

test("a value in the spill area gives #SPILL!; clearing it lets the column spill again", async () => {
  const { engine, workbook } = newHarness();
  workbook.setCells("Sheet1!A1", [["hazard"], ["flood_potential"], ["wildfire"], ["heatwave"]]);
  workbook.setCell("Sheet1!C4", "in the way");
  workbook.setCell("Sheet1!C2", '=RISK.SUMMARY("demo-portfolio",0,A2:A4)');
  await engine.waitForIdle();
  expect(workbook.getCell("Sheet1!C2").value).toBe("#SPILL!");
  expect(workbook.getCell("Sheet1!C2").error?.message).toContain("C4 holds data");

  workbook.clear("Sheet1!C4");
  await engine.waitForIdle();
  expect(workbook.getCell("Sheet1!C2").value).toEqual(expect.any(Number));
  expect(workbook.getCell("Sheet1!C4").spilledFrom).toBe("Sheet1!C2");
});

test("in an Excel table a column form gives #SPILL! (Excel does not spill in tables); a single answer is fine", async () => {
  const { fake, engine, workbook } = newHarness();
  workbook.setCells("Sheet1!A1", [
    ["hazard", "score", "one"],
    ["flood_potential", "", ""],
    ["wildfire", "", ""],
  ]);
  await fake.run(async (context) => {
    context.workbook.tables.add("Sheet1!A1:C3", true).name = "Hazards";
  });
  workbook.setCell("Sheet1!B2", '=RISK.SUMMARY("demo-portfolio",0,A2:A3)');
  workbook.setCell("Sheet1!C2", '=RISK.SUMMARY("demo-portfolio",0,A2)');
  await engine.waitForIdle();
  expect(workbook.getCell("Sheet1!B2").value).toBe("#SPILL!");
  expect(workbook.getCell("Sheet1!B2").error?.message).toContain("Hazards is an Excel table");
  expect(workbook.getCell("Sheet1!C2").value).toEqual(expect.any(Number));
});
