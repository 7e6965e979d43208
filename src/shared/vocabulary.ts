/**
 * The domain vocabulary of the add-in, in one place: the climate scenarios and the demo
 * connection. Pure data and lookups with no imports, so every layer of src (api, shaping, functions, excel,
 * taskpane) and the harness, bench and tests can use it without crossing a layer boundary.
 *
 * And the hazards: their three spellings (search `floods`, portfolio `flood_potential`, extended
 * summary `flood`), their indicators, units and label thresholds (LOW below `low`, MEDIUM up to
 * `medium`, HIGH above), in the one table `HAZARDS`. The functions turn an unknown name into `#N/A`
 * with `findHazard` (src/functions/hazards.ts); everything else looks names up here.
 *
 * The emulator keeps its own copies (emulator/model/catalog.ts, emulator/state/seed.ts), as the
 * real service would; test/vocabulary.test.ts fails when the two disagree.
 */

/** The SSP scenarios the service serves, lowest emissions first. */
export const SCENARIOS = ["ssp126", "ssp245", "ssp585"] as const;

/** One of `SCENARIOS`. */
export type ScenarioName = (typeof SCENARIOS)[number];

/** The scenario used when a function or form is given none. */
export const DEFAULT_SCENARIO: ScenarioName = "ssp245";

/**
 * The scenario a stress view starts from when the user has chosen none: the highest emissions
 * (the extended summary, the risk matrix, the timeseries pull).
 */
export const STRESS_SCENARIO: ScenarioName = "ssp585";

/** The summary windows in years (each starts in 2025). */
export const WINDOWS = [5, 15, 30] as const;

/** The window used when a function or form is given none. */
export const DEFAULT_WINDOW: (typeof WINDOWS)[number] = 30;

/** The bounds of a timeseries: lower, middle and upper estimate. */
export const MEASURES = ["lb", "mid", "ub"] as const;

/** The measure used when a function or form is given none. */
export const DEFAULT_MEASURE: (typeof MEASURES)[number] = "mid";

/** The port the local emulator listens on by default (`npm run emulator`). */
export const DEMO_PORT = 4010;

/** The API key the emulator seeds; it opens the demo project. */
export const DEMO_API_KEY = "demo-key";

/** The project the demo key may read. */
export const DEMO_PROJECT = "demo";

/** The emulator's base URL at its default port. */
export const DEMO_BASE_URL = `http://127.0.0.1:${DEMO_PORT}`;

/**
 * The six hazards under their three spellings: the search endpoint's (`floods`), the portfolio
 * endpoints' (`flood_potential`) and the extended summary's (`flood`). Every RISK function accepts
 * any of them, case-insensitively, and uses the one its endpoint expects.
 */
export interface HazardNames {
  /** As `GET /api/search` names it, e.g. `floods`. */
  search: string;
  /** As the default summary and timeseries items name it, e.g. `flood_potential`. */
  portfolio: string;
  /** As the extended summary's `scenario_analytics` names it, e.g. `flood`. */
  extended: string;
  /** Indicators of the timeseries items (field notes); the first is the primary projection. */
  indicators: readonly string[];
  /**
   * The label thresholds of field notes, "What the numbers mean": LOW below `low`, MEDIUM up to
   * `medium`, HIGH above. The one copy in src (the emulator keeps its own, as the service does; test/vocabulary.test.ts
   * checks they agree).
   */
  thresholds: { low: number; medium: number };
  /** The scores' unit, as the same table gives it. */
  unit: string;
}

/** In the order the all-hazards table of RISK.SEARCH lists them. */
export const HAZARDS: readonly HazardNames[] = [
  {
    search: "floods",
    portfolio: "flood_potential",
    extended: "flood",
    indicators: ["inland_flood_prob", "obs_score"],
    thresholds: { low: 0.01, medium: 0.05 },
    unit: "annual probability",
  },
  {
    search: "cyclones",
    portfolio: "cyclone",
    extended: "cyclone",
    indicators: ["prob", "obs_freq"],
    thresholds: { low: 0.01, medium: 0.05 },
    unit: "annual probability",
  },
  {
    search: "drought",
    portfolio: "water_stress",
    extended: "water_stress",
    indicators: ["unified_score", "score", "spei_norm", "obs_score"],
    thresholds: { low: 0.3, medium: 0.6 },
    unit: "score 0..1",
  },
  {
    search: "heatwaves",
    portfolio: "heatwave",
    extended: "heatwave",
    indicators: ["freq", "obs_freq"],
    thresholds: { low: 30, medium: 50 },
    unit: "days a year, 0..366",
  },
  {
    search: "sea_level_rise",
    portfolio: "sea_level_rise",
    extended: "sea_level_rise",
    indicators: ["change", "obs_change"],
    thresholds: { low: 0.375, medium: 0.75 },
    unit: "metres, at most 3.0",
  },
  {
    search: "wildfire",
    portfolio: "wildfire",
    extended: "wildfire",
    indicators: ["unified_prob", "obs_score"],
    thresholds: { low: 0.001, medium: 0.01 },
    unit: "annual probability",
  },
];

const BY_NAME = new Map<string, HazardNames>();
for (const hazard of HAZARDS) {
  for (const name of [hazard.search, hazard.portfolio, hazard.extended]) BY_NAME.set(name, hazard);
}

/** Lower case, with spaces and hyphens read as `_`, so "Sea level rise" finds `sea_level_rise`. */
export function normalizeName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The label a score gets by the field notes' thresholds: LOW below the first, MEDIUM up to the second, HIGH above. */
export function labelOfScore(hazard: HazardNames, score: number): "LOW" | "MEDIUM" | "HIGH" {
  return score < hazard.thresholds.low ? "LOW" : score <= hazard.thresholds.medium ? "MEDIUM" : "HIGH";
}

/** Finds a hazard by any spelling, or undefined (for code that explains rather than fails). */
export function lookupHazard(text: string): HazardNames | undefined {
  return BY_NAME.get(normalizeName(text));
}

/** The hazards as the portfolio endpoints spell them, in alphabetical order: the column order of summary sheets. */
export const PORTFOLIO_HAZARDS_ALPHABETICAL: readonly string[] = HAZARDS.map((hazard) => hazard.portfolio).sort();
