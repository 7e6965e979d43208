import * as TypedRISK from "../../src/functions/functions";
import { column, inv, one, shown, useColumnSuite } from "./support/column-suite";
import { AssetIndex, readAssetRef } from "../../src/functions/asset-index";
import { cellError } from "./support/custom-functions-stub";
import { asExcelCalls, only } from "./support/excel-calls";

/**
 * Column forms and entity_ids, against the emulator over HTTP.
 * Arguments are passed as Excel passes them to a matrix parameter: a range as rows of values, a
 * single value as a 1×1 array.
 */

const RISK = asExcelCalls(TypedRISK);
const suite = useColumnSuite();

describe("RISK.SEARCH over ranges", () => {
  test("a column of points spills one score per row, one request per distinct point; bad and blank rows stay in their row", async () => {
    const points: [unknown, unknown][] = [
      [51.5, -0.12],
      [19.07, 72.87],
      [51.5, -0.12],
      ["", ""],
      [95, 10],
      ["north", 3],
      [19.07, 72.87],
      [25.76, -80.19],
    ];
    // The points as two columns, as a sheet's lat and lng columns are passed.
    const searchAll = () =>
      RISK.search(
        column(...points.map((p) => p[0])),
        column(...points.map((p) => p[1])),
        one("floods"),
        one("30yr"),
        null,
        null,
        inv(),
      );
    const result = shown(await searchAll());
    expect(await suite.fixture.routes()).toEqual({ "GET /api/search": 3 });

    const single = async (lat: number, lng: number) =>
      only(await RISK.search(one(lat), one(lng), one("floods"), one("30yr"), null, null, inv()));
    expect(result).toEqual([
      [await single(51.5, -0.12)],
      [await single(19.07, 72.87)],
      [await single(51.5, -0.12)],
      [""],
      [{ code: "#VALUE!", message: "lat must be from -90 to 90 (got 95)" }],
      [{ code: "#VALUE!", message: 'lat must be a latitude from -90 to 90 (got "north")' }],
      [await single(19.07, 72.87)],
      [await single(25.76, -80.19)],
    ]);
    expect(result[0]![0]).toEqual(expect.any(Number));

    await suite.fixture.resetStats();
    await searchAll();
    expect(await suite.fixture.routes()).toEqual({}); // a recalculation of unchanged inputs sends nothing
  });

  test("a column of points and a row of hazards pair across the axes, as Excel's own functions do", async () => {
    const lats = column(51.5, 19.07, 25.76);
    const lngs = column(-0.12, 72.87, -80.19);
    const hazards = [["floods", "wildfire"]];
    const result = await RISK.search(lats, lngs, hazards, one(30), null, [["score", "label"]], inv());
    expect(result).toHaveLength(3);
    for (let r = 0; r < 3; r++) {
      expect(result[r]![0]).toBe(
        only(await RISK.search(one(lats[r]![0]), one(lngs[r]![0]), one("floods"), one(30), null, null, inv())),
      );
      expect(result[r]![1]).toBe(
        only(
          await RISK.search(one(lats[r]![0]), one(lngs[r]![0]), one("wildfire"), one(30), null, one("label"), inv()),
        ),
      );
    }
  });

  test("ranges that cannot pair give #VALUE! naming the arguments and their sizes; nothing is sent", async () => {
    expect(
      await cellError(RISK.search(column(1, 2, 3), column(1, 2), one("floods"), one(30), null, null, inv())),
    ).toEqual({
      code: "#VALUE!",
      message: "lat (3×1) and lng (2×1) cannot pair: give ranges of the same size, or one value",
    });
    expect(
      await cellError(
        RISK.search(
          column(1, 2),
          column(1, 2),
          [["floods", "wildfire", "drought"]],
          [["15yr", "30yr"]],
          null,
          null,
          inv(),
        ),
      ),
    ).toEqual({
      code: "#VALUE!",
      message: "hazard (1×3) and horizon (1×2) cannot pair: give ranges of the same size, or one value",
    });
    expect(await suite.fixture.routes()).toEqual({});
  });

  test("the single-cell form is unchanged: the value as 1×1, the all-hazards table, the error in the cell", async () => {
    expect(await RISK.search(51.5, -0.12, "floods", "30yr", null, null, inv())).toEqual(
      await RISK.search(one(51.5), one(-0.12), one("floods"), one("30yr"), null, null, inv()),
    );
    expect((await RISK.search(one(51.5), one(-0.12), one(""), one(null), null, null, inv()))[0]).toEqual([
      "hazard",
      "score_15yr",
      "label_15yr",
      "score_30yr",
      "label_30yr",
    ]);
    expect(await cellError(RISK.search(one(91), one(0), one("floods"), one("30yr"), null, null, inv()))).toEqual({
      code: "#VALUE!",
      message: "lat must be from -90 to 90 (got 91)",
    });
  });
});

