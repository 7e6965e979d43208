/**
 * One spec per RISK function: its name, whether it spills, and its parameters in order, each with the
 * vocabulary its values come from, whether it may be omitted and what is used then. Everything that
 * needs a function's parameters reads them here: the formulas (names for messages, defaults), the
 * task pane's formula builder (its fields and lists) and Explain (which argument is which).
 *
 * The JSDoc of functions.ts cannot be generated from this (custom-functions-metadata reads the
 * source text), so test/functions/specs.test.ts generates functions.json from that JSDoc and checks
 * it against these specs: names, parameter names and order, optional, types, matrix, repeating,
 * and that each parameter's description names its choices and its default.
 *
 * Pure data over src/shared/vocabulary.ts, so the task pane can import it without the engine.
 */
import {
  DEFAULT_SCENARIO,
  HAZARDS,
  HORIZONS,
  MEASURES,
  PERIODS,
  SCENARIOS,
  SEARCH_EXTENTS,
  WINDOWS,
} from "../shared/vocabulary";

/** What RISK.SEARCH's `field` gives: the point-search score or its label. */
export const SEARCH_FIELDS = ["score", "label"] as const;

/** What RISK.SUMMARY's `field` gives: `risk_score` or `risk_class`. */
export const SUMMARY_FIELDS = ["score", "class"] as const;

/** Which value of an extended-summary metric RISK.IMPACT reads: central, or the 16th / 84th percentile. */
export const IMPACT_BOUNDS = ["central", "lower", "upper"] as const;

/** One of {@link IMPACT_BOUNDS}. */
export type ImpactBound = (typeof IMPACT_BOUNDS)[number];

/** Metric-name suffix of each bound (docs/service.md#what-the-numbers-mean). */
const BOUND_SUFFIX: Record<ImpactBound, string> = { central: "", lower: "_lbd", upper: "_ubd" };

/** The extended summary's structural-damage metric of a period and bound, e.g. `structural_damage_2050_ubd`. */
export function structuralDamageMetric(period: string, bound: ImpactBound = "central"): string {
  return `structural_damage_${period}${BOUND_SUFFIX[bound]}`;
}

/**
 * Where a parameter's values come from: a fixed list ({@link FIXED_VOCABULARIES}), a list the
 * service gives (portfolios, assets, metrics, indicators, vector layers, sub-projects and their
 * summaries, a layer's columns) or a number.
 */
export type Vocabulary =
  | "portfolio"
  | "asset"
  | "hazard-search"
  | "hazard-portfolio"
  | "hazard-extended"
  | "scenario"
  | "window"
  | "horizon"
  | "extent"
  | "summary-field"
  | "search-field"
  | "metric"
  | "indicator"
  | "measure"
  | "period"
  | "bound"
  | "vector"
  | "layer-column"
  | "subproject"
  | "nature-metric"
  | "number";

/** The vocabularies that are fixed lists, each in the order a list offers them. */
export const FIXED_VOCABULARIES: Partial<Record<Vocabulary, readonly (string | number)[]>> = {
  "hazard-search": HAZARDS.map((h) => h.search),
  "hazard-portfolio": HAZARDS.map((h) => h.portfolio),
  "hazard-extended": HAZARDS.map((h) => h.extended),
  scenario: SCENARIOS,
  window: WINDOWS,
  horizon: HORIZONS,
  extent: SEARCH_EXTENTS,
  "summary-field": SUMMARY_FIELDS,
  "search-field": SEARCH_FIELDS,
  measure: MEASURES,
  period: PERIODS,
  bound: IMPACT_BOUNDS,
};

/** The ids of what the task pane calls the parameters (see {@link ParameterSpec.label}). */
export type ParameterLabel =
  | "portfolio"
  | "asset"
  | "scenario"
  | "latitude"
  | "longitude"
  | "hazard"
  | "horizon"
  | "extent"
  | "field"
  | "window"
  | "metric"
  | "period"
  | "bound"
  | "indicator"
  | "measure"
  | "vector"
  | "column"
  | "subproject"
  | "summary";

