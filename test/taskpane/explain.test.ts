/**
 * "Explain" (issue 17 item 3): a RISK cell evaluated by the harness's formula engine over the fake
 * workbook, and a score in a pasted summary sheet, explained against the emulator over HTTP. The
 * expected texts come from the field notes' table and the emulator's own answers.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import path from "node:path";
import { createFakeExcel } from "../../harness/fake-excel";
import { FunctionRegistry } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex, type FunctionMetadata } from "../../harness/formula/metadata";
import { WorkbookController } from "../../harness/workbook-controller";
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as RISK from "../../src/functions/functions";
import { explainSelection, ExplainError, splitArguments } from "../../src/taskpane/actions/explain";
import { pasteSummary } from "../../src/taskpane/actions/summary";
import { installCustomFunctionsStub } from "../functions/support/custom-functions-stub";
import { closingFetch } from "../functions/support/http-fetch";
import { startEmulatorFixture, type EmulatorFixture } from "../functions/support/emulator";

let fixture: EmulatorFixture;
let uninstall: () => void;
let metadata: FunctionMetadata[];

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startEmulatorFixture();
  setDefaultEngine(new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0, fetch: closingFetch }));
  const generated = await generateCustomFunctionsMetadata(path.join(__dirname, "../../src/functions/functions.ts"));
  metadata = (JSON.parse(generated.metadataJson) as { functions: FunctionMetadata[] }).functions;
});

afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await fixture.emulator.close();
});

function harness() {
  const fake = createFakeExcel();
  const registry = new FunctionRegistry();
  for (const [id, fn] of Object.entries({ SEARCH: RISK.search, SUMMARY: RISK.summary, METRIC: RISK.metric, IMPACT: RISK.impact })) registry.register(id, fn as (...args: unknown[]) => unknown);
  const engine = new FormulaEngine(fake, registry, new MetadataIndex(metadata));
  fake.setFormulaEvaluator(engine.evaluator);
  return { fake, engine, workbook: new WorkbookController(fake, engine), run: <T>(batch: (context: Excel.RequestContext) => Promise<T>) => fake.run(batch) };
}

const lineOf = (lines: Array<{ key: string; text: string }>, key: string) => lines.filter((l) => l.key === key).map((l) => l.text);

test("a RISK.SUMMARY cell: hazard, indicator, unit with its range, thresholds and where the score sits, window years, scenario, dataset version", async () => {
  const { engine, workbook, run } = harness();
  const assets = await fixture.client.portfolios.assets("demo-portfolio").all();
  workbook.setCell("Sheet1!A2", assets[3]!.entity_id);
  workbook.setCell("Sheet1!B2", '=RISK.SUMMARY("demo-portfolio",A2,"floods","ssp585",15)');
  await engine.waitForIdle();
  workbook.select("Sheet1!B2");
  const score = workbook.getCell("Sheet1!B2").value as number;
  expect(typeof score).toBe("number");

  const explained = await explainSelection({ client: fixture.client, run });
  const metadataAnswer = await fixture.client.datasets.metadata("demo-portfolio");
  const unit = metadataAnswer.indicators.find((i) => i.hazard === "flood_potential" && i.indicator === "inland_flood_prob")!;
  expect(explained.value).toBe(score);
  expect(lineOf(explained.lines, "hazard")).toEqual(["flood_potential (search: floods; extended summary: flood)"]);
  expect(lineOf(explained.lines, "indicator")[0]).toMatch(/^inland_flood_prob/);
  expect(lineOf(explained.lines, "unit")).toEqual([`${unit.unit}, ${unit.value_min} to ${unit.value_max} (dataset metadata)`]);
  expect(lineOf(explained.lines, "thresholds")).toEqual(["LOW below 0.01, MEDIUM up to 0.05, HIGH above (field notes)"]);
  const label = score < 0.01 ? "LOW" : score <= 0.05 ? "MEDIUM" : "HIGH";
  expect(lineOf(explained.lines, "position")[0]).toContain(`is ${label}`);
  // The label the service gave agrees with where the explanation puts the score.
  expect(await RISK.summary([["demo-portfolio"]], [[assets[3]!.entity_id]], [["floods"]], [["ssp585"]], [[15]], [["class"]], undefined as never)).toEqual([[label]]);
  expect(lineOf(explained.lines, "window")).toEqual(["the maximum exposure over 15 years, 2025-2039 (field notes: 15yr e.g. 2025-2039, 30yr 2025-2054)"]);
  expect(lineOf(explained.lines, "scenario")).toEqual(["ssp585."]);
  expect(lineOf(explained.lines, "dataset")[0]).toContain(`version ${metadataAnswer.version}`);
});

test("a RISK.IMPACT cell: the period's years and the lower and upper bounds the service gives; a cell that is no score is refused clearly", async () => {
  const { engine, workbook, run } = harness();
  workbook.setCell("Sheet1!B2", '=RISK.IMPACT("demo-portfolio",0,"cyclone","ssp245",2050)');
  await engine.waitForIdle();
  workbook.select("Sheet1!B2");
  const explained = await explainSelection({ client: fixture.client, run });
  const [item] = (await fixture.client.datasets.extendedSummary("demo-portfolio", { scenario: "ssp245" }).all()).filter((i) => i.portfolio_index === 0);
  const m = item!.scenario_analytics!.ssp245!.cyclone!;
  expect(explained.value).toBe(m.structural_damage_2050);
  expect(lineOf(explained.lines, "window")).toEqual(["2050: the average over five years either side, 2045-2055 (field notes)"]);
  expect(lineOf(explained.lines, "bounds")[0]).toMatch(new RegExp(`^${String(Number((m.structural_damage_2050_lbd as number).toPrecision(4)))} to ${String(Number((m.structural_damage_2050_ubd as number).toPrecision(4)))}: the 16th and 84th percentiles`));
  expect(lineOf(explained.lines, "scenario")).toEqual(["ssp245. For cyclone, ssp126 and ssp245 repeat ssp585 (field notes)."]);

  workbook.setCell("Sheet1!C5", "hello");
  workbook.select("Sheet1!C5");
  await expect(explainSelection({ client: fixture.client, run })).rejects.toThrow(ExplainError);
});

test("a score in a pasted summary sheet is explained from its column header and row", async () => {
  const { fake, run } = harness();
  const [summary] = await pasteSummary({ client: fixture.client, run, portfolio: "demo-portfolio", scenario: "ssp126", extended: false });
  const header = fake.read(summary!.sheetName, "A1:Z1")[0]!;
  const col = header.indexOf("heatwave_risk_score");
  const letter = String.fromCharCode(65 + col);
  fake.setSelection(summary!.sheetName, `${letter}2`);
  const explained = await explainSelection({ client: fixture.client, run });
  expect(explained.source).toBe(`column heatwave_risk_score of sheet ${summary!.sheetName}`);
  expect(lineOf(explained.lines, "thresholds")).toEqual(["LOW below 30, MEDIUM up to 50, HIGH above (field notes)"]);
  expect(lineOf(explained.lines, "scenario")).toEqual(["ssp126. For this hazard ssp126 repeats ssp245 (field notes)."]);
  expect(lineOf(explained.lines, "dataset")[0]).toMatch(/^version /);
});

test("formula arguments split at top-level commas only", () => {
  expect(splitArguments('"a,b", A2, 3, "x""y"')).toEqual(['"a,b"', "A2", "3", '"x""y"']);
});
