/**
 * "Explain": a RISK cell evaluated by the harness's formula engine over the fake
 * workbook, and a score in a pasted summary sheet, explained against the emulator over HTTP. The
 * expected texts come from docs/service.md#what-the-numbers-mean and the emulator's own answers.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import path from "node:path";
import {
  EXCEL_BUILDS,
  createFakeExcel,
  installFakeOffice,
  type RequirementLevel,
} from "../../../../testing/fake-excel";
import { FunctionRegistry } from "../../../../harness/custom-functions-registry";
import { FormulaEngine } from "../../../../harness/formula/engine";
import { MetadataIndex, type FunctionMetadata } from "../../../../harness/formula/metadata";
import { WorkbookController } from "../../../../harness/workbook-controller";
import { RiskEngine } from "../../../../src/functions/engine/engine";
import { setDefaultEngine } from "../../../../src/functions/engine/default-engine";
import * as RISK from "../../../../src/functions/functions";
import {
  explainSelection,
  ExplainError,
  type ExplainLine,
} from "../../../../src/taskpane/features/explain/explain-actions";
import { pasteSummarySheet } from "../../support";
import { compareWithSnapshot, takeChangeSnapshot } from "../../../../src/taskpane/features/changes/changes-actions";
import { compareReadings } from "../../../../src/taskpane/features/changes/model/value-changes";
import { HAZARDS } from "../../../../src/shared/vocabulary";
import { RISK_CALL, riskCall, splitArguments } from "../../../../src/shaping/risk-formula";
import { installCustomFunctionsStub } from "../../../functions/support/custom-functions-stub";
import { importPortfolio } from "../../../functions/support/emulator";
import { type TestService, startTestService } from "../../../support/emulator";
import { createTranslator, englishTranslator, loadCatalog } from "../../../../src/i18n/translator";

let fixture: TestService;
let uninstall: () => void;
let metadata: FunctionMetadata[];
let risk: RiskEngine;
/** What the pane's refresh does to the functions: forget cached results. */
const refreshFunctionsForTest = () => risk.refresh();

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startTestService();
  risk = new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0 });
  setDefaultEngine(risk);
  const generated = await generateCustomFunctionsMetadata(
    path.join(__dirname, "../../../../src/functions/functions.ts"),
  );
  metadata = (JSON.parse(generated.metadataJson) as { functions: FunctionMetadata[] }).functions;
});

afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await fixture.emulator.close();
});

/** A workbook with the harness's formula engine; at `level`, Office.context.requirements answers for it. */
function harness(level?: RequirementLevel) {
  const fake = createFakeExcel({ requirements: level });
  if (level) restoreOffice.push(installFakeOffice(globalThis as unknown as Record<string, unknown>, fake.requirements));
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
  fake.setSpillResolver((sheet, row, col) => engine.spillOf(sheet, row, col));
  return {
    fake,
    engine,
    workbook: new WorkbookController(fake, engine),
    run: <T>(batch: (context: Excel.RequestContext) => Promise<T>) => fake.run(batch),
  };
}

const restoreOffice: Array<() => void> = [];
afterEach(() => {
  while (restoreOffice.length > 0) restoreOffice.pop()!();
});

/** The lines of `key` as the pane shows them in English. */
const lineOf = (lines: ExplainLine[], key: string) =>
  lines.filter((l) => l.key === key).map((l) => englishTranslator.format(l.text));

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
    "LOW below 0.01, MEDIUM up to 0.05, HIGH above (service notes)",
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
    "the maximum exposure over 15 years, 2025-2039 (service notes: 15yr e.g. 2025-2039, 30yr 2025-2054)",
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
    "2050: the average over five years either side, 2045-2055 (service notes)",
  ]);
  expect(lineOf(explained.lines, "bounds")[0]).toMatch(
    new RegExp(
      `^${String(Number((m.structural_damage_2050_lbd as number).toPrecision(4)))} to ${String(Number((m.structural_damage_2050_ubd as number).toPrecision(4)))}: the 16th and 84th percentiles`,
    ),
  );
  expect(lineOf(explained.lines, "scenario")).toEqual([
    "ssp245. For cyclone, ssp126 and ssp245 repeat ssp585 (service notes).",
  ]);

  workbook.setCell("Sheet1!C5", "hello");
  workbook.select("Sheet1!C5");
  await expect(explainSelection({ client: fixture.client, run })).rejects.toThrow(ExplainError);
});

