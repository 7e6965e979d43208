import * as TypedRISK from "../../src/functions/functions";
import { asExcelCalls } from "./support/excel-calls";
import { createInvocation } from "../../testing/invocation";
import { cellError } from "./support/custom-functions-stub";
import { useSearchOnlyService } from "./support/search-only-service";
import { searchAnswer } from "./support/fake-service";

/**
 * Every argument rule of every RISK function, called as Excel calls them (the exported functions of
 * functions.ts with an invocation). A bad argument is #VALUE! naming the argument and what is
 * allowed, and sends nothing; an unknown hazard is #N/A; accepted spellings reach the service.
 */

const RISK = asExcelCalls(TypedRISK);
const service = useSearchOnlyService();
const inv = () => createInvocation();

type Case = [label: string, call: () => Promise<unknown>, code: string, message: string];

const cases: Case[] = [
  [
    "SEARCH lat text",
    () => RISK.search("north" as never, 0, "floods", "30yr", null as never, null as never, inv()),
    "#VALUE!",
    'lat must be a latitude from -90 to 90 (got "north")',
  ],
  [
    "SEARCH lat empty",
    () => RISK.search(null as never, 0, "floods", "30yr", null as never, null as never, inv()),
    "#VALUE!",
    "lat must be a latitude from -90 to 90 (got nothing)",
  ],
  [
    "SEARCH lat 91",
    () => RISK.search(91, 0, "floods", "30yr", null as never, null as never, inv()),
    "#VALUE!",
    "lat must be from -90 to 90 (got 91)",
  ],
  [
    "SEARCH lng -181",
    () => RISK.search(0, -181, "floods", "30yr", null as never, null as never, inv()),
    "#VALUE!",
    "lng must be from -180 to 180 (got -181)",
  ],
  [
    "SEARCH horizon 20yr",
    () => RISK.search(0, 0, "floods", "20yr", null as never, null as never, inv()),
    "#VALUE!",
    'horizon must be 15yr or 30yr (got "20yr")',
  ],
  [
    "SEARCH horizon missing",
    () => RISK.search(0, 0, "floods", null, null as never, null as never, inv()),
    "#VALUE!",
    "horizon must be 15yr or 30yr (got nothing)",
  ],
  [
    "SEARCH extent",
    () => RISK.search(0, 0, "floods", 30, "regional", null as never, inv()),
    "#VALUE!",
    'extent must be local or background (got "regional")',
  ],
  [
    "SEARCH field",
    () => RISK.search(0, 0, "floods", 30, null as never, "value", inv()),
    "#VALUE!",
    'field must be score or label (got "value")',
  ],
  [
    "SEARCH unknown hazard",
    () => RISK.search(0, 0, "lava", 30, null as never, null as never, inv()),
    "#N/A",
    'Unknown hazard "lava": use floods, cyclones, drought, heatwaves, sea_level_rise, wildfire',
  ],
  [
    "SUMMARY portfolio empty",
    () => RISK.summary("", 0, "floods", null as never, null, null as never, inv()),
    "#VALUE!",
    "portfolio must be a portfolio name (got nothing)",
  ],
  [
    "SUMMARY portfolio with space",
    () => RISK.summary("my book", 0, "floods", null as never, null, null as never, inv()),
    "#VALUE!",
    'portfolio must be a name of letters, digits, _ and - (got "my book")',
  ],
  [
    "SUMMARY index negative",
    () => RISK.summary("p", -1, "floods", null as never, null, null as never, inv()),
    "#VALUE!",
    "index must be a whole number from 0 (got -1)",
  ],
  [
    "SUMMARY index fraction",
    () => RISK.summary("p", 1.5, "floods", null as never, null, null as never, inv()),
    "#VALUE!",
    "index must be a whole number from 0 (got 1.5)",
  ],
  // Text is an entity_id now: only a blank index is refused before any request.
  [
    "SUMMARY index blank",
    () => RISK.summary("p", " " as never, "floods", null as never, null, null as never, inv()),
    "#VALUE!",
    "index must be the asset's portfolio_index (a whole number from 0) or its entity_id (got nothing)",
  ],
  [
    "SUMMARY hazard empty",
    () => RISK.summary("p", 0, "", null as never, null, null as never, inv()),
    "#VALUE!",
    "hazard must be a hazard such as floods, cyclones, drought, heatwaves, wildfire (got nothing)",
  ],
  [
    "SUMMARY unknown hazard",
    () => RISK.summary("p", 0, "hail", null as never, null, null as never, inv()),
    "#N/A",
    'Unknown hazard "hail": use floods, cyclones, drought, heatwaves, sea_level_rise, wildfire',
  ],
  [
    "SUMMARY scenario",
    () => RISK.summary("p", 0, "floods", "rcp85", null, null as never, inv()),
    "#VALUE!",
    'scenario must be ssp126, ssp245, or ssp585 (got "rcp85")',
  ],
  [
    "SUMMARY window 10",
    () => RISK.summary("p", 0, "floods", "ssp585", 10, null as never, inv()),
    "#VALUE!",
    "window must be 5, 15 or 30 years (got 10)",
  ],
  [
    "SUMMARY field",
    () => RISK.summary("p", 0, "floods", "ssp585", 5, "label", inv()),
    "#VALUE!",
    'field must be score or class (got "label")',
  ],
  [
    "METRIC scenario missing",
    () => RISK.metric("p", 0, null as never, "flood", "indicator_2030", inv()),
    "#VALUE!",
    "scenario must be ssp126, ssp245, or ssp585 (got nothing)",
  ],
  [
    "METRIC metric missing",
    () => RISK.metric("p", 0, "ssp585", "flood", "", inv()),
    "#VALUE!",
    "metric must be a name such as structural_damage_2050_ubd (got nothing)",
  ],
  [
    "TIMESERIES scenario missing",
    () => RISK.timeseries("p", 0, "wildfire", "", null as never, null as never, inv()),
    "#VALUE!",
    "scenario must be ssp126, ssp245, or ssp585 (got nothing)",
  ],
  [
    "TIMESERIES indicator of another hazard",
    () => RISK.timeseries("p", 0, "floods", "ssp585", "prob", null as never, inv()),
    "#VALUE!",
    "indicator for flood_potential must be inland_flood_prob, obs_score",
  ],
  [
    "TIMESERIES measure",
    () => RISK.timeseries("p", 0, "floods", "ssp585", null as never, "max", inv()),
    "#VALUE!",
    'measure must be lb, mid, or ub (got "max")',
  ],
  [
    "ASSETS portfolio empty",
    () => RISK.assets(null as never, inv()),
    "#VALUE!",
    "portfolio must be a portfolio name (got nothing)",
  ],
  [
    "LAYER vector empty",
    () => RISK.layer(null, "p", 0, null as never, inv()),
    "#VALUE!",
    "vector must be a vector layer id (got nothing)",
  ],
  [
    "LAYER index",
    () => RISK.layer(3, "p", -2, null as never, inv()),
    "#VALUE!",
    "index must be a whole number from 0 (got -2)",
  ],
  [
    "NATURE subproject empty",
    () => RISK.nature("", "seismic_baseline_mean", inv()),
    "#VALUE!",
    "subproject must be a sub-project id or name (got nothing)",
  ],
  [
    "NATURE metric empty",
    () => RISK.nature("Forest A", null as never, inv()),
    "#VALUE!",
    "metric must be a name such as wildfire_ssp585_2050_mean (got nothing)",
  ],
];