describe("portfolio functions over ranges, by index or entity_id", () => {
  test("SUMMARY over an index column mixing portfolio_index and entity_id: one dataset load, per-row errors", async () => {
    const assets = await suite.fixture.client.portfolios.assets("demo-portfolio").all();
    const byIndex = new Map(assets.map((a) => [a.portfolio_index, a.entity_id]));
    await suite.fixture.resetStats();
    const indexes = column(0, byIndex.get(1), 2, "", "no-such-entity", 9999, byIndex.get(0));
    const result = shown(await RISK.summary(one("demo-portfolio"), indexes, one("floods"), null, null, null, inv()));
    const routes = await suite.fixture.routes();
    expect(Object.keys(routes)).toEqual(["GET /api/portfolios/:portfolio_name/datasets/physical/summary"]);

    const single = async (index: number) =>
      only(await RISK.summary(one("demo-portfolio"), one(index), one("floods"), null, null, null, inv()));
    expect(result).toEqual([
      [await single(0)],
      [await single(1)],
      [await single(2)],
      [""],
      [{ code: "#N/A", message: 'No asset with entity_id "no-such-entity" in "demo-portfolio"' }],
      [{ code: "#N/A", message: 'No asset with index 9999 in "demo-portfolio"' }],
      [await single(0)],
    ]);
    // the singles came from the cache
    expect(Object.values(await suite.fixture.routes())[0]).toBe(Object.values(routes)[0]);
  });

  test("METRIC and TIMESERIES take an entity_id where they take an index", async () => {
    const assets = await suite.fixture.client.portfolios.assets("demo-portfolio").all();
    const id3 = assets.find((a) => a.portfolio_index === 3)!.entity_id;
    const byId = await RISK.metric(
      one("demo-portfolio"),
      column(id3, 3),
      one("ssp585"),
      one("flood"),
      one("summary_score_30yr"),
      inv(),
    );
    expect(byId[0]![0]).toEqual(expect.any(Number));
    expect(byId[0]![0]).toBe(byId[1]![0]);
    const series = await RISK.timeseries("demo-portfolio", id3, "flood_potential", "ssp245", null, null, inv());
    expect(series).toEqual(await RISK.timeseries("demo-portfolio", 3, "flood_potential", "ssp245", null, null, inv()));
  });

  test("NATURE with a row of metrics spills across; LAYER over an index column reads one applied layer", async () => {
    const [superproject] = await suite.fixture.client.nature.superprojects();
    const [sub] = await suite.fixture.client.nature.subprojects(superproject!);
    const exported = await suite.fixture.client.nature.exportSubproject(sub!.id);
    expect(await RISK.nature(one(sub!.name), [["seismic_baseline_mean", "wildfire_ssp585_2050_mean"]], inv())).toEqual([
      [exported.summary.seismic_baseline_mean, exported.summary.wildfire_ssp585_2050_mean],
    ]);

    const [vector] = await suite.fixture.client.compositions.listVectors();
    await suite.fixture.resetStats();
    const layer = await RISK.layer(
      one(vector!.id),
      one("demo-portfolio"),
      column(0, 1, 2, 3),
      one("loss_flood_2050"),
      inv(),
    );
    expect(Object.values(await suite.fixture.routes()).reduce((a, b) => a + b, 0)).toBe(1);
    for (let i = 0; i < 4; i++)
      expect(layer[i]![0]).toBe(
        only(await RISK.layer(one(vector!.id), one("demo-portfolio"), one(i), one("loss_flood_2050"), inv())),
      );
  });
});

describe("entity_id resolution", () => {
  test("a duplicated entity_id is a clear error naming the assets; digits-only text falls back to the index", () => {
    const index = new AssetIndex<string>();
    index.put(0, "A-1", "first");
    index.put(1, "DUP", "second");
    index.put(2, "DUP", "third");
    expect(index.resolve(readAssetRef("A-1"), "p")).toBe(0);
    expect(() => index.resolve(readAssetRef("DUP"), "p")).toThrow(
      'entity_id "DUP" is on 2 assets of "p" (index 1, 2): use the index',
    );
    expect(index.resolve(readAssetRef("2"), "p")).toBe(2);
    expect(index.resolve(readAssetRef(1), "p")).toBe(1);
  });
});
