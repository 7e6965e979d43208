/**
 * Scores derived from the hazard model: summary horizons, extended metrics, point search and
 * nature sub-project summaries. All are plain reductions of `modelValue`, so a summary score is
 * by definition the maximum of the same `mid` series the items endpoint serves.
 */
import {
  EXTENDED_KEY,
  Hazard,
  HAZARDS,
  IndicatorSpec,
  primaryIndicator,
  riskClass,
  Scenario,
  SEARCH_HAZARDS,
  searchLabel,
  WINDOW_START_YEAR,
  findIndicator,
} from "./catalog";
import { applyMeasure, modelMid, modelValue, pointProfile, PointProfile, round6 } from "./hazard-model";
import { field01 } from "./noise";

/** Maximum of the primary indicator's mid series over [WINDOW_START_YEAR, +window). */
export function horizonScore(
  hazard: Hazard,
  lat: number,
  lng: number,
  scenario: Scenario,
  window: number,
  seed: number,
): number {
  const spec = primaryIndicator(hazard);
  const p = pointProfile(hazard, lat, lng, seed);
  return horizonScoreOf(spec, p, scenario, window);
}

function horizonScoreOf(spec: IndicatorSpec, p: PointProfile, scenario: Scenario, window: number): number {
  let max = -Infinity;
  for (let y = WINDOW_START_YEAR; y < WINDOW_START_YEAR + window; y++) {
    const v = modelValue(spec, p, scenario, "mid", y);
    if (v > max) max = v;
  }
  return max;
}

/** One entry of a default summary item's `risk_summaries`. */
export interface RiskSummary {
  hazard: Hazard;
  risk_class: string;
  risk_score: number;
}

/** risk_summaries of a point for one scenario and window, optionally for one hazard only. */
export function riskSummaries(
  lat: number,
  lng: number,
  scenario: Scenario,
  window: number,
  seed: number,
  only?: Hazard,
): RiskSummary[] {
  const hazards = only ? [only] : HAZARDS;
  return hazards.map((hazard) => {
    const score = horizonScore(hazard, lat, lng, scenario, window, seed);
    return { hazard, risk_class: riskClass(hazard, score), risk_score: score };
  });
}

/**
 * risk_summaries of one point for any scenario and window, with each hazard's profile and each
 * scenario's yearly mid values computed once: a default summary lists every asset once per
 * scenario × window (9 times), and the windows are prefixes of one another. The numbers are
 * riskSummaries' to the bit (the same values, the same maximum).
 */
export function pointRiskSummaries(
  lat: number,
  lng: number,
  seed: number,
): (scenario: Scenario, window: number, only?: Hazard) => RiskSummary[] {
  const profiles = new Map<Hazard, PointProfile>();
  const series = new Map<string, number[]>(); // hazard|scenario → mid values from WINDOW_START_YEAR on
  const scoreOf = (hazard: Hazard, scenario: Scenario, window: number) => {
    const spec = primaryIndicator(hazard);
    let p = profiles.get(hazard);
    if (!p) profiles.set(hazard, (p = pointProfile(hazard, lat, lng, seed)));
    const key = `${hazard}|${scenario}`;
    let values = series.get(key);
    if (!values) series.set(key, (values = []));
    while (values.length < window) values.push(modelValue(spec, p, scenario, "mid", WINDOW_START_YEAR + values.length));
    let max = -Infinity;
    for (let k = 0; k < window; k++) if (values[k] > max) max = values[k];
    return max;
  };
  return (scenario, window, only) =>
    (only ? [only] : HAZARDS).map((hazard) => {
      const score = scoreOf(hazard, scenario, window);
      return { hazard, risk_class: riskClass(hazard, score), risk_score: score };
    });
}

/** Period definitions of the extended summary: baseline 2005-2015, others ±5 years. */
export const PERIODS: readonly { name: string; from: number; to: number }[] = [
  { name: "baseline", from: 2005, to: 2015 },
  { name: "2030", from: 2025, to: 2035 },
  { name: "2050", from: 2045, to: 2055 },
  { name: "2080", from: 2075, to: 2085 },
];

function periodMean(
  spec: IndicatorSpec,
  p: PointProfile,
  scenario: Scenario,
  measure: "lb" | "mid" | "ub",
  from: number,
  to: number,
): number {
  let sum = 0;
  for (let y = from; y <= to; y++) sum += modelValue(spec, p, scenario, measure, y);
  return sum / (to - from + 1);
}

/** The extended summary's keys per period and measure, in the order it lists them (built once). */
const PERIOD_KEYS = PERIODS.map((period) => ({
  period,
  measures: (
    [
      ["lb", "_lbd"],
      ["mid", ""],
      ["ub", "_ubd"],
    ] as const
  ).map(([measure, tail]) => ({
    measure,
    indicator: `indicator_${period.name}${tail}`,
    interruption: `business_interruption_${period.name}${tail}`,
    damage: `structural_damage_${period.name}${tail}`,
  })),
}));