describe("bad arguments", () => {
  test.each(cases)("%s", async (_label, call, code, message) => {
    const before = service().seen.length;
    expect(await cellError(call())).toEqual({ code, message });
    expect(message.length).toBeLessThan(100);
    expect(service().seen.length).toBe(before); // nothing was sent
  });
});

describe("accepted spellings", () => {
  test("hazards in any of their spellings and case, horizons as 15/30/'30 yr' read the same score", async () => {
    const expected = searchAnswer(12, 34).features[0]!.properties.physical_risk_exposure.local;
    const flood30 = expected["30yr"].find((e) => e.hazard === "floods")!.score;
    for (const hazard of ["floods", "FLOODS", "flood_potential", "Flood"]) {
      for (const horizon of ["30yr", 30, "30", "30 yr", "30YR"]) {
        expect(await RISK.search(12, 34, hazard, horizon, null as never, null as never, inv())).toEqual([[flood30]]);
      }
    }
    const slr = expected["15yr"].find((e) => e.hazard === "sea_level_rise")!;
    expect(await RISK.search(12, 34, "Sea level rise", 15, "LOCAL", "Label", inv())).toEqual([[slr.label]]);
    const drought = searchAnswer(12, 34).features[0]!.properties.physical_risk_exposure.background["15yr"].find(
      (e) => e.hazard === "drought",
    )!;
    expect(
      await RISK.search("12" as never, "34" as never, "water_stress", "15", "background", null as never, inv()),
    ).toEqual([[drought.score]]);
  });

  test("valid portfolio arguments reach the service; its 404 is #N/A naming the portfolio", async () => {
    expect(await cellError(RISK.summary("north-sea_2", 0, "cyclones", "SSP585", "15yr", "CLASS", inv()))).toEqual({
      code: "#N/A",
      message: 'Unknown portfolio "north-sea_2"',
    });
    expect(service().seen.at(-1)!.path).toBe("/api/portfolios/north-sea_2/datasets/physical/summary");
    expect(service().seen.at(-1)!.query.get("scenario")).toBe("ssp585");
    expect(service().seen.at(-1)!.query.get("window")).toBe("15");
  });
});
