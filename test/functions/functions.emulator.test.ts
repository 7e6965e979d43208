import Papa from "papaparse";
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import * as TypedRISK from "../../src/functions/functions";
import { asExcelCalls, only } from "./support/excel-calls";

const RISK = asExcelCalls(TypedRISK);
import { createInvocation } from "../../testing/invocation";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { assetsCsv, importPortfolio } from "./support/emulator";
import { startTestService, type TestService } from "../support/emulator";

/**
 * Each RISK function against the emulator over HTTP, called as Excel calls them, with the answers
 * checked against what the service client reads directly; and the request counts docs/functions.md promises.
 */

let fixture: TestService;
let engine: RiskEngine;
let uninstall: () => void;
const inv = () => createInvocation();

beforeAll(async () => {
  uninstall = installCustomFunctionsStub();
  fixture = await startTestService({ processingDelayMs: 300 });
  engine = new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0 });
  setDefaultEngine(engine);
});

afterAll(async () => {
  setDefaultEngine(undefined);
  uninstall();
  await fixture.emulator.close();
});

beforeEach(() => engine.refresh());

describe("each function reads what the service holds", () => {
  test("SEARCH: one hazard's score or label, and the all-hazards table", async () => {
    const result = await fixture.client.search.point(51.5, -0.12);
    const exposure = result.features[0]!.properties.physical_risk_exposure;
    const floods30 = exposure.local["30yr"].find((e) => e.hazard === "floods")!;
    const heat15 = exposure.background["15yr"].find((e) => e.hazard === "heatwaves")!;

    expect(await RISK.search(51.5, -0.12, "flood_potential", "30yr", null as never, null as never, inv())).toEqual([
      [floods30.score],
    ]);
    expect(await RISK.search(51.5, -0.12, "heatwave", 15, "background", "label", inv())).toEqual([[heat15.label]]);

    const table = await RISK.search(51.5, -0.12, "", null, null as never, null as never, inv());
    expect(table[0]).toEqual(["hazard", "score_15yr", "label_15yr", "score_30yr", "label_30yr"]);
    expect(table).toHaveLength(7);
    const wildfire = table.find((row) => row[0] === "wildfire")!;
    expect(wildfire[3]).toBe(exposure.local["30yr"].find((e) => e.hazard === "wildfire")!.score);
    expect(wildfire[4]).toBe(exposure.local["30yr"].find((e) => e.hazard === "wildfire")!.label);
  });

  test("SUMMARY: score and class with the defaults ssp245 and 30 years, and other scenarios and windows", async () => {
    const items = await fixture.client.datasets.summary("demo-portfolio", { scenario: "ssp245", window: 30 }).all();
    const asset = items.find((i) => i.portfolio_index === 3)!;
    const flood = asset.risk_summaries.find((r) => r.hazard === "flood_potential")!;
    expect(only(await RISK.summary("demo-portfolio", 3, "floods", null as never, null, null as never, inv()))).toBe(
      flood.risk_score,
    );
    expect(only(await RISK.summary("demo-portfolio", 3, "flood_potential", "ssp245", 30, "class", inv()))).toBe(
      flood.risk_class,
    );

    const other = await fixture.client.datasets.summary("demo-portfolio", { scenario: "ssp585", window: 5 }).all();
    const heat = other.find((i) => i.portfolio_index === 7)!.risk_summaries.find((r) => r.hazard === "heatwave")!;
    expect(only(await RISK.summary("demo-portfolio", 7, "heatwaves", "ssp585", "5", null as never, inv()))).toBe(
      heat.risk_score,
    );

    expect(
      await cellError(RISK.summary("demo-portfolio", 5000, "floods", null as never, null, null as never, inv())),
    ).toEqual({
      code: "#N/A",
      message: 'No asset with index 5000 in "demo-portfolio"',
    });
    expect(
      await cellError(RISK.summary("no-such-portfolio", 0, "floods", null as never, null, null as never, inv())),
    ).toEqual({
      code: "#N/A",
      message: 'Unknown portfolio "no-such-portfolio"',
    });
  });

  test("METRIC: a number and a label of the extended summary", async () => {
    const items = await fixture.client.datasets.extendedSummary("demo-portfolio", { scenario: "ssp585" }).all();
    const metrics = items.find((i) => i.portfolio_index === 2)!.scenario_analytics.ssp585!;
    expect(only(await RISK.metric("demo-portfolio", 2, "ssp585", "floods", "structural_damage_2050_ubd", inv()))).toBe(
      metrics.flood!.structural_damage_2050_ubd,
    );
    expect(only(await RISK.metric("demo-portfolio", 2, "SSP585", "wildfire", "summary_label_30yr", inv()))).toBe(
      metrics.wildfire!.summary_label_30yr,
    );
    expect(await cellError(RISK.metric("demo-portfolio", 2, "ssp585", "wildfire", "damage_2999", inv()))).toEqual({
      code: "#N/A",
      message: 'Unknown metric "damage_2999": e.g. summary_score_30yr',
    });
  });

  test("TIMESERIES: year and value columns with a header, default indicator and measure", async () => {
    const items = await fixture.client.datasets
      .items("demo-portfolio", { hazard: "wildfire", scenario: "ssp585", indicator: "unified_prob", measure: "mid" })
      .all();
    const exposure = items.find((i) => i.portfolio_index === 4)!.risk_exposure;
    const table = await RISK.timeseries("demo-portfolio", 4, "wildfire", "ssp585", null as never, null as never, inv());
    expect(table[0]).toEqual(["year", "value"]);
    const years = [...exposure.keys].sort();
    expect(table.slice(1)).toEqual(years.map((year) => [Number(year), exposure.get(year)]));
    expect(table.length).toBeGreaterThan(50);

    const upper = await RISK.timeseries("demo-portfolio", 4, "drought", "ssp245", "spei_norm", "ub", inv());
    const ub = await fixture.client.datasets
      .items("demo-portfolio", { hazard: "water_stress", scenario: "ssp245", indicator: "spei_norm", measure: "ub" })
      .all();
    const ubSeries = ub.find((i) => i.portfolio_index === 4)!.risk_exposure;
    const first = [...ubSeries.keys].sort()[0]!;
    expect(upper[1]).toEqual([Number(first), ubSeries.get(first)]);
  });

  test("PROJECTS, PORTFOLIOS and ASSETS spill tables with a header row", async () => {
    const projects = await RISK.projects(inv());
    expect(projects[0]).toEqual(["project_id", "project_name"]);
    expect(projects.slice(1).map((row) => row[1])).toContain("demo");

    const portfolios = await RISK.portfolios(inv());
    expect(portfolios[0]).toEqual(["portfolio_name", "portfolio_id", "status", "created_at", "updated_at"]);
    expect(portfolios.find((row) => row[0] === "demo-portfolio")?.[2]).toBe("Risk data available");

    const assets = await fixture.client.portfolios.assets("demo-portfolio").all();
    const table = await RISK.assets("demo-portfolio", inv());
    expect(table[0]!.slice(0, 5)).toEqual(["portfolio_index", "entity_id", "entity_name", "lat", "lng"]);
    expect(table).toHaveLength(assets.length + 1);
    expect(table[1]!.slice(0, 5)).toEqual([
      0,
      assets[0]!.entity_id,
      assets[0]!.entity_name,
      assets[0]!.lat,
      assets[0]!.lng,
    ]);
    expect(await cellError(RISK.assets("no-such-portfolio", inv()))).toEqual({
      code: "#N/A",
      message: 'Unknown portfolio "no-such-portfolio"',
    });
  });

  test("LAYER: the default column is the first numeric layer column; a named column is read as named", async () => {
    const vectors = await fixture.client.compositions.listVectors();
    const vector = vectors[0]!;
    const applied = await fixture.client.compositions.applyVector(vector.id, "demo-portfolio");
    const parsed = Papa.parse<Record<string, unknown>>(applied.csv.trim(), { header: true, dynamicTyping: true });
    const fields = parsed.meta.fields!;
    const row = parsed.data.find((r) => r.portfolio_index === 5)!;
    // The apply CSV keeps text properties too; the default is the first numeric layer column.
    const firstLayerColumn = fields
      .slice(fields.indexOf("distance_km") + 1)
      .find((f) => parsed.data.some((r) => typeof r[f] === "number"))!;
    expect(fields.slice(fields.indexOf("distance_km") + 1).some((f) => typeof row[f] === "string")).toBe(true);

    expect(only(await RISK.layer(vector.id, "demo-portfolio", 5, null as never, inv()))).toBe(row[firstLayerColumn]);
    expect(only(await RISK.layer(String(vector.id), "demo-portfolio", 5, "loss_flood_2050", inv()))).toBe(
      row.loss_flood_2050,
    );
    expect(await cellError(RISK.layer(vector.id, "demo-portfolio", 5, "no_such_column", inv()))).toMatchObject({
      code: "#N/A",
    });
    expect(await cellError(RISK.layer(987654, "demo-portfolio", 5, null as never, inv()))).toEqual({
      code: "#N/A",
      message: 'Unknown layer "987654" or portfolio "demo-portfolio"',
    });
  });

  test("NATURE: a summary number by sub-project name or id", async () => {
    const [superproject] = await fixture.client.nature.superprojects();
    const [sub] = await fixture.client.nature.subprojects(superproject!);
    const exported = await fixture.client.nature.exportSubproject(sub!.id);
    expect(only(await RISK.nature(sub!.name.toUpperCase(), "seismic_baseline_mean", inv()))).toBe(
      exported.summary.seismic_baseline_mean,
    );
    expect(only(await RISK.nature(sub!.id, "wildfire_ssp585_2050_mean", inv()))).toBe(
      exported.summary.wildfire_ssp585_2050_mean,
    );
    expect(await cellError(RISK.nature("Nowhere Forest", "seismic_baseline_mean", inv()))).toEqual({
      code: "#N/A",
      message: 'Unknown sub-project "Nowhere Forest"',
    });
    expect((await cellError(RISK.nature(sub!.id, "no_such_metric", inv()))).code).toBe("#N/A");
  });
});