test("a score in a pasted summary sheet is explained from its column header and row", async () => {
  const { fake, run } = harness();
  const summary = await pasteSummarySheet(fixture, run, { scenario: "ssp126" });
  const header = fake.read(summary.sheetName, "A1:Z1")[0]!;
  const col = header.indexOf("heatwave_risk_score");
  const letter = String.fromCharCode(65 + col);
  fake.setSelection(summary.sheetName, `${letter}2`);
  const explained = await explainSelection({ client: fixture.client, run });
  expect(englishTranslator.format(explained.source)).toBe(`column heatwave_risk_score of sheet ${summary.sheetName}`);
  expect(lineOf(explained.lines, "thresholds")).toEqual(["LOW below 30, MEDIUM up to 50, HIGH above (service notes)"]);
  expect(lineOf(explained.lines, "scenario")).toEqual([
    "ssp126. For this hazard ssp126 repeats ssp245 (service notes).",
  ]);
  expect(lineOf(explained.lines, "dataset")[0]).toMatch(/^version /);
  // In a German pane, with Excel's decimal comma: the terms and sentences, the identifiers as they are.
  const german = createTranslator("de", await loadCatalog("de"), { decimal: ",", group: "." });
  const shown = (key: string) =>
    explained.lines.filter((l) => l.key === key).map((l) => [german.t(l.label), german.format(l.text)]);
  expect(german.format(explained.source)).toBe(`Spalte heatwave_risk_score von Blatt ${summary.sheetName}`);
  expect(shown("thresholds")).toEqual([
    ["Schwellenwerte", "LOW unter 30, MEDIUM bis 50, HIGH darüber (Hinweise des Dienstes)"],
  ]);
  expect(shown("scenario")).toEqual([
    ["Szenario", "ssp126. Für diese Gefahr wiederholt ssp126 ssp245 (Hinweise des Dienstes)."],
  ]);
});

