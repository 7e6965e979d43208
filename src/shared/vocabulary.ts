/**
 * The domain vocabulary of the add-in, in one place: the climate scenarios, the published asset types and the demo
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

/** The point search's horizons: a score is the maximum exposure over 15 or 30 years from 2025. */
export const HORIZONS = ["15yr", "30yr"] as const;

/** The point search's extents: the point itself (`local`) or its surroundings (`background`). */
export const SEARCH_EXTENTS = ["local", "background"] as const;

/** The timeseries items' measures: the lower bound, the central value and the upper bound. */
export const MEASURES = ["lb", "mid", "ub"] as const;

/** The periods of the extended summary's metrics (`structural_damage_2050`, ...). */
export const PERIODS = ["baseline", "2030", "2050", "2080"] as const;

/** The window used when a function or form is given none. */
export const DEFAULT_WINDOW: (typeof WINDOWS)[number] = 30;

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
  /**
   * Indicators of the timeseries items; the first is the primary projection
   * (docs/service.md#hazards-and-their-three-spellings).
   */
  indicators: readonly string[];
  /**
   * The label thresholds of docs/service.md#what-the-numbers-mean: LOW below `low`, MEDIUM up to
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

/** The label a score gets by the service's thresholds: LOW below the first, MEDIUM up to the second, HIGH above. */
export function labelOfScore(hazard: HazardNames, score: number): "LOW" | "MEDIUM" | "HIGH" {
  return score < hazard.thresholds.low ? "LOW" : score <= hazard.thresholds.medium ? "MEDIUM" : "HIGH";
}

/** Finds a hazard by any spelling, or undefined (for code that explains rather than fails). */
export function lookupHazard(text: string): HazardNames | undefined {
  return BY_NAME.get(normalizeName(text));
}

/** The hazards as the portfolio endpoints spell them, in alphabetical order: the column order of summary sheets. */
export const PORTFOLIO_HAZARDS_ALPHABETICAL: readonly string[] = HAZARDS.map((hazard) => hazard.portfolio).sort();

/** The hazards as the extended summary spells them, in the order of `HAZARDS` (the pane's hazard lists). */
export const EXTENDED_HAZARDS: readonly string[] = HAZARDS.map((hazard) => hazard.extended);

/** The hazards as the extended summary spells them, in alphabetical order: the column order of its sheets. */
export const EXTENDED_HAZARDS_ALPHABETICAL: readonly string[] = [...EXTENDED_HAZARDS].sort();

/**
 * Scenarios the service repeats (docs/service.md, "Scenarios that repeat"): for these hazards (as
 * the portfolio endpoints spell them) the numbers of `scenarios` are those of `repeats`. The one
 * copy in src; Explain and the disclosure sheet say it from here.
 */
export const SCENARIO_REPEATS: ReadonlyArray<{
  hazards: readonly string[];
  scenarios: readonly ScenarioName[];
  repeats: ScenarioName;
}> = [
  { hazards: ["flood_potential", "water_stress", "heatwave"], scenarios: ["ssp126"], repeats: "ssp245" },
  { hazards: ["cyclone"], scenarios: ["ssp126", "ssp245"], repeats: "ssp585" },
];

/** "a", "a and b", "a, b and c". */
function spokenList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : (items[0] ?? "");
}

/** "ssp126 repeats ssp245", "ssp126 and ssp245 repeat ssp585". */
export function scenarioRepeatText(repeat: (typeof SCENARIO_REPEATS)[number]): string {
  return `${spokenList(repeat.scenarios)} ${repeat.scenarios.length > 1 ? "repeat" : "repeats"} ${repeat.repeats}`;
}

/** The repetition a scenario of a hazard is part of (its numbers are another scenario's), or undefined. */
export function scenarioRepeatOf(hazard: HazardNames, scenario: string): (typeof SCENARIO_REPEATS)[number] | undefined {
  return SCENARIO_REPEATS.find(
    (r) => r.hazards.includes(hazard.portfolio) && (r.scenarios as readonly string[]).includes(scenario),
  );
}

