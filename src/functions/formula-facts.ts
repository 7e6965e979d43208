/**
 * What a RISK formula asks, read from its text by the functions' own specs (specs.ts): the
 * function, and its arguments by parameter name. Explain, what-changed and the sync offer read
 * formulas through this and src/shaping/risk-formula.ts, so a formula means the same to each.
 */
import { isCellReference } from "../shaping/a1";
import { riskCall } from "../shaping/risk-formula";
import { lookupHazard, type HazardNames } from "../shared/vocabulary";
import type { ArgumentValue } from "./arguments";
import { FUNCTION_SPECS, argumentsByName, parameterDefault, parameterIndex, type FunctionSpec } from "./specs";

/** The RISK functions that give a score, a label or a metric per cell: the ones a formula's facts are read for. */
export type ScoreFunction = "SEARCH" | "SUMMARY" | "METRIC" | "IMPACT";

const SCORE_FUNCTIONS: ReadonlySet<string> = new Set<ScoreFunction>(["SEARCH", "SUMMARY", "METRIC", "IMPACT"]);

/** A RISK score function's call as written: the function and its arguments' text. */
export interface ScoreCall {
  fn: ScoreFunction;
  args: string[];
}

/** Reads `=RISK.SEARCH|SUMMARY|METRIC|IMPACT(…)`: the function and its arguments as written; else undefined. */
export function scoreCall(formula: string): ScoreCall | undefined {
  const call = riskCall(formula);
  return call && SCORE_FUNCTIONS.has(call.fn) ? { fn: call.fn as ScoreFunction, args: call.args } : undefined;
}

/** A parameter's default as text (e.g. SUMMARY's scenario `ssp245`), or "" when it has none. */
export function defaultText(spec: FunctionSpec, name: string): string {
  return String(parameterDefault(spec, name) ?? "");
}

/** What a RISK formula asks, from its literal arguments only (references are left out). */
export interface FormulaFacts {
  fn: ScoreFunction;
  hazard?: HazardNames;
  scenario?: string;
  portfolio?: string;
  /** For METRIC: the metric name. */
  metric?: string;
}

/**
 * What a call read by {@link scoreCall} asks: its literal arguments, and those in single cells it
 * refers to as `lookup` gives them. A reader of many formulas reads each once for both its
 * references and its facts (what-changed reads 30,000 at a time).
 */
export function callFacts(call: ScoreCall, lookup?: (reference: string) => ArgumentValue): FormulaFacts {
  const { fn } = call;
  const args = call.args.map((arg) => {
    if (arg.startsWith('"')) return arg.slice(1, -1).replace(/""/g, '"');
    const value = isCellReference(arg) ? lookup?.(arg) : undefined;
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  });
  const spec = FUNCTION_SPECS[fn];
  const arg = argumentsByName(spec, args);
  const scenarioAt = parameterIndex(spec, "scenario");
  const hazard = arg.hazard ? lookupHazard(arg.hazard) : undefined;
  // A scenario with a default (RISK.SUMMARY's) is that default when omitted or blank (a reference to a blank
  // cell is read as unknown).
  const written = call.args[scenarioAt] ?? "";
  const scenario =
    scenarioAt < 0
      ? undefined
      : (arg.scenario?.toLowerCase() ?? (written === "" ? defaultText(spec, "scenario") || undefined : undefined));
  return {
    fn,
    hazard,
    scenario,
    portfolio: arg.portfolio,
    metric: arg.metric?.toLowerCase(),
  };
}

/** The single-cell references of a RISK call's arguments, for reading before {@link callFacts}. */
export function callReferences(call: ScoreCall): string[] {
  return call.args.filter(isCellReference);
}
