/** Pure shaping of the risk views and of tidy timeseries: no Excel, no HTTP. */
import {
  buildRiskMatrix,
  buildScenarioComparison,
  labelCountsByHazard,
  labelCountsTable,
} from "../../src/taskpane/features/visual/model/risk-views";
import { TidyTimeseriesBuilder, splitTimeseries } from "../../src/shaping/tidy-timeseries";
import type { PhysicalItem, SummaryItem } from "../../src/shaping/types";
import { englishTranslator } from "../../src/i18n/translator";
import { SeriesValues } from "../../src/api/series-values";

const item = (
  index: number,
  scenario: string,
  window: number,
  risks: Array<[string, string, number]>,
): SummaryItem => ({
  portfolio_name: "p",
  portfolio_index: index,
  entity_id: `E${index}`,
  entity_name: `Asset ${index}`,
  scenario,
  window,
  window_start_year: 2025,
  risk_summaries: risks.map(([hazard, risk_class, risk_score]) => ({
    hazard,
    risk_class: risk_class as "LOW",
    risk_score,
  })),
});

describe("risk views", () => {
  const items = [
    item(1, "ssp585", 30, [
      ["wildfire", "HIGH", 0.9],
      ["cyclone", "LOW", 0.1],
    ]),
    item(0, "ssp585", 30, [["wildfire", "LOW", 0.2]]),
    item(0, "ssp126", 30, [["wildfire", "LOW", 0.1]]),
    item(1, "ssp126", 30, [["wildfire", "MEDIUM", 0.5]]),
    item(2, "ssp126", 30, [["wildfire", "MEDIUM", 0.5]]), // no ssp585: sorts last
    item(0, "ssp585", 15, [["wildfire", "HIGH", 0.99]]), // other window: ignored
  ];

  it("a matrix row per asset of the scenario and window, a hazard the asset lacks is an empty cell", () => {
    const m = buildRiskMatrix(items, "ssp585", 30, "label");
    expect(m.header).toEqual(["portfolio_index", "entity_id", "entity_name", "cyclone", "wildfire"]);
    expect(m.rows).toEqual([
      [0, "E0", "Asset 0", "", "LOW"],
      [1, "E1", "Asset 1", "LOW", "HIGH"],
    ]);
    expect(buildRiskMatrix(items, "ssp585", 30, "score").rows[1].slice(3)).toEqual([0.1, 0.9]);
    expect(englishTranslator.format(m.title)).toContain("ssp585 · 30-year window");
  });

  it("the comparison sorts by the largest increase, assets missing a scenario last", () => {
    const c = buildScenarioComparison(items, "wildfire", 30);
    expect(c.rows.map((r) => r[0])).toEqual([1, 0, 2]);
    expect(c.rows[0][c.changeColumn]).toBeCloseTo(0.4, 9);
    expect(c.rows[0][c.changeColumn + 1]).toBe("MEDIUM → HIGH");
    expect(c.rows[1][c.changeColumn + 1]).toBe("LOW (same)");
    expect(c.rows[2][c.changeColumn]).toBe("");
  });

  it("counts per label and hazard, as a table a stacked chart draws", () => {
    const counts = labelCountsByHazard(items.filter((i) => i.scenario === "ssp585" && i.window === 30));
    expect(counts).toEqual({ cyclone: { LOW: 1, MEDIUM: 0, HIGH: 0 }, wildfire: { LOW: 1, MEDIUM: 0, HIGH: 1 } });
    expect(labelCountsTable(counts)).toEqual({
      header: ["label", "cyclone", "wildfire"],
      rows: [
        ["LOW", 1, 1],
        ["MEDIUM", 0, 0],
        ["HIGH", 0, 1],
      ],
    });
  });
});

describe("tidy timeseries", () => {
  const series = (index: number, exposure: Record<string, number>): PhysicalItem =>
    ({
      portfolio_name: "p",
      portfolio_index: index,
      entity_id: `E${index}`,
      entity_name: `A${index}`,
      hazard: "h",
      indicator: "i",
      scenario: "ssp585",
      measure: "mid",
      risk_exposure: SeriesValues.from(exposure),
    }) as PhysicalItem;

  it("projected and observed series go to separate tables, every cell filled", () => {
    const split = splitTimeseries([
      series(0, { "2020": 1, "2021": 2 }),
      series(0, { "2020-01": 5, "2020-02": 6 }),
      series(1, { "2020": 3, "2021": 4 }),
    ]);
    expect(split.projected.header.slice(7)).toEqual(["2020", "2021"]);
    expect(split.projected.rows.map((r) => r.slice(7))).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(split.observed.header.slice(7)).toEqual(["2020-01", "2020-02"]);
    expect(split.observed.rows).toHaveLength(1);
  });

  it("a key first seen on a later page becomes a new column; earlier rows are narrower", () => {
    const b = new TidyTimeseriesBuilder();
    const first = b.add([series(0, { "2020": 1 })]);
    const second = b.add([series(1, { "2020": 2, "2021": 3 })]);
    expect(first.projected[0]).toHaveLength(8);
    expect(second.projected[0].slice(7)).toEqual([2, 3]);
    expect(b.header("projected").slice(7)).toEqual(["2020", "2021"]);
  });
});