/** One parameter of a RISK function. */
export interface ParameterSpec {
  /** As functions.ts names it (and Excel shows it). */
  readonly name: string;
  /**
   * What a person calls it in the task pane, as an id: the pane words it (the catalogs'
   * `builder.fn.param.<label>`), so functions.js carries none of the pane's words.
   */
  readonly label: ParameterLabel;
  readonly vocabulary: Vocabulary;
  /** As functions.ts declares it: `any` or `string` (functions.json's `type`). */
  readonly type: "any" | "string";
  /** May be omitted (or left blank). */
  readonly optional?: boolean;
  /** The value used when it is omitted, where that is one fixed value. */
  readonly default?: string | number;
  /** Takes any number of values (Excel's repeating parameters); none do today. */
  readonly repeating?: boolean;
}

/** One RISK function. */
export interface FunctionSpec {
  /** Its name after `RISK.`, as functions.json's id and name. */
  readonly name: string;
  /** Its result is always a table that spills (not one value per row of the arguments). */
  readonly spills: boolean;
  /**
   * Column form: every parameter is a matrix (`any[][]`), so a range gives one result per row
   * (src/functions/columns.ts).
   */
  readonly columnForm: boolean;
  readonly parameters: readonly ParameterSpec[];
}

const portfolio = { name: "portfolio", label: "portfolio", vocabulary: "portfolio", type: "any" } as const;
const index = { name: "index", label: "asset", vocabulary: "asset", type: "any" } as const;
const scenario = { name: "scenario", label: "scenario", vocabulary: "scenario", type: "any" } as const;

/** RISK.SEARCH: a hazard's score or label at a point (docs/functions.md#risksearch). */
export const SEARCH = {
  name: "SEARCH",
  spills: false,
  columnForm: true,
  parameters: [
    { name: "lat", label: "latitude", vocabulary: "number", type: "any" },
    { name: "lng", label: "longitude", vocabulary: "number", type: "any" },
    { name: "hazard", label: "hazard", vocabulary: "hazard-search", type: "any" },
    { name: "horizon", label: "horizon", vocabulary: "horizon", type: "any" },
    { name: "extent", label: "extent", vocabulary: "extent", type: "any", optional: true, default: "local" },
    { name: "field", label: "field", vocabulary: "search-field", type: "any", optional: true, default: "score" },
  ],
} as const satisfies FunctionSpec;

/** RISK.SUMMARY: an asset's summary score or class for one hazard (docs/functions.md#risksummary). */
export const SUMMARY = {
  name: "SUMMARY",
  spills: false,
  columnForm: true,
  parameters: [
    portfolio,
    index,
    { name: "hazard", label: "hazard", vocabulary: "hazard-portfolio", type: "any" },
    { ...scenario, optional: true, default: DEFAULT_SCENARIO },
    { name: "window", label: "window", vocabulary: "window", type: "any", optional: true, default: 30 },
    { name: "field", label: "field", vocabulary: "summary-field", type: "any", optional: true, default: "score" },
  ],
} as const satisfies FunctionSpec;

/** RISK.METRIC: one metric of an asset's extended summary (docs/functions.md#riskmetric). */
export const METRIC = {
  name: "METRIC",
  spills: false,
  columnForm: true,
  parameters: [
    portfolio,
    index,
    scenario,
    { name: "hazard", label: "hazard", vocabulary: "hazard-extended", type: "any" },
    { name: "metric", label: "metric", vocabulary: "metric", type: "any" },
  ],
} as const satisfies FunctionSpec;

/** RISK.IMPACT: an asset's structural damage fraction (docs/functions.md#riskimpact). */
export const IMPACT = {
  name: "IMPACT",
  spills: false,
  columnForm: true,
  parameters: [
    portfolio,
    index,
    { name: "hazard", label: "hazard", vocabulary: "hazard-extended", type: "any" },
    scenario,
    { name: "period", label: "period", vocabulary: "period", type: "any" },
    { name: "bound", label: "bound", vocabulary: "bound", type: "any", optional: true, default: "central" },
  ],
} as const satisfies FunctionSpec;