/**
 * "In the service's data, for flood, water stress and heatwave, ssp126 repeats ssp245; for cyclone,
 * ssp126 and ssp245 repeat ssp585." (hazards named as the extended summary spells them).
 */
export const SCENARIO_REPEATS_NOTE = `In the service's data, ${SCENARIO_REPEATS.map((r) => {
  const hazards = r.hazards.map((name) => BY_NAME.get(name)!.extended.replace(/_/g, " "));
  return `for ${spokenList(hazards)}, ${scenarioRepeatText(r)}`;
}).join("; ")}.`;

/*
 * The service's published list of asset types: `label:type` picks the damage functions behind
 * `structural_damage_*` and `business_interruption_*`, and only a label that matches one of these
 * exactly (case, spaces and punctuation included) does; any other text silently gets a default
 * curve. The sync's checks, the type dropdown the pane offers and the tests read this one list.
 */

/** The published types by category, in the published order. `Manuf.  Housing` has two spaces, as published. */
export const ASSET_TYPE_CATEGORIES: ReadonlyArray<{ category: string; types: readonly string[] }> = [
  { category: "Agriculture", types: ["Agriculture"] },
  {
    category: "Commercial",
    types: [
      "Retail Trade",
      "Parking",
      "Wholesale Trade",
      "Personal and Repair Services",
      "Professional/Technical Services",
      "Banks",
      "Hospital",
      "Medical Office/Clinic",
      "Entertainment & Recreation",
      "Theaters",
      "Commercial",
    ],
  },
  { category: "Education", types: ["Grade Schools", "Colleges/Universities", "Education"] },
  { category: "Government", types: ["General Services", "Emergency Response", "Government"] },
  {
    category: "Industrial",
    types: [
      "Heavy",
      "Light",
      "Food/Drugs/Chemicals",
      "Metals/Minerals Processing",
      "High Technology",
      "Construction",
      "Industrial",
    ],
  },
  { category: "Religion", types: ["Churches and Other Non-profit Org."] },
  {
    category: "Residential",
    types: [
      "Single Family Dwelling",
      "Manuf.  Housing",
      "Multifamily Dwelling",
      "Temporary Lodging",
      "Institutional Dormitory",
      "Nursing Home",
      "Residential",
    ],
  },
];

/** The 33 published types, in the published order. */
export const ASSET_TYPES: readonly string[] = ASSET_TYPE_CATEGORIES.flatMap((c) => c.types);

const PUBLISHED = new Set(ASSET_TYPES);

/** True when the text is a published type exactly as the service matches it. */
export function isPublishedAssetType(text: string): boolean {
  return PUBLISHED.has(text);
}

/** Lower case, letters and digits only, single spaces: "Manuf.  Housing" → "manuf housing". */
function loose(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The published type closest to a text, as a suggestion (never applied unasked): the same words
 * in another case or spacing first ("retail trade", "Manuf. Housing"); else a type whose words
 * contain the text's words or the other way round ("school" → "Grade Schools"), the shortest such;
 * else the fewest edits ("Hospitl" → "Hospital"). Undefined for a blank text.
 */
export function closestAssetType(text: string): string | undefined {
  const wanted = loose(text);
  if (wanted === "") return undefined;
  const candidates = ASSET_TYPES.map((type) => ({ type, words: loose(type) }));
  const same = candidates.find((c) => c.words === wanted);
  if (same) return same.type;
  const containing = candidates
    .filter((c) => ` ${c.words} `.includes(` ${wanted}`) || ` ${wanted} `.includes(` ${c.words} `))
    .sort((a, b) => a.words.length - b.words.length);
  if (containing.length > 0) return containing[0]!.type;
  let best = candidates[0]!;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.words);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best.type;
}

/**
 * The hazards with structural damage, as the extended summary spells them (docs/service.md, "What the
 * numbers mean": flood, inland and coastal, cyclone and wildfire; heatwave has business
 * interruption only). Their central losses add up across hazards, as the service's dashboards add them.
 */
export const STRUCTURAL_DAMAGE_HAZARDS: readonly string[] = ["flood", "cyclone", "wildfire"];