describe("errors that say what to do", () => {
  test("a refused key, a service that is down, and data still being generated", async () => {
    const wrongKey = new RiskEngine({ connection: { ...fixture.connection, apiKey: "wrong-key" }, maxRetries: 0 });
    setDefaultEngine(wrongKey);
    try {
      expect(await cellError(RISK.search(1, 2, "floods", 30, null as never, null as never, inv()))).toEqual({
        code: "#N/A",
        message: "API key refused: open the Climate Risk pane to check it",
      });
      setDefaultEngine(
        new RiskEngine({
          connection: { ...fixture.connection, baseUrl: "http://127.0.0.1:9", natureUrl: "http://127.0.0.1:9/nature" },
          maxRetries: 0,
        }),
      );
      expect(await cellError(RISK.projects(inv()))).toEqual({
        code: "#N/A",
        message: "Cannot reach the risk service: open the Climate Risk pane to connect",
      });
    } finally {
      setDefaultEngine(engine);
    }

    await fixture.client.portfolios.create("still-cooking");
    await fixture.client.portfolios.importAssets("still-cooking", assetsCsv(3));
    expect(
      await cellError(RISK.summary("still-cooking", 0, "floods", null as never, null, null as never, inv())),
    ).toEqual({
      code: "#N/A",
      message: "Risk data is still being generated; recalculate in a minute",
    });
    await importPortfolio(fixture.client, "still-cooking", assetsCsv(3));
    expect(
      typeof only(await RISK.summary("still-cooking", 0, "floods", null as never, null, null as never, inv())),
    ).toBe("number");
  });
});

