/**
 * Drill: bad input of every kind gets a clear error naming the place (cell, file, argument), and
 * nothing changes: no request that writes, no cell of the workbook. Text that looks like a formula
 * or is not ASCII is data: it reaches the service unchanged and comes back as text, never a formula.
 */
import { RiskClient, UnprocessableEntityError } from "../../src/api";
import { RiskEngine, evaluateCells, setDefaultEngine, type FormulaCall } from "../../testing/evaluate-cells";
import { createUdf, uploadVectorFile } from "../../src/taskpane/features/compositions/compositions-actions";
import { createSubprojectFromFile } from "../../src/taskpane/features/nature/nature-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { StepError, type ExcelRunner } from "../../src/taskpane/ui/pane-types";
import { createFakeExcel, type FakeExcel } from "../../testing/fake-excel";
import { columnLetters } from "../../src/shaping/a1";
import { syncSelection, userSheetsOf } from "../taskpane/support";
import { recordFigures } from "./support/figures";
import { type TestService, routesStartingWith, startTestService } from "../support/emulator";
import { polygonPlot } from "../support/fixtures";
import { english } from "../support/english";

let service: TestService;
let client: RiskClient;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  service = await startTestService({ processingDelayMs: 20, jqTimeoutMs: 300 });
  client = service.client;
});
afterAll(async () => {
  setDefaultEngine(undefined);
  recordFigures("bad-input", figures);
  await service.close();
});
beforeEach(() => service.resetStats());

/** Requests that could have changed the service: every POST, PUT and DELETE, and UDF activation. */
async function writesSent(): Promise<number> {
  const stats = await service.stats();
  return (
    routesStartingWith(stats, "POST ") +
    routesStartingWith(stats, "PUT ") +
    routesStartingWith(stats, "DELETE ") +
    (stats.routes["GET /api/compositions/udf/:id/activate"] ?? 0)
  );
}

/** A workbook whose sheet "Sites" holds `values` from A1, text cells typed as text (as a user's '= would). */
async function sheetWith(values: unknown[][]): Promise<{ fake: FakeExcel; run: ExcelRunner }> {
  const fake = createFakeExcel({ firstSheetName: "Sites" });
  const width = Math.max(...values.map((r) => r.length));
  const grid = values.map((row) => Array.from({ length: width }, (_, c) => row[c] ?? ""));
  const address = `A1:${columnLetters(width - 1)}${grid.length}`;
  await fake.run(async (context) => {
    const range = context.workbook.worksheets.getItem("Sites").getRange(address);
    range.numberFormat = grid.map((row) => row.map((v) => (typeof v === "string" ? "@" : "General")));
    range.values = grid as Excel.Range["values"];
    await context.sync();
  });
  fake.setSelection("Sites", address);
  return { fake, run: (batch) => fake.run(batch) };
}

const HEADER = ["entity_id", "entity_name", "lat", "lng"];
const never = async (): Promise<boolean> => {
  throw new Error("confirmReplace must not be asked");
};

const manyRows = (n: number) => [
  HEADER,
  ...Array.from({ length: n }, (_, i) => [`R${i}`, `Row ${i}`, (i % 170) - 85, (i % 350) - 175]),
];

const BAD_SHEETS: ReadonlyArray<[string, unknown[][], string, RegExp]> = [
  ["latitude out of range", [HEADER, ["A", "a", 91, 10]], "C2", /Latitude in C2 is 91: it must be between -90 and 90/],
  ["longitude out of range", [HEADER, ["A", "a", 10, -180.5]], "D2", /Longitude in D2 is -180.5/],
  ["latitude not a number", [HEADER, ["A", "a", "north", 10]], "C2", /Latitude in C2 is "north", not a number/],
  ["decimal comma", [HEADER, ["A", "a", "51,5", 10]], "C2", /"51,5" \(decimal comma\): convert it to 51.5/],
  ["blank longitude", [HEADER, ["A", "a", 10, ""]], "D2", /Longitude is blank in D2/],
  ["empty row between assets", [HEADER, ["A", "a", 1, 1], ["", "", "", ""], ["B", "b", 2, 2]], "A3", /Row 3 is empty/],
  [
    "data under an empty header",
    [
      [...HEADER, ""],
      ["A", "a", 1, 1, "stray"],
    ],
    "E1",
    /Column E has data but no header/,
  ],
  ["only a header", [HEADER], "A1", /header but no asset rows/],
  [
    "no coordinates header",
    [
      ["entity_id", "name"],
      ["A", "a"],
    ],
    "A1",
    /No latitude column/,
  ],
  ["duplicate ids", [HEADER, ["X-1", "a", 1, 1], ["X-1", "b", 2, 2]], "A3", /Entity id "X-1" in A3 repeats A2/],
  [
    "a name too long",
    [HEADER, ["A", "n".repeat(256), 1, 1]],
    "B2",
    /Entity name in B2 is 256 characters long: at most 255/,
  ],
  ["an emoji name too long", [HEADER, ["A", "🌊".repeat(256), 1, 1]], "B2", /256 characters long/],
  ["5,001 rows", manyRows(5_001), "A5002", /Too many assets: 5,001 rows, but a portfolio holds at most 5,000/],
];

