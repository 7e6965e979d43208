/**
 * "Explain": a RISK cell evaluated by the harness's formula engine over the fake
 * workbook, and a score in a pasted summary sheet, explained against the emulator over HTTP. The
 * expected texts come from the field notes' table and the emulator's own answers.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import path from "node:path";
import { createFakeExcel } from "../../testing/fake-excel";
import { FunctionRegistry } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex, type FunctionMetadata } from "../../harness/formula/metadata";
import { WorkbookController } from "../../harness/workbook-controller";
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as RISK from "../../src/functions/functions";
import { explainSelection, ExplainError, splitArguments } from "../../src/taskpane/actions/explain";
import { pasteSummary } from "../../src/taskpane/actions/summary";
import { compareWithSnapshot, takeChangeSnapshot } from "../../src/taskpane/actions/changes";
import { compareReadings } from "../../src/shaping/changes";
import { installCustomFunctionsStub } from "../functions/support/custom-functions-stub";
import { closingFetch } from "../functions/support/http-fetch";
import { importPortfolio, startEmulatorFixture, type EmulatorFixture } from "../functions/support/emulator";

let fixture: EmulatorFixture;
let uninstall: () => void;
let metadata: FunctionMetadata[];
let risk: RiskEngine;
/** What the pane's refresh does to the functions: forget cached results. */
const refreshFunctionsForTest = () => risk.refresh();

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startEmulatorFixture();
  risk = new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0, fetch: closingFetch });
  setDefaultEngine(risk);
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
  for (const [id, fn] of Object.entries({
    SEARCH: RISK.search,
    SUMMARY: RISK.summary,
    METRIC: RISK.metric,
    IMPACT: RISK.impact,
  }))
    registry.register(id, fn as (...args: unknown[]) => unknown);
  const engine = new FormulaEngine(fake, registry, new MetadataIndex(metadata));
  fake.setFormulaEvaluator(engine.evaluator);
  return {
    fake,
    engine,
    workbook: new WorkbookController(fake, engine),
    run: <T>(batch: (context: Excel.RequestContext) => Promise<T>) => fake.run(batch),
  };
}

const lineOf = (lines: Array<{ key: string; text: string }>, key: string) =>
  lines.filter((l) => l.key === key).map((l) => l.text);

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
  const unit = metadataAnswer.indicators.find(
    (i) => i.hazard === "flood_potential" && i.indicator === "inland_flood_prob",
  )!;
  expect(explained.value).toBe(score);
  expect(lineOf(explained.lines, "hazard")).toEqual(["flood_potential (search: floods; extended summary: flood)"]);
  expect(lineOf(explained.lines, "indicator")[0]).toMatch(/^inland_flood_prob/);
  expect(lineOf(explained.lines, "unit")).toEqual([
    `${unit.unit}, ${unit.value_min} to ${unit.value_max} (dataset metadata)`,
  ]);
  expect(lineOf(explained.lines, "thresholds")).toEqual([
    "LOW below 0.01, MEDIUM up to 0.05, HIGH above (field notes)",
  ]);
  const label = score < 0.01 ? "LOW" : score <= 0.05 ? "MEDIUM" : "HIGH";
  expect(lineOf(explained.lines, "position")[0]).toContain(`is ${label}`);
  // The label the service gave agrees with where the explanation puts the score.
  expect(
    await RISK.summary(
      [["demo-portfolio"]],
      [[assets[3]!.entity_id]],
      [["floods"]],
      [["ssp585"]],
      [[15]],
      [["class"]],
      undefined as never,
    ),
  ).toEqual([[label]]);
  expect(lineOf(explained.lines, "window")).toEqual([
    "the maximum exposure over 15 years, 2025-2039 (field notes: 15yr e.g. 2025-2039, 30yr 2025-2054)",
  ]);
  expect(lineOf(explained.lines, "scenario")).toEqual(["ssp585."]);
  expect(lineOf(explained.lines, "dataset")[0]).toContain(`version ${metadataAnswer.version}`);
});

test("a RISK.IMPACT cell: the period's years and the lower and upper bounds the service gives; a cell that is no score is refused clearly", async () => {
  const { engine, workbook, run } = harness();
  workbook.setCell("Sheet1!B2", '=RISK.IMPACT("demo-portfolio",0,"cyclone","ssp245",2050)');
  await engine.waitForIdle();
  workbook.select("Sheet1!B2");
  const explained = await explainSelection({ client: fixture.client, run });
  const [item] = (await fixture.client.datasets.extendedSummary("demo-portfolio", { scenario: "ssp245" }).all()).filter(
    (i) => i.portfolio_index === 0,
  );
  const m = item!.scenario_analytics!.ssp245!.cyclone!;
  expect(explained.value).toBe(m.structural_damage_2050);
  expect(lineOf(explained.lines, "window")).toEqual([
    "2050: the average over five years either side, 2045-2055 (field notes)",
  ]);
  expect(lineOf(explained.lines, "bounds")[0]).toMatch(
    new RegExp(
      `^${String(Number((m.structural_damage_2050_lbd as number).toPrecision(4)))} to ${String(Number((m.structural_damage_2050_ubd as number).toPrecision(4)))}: the 16th and 84th percentiles`,
    ),
  );
  expect(lineOf(explained.lines, "scenario")).toEqual([
    "ssp245. For cyclone, ssp126 and ssp245 repeat ssp585 (field notes).",
  ]);

  workbook.setCell("Sheet1!C5", "hello");
  workbook.select("Sheet1!C5");
  await expect(explainSelection({ client: fixture.client, run })).rejects.toThrow(ExplainError);
});