describe("request counts at scale", () => {
  test("10,000 SEARCH cells over 1,000 distinct points send exactly 1,000 search requests; a recalculation sends none", async () => {
    const hazards = [
      "floods",
      "cyclones",
      "drought",
      "heatwaves",
      "sea_level_rise",
      "wildfire",
      "flood_potential",
      "cyclone",
      "heatwave",
      "water_stress",
    ];
    const cells: [number, number, string][] = [];
    for (let p = 0; p < 1000; p++) {
      const lat = Math.round((((p * 7919) % 16000) / 100 - 80) * 1000) / 1000;
      const lng = Math.round((((p * 104729) % 35000) / 100 - 175) * 1000) / 1000;
      for (const hazard of hazards) cells.push([lat, lng, hazard]);
    }
    await fixture.resetStats();
    const recalc = () =>
      Promise.all(
        cells.map(([lat, lng, hazard]) => RISK.search(lat, lng, hazard, "30yr", null as never, null as never, inv())),
      );
    const values = await recalc();
    expect(values).toHaveLength(10_000);
    expect(values.every((v) => typeof v[0]![0] === "number")).toBe(true);
    expect(await fixture.routes()).toEqual({ "GET /api/search": 1000 });

    await fixture.resetStats();
    expect(await recalc()).toEqual(values);
    expect(await fixture.routes()).toEqual({});
    // 10,000 cells through the engine: well inside a minute even on two loaded cores.
  }, 90_000);

  test("5,000 SUMMARY cells on a 5,000-asset portfolio send only the summary's page requests; a recalculation sends none", async () => {
    await importPortfolio(fixture.client, "bulk-5000", assetsCsv(5000));
    await fixture.resetStats();
    const recalc = () =>
      Promise.all(
        Array.from({ length: 5000 }, (_, i) =>
          RISK.summary("bulk-5000", i, "wildfire", null as never, null, null as never, inv()).then(only),
        ),
      );
    const scores = await recalc();
    expect(scores.every((s) => typeof s === "number")).toBe(true);

    const routes = await fixture.routes();
    expect(Object.keys(routes)).toEqual(["GET /api/portfolios/:portfolio_name/datasets/physical/summary"]);
    const pages = Object.values(routes)[0]!;
    // 20 full pages of 250 and the empty page 21 that ends the list, plus at most readAhead − 1 read past it.
    expect(pages).toBeGreaterThanOrEqual(21);
    expect(pages).toBeLessThanOrEqual(21 + engine.settings.readAhead - 1);

    const direct = await fixture.client.datasets
      .summary("bulk-5000", { scenario: "ssp245", window: 30 })
      .all({ rows: 250 });
    const byIndex = new Map(
      direct.map((item) => [
        item.portfolio_index,
        item.risk_summaries.find((r) => r.hazard === "wildfire")!.risk_score,
      ]),
    );
    expect(scores).toEqual(Array.from({ length: 5000 }, (_, i) => byIndex.get(i)));

    await fixture.resetStats();
    expect(await recalc()).toEqual(scores);
    expect(await fixture.routes()).toEqual({});
  }, 90_000);
});