describe("sheet ranges that cannot become a portfolio", () => {
  test.each(BAD_SHEETS)(
    "%s: the problem names its cell, nothing is sent, the sheet is unchanged",
    async (_what, values, cell, message) => {
      const { fake, run } = await sheetWith(values);
      const before = fake.snapshot();
      const result = await syncSelection({ client }, run, { portfolio: "never_made", confirmReplace: never });
      // Over the 5,000 cap the pane also offers to split; the problem still names its cell.
      expect(result.outcome).toBe(_what === "5,001 rows" ? "too-many" : "invalid");
      const problems = result.outcome === "invalid" || result.outcome === "too-many" ? result.problems : [];
      const problem = problems.find((p) => message.test(english(p.message)));
      expect(problem).toBeDefined();
      expect(problem!.cell).toBe(cell);
      expect(problem!.address).toBe(`Sites!${cell}`);
      expect(await writesSent()).toBe(0);
      expect(fake.snapshot()).toEqual(before);
    },
  );

  test("an empty selection is refused with a sentence saying what to select; nothing is sent", async () => {
    const { fake, run } = await sheetWith([
      ["", ""],
      ["", ""],
    ]);
    const before = fake.snapshot();
    await expect(syncSelection({ client }, run, { portfolio: "never_made", confirmReplace: never })).rejects.toThrow(
      /selection is empty: select the asset rows/,
    );
    expect(await writesSent()).toBe(0);
    expect(fake.snapshot()).toEqual(before);
  });

  test("merged cells are named and nothing is sent", async () => {
    const { fake, run } = await sheetWith([HEADER, ["A", "a", 1, 1], ["B", "b", 2, 2]]);
    fake.merge("Sites", "B2:B3");
    const before = fake.snapshot();
    const result = await syncSelection({ client }, run, { portfolio: "never_made", confirmReplace: never });
    expect(result.outcome).toBe("invalid");
    expect(result.outcome === "invalid" && result.problems.map((p) => english(p.message))).toContainEqual(
      expect.stringMatching(/Merged cells at B2:B3: unmerge them/),
    );
    expect(await writesSent()).toBe(0);
    expect(fake.snapshot()).toEqual(before);
  });

  test.each(["my sites", "sites/2024", "süd", "", "a;DROP"])(
    "portfolio name %j is refused before anything is sent",
    async (name) => {
      const { fake, run } = await sheetWith([HEADER, ["A", "a", 1, 1]]);
      const before = fake.snapshot();
      await expect(syncSelection({ client }, run, { portfolio: name, confirmReplace: never })).rejects.toThrow(
        /^(Portfolio name ".*" has|Enter a portfolio name)/,
      );
      expect(await writesSent()).toBe(0);
      expect(fake.snapshot()).toEqual(before);
    },
  );
});

const TRICKY = [
  '=HYPERLINK("http://evil.example","click")',
  "+cmd|' /C calc'!A0",
  "@SUM(1+1)",
  "-2+3",
  "=1+1",
  "Zürich 東京 🌊 مرفأ",
  "l".repeat(255),
  'quote " comma , newline\nend',
];

