/**
 * The RISK functions for code outside Excel (test support, not product code): benchmarks, drills
 * and tests run formulas through exactly the functions Excel calls, with the engine's controls
 * re-exported for them.
 *
 *   import { RISK, configureDefaultEngine, evaluateCells } from "./evaluate-cells";
 *   const engine = configureDefaultEngine({ concurrency: 6 });   // follows the connection store
 *   const results = await evaluateCells(cells.map((c) => ({ fn: "SEARCH", args: [c.lat, c.lng, "floods", "30yr"] })));
 *   engine.stats();                                             // requests, cacheHits, retries, ...
 */
import { FormulaError } from "../src/functions/formula-errors";
import {
  assets,
  impact,
  layer,
  metric,
  nature,
  portfolios,
  projects,
  search,
  summary,
  timeseries,
} from "../src/functions/functions";
import { createInvocation, type FakeInvocation } from "./invocation";

export { RiskEngine, DEFAULT_ENGINE_SETTINGS } from "../src/functions/engine/engine";
export type { EngineOptions, EngineProgress, EngineSettings, EngineStats } from "../src/functions/engine/engine";
export {
  configureDefaultEngine,
  defaultEngine,
  refreshFunctions,
  setDefaultEngine,
  setFailurePolicy,
} from "../src/functions/engine/default-engine";
export { LastGoodCache, MemoryStorage, defaultStorage } from "../src/functions/engine/last-good-cache";
export type { KeyValueStorage, LastGood, LastGoodUsage } from "../src/functions/engine/last-good-cache";
export type { FailurePolicy } from "../src/functions/engine/engine";
export type { StaleCell, StaleMark } from "../src/functions/engine/stale-cells";
export { createInvocation, FormulaError };
export type { FakeInvocation };

/** The functions by their Excel names; each takes its arguments and then an invocation, like Excel passes. */
export const RISK = {
  SEARCH: search,
  SUMMARY: summary,
  METRIC: metric,
  IMPACT: impact,
  TIMESERIES: timeseries,
  PROJECTS: projects,
  PORTFOLIOS: portfolios,
  ASSETS: assets,
  LAYER: layer,
  NATURE: nature,
} as const;

export type RiskFunctionName = keyof typeof RISK;

/**
 * One formula: the function's Excel name and its arguments without the invocation (omitted optionals may be left out).
 */
export interface FormulaCall {
  fn: RiskFunctionName;
  args: readonly unknown[];
  /** A cell address for the invocation, e.g. "Sheet1!B2". */
  address?: string;
}

/** How a cell ended: a value (scalar or spilled table) or an error value with its message. */
export type CellResult = { value: unknown } | { error: { code: string; message: string } };

/** Reads a settled formula the way Excel shows it: CustomFunctions.Error and FormulaError become `{error}`. */
export async function settleCell(promise: Promise<unknown>): Promise<CellResult> {
  try {
    return { value: await promise };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof FormulaError || typeof code === "string") {
      return { error: { code: String(code), message: (error as Error).message } };
    }
    return { error: { code: "#UNEXPECTED", message: error instanceof Error ? error.message : String(error) } };
  }
}

/**
 * Calls every formula at once, as one recalculation does, and waits until each has settled. Pass
 * `invocations` to cancel some of them (call `.cancel()` on one) while they run.
 */
export function evaluateCells(calls: readonly FormulaCall[], invocations?: FakeInvocation[]): Promise<CellResult[]> {
  return Promise.all(
    calls.map((call, i) => {
      const invocation = createInvocation(call.address);
      if (invocations) invocations[i] = invocation;
      const fn = RISK[call.fn] as (...args: unknown[]) => Promise<unknown>;
      // Excel passes every declared parameter: omitted optionals as null, then the invocation.
      const args = [...call.args];
      while (args.length < fn.length - 1) args.push(null);
      return settleCell(fn(...args, invocation));
    }),
  );
}
