/**
 * The catalogue of hazards, indicators, scenarios and label thresholds the emulator serves,
 * as docs/service.md describes them. Everything that enumerates series (items, summaries, exports,
 * metadata) reads this one table, so the endpoints cannot disagree about what exists.
 */

/** Hazard names as the portfolio endpoints spell them. */
export const HAZARDS = [
  "cyclone",
  "flood_potential",
  "heatwave",
  "sea_level_rise",
  "water_stress",
  "wildfire",
] as const;
export type Hazard = (typeof HAZARDS)[number];

export const SCENARIOS = ["ssp126", "ssp245", "ssp585"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const MEASURES = ["lb", "mid", "ub"] as const;
export type Measure = (typeof MEASURES)[number];

/** Summary windows in years, all starting at WINDOW_START_YEAR. */
export const WINDOWS = [5, 15, 30] as const;
export const WINDOW_START_YEAR = 2025;

/** Yearly span of projection series ("YYYY" keys). */
export const PROJECTION_FIRST_YEAR = 1980;
export const PROJECTION_LAST_YEAR = 2100;
/** Monthly span of observed series ("YYYY-MM" keys). */
export const OBSERVED_FIRST_YEAR = 2000;
export const OBSERVED_LAST_YEAR = 2023;

/** One indicator of one hazard with its unit and value range. */
export interface IndicatorSpec {
  hazard: Hazard;
  indicator: string;
  kind: "projection" | "observed";
  unit: string;
  value_min: number;
  value_max: number;
  /** The value that maps to 1 when normalising (used for damage metrics). */
  value_norm: number;
}

/**
 * Indicators per hazard exactly as docs/service.md#hazards-and-their-three-spellings lists them; the first
 * of each hazard is its primary one.
 */
export const INDICATORS: readonly IndicatorSpec[] = [
  {
    hazard: "wildfire",
    indicator: "unified_prob",
    kind: "projection",
    unit: "annual probability",
    value_min: 0,
    value_max: 0.05,
    value_norm: 0.02,
  },
  {
    hazard: "wildfire",
    indicator: "obs_score",
    kind: "observed",
    unit: "score 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
  {
    hazard: "flood_potential",
    indicator: "inland_flood_prob",
    kind: "projection",
    unit: "annual probability",
    value_min: 0,
    value_max: 0.2,
    value_norm: 0.1,
  },
  {
    hazard: "flood_potential",
    indicator: "obs_score",
    kind: "observed",
    unit: "score 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
  {
    hazard: "cyclone",
    indicator: "prob",
    kind: "projection",
    unit: "annual probability",
    value_min: 0,
    value_max: 0.3,
    value_norm: 0.1,
  },
  {
    hazard: "cyclone",
    indicator: "obs_freq",
    kind: "observed",
    unit: "events per month",
    value_min: 0,
    value_max: 5,
    value_norm: 1,
  },
  {
    hazard: "heatwave",
    indicator: "freq",
    kind: "projection",
    unit: "days a year",
    value_min: 0,
    value_max: 366,
    value_norm: 100,
  },
  {
    hazard: "heatwave",
    indicator: "obs_freq",
    kind: "observed",
    unit: "days a month",
    value_min: 0,
    value_max: 31,
    value_norm: 31,
  },
  {
    hazard: "sea_level_rise",
    indicator: "change",
    kind: "projection",
    unit: "metres",
    value_min: 0,
    value_max: 3,
    value_norm: 1.5,
  },
  {
    hazard: "sea_level_rise",
    indicator: "obs_change",
    kind: "observed",
    unit: "metres",
    value_min: 0,
    value_max: 0.5,
    value_norm: 0.5,
  },
  {
    hazard: "water_stress",
    indicator: "unified_score",
    kind: "projection",
    unit: "score 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
  {
    hazard: "water_stress",
    indicator: "score",
    kind: "projection",
    unit: "score 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
  {
    hazard: "water_stress",
    indicator: "spei_norm",
    kind: "projection",
    unit: "normalised index 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
  {
    hazard: "water_stress",
    indicator: "obs_score",
    kind: "observed",
    unit: "score 0..1",
    value_min: 0,
    value_max: 1,
    value_norm: 1,
  },
].map((s) => ({ ...s, hazard: s.hazard as Hazard, kind: s.kind as IndicatorSpec["kind"] }));

/** Spatial resolution reported by the metadata endpoint, in degrees (a number, as published). */
export const SPATIAL_RESOLUTION = 0.25;

/** The primary projection indicator of a hazard: the one summaries and searches score. */
export function primaryIndicator(hazard: Hazard): IndicatorSpec {
  return INDICATORS.find((s) => s.hazard === hazard && s.kind === "projection")!;
}

/** Looks up one indicator, or undefined when the hazard has no such indicator. */
export function findIndicator(hazard: string, indicator: string): IndicatorSpec | undefined {
  return INDICATORS.find((s) => s.hazard === hazard && s.indicator === indicator);
}

/** LOW below `low`, MEDIUM up to `medium`, HIGH above (docs/service.md#what-the-numbers-mean). */
export const THRESHOLDS: Record<Hazard, { low: number; medium: number }> = {
  wildfire: { low: 0.001, medium: 0.01 },
  flood_potential: { low: 0.01, medium: 0.05 },
  cyclone: { low: 0.01, medium: 0.05 },
  water_stress: { low: 0.3, medium: 0.6 },
  heatwave: { low: 30, medium: 50 },
  sea_level_rise: { low: 0.375, medium: 0.75 },
};

/** The portfolio label of a score. */
export function riskClass(hazard: Hazard, score: number): "LOW" | "MEDIUM" | "HIGH" {
  const t = THRESHOLDS[hazard];
  return score < t.low ? "LOW" : score <= t.medium ? "MEDIUM" : "HIGH";
}

/** The search label of a score: HIGH as soon as the score reaches the LOW threshold. */
export function searchLabel(hazard: Hazard, score: number): "LOW" | "HIGH" {
  return score < THRESHOLDS[hazard].low ? "LOW" : "HIGH";
}

/**
 * The scenario whose numbers a hazard actually uses: for flood, water stress and heatwave ssp126
 * repeats ssp245; for cyclone ssp126 and ssp245 repeat ssp585 (docs/service.md#what-the-numbers-mean).
 */
export function effectiveScenario(hazard: Hazard, scenario: Scenario): Scenario {
  if (hazard === "cyclone") return "ssp585";
  if (scenario === "ssp126" && (hazard === "flood_potential" || hazard === "water_stress" || hazard === "heatwave"))
    return "ssp245";
  return scenario;
}

/** Extended-summary hazard keys (flood is `flood` there). */
export const EXTENDED_KEY: Record<Hazard, string> = {
  cyclone: "cyclone",
  flood_potential: "flood",
  heatwave: "heatwave",
  sea_level_rise: "sea_level_rise",
  water_stress: "water_stress",
  wildfire: "wildfire",
};

/** Search hazard names mapped to portfolio hazards. */
export const SEARCH_HAZARDS: readonly { name: string; hazard: Hazard }[] = [
  { name: "floods", hazard: "flood_potential" },
  { name: "cyclones", hazard: "cyclone" },
  { name: "drought", hazard: "water_stress" },
  { name: "heatwaves", hazard: "heatwave" },
  { name: "sea_level_rise", hazard: "sea_level_rise" },
  { name: "wildfire", hazard: "wildfire" },
];

export function isHazard(x: string): x is Hazard {
  return (HAZARDS as readonly string[]).includes(x);
}
export function isScenario(x: string): x is Scenario {
  return (SCENARIOS as readonly string[]).includes(x);
}
export function isMeasure(x: string): x is Measure {
  return (MEASURES as readonly string[]).includes(x);
}