test("formula-like, unicode and long text travel as data and come back as text, never formulas", async () => {
  const rows = TRICKY.map((text, i) => [i === 4 ? text : `T-${i}`, text, 10 + i, 20 + i, text]);
  const { fake, run } = await sheetWith([[...HEADER, "label:note"], ...rows]);
  const before = fake.snapshot();
  const result = await syncSelection({ client }, run, {
    portfolio: "tricky_text",
    confirmReplace: never,
    pollIntervalMs: 10,
  });
  expect(result).toMatchObject({ outcome: "synced", assetCount: TRICKY.length });
  expect(userSheetsOf(fake)).toEqual(before); // a sync adds only the (very hidden) record of where the assets are

  const assets = await client.portfolios.assets("tricky_text").all();
  expect(assets.map((a) => a.entity_name)).toEqual(TRICKY);
  expect(assets.map((a) => a.labels.note)).toEqual(TRICKY);
  expect(assets[4].entity_id).toBe("=1+1");

  // Back into the workbook: every one is a text cell, none a formula.
  const [sheet] = await pasteSummary({ client, run, portfolio: "tricky_text", scenario: "ssp585", extended: false });
  const cells = fake.snapshot().sheets.find((s) => s.name === sheet.sheetName)!.cells;
  for (const text of TRICKY) {
    const found = cells.filter(([, value]) => value === text);
    expect([text, found.length > 0]).toEqual([text, true]);
    for (const [address, , formula, format] of found)
      expect([address, formula, format]).toEqual([address, undefined, "@"]);
  }
  expect(cells.filter(([, , formula]) => formula !== undefined)).toEqual([]);
  figures.trickyTextRoundTrips = TRICKY.length;
});

