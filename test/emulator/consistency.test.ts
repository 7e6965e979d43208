/**
 * The numbers agree across endpoints because one model feeds them all: summary = max of the
 * items' mid series over the window, labels follow the thresholds, bounds bracket values,
 * search local = portfolio scores, the ZIP holds the API's numbers, scenarios are ordered.
 */
import Papa from "papaparse";
import { unzipSync, strFromU8 } from "fflate";
import type { Asset, ExtendedSummaryItem, PhysicalItemRecord, SearchResult, SummaryItem } from "../../src/api/types";
import { call, portfolioWith, spiralCsv } from "./helpers";
import { DEMO_HEADERS, useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();

const P = "/api/portfolios/demo-portfolio";
const PRIMARY: Record<string, string> = {
  wildfire: "unified_prob",
  flood_potential: "inland_flood_prob",
  cyclone: "prob",
  heatwave: "freq",
  sea_level_rise: "change",
  water_stress: "unified_score",
};
// The service's thresholds (docs/service.md#what-the-numbers-mean), restated so the test does not read the emulator's.
const T: Record<string, [number, number]> = {
  wildfire: [0.001, 0.01],
  flood_potential: [0.01, 0.05],
  cyclone: [0.01, 0.05],
  water_stress: [0.3, 0.6],
  heatwave: [30, 50],
  sea_level_rise: [0.375, 0.75],
};
const classOf = (h: string, v: number) => (v < T[h][0] ? "LOW" : v <= T[h][1] ? "MEDIUM" : "HIGH");

async function midSeries(
  index: number,
  entity: string,
  hazard: string,
  scenario: string,
): Promise<Record<string, number>> {
  const query = new URLSearchParams({
    entity_id: entity,
    hazard,
    indicator: PRIMARY[hazard],
    scenario,
    measure: "mid",
  });
  const r = await call<PhysicalItemRecord[]>(emu, "GET", `${P}/datasets/physical/items?${query}`);
  expect(r.body).toHaveLength(1);
  expect(r.body[0].portfolio_index).toBe(index);
  return r.body[0].risk_exposure;
}

test("summary risk_score = max of the mid series over 2025..2025+window-1, class by thresholds", async () => {
  for (const [index, entity] of [
    [0, "DEMO-001"],
    [42, "DEMO-043"],
    [26, "DEMO-027"],
  ] as const) {
    for (const scenario of ["ssp126", "ssp585"]) {
      const s = await call<SummaryItem[]>(
        emu,
        "GET",
        `${P}/datasets/physical/summary?entity_id=${entity}&scenario=${scenario}`,
      );
      expect(s.body.map((x) => x.window)).toEqual([5, 15, 30]);
      for (const item of s.body) {
        expect(item.window_start_year).toBe(2025);
        for (const r of item.risk_summaries) {
          const series = await midSeries(index, entity, r.hazard, scenario);
          let max = -Infinity;
          for (let y = 2025; y < 2025 + item.window; y++) max = Math.max(max, series[String(y)]);
          expect([r.hazard, item.window, r.risk_score]).toEqual([r.hazard, item.window, max]);
          expect(r.risk_class).toBe(classOf(r.hazard, r.risk_score));
        }
      }
    }
  }
});

test("every label class appears somewhere in the demo portfolio (the thresholds matter)", async () => {
  const s = await call<SummaryItem[]>(emu, "GET", `${P}/datasets/physical/summary?scenario=ssp585&window=30&rows=250`);
  const classes = new Set(s.body.flatMap((i) => i.risk_summaries.map((r) => r.risk_class)));
  expect([...classes].sort()).toEqual(["HIGH", "LOW", "MEDIUM"]);
});

test("extended metrics: lbd ≤ value ≤ ubd; summary scores equal the default summary's windows", async () => {
  const ext = await call<ExtendedSummaryItem[]>(emu, "GET", `${P}/datasets/physical/summary?extended=true&rows=10`);
  const def = await call<SummaryItem[]>(emu, "GET", `${P}/datasets/physical/summary?rows=90`);
  expect(ext.body).toHaveLength(10);
  for (const item of ext.body) {
    for (const [scenario, hazards] of Object.entries(item.scenario_analytics)) {
      for (const [hkey, m] of Object.entries(hazards)) {
        for (const fam of ["business_interruption", "indicator", "structural_damage"]) {
          for (const period of ["baseline", "2030", "2050", "2080"]) {
            const v = m[`${fam}_${period}`];
            expect(typeof v).toBe("number");
            // Numbers once the line above holds (a null bound fails the matcher, as it should).
            expect(m[`${fam}_${period}_lbd`]).toBeLessThanOrEqual(v as number);
            expect(v).toBeLessThanOrEqual(m[`${fam}_${period}_ubd`] as number);
          }
        }
        const hazard = hkey === "flood" ? "flood_potential" : hkey;
        for (const w of [15, 30]) {
          const d = def.body.find(
            (x) => x.portfolio_index === item.portfolio_index && x.scenario === scenario && x.window === w,
          )!;
          const r = d.risk_summaries.find((x) => x.hazard === hazard)!;
          expect(m[`summary_score_${w}yr`]).toBe(r.risk_score);
          expect(m[`summary_label_${w}yr`]).toBe(r.risk_class);
        }
      }
    }
  }
});

test("scenario ordering ssp585 ≥ ssp245 ≥ ssp126 and the service's repeated scenarios", async () => {
  const get = (scenario: string, hazard: string) => midSeries(30, "DEMO-031", hazard, scenario);
  for (const hazard of Object.keys(PRIMARY)) {
    const [a, b, c] = await Promise.all([get("ssp126", hazard), get("ssp245", hazard), get("ssp585", hazard)]);
    for (const y of Object.keys(a)) {
      expect(b[y]).toBeGreaterThanOrEqual(a[y]);
      expect(c[y]).toBeGreaterThanOrEqual(b[y]);
    }
    if (["flood_potential", "water_stress", "heatwave"].includes(hazard)) expect(a).toEqual(b);
    if (hazard === "cyclone") {
      expect(a).toEqual(c);
      expect(b).toEqual(c);
    }
    if (hazard === "wildfire") expect(c["2100"]).toBeGreaterThan(a["2100"]);
    // Trend: the late century exceeds the early century under ssp585 where the hazard exists.
    if (c["2025"] > 0) expect(c["2095"]).toBeGreaterThan(c["2025"]);
  }
});

test("measures: lb ≤ mid ≤ ub for every year", async () => {
  const r = await call<PhysicalItemRecord[]>(
    emu,
    "GET",
    `${P}/datasets/physical/items?entity_id=DEMO-020&hazard=water_stress&scenario=ssp245&rows=250`,
  );
  const by = (ind: string, m: string) => r.body.find((x) => x.indicator === ind && x.measure === m)!.risk_exposure;
  for (const ind of ["unified_score", "score", "spei_norm", "obs_score"]) {
    const lb = by(ind, "lb");
    const mid = by(ind, "mid");
    const ub = by(ind, "ub");
    for (const k of Object.keys(mid)) {
      expect(lb[k]).toBeLessThanOrEqual(mid[k]);
      expect(mid[k]).toBeLessThanOrEqual(ub[k]);
    }
  }
});

test(
  "search local scores at an asset's point equal its ssp245 portfolio scores; " +
    "labels LOW/HIGH by the LOW threshold",
  async () => {
    const map: Record<string, string> = {
      floods: "flood_potential",
      cyclones: "cyclone",
      drought: "water_stress",
      heatwaves: "heatwave",
      sea_level_rise: "sea_level_rise",
      wildfire: "wildfire",
    };
    const assets = await call<Asset[]>(emu, "GET", `${P}/assets?rows=250`);
    for (const a of assets.body.filter((_, i) => i % 7 === 0)) {
      const s = await call<SearchResult>(emu, "GET", `/api/search?lat=${a.lat}&lng=${a.lng}`);
      const e = s.body.features[0].properties.physical_risk_exposure;
      const sum = await call<SummaryItem[]>(
        emu,
        "GET",
        `${P}/datasets/physical/summary?entity_id=${a.entity_id}&scenario=ssp245`,
      );
      for (const w of [15, 30] as const) {
        const item = sum.body.find((x) => x.window === w)!;
        for (const entry of e.local[`${w}yr`]) {
          const r = item.risk_summaries.find((x) => x.hazard === map[entry.hazard])!;
          expect([entry.hazard, entry.score]).toEqual([entry.hazard, r.risk_score]);
          expect(entry.label).toBe(entry.score < T[map[entry.hazard]][0] ? "LOW" : "HIGH");
        }
        for (const entry of e.background[`${w}yr`])
          expect(entry.label).toBe(entry.score < T[map[entry.hazard]][0] ? "LOW" : "HIGH");
      }
    }
  },
);

test("plausible geography: cyclones only in the tropical belts, more heat near the equator", async () => {
  const score = async (lat: number, lng: number, hazard: string) => {
    const s = await call<SearchResult>(emu, "GET", `/api/search?lat=${lat}&lng=${lng}`);
    return s.body.features[0].properties.physical_risk_exposure.local["30yr"].find((x) => x.hazard === hazard)!.score;
  };
  for (const lng of [-150, -60, 30, 120]) {
    expect(await score(60, lng, "cyclones")).toBeLessThan(0.001);
    expect(await score(0, lng, "cyclones")).toBeLessThan(0.01);
    expect(await score(5, lng, "heatwaves")).toBeGreaterThan(await score(60, lng, "heatwaves"));
  }
});

test("the ZIP export holds the API's numbers", async () => {
  const res = await fetch(`${emu.url}${P}/datasets/physical/export`, {
    headers: DEMO_HEADERS,
  });
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining(["exposure_ssp245.csv", "exposure_bounds_ssp245.csv", "summary_ssp585.csv"]),
  );
  const exposure = Papa.parse<Record<string, string>>(strFromU8(files["exposure_ssp245.csv"]), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const row = exposure.find((r) => r.entity_id === "DEMO-005" && r.hazard === "heatwave")!;
  const series = await midSeries(4, "DEMO-005", "heatwave", "ssp245");
  for (const y of ["2020", "2050", "2100"]) expect(Number(row[y])).toBe(series[y]);
  const bounds = Papa.parse<Record<string, string>>(strFromU8(files["exposure_bounds_ssp245.csv"]), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const ub = bounds.find((r) => r.entity_id === "DEMO-005" && r.hazard === "heatwave" && r.measure === "ub")!;
  const api = await call(
    emu,
    "GET",
    `${P}/datasets/physical/items?entity_id=DEMO-005&hazard=heatwave&indicator=freq&scenario=ssp245&measure=ub`,
  );
  expect(Number(ub["2050"])).toBe(api.body[0].risk_exposure["2050"]);
  const summary = Papa.parse<Record<string, string>>(strFromU8(files["summary_ssp585.csv"]), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const s = await call(emu, "GET", `${P}/datasets/physical/summary?entity_id=DEMO-012&scenario=ssp585&window=15`);
  for (const r of s.body[0].risk_summaries) {
    const z = summary.find((x) => x.entity_id === "DEMO-012" && x.window === "15" && x.hazard === r.hazard)!;
    expect([r.hazard, Number(z.risk_score), z.risk_class]).toEqual([r.hazard, r.risk_score, r.risk_class]);
  }
});

test("items of a 5,000-asset portfolio are computed per page: page 2,000 costs about what page 1 costs", async () => {
  await portfolioWith(emu, "big", spiralCsv(5000));
  const timed = async (page: number) => {
    const t = performance.now();
    const r = await call(emu, "GET", `/api/portfolios/big/datasets/physical/items?rows=250&page=${page}`);
    expect(r.body).toHaveLength(250);
    return { ms: performance.now() - t, first: r.body[0] };
  };
  await timed(1); // warm-up
  const p1 = await timed(1);
  const p2000 = await timed(2000);
  // 5,000 assets × 126 series = 630,000 items; page 2,000 starts at item 499,750 = asset 3,966.
  expect(p2000.first.portfolio_index).toBe(Math.floor(499750 / 126));
  expect(p2000.ms).toBeLessThan(Math.max(3 * p1.ms, p1.ms + 150));
  const last = await call(emu, "GET", "/api/portfolios/big/datasets/physical/items?rows=250&page=2520");
  expect(last.body).toHaveLength(250);
  const beyond = await call(emu, "GET", "/api/portfolios/big/datasets/physical/items?rows=250&page=2521");
  expect(beyond.body).toEqual([]);
});