test("a score in a pasted summary sheet is explained from its column header and row", async () => {
  const { fake, run } = harness();
  const [summary] = await pasteSummary({
    client: fixture.client,
    run,
    portfolio: "demo-portfolio",
    scenario: "ssp126",
    extended: false,
  });
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

describe("what changed since last refresh", () => {
  test("a re-import that swaps two assets' places: their labels flip, listed in a Changes sheet with before and after, and summarised", async () => {
    const { engine, workbook, fake, run } = harness();
    // Two demo assets with different flood labels (ssp585, 30 years): swapping their coordinates swaps the labels.
    const assets = await fixture.client.portfolios.assets("demo-portfolio").all();
    const summary = await fixture.client.datasets.summary("demo-portfolio", { scenario: "ssp585", window: 30 }).all();
    const classOf = (i: number) =>
      summary.find((s) => s.portfolio_index === i)!.risk_summaries.find((r) => r.hazard === "flood_potential")!
        .risk_class;
    const a = assets.find((x) => classOf(x.portfolio_index) === "LOW")!;
    const b = assets.find((x) => classOf(x.portfolio_index) !== "LOW")!;
    const csv = (first: typeof a, second: typeof a) =>
      `entity_id,lat,lng\nA,${first.lat},${first.lng}\nB,${second.lat},${second.lng}`;
    await importPortfolio(fixture.client, "changes-test", csv(a, b));

    workbook.setCells("Sheet1!A1", [["id"], ["A"], ["B"]]);
    workbook.setCell("Sheet1!B2", '=RISK.SUMMARY("changes-test",A2:A3,"floods","ssp585",30,"class")');
    workbook.setCell("Sheet1!C2", '=RISK.SUMMARY("changes-test",A2:A3,"floods","ssp585",30)');
    await engine.waitForIdle();
    workbook.select("Sheet1!B2:C3");
    const snapshot = await takeChangeSnapshot({ client: fixture.client, run });
    expect(snapshot.cells.map((c) => c.label)).toEqual([
      "LOW",
      "LOW",
      classOf(b.portfolio_index),
      classOf(b.portfolio_index),
    ]);

    await importPortfolio(fixture.client, "changes-test", csv(b, a));
    const nothingYet = await compareWithSnapshot({ client: fixture.client, run, snapshot, threshold: 0 });
    expect(nothingYet.changes).toEqual([]); // the cells still show the cached values: no refresh yet
    expect(nothingYet.sheet).toBeUndefined();

    refreshFunctionsForTest();
    workbook.recalcAll();
    await engine.waitForIdle();
    const report = await compareWithSnapshot({ client: fixture.client, run, snapshot, threshold: 0 });
    const to = classOf(b.portfolio_index);
    expect(report.changes.map((c) => [c.address, c.kind, c.labelBefore, c.labelAfter])).toEqual([
      ["Sheet1!B2", "label", "LOW", to],
      ["Sheet1!C2", "label and score", "LOW", to],
      ["Sheet1!B3", "label", to, "LOW"],
      ["Sheet1!C3", "label and score", to, "LOW"],
    ]);
    // A score and its label on one row are one asset.
    expect(report.summary).toEqual([
      `1 asset flipped to ${to} for flood_potential under ssp585`,
      "1 asset flipped to LOW for flood_potential under ssp585",
      "2 scores moved by more than 0",
    ]);
    expect(report.sheet?.sheetName).toBe("Changes");
    const sheet = fake.read("Changes", "A1:J5");
    expect(sheet[0]).toEqual([
      "address",
      "change",
      "before",
      "after",
      "label_before",
      "label_after",
      "delta",
      "hazard",
      "scenario",
      "formula",
    ]);
    expect(sheet[1]!.slice(0, 4)).toEqual(["Sheet1!B2", "label", "LOW", to]);
    expect(sheet[2]![6]).toBeCloseTo(
      (workbook.getCell("Sheet1!C2").value as number) - (snapshot.cells[1]!.value as number),
      9,
    );
    // the formula as text, not evaluated
    expect(sheet[2]![9]).toBe('=RISK.SUMMARY("changes-test",A2:A3,"floods","ssp585",30)');
  });

  test("compareReadings: a move under the threshold is not reported; an error appearing is", () => {
    const before = [
      { address: "A1", value: 0.02 },
      { address: "A2", value: 0.02 },
    ];
    const after = [
      { address: "A1", value: 0.025 },
      { address: "A2", value: "#N/A" },
    ];
    expect(compareReadings(before, after, 0.01).map((c) => [c.address, c.kind])).toEqual([["A2", "error"]]);
  });
});