describe("files and programs the service cannot use", () => {
  const vectorsNow = async () => (await client.compositions.listVectors()).map((v) => v.id);

  test.each<[string, string, RegExp]>([
    ["empty.geojson", "  ", /empty\.geojson is empty/],
    ["broken.geojson", '{"type": "Feature", "geometry": ', /broken\.geojson is not valid JSON/],
    ["list.geojson", "[1, 2]", /list\.geojson must hold a GeoJSON object, not an array/],
    [
      "point.geojson",
      '{"type": "Point", "coordinates": [1, 2]}',
      /point\.geojson must be a GeoJSON Feature or FeatureCollection \(its "type" is "Point"\)/,
    ],
    [
      "nofeatures.geojson",
      '{"type": "FeatureCollection"}',
      /nofeatures\.geojson: a FeatureCollection needs a "features" array/,
    ],
  ])("vector upload of %s is refused naming the file; nothing is sent", async (fileName, text, message) => {
    await expect(uploadVectorFile(client, { name: "layer", fileName, text })).rejects.toThrow(message);
    expect(await writesSent()).toBe(0);
  });

  test.each<[string, object, RegExp]>([
    [
      "a longitude of 500",
      { type: "Feature", geometry: { type: "Point", coordinates: [500, 1] }, properties: {} },
      /longitude 500 is out of bounds/,
    ],
    [
      "an open polygon ring",
      polygonPlot([
        [0, 0],
        [1, 0],
        [1, 1],
      ]),
      /coordinates\[0\]: needs at least 4 positions/,
    ],
  ])(
    "a well-formed file with %s is rejected by the service (422) with the place named; no layer is added",
    async (_what, geojson, message) => {
      const before = await vectorsNow();
      const error = await uploadVectorFile(client, {
        name: "layer",
        fileName: "zones.geojson",
        text: JSON.stringify(geojson),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect((error as UnprocessableEntityError).errors.join(" ")).toMatch(message);
      expect(await vectorsNow()).toEqual(before);
    },
  );

  test.each<[string, string, RegExp]>([
    ["broken.geojson", "{", /broken\.geojson is not valid JSON/],
    [
      "feature.geojson",
      '{"type": "Feature", "geometry": null, "properties": {}}',
      /feature\.geojson must be a GeoJSON FeatureCollection/,
    ],
  ])("nature sub-project from %s is refused naming the file; nothing is sent", async (fileName, text, message) => {
    await expect(createSubprojectFromFile(client, { superproject: "nc-demo", fileName, text })).rejects.toThrow(
      message,
    );
    expect(await writesSent()).toBe(0);
  });

  test("a nature file with an empty or open polygon is rejected by the service (422); no sub-project is added", async () => {
    const before = (await client.nature.subprojects("nc-demo")).length;
    const openPolygon = polygonPlot([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    for (const features of [[], openPolygon.features]) {
      const text = JSON.stringify({ type: "FeatureCollection", features });
      // Named, so the file reaches the service (without a name or Entity Name the pane asks for one first).
      const error = await createSubprojectFromFile(client, {
        superproject: "nc-demo",
        fileName: "area.geojson",
        text,
        name: "Area",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect((error as UnprocessableEntityError).errors[0]).toMatch(/^geojson\.features/);
    }
    expect((await client.nature.subprojects("nc-demo")).length).toBe(before);
  });

  test.each<[string, string, RegExp]>([
    ["does not parse", ".loss_flood_bsln |||", /syntax error/],
    ["loops forever", "def f: f; f", /exceeded the time limit/],
    ["never stops producing", "[repeat(1)]", /exceeded the time limit/],
  ])(
    "a jq program that %s fails with 422 at a named step; the service still answers",
    async (_what, operation, message) => {
      const started = performance.now();
      const error = await createUdf(client, {
        name: "bad-jq",
        inputLayers: ["demo-losses"],
        operation,
        activate: true,
      }).catch((e: unknown) => e);
      const ms = Math.round(performance.now() - started);
      expect(error).toBeInstanceOf(StepError);
      expect(["create", "activate"]).toContain((error as StepError).step);
      expect((error as StepError).cause).toBeInstanceOf(UnprocessableEntityError);
      expect((error as Error).message).toMatch(message);
      const answered = performance.now();
      await expect(client.projects.list()).resolves.toHaveLength(1);
      expect(performance.now() - answered).toBeLessThan(1_000);
      figures[`jq ${_what} ms`] = ms;
    },
  );
});

describe("wrong argument types in every RISK function", () => {
  // Valid arguments of each function; each case below replaces one with a value of the wrong type.
  const VALID: Record<string, unknown[]> = {
    SEARCH: [51.5, -0.12, "floods", "30yr", "local", "score"],
    SUMMARY: ["demo-portfolio", 0, "flood_potential", "ssp245", 30, "score"],
    METRIC: ["demo-portfolio", 0, "ssp585", "flood", "structural_damage_2050"],
    IMPACT: ["demo-portfolio", 0, "flood", "ssp585", "2050", "upper"],
    TIMESERIES: ["demo-portfolio", 0, "wildfire", "ssp585", "unified_prob", "mid"],
    ASSETS: ["demo-portfolio"],
    LAYER: [1, "demo-portfolio", 0, "feature_index"],
    NATURE: ["(set from the service below)", "seismic_baseline_mean"],
  };
  const NAMES: Record<string, string[]> = {
    SEARCH: ["lat", "lng", "hazard", "horizon", "extent", "field"],
    SUMMARY: ["portfolio", "index", "hazard", "scenario", "window", "field"],
    METRIC: ["portfolio", "index", "scenario", "hazard", "metric"],
    IMPACT: ["portfolio", "index", "hazard", "scenario", "period", "bound"],
    TIMESERIES: ["portfolio", "index", "hazard", "scenario", "indicator", "measure"],
    ASSETS: ["portfolio"],
    LAYER: ["vector", "portfolio", "index", "column"],
    NATURE: ["subproject", "metric"],
  };
  /**
   * Values of the wrong type for an argument: text or a boolean where a number goes, a boolean
   * where text goes. A vector id may be a number or text (docs/service.md#records), and an index a portfolio_index
   * or an entity_id (text), so only a boolean is wrong there.
   */
  const wrong = (fn: string, name: string, valid: unknown): unknown[] =>
    (fn === "LAYER" && name === "vector") || name === "index"
      ? [true]
      : typeof valid === "number"
        ? ["ten", true]
        : [true];
  const CASES = Object.entries(VALID).flatMap(([fn, args]) =>
    args.flatMap((value, i) => wrong(fn, NAMES[fn][i], value).map((bad) => [fn, NAMES[fn][i], i, bad] as const)),
  );

  test(`each of ${CASES.length} wrong arguments gives #VALUE! naming the argument, without a request`, async () => {
    VALID.NATURE[0] = (await client.nature.subprojects("nc-demo"))[0].name;
    const engine = new RiskEngine({ connection: service.connection, maxRetries: 0 });
    setDefaultEngine(engine);
    // Every valid call works, so each failure below is the one argument's doing.
    const fine = await evaluateCells(Object.entries(VALID).map(([fn, args]) => ({ fn, args }) as FormulaCall));
    expect(fine.filter((r) => "error" in r)).toEqual([]);
    engine.resetStats();
    const calls = CASES.map(
      ([fn, , i, bad]) => ({ fn, args: VALID[fn].map((v, j) => (j === i ? bad : v)) }) as FormulaCall,
    );
    const results = await evaluateCells(calls);
    const wrongOnes: unknown[] = [];
    results.forEach((result, k) => {
      const [fn, name] = CASES[k];
      const ok =
        "error" in result && result.error.code === "#VALUE!" && new RegExp(`\\b${name}\\b`).test(result.error.message);
      if (!ok) wrongOnes.push({ fn, argument: name, result });
    });
    expect(wrongOnes).toEqual([]);
    expect(engine.stats().requests).toBe(0);
    figures.wrongArgumentCases = CASES.length;
  });
});