/** RISK.TIMESERIES: an asset's yearly series, spilled (docs/functions.md#risktimeseries). */
export const TIMESERIES = {
  name: "TIMESERIES",
  spills: true,
  columnForm: false,
  parameters: [
    { ...portfolio, type: "string" },
    index,
    { name: "hazard", label: "hazard", vocabulary: "hazard-portfolio", type: "string" },
    { ...scenario, type: "string" },
    // Without one: the hazard's primary projection (its first indicator in HAZARDS).
    { name: "indicator", label: "indicator", vocabulary: "indicator", type: "string", optional: true },
    { name: "measure", label: "measure", vocabulary: "measure", type: "string", optional: true, default: "mid" },
  ],
} as const satisfies FunctionSpec;

/** RISK.PROJECTS: the projects of the API key, spilled. */
export const PROJECTS = {
  name: "PROJECTS",
  spills: true,
  columnForm: false,
  parameters: [],
} as const satisfies FunctionSpec;

/** RISK.PORTFOLIOS: the portfolios of the project, spilled. */
export const PORTFOLIOS = {
  name: "PORTFOLIOS",
  spills: true,
  columnForm: false,
  parameters: [],
} as const satisfies FunctionSpec;

/** RISK.ASSETS: every asset of a portfolio, spilled. */
export const ASSETS = {
  name: "ASSETS",
  spills: true,
  columnForm: false,
  parameters: [{ ...portfolio, type: "string" }],
} as const satisfies FunctionSpec;

/** RISK.LAYER: an applied vector layer's value for an asset (docs/functions.md#risklayer). */
export const LAYER = {
  name: "LAYER",
  spills: false,
  columnForm: true,
  parameters: [
    { name: "vector", label: "vector", vocabulary: "vector", type: "any" },
    portfolio,
    index,
    // Without one: `value` when the applied layer has it, else its first numeric column.
    { name: "column", label: "column", vocabulary: "layer-column", type: "any", optional: true },
  ],
} as const satisfies FunctionSpec;

/** RISK.NATURE: one summary number of a nature sub-project (docs/functions.md#risknature). */
export const NATURE = {
  name: "NATURE",
  spills: false,
  columnForm: true,
  parameters: [
    { name: "subproject", label: "subproject", vocabulary: "subproject", type: "any" },
    { name: "metric", label: "summary", vocabulary: "nature-metric", type: "any" },
  ],
} as const satisfies FunctionSpec;

/** Every RISK function, in the order functions.ts declares them. */
export const FUNCTION_SPECS = {
  SEARCH,
  SUMMARY,
  METRIC,
  IMPACT,
  TIMESERIES,
  PROJECTS,
  PORTFOLIOS,
  ASSETS,
  LAYER,
  NATURE,
} as const;

/** A RISK function's name after `RISK.`. */
export type RiskFunctionName = keyof typeof FUNCTION_SPECS;

/** A spec's parameter names, in order (the names the functions' messages use). */
export type ParameterName<S extends FunctionSpec> = S["parameters"][number]["name"];

/** A function's parameter names, in order. */
export function parameterNames<S extends FunctionSpec>(spec: S): ParameterName<S>[] {
  return spec.parameters.map((p) => p.name as ParameterName<S>);
}

/** The position of a parameter in a call (0-based), or -1 when the function has none of that name. */
export function parameterIndex(spec: FunctionSpec, name: string): number {
  return spec.parameters.findIndex((p) => p.name === name);
}

/** A parameter's default, or undefined when it has none (or the function has no parameter of that name). */
export function parameterDefault(spec: FunctionSpec, name: string): string | number | undefined {
  return spec.parameters.find((p) => p.name === name)?.default;
}

/** The default of a parameter that has one, typed as the spec writes it (for the formulas). */
export function defaultOf<S extends FunctionSpec, N extends ParameterName<S>>(
  spec: S,
  name: N,
): Extract<S["parameters"][number], { name: N; default: unknown }>["default"] {
  const fallback = parameterDefault(spec, name);
  if (fallback === undefined) throw new Error(`RISK.${spec.name}'s ${name} has no default`);
  return fallback as Extract<S["parameters"][number], { name: N; default: unknown }>["default"];
}

/** A call's arguments by parameter name (an argument beyond the parameters is left out). */
export function argumentsByName<T>(spec: FunctionSpec, args: readonly T[]): Partial<Record<string, T>> {
  const out: Partial<Record<string, T>> = {};
  spec.parameters.forEach((p, i) => {
    if (i < args.length) out[p.name] = args[i];
  });
  return out;
}