/**
 * The metrics object of the extended summary for one point, scenario and hazard.
 * indicator_* are period means of lb/mid/ub; business interruption (days a year) and structural
 * damage (fraction of value) are monotone functions of the normalised indicator, so
 * lbd ≤ value ≤ ubd holds for every family. Each year's model mid is computed once and shared by
 * the three measures and the two horizons (a page of 250 assets is 1,500 of these objects; the
 * numbers are those of modelValue, to the bit).
 */
export function extendedMetrics(
  hazard: Hazard,
  lat: number,
  lng: number,
  scenario: Scenario,
  seed: number,
): Record<string, number | string> {
  const spec = primaryIndicator(hazard);
  const p = pointProfile(hazard, lat, lng, seed);
  const mids = new Map<number, number>();
  const valueAt = (measure: "lb" | "mid" | "ub", year: number) => {
    let mid = mids.get(year);
    if (mid === undefined) mids.set(year, (mid = modelMid(spec, p, scenario, year)));
    return applyMeasure(spec, mid, measure);
  };
  const out: Record<string, number | string> = {};
  for (const { period, measures } of PERIOD_KEYS) {
    for (const keys of measures) {
      let sum = 0;
      for (let y = period.from; y <= period.to; y++) sum += valueAt(keys.measure, y);
      const v = sum / (period.to - period.from + 1);
      const norm = Math.min(1, v / spec.value_norm);
      out[keys.indicator] = round6(v);
      out[keys.interruption] = round6(36.5 * norm);
      out[keys.damage] = round6(0.25 * norm * norm);
    }
  }
  const horizon = (window: number) => {
    let max = -Infinity;
    for (let y = WINDOW_START_YEAR; y < WINDOW_START_YEAR + window; y++) {
      const v = valueAt("mid", y);
      if (v > max) max = v;
    }
    return max;
  };
  const s15 = horizon(15);
  const s30 = horizon(30);
  out.summary_score_15yr = s15;
  out.summary_score_30yr = s30;
  out.summary_label_15yr = riskClass(hazard, s15);
  out.summary_label_30yr = riskClass(hazard, s30);
  return out;
}

/** scenario_analytics of the extended summary for a point. */
export function scenarioAnalytics(
  lat: number,
  lng: number,
  scenarios: readonly Scenario[],
  seed: number,
): Record<string, Record<string, Record<string, number | string>>> {
  const out: Record<string, Record<string, Record<string, number | string>>> = {};
  for (const scenario of scenarios) {
    const byHazard: Record<string, Record<string, number | string>> = {};
    for (const hazard of HAZARDS) byHazard[EXTENDED_KEY[hazard]] = extendedMetrics(hazard, lat, lng, scenario, seed);
    out[scenario] = byHazard;
  }
  return out;
}

/** One search score entry. */
export interface SearchScore {
  hazard: string;
  score: number;
  label: string;
}

/** Offsets (degrees) of the area sampled for `background` scores: a 3×3 grid ±0.25°. */
const BACKGROUND_OFFSETS = [-0.25, 0, 0.25];

/** 15- and 30-year horizon scores of one point in a single pass (the 15-year window is inside the 30-year one). */
function horizonPair(hazard: Hazard, lat: number, lng: number, scenario: Scenario, seed: number): [number, number] {
  const spec = primaryIndicator(hazard);
  const p = pointProfile(hazard, lat, lng, seed);
  let m15 = -Infinity;
  let m30 = -Infinity;
  for (let y = WINDOW_START_YEAR; y < WINDOW_START_YEAR + 30; y++) {
    const v = modelValue(spec, p, scenario, "mid", y);
    if (y < WINDOW_START_YEAR + 15 && v > m15) m15 = v;
    if (v > m30) m30 = v;
  }
  return [m15, m30];
}

type Exposure = { local: Record<string, SearchScore[]>; background: Record<string, SearchScore[]> };
const searchCache = new Map<string, Exposure>();
const SEARCH_CACHE_LIMIT = 50_000;

/**
 * Search scores at a point. `local` = the ssp245 horizon scores of an asset at that point;
 * `background` = the mean of the same scores over a 3×3 grid of points ±0.25° around it.
 * Results are memoised per (point, seed): the model is pure, so a cached answer is the answer.
 */