describe("a cell a RISK formula spilled into, not its anchor", () => {
  const one = (value: unknown) => [[value]];
  const points = [
    [51.5, -0.12],
    [19.07, 72.88],
    [25.76, -80.19],
  ];

  test("a row of a RISK.SEARCH column form: that row's point, its own value, and the anchor's formula", async () => {
    const { engine, workbook, run } = harness();
    workbook.setCells("Sheet1!A2", points);
    const formula = '=RISK.SEARCH(A2:A4,B2:B4,"floods","30yr")';
    workbook.setCell("Sheet1!C2", formula);
    await engine.waitForIdle();
    const own = (
      await RISK.search(
        one(25.76),
        one(-80.19),
        one("floods"),
        one("30yr"),
        null as never,
        null as never,
        undefined as never,
      )
    )[0]![0];
    const anchorValue = workbook.getCell("Sheet1!C2").value;
    expect(typeof own).toBe("number");
    expect(own).not.toBe(anchorValue); // so that explaining the anchor's row instead would show
    workbook.select("Sheet1!C4");

    const explained = await explainSelection({ client: fixture.client, run });
    expect(explained.address).toBe("Sheet1!C4");
    expect(explained.value).toBe(own);
    expect(englishTranslator.format(explained.source)).toBe(`${formula} in C2`);
    expect(lineOf(explained.lines, "spill")).toEqual([`Sheet1!C4 is row 3 of the spill of ${formula} in C2`]);
    expect(lineOf(explained.lines, "arguments")).toEqual(["lat 25.76, lng -80.19, hazard floods, horizon 30yr"]);
    expect(lineOf(explained.lines, "hazard")).toEqual(["flood_potential (search: floods; extended summary: flood)"]);
    expect(lineOf(explained.lines, "position")[0]).toMatch(
      new RegExp(`^${String(Number((own as number).toPrecision(4))).replace(".", "\\.")} is (LOW|MEDIUM|HIGH)`),
    );
    expect(lineOf(explained.lines, "window")[0]).toMatch(/^the maximum exposure over 30 years, 2025-2054/);
  });

  test("a cell of RISK.SEARCH's all-hazards table: its row's hazard at its column's horizon; a header cell: its column", async () => {
    const { engine, workbook, run } = harness();
    workbook.setCells("Sheet1!A2", [points[0]!]);
    const formula = '=RISK.SEARCH(A2,B2,"","15yr")';
    workbook.setCell("Sheet1!C2", formula);
    await engine.waitForIdle();
    const table = (await RISK.search(
      one(51.5),
      one(-0.12),
      one(""),
      one("15yr"),
      null as never,
      null as never,
      undefined as never,
    )) as unknown[][];
    const row = HAZARDS.findIndex((h) => h.search === "wildfire") + 1;
    expect(table[0]![3]).toBe("score_30yr");
    // Row `row` of the table (sheet row 2 + row), column score_30yr (C + 3 = F).
    workbook.select(`Sheet1!F${2 + row}`);
    const explained = await explainSelection({ client: fixture.client, run });
    expect(explained.value).toBe(table[row]![3]);
    expect(lineOf(explained.lines, "spill")).toEqual([
      `Sheet1!F${2 + row} is the wildfire row, column score_30yr, of the all-hazards table of ${formula} in C2`,
    ]);
    expect(lineOf(explained.lines, "hazard")[0]).toMatch(/^wildfire \(search: wildfire/);
    // The cell's own column says 30 years, whatever the formula's horizon argument.
    expect(lineOf(explained.lines, "window")[0]).toMatch(/^the maximum exposure over 30 years, 2025-2054/);
    expect(lineOf(explained.lines, "arguments")).toEqual(["lat 51.5, lng -0.12, local extent"]);

    workbook.select("Sheet1!D2"); // the header score_15yr
    const header = await explainSelection({ client: fixture.client, run });
    expect(header.value).toBe("score_15yr");
    expect(lineOf(header.lines, "spill")).toEqual([
      `Sheet1!D2 is the header of column score_15yr of the all-hazards table of ${formula} in C2`,
    ]);
    expect(lineOf(header.lines, "column")[0]).toMatch(
      /^each hazard's point-search score at the 15yr horizon: the maximum exposure over 15 years, 2025-2039/,
    );
    expect(lineOf(header.lines, "thresholds")).toEqual([]);

    workbook.select("Sheet1!C2"); // the anchor is the table's first header cell
    expect(lineOf((await explainSelection({ client: fixture.client, run })).lines, "column")[0]).toMatch(
      /^the hazard of each row/,
    );
  });

  test("a row of a RISK.SUMMARY column form: that row's asset, scenario and window, and its own score", async () => {
    const { engine, workbook, run } = harness();
    const assets = await fixture.client.portfolios.assets("demo-portfolio").all();
    const ids = [assets[0]!, assets[1]!, assets[5]!].map((a) => a.entity_id);
    workbook.setCells(
      "Sheet1!A2",
      ids.map((id) => [id]),
    );
    const formula = '=RISK.SUMMARY("demo-portfolio",A2:A4,"floods","ssp585",15)';
    workbook.setCell("Sheet1!B2", formula);
    await engine.waitForIdle();
    workbook.select("Sheet1!B4");
    const own = workbook.getCell("Sheet1!B4").value;
    expect(own).toEqual(
      (
        await RISK.summary(
          one("demo-portfolio"),
          one(ids[2]),
          one("floods"),
          one("ssp585"),
          one(15),
          null as never,
          undefined as never,
        )
      )[0]![0],
    );
    const explained = await explainSelection({ client: fixture.client, run });
    expect(explained.value).toBe(own);
    expect(lineOf(explained.lines, "spill")).toEqual([`Sheet1!B4 is row 3 of the spill of ${formula} in B2`]);
    expect(lineOf(explained.lines, "arguments")).toEqual([
      `portfolio demo-portfolio, index ${ids[2]}, hazard floods, scenario ssp585, window 15`,
    ]);
    expect(lineOf(explained.lines, "window")[0]).toMatch(/^the maximum exposure over 15 years, 2025-2039/);
    expect(lineOf(explained.lines, "scenario")).toEqual(["ssp585."]);
    expect(lineOf(explained.lines, "dataset")[0]).toMatch(/^version /);
  });

  test("at ExcelApi 1.11 (no getSpillParent) a spilled cell is refused with what to select; the anchor still explains", async () => {
    const { engine, workbook, run } = harness(EXCEL_BUILDS.windows2008);
    workbook.setCells("Sheet1!A2", points);
    workbook.setCell("Sheet1!C2", '=RISK.SEARCH(A2:A4,B2:B4,"floods","30yr")');
    await engine.waitForIdle();
    workbook.select("Sheet1!C4");
    const refused = explainSelection({ client: fixture.client, run });
    await expect(refused).rejects.toThrow(ExplainError);
    await expect(refused).rejects.toThrow(
      "Sheet1!C4 holds no formula, and this Excel cannot tell which formula spilled into it (that needs " +
        "ExcelApi 1.12): select the formula's own cell, the top-left cell of the spill, or a score in a pasted " +
        "summary sheet.",
    );
    workbook.select("Sheet1!C2");
    const anchor = await explainSelection({ client: fixture.client, run });
    expect(anchor.value).toBe(workbook.getCell("Sheet1!C2").value);
    expect(lineOf(anchor.lines, "hazard")).toEqual(["flood_potential (search: floods; extended summary: flood)"]);
  });
});

test("formula arguments split at top-level commas only", () => {
  expect(splitArguments('"a,b", A2, 3, "x""y"')).toEqual(['"a,b"', "A2", "3", '"x""y"']);
});

test("a formula that is one RISK call is read as its function and arguments; a RISK call inside another is found", () => {
  expect(riskCall('=_xldudf_RISK.search(51.5, A2, "floods")')).toEqual({
    fn: "SEARCH",
    args: ["51.5", "A2", '"floods"'],
  });
  expect(riskCall('=IFERROR(RISK.SEARCH(1, 2, "floods"), "")')).toBeUndefined();
  expect(RISK_CALL.test('=IFERROR(RISK.SEARCH(1, 2, "floods"), "")')).toBe(true);
  expect(RISK_CALL.test("=SUM(A1:A3)")).toBe(false);
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
    expect(report.summary.map(englishTranslator.format)).toEqual([
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

  test("a portfolio named in a cell the formulas refer to: its dataset's new version is reported", async () => {
    const { engine, workbook, run } = harness();
    const assets = await fixture.client.portfolios.assets("demo-portfolio").all();
    const csv = `entity_id,lat,lng\nA,${assets[0]!.lat},${assets[0]!.lng}\nB,${assets[1]!.lat},${assets[1]!.lng}`;
    await importPortfolio(fixture.client, "changes-named", csv);
    workbook.setCells("Sheet1!A1", [["id"], ["A"], ["B"]]);
    workbook.setCell("Sheet1!E1", "changes-named");
    workbook.setCell("Sheet1!B2", '=RISK.SUMMARY($E$1,A2,"floods","ssp585",30)');
    workbook.setCell("Sheet1!B3", '=RISK.SUMMARY($E$1,A3,"floods","ssp585",30)');
    await engine.waitForIdle();
    workbook.select("Sheet1!B2:B3");
    const snapshot = await takeChangeSnapshot({ client: fixture.client, run });
    const before = await fixture.client.datasets.metadata("changes-named");
    expect(snapshot.datasets["changes-named"]?.version).toBe(before.version);

    // A new release of the portfolio's data (the emulator's control route): a new version and digest.
    const released = await fetch(`${fixture.emulator.url}/__emulator/portfolios/changes-named/change-data`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fraction: 0.5 }),
    });
    expect(released.status).toBe(200);
    const after = await fixture.client.datasets.metadata("changes-named");
    const report = await compareWithSnapshot({ client: fixture.client, run, snapshot, threshold: 0 });
    const short = (digest: string | undefined) => `${String(digest).slice(0, 12)}…`;
    expect(report.datasetChanges.map(englishTranslator.format)).toEqual([
      `changes-named: dataset version ${before.version} → ${after.version}`,
      `changes-named: sha256 ${short(before.sha256_digest)} → ${short(after.sha256_digest)}`,
    ]);
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