export function searchExposure(lat: number, lng: number, seed: number): Exposure {
  const key = `${lat},${lng},${seed}`;
  const hit = searchCache.get(key);
  if (hit) return hit;
  const local: Record<string, SearchScore[]> = { "15yr": [], "30yr": [] };
  const background: Record<string, SearchScore[]> = { "15yr": [], "30yr": [] };
  for (const { name, hazard } of SEARCH_HAZARDS) {
    const [l15, l30] = horizonPair(hazard, lat, lng, "ssp245", seed);
    let s15 = 0;
    let s30 = 0;
    let n = 0;
    for (const dy of BACKGROUND_OFFSETS) {
      for (const dx of BACKGROUND_OFFSETS) {
        const la = Math.max(-90, Math.min(90, lat + dy));
        let ln = lng + dx;
        if (ln > 180) ln -= 360;
        if (ln < -180) ln += 360;
        const [a, b] = horizonPair(hazard, la, ln, "ssp245", seed);
        s15 += a;
        s30 += b;
        n++;
      }
    }
    local["15yr"].push({ hazard: name, score: l15, label: searchLabel(hazard, l15) });
    local["30yr"].push({ hazard: name, score: l30, label: searchLabel(hazard, l30) });
    const b15 = round6(s15 / n);
    const b30 = round6(s30 / n);
    // Background arrays come in reverse order: the service's orders differ (docs/service.md#records).
    background["15yr"].unshift({ hazard: name, score: b15, label: searchLabel(hazard, b15) });
    background["30yr"].unshift({ hazard: name, score: b30, label: searchLabel(hazard, b30) });
  }
  const result = { local, background };
  if (searchCache.size >= SEARCH_CACHE_LIMIT) searchCache.clear();
  searchCache.set(key, result);
  return result;
}

/** Summary names of a nature sub-project export (docs/service.md#records). */
export const NATURE_SUMMARY_NAMES = [
  "pest_disease_baseline_mean",
  "seismic_baseline_mean",
  "wildfire_carbon_loss_baseline_mean",
  "wildfire_observed_baseline_mean",
  "wildfire_ssp585_baseline_mean",
  "wildfire_ssp585_2050_mean",
  "water_balance_ssp585_2050_mean",
] as const;

/** Extra summary names of blue-carbon sub-projects: cyclone_*, extreme_precip_*, sea_level_rise_* (docs/service.md). */
export const BLUE_CARBON_SUMMARY_NAMES = [
  "cyclone_baseline_mean",
  "cyclone_ssp585_2050_mean",
  "extreme_precip_baseline_mean",
  "extreme_precip_ssp585_2050_mean",
  "sea_level_rise_ssp585_2050_mean",
] as const;

/**
 * Blue-carbon values at one point: cyclone probability and sea-level change from the model;
 * "extreme precipitation" has no hazard of its own here, so the inland flood probability stands in.
 */
export function blueCarbonValues(lat: number, lng: number, seed: number): Record<string, number> {
  const mean = (hazard: Hazard, from: number, to: number) =>
    periodMean(primaryIndicator(hazard), pointProfile(hazard, lat, lng, seed), "ssp585", "mid", from, to);
  return {
    cyclone_baseline_mean: mean("cyclone", 2005, 2015),
    cyclone_ssp585_2050_mean: mean("cyclone", 2045, 2055),
    extreme_precip_baseline_mean: mean("flood_potential", 2005, 2015),
    extreme_precip_ssp585_2050_mean: mean("flood_potential", 2045, 2055),
    sea_level_rise_ssp585_2050_mean: mean("sea_level_rise", 2045, 2055),
  };
}

/** Nature summary values at one point (averaged over sample points by the caller). */
export function natureValues(lat: number, lng: number, seed: number): Record<string, number> {
  const wildfire = primaryIndicator("wildfire");
  const pw = pointProfile("wildfire", lat, lng, seed);
  const obs = findIndicator("wildfire", "obs_score")!;
  const spei = findIndicator("water_stress", "spei_norm")!;
  const pws = pointProfile("water_stress", lat, lng, seed);
  const baseline = periodMean(wildfire, pw, "ssp585", "mid", 2005, 2015);
  let obsSum = 0;
  for (let y = 2005; y <= 2015; y++) for (let m = 1; m <= 12; m++) obsSum += modelValue(obs, pw, "ssp585", "mid", y, m);
  return {
    pest_disease_baseline_mean: 0.1 + 0.6 * field01("pest_disease", lat, lng, seed),
    seismic_baseline_mean: 0.6 * Math.pow(field01("seismic", lat, lng, seed), 3),
    // Share of carbon stock lost to fire per year: burn probability times a combustion share.
    wildfire_carbon_loss_baseline_mean: baseline * 0.35,
    wildfire_observed_baseline_mean: obsSum / (11 * 12),
    wildfire_ssp585_baseline_mean: baseline,
    wildfire_ssp585_2050_mean: periodMean(wildfire, pw, "ssp585", "mid", 2045, 2055),
    // Positive = surplus, negative = deficit; drier where the SPEI-like index is high.
    water_balance_ssp585_2050_mean: 0.5 - periodMean(spei, pws, "ssp585", "mid", 2045, 2055),
  };
}
