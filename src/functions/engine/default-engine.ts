import { getConnection } from "../../shared/connection";
import { RiskEngine, type EngineOptions } from "./engine";

/**
 * The engine the RISK.* functions use in Excel. It reads the connection store at every call, so a
 * new connection makes a new client, and its cache keys hold the connection anyway.
 *
 * Kept on globalThis under a registered symbol: the functions and the task pane may be separate
 * bundles (two copies of this module) in one shared runtime, and "Refresh all" in the pane must
 * empty the cache the functions read.
 */
const ENGINE_KEY = Symbol.for("climate-risk.functions-engine");

type Holder = { [ENGINE_KEY]?: RiskEngine };

/** The engine functions.ts uses; made on first use with the default settings. */
export function defaultEngine(): RiskEngine {
  const holder = globalThis as Holder;
  holder[ENGINE_KEY] ??= new RiskEngine({ connection: getConnection });
  return holder[ENGINE_KEY];
}

/**
 * Replaces the engine functions.ts uses (benchmarks, tests, the browser harness); `undefined` goes
 * back to a default one made on next use. Returns the engine now in use, if any.
 */
export function setDefaultEngine(engine: RiskEngine | undefined): RiskEngine | undefined {
  const holder = globalThis as Holder;
  holder[ENGINE_KEY] = engine;
  return engine;
}

/** Makes the default engine follow the connection store with other settings (e.g. concurrency). */
export function configureDefaultEngine(options: Omit<EngineOptions, "connection">): RiskEngine {
  const engine = new RiskEngine({ ...options, connection: getConnection });
  setDefaultEngine(engine);
  return engine;
}

/**
 * Empties the functions' cache: the task pane's "Refresh all" calls this, then asks Excel to
 * recalculate the RISK cells (that Excel call is the pane's job).
 */
export function refreshFunctions(): void {
  defaultEngine().refresh();
}

/**
 * Forgets the functions' cached results whose key `matches` (see `RiskEngine.invalidate`): the
 * task pane calls this after it changed data (see `dataChangeMatcher` in ../sources), then asks
 * Excel to recalculate. Answers how many cached results were dropped.
 */
export function invalidateFunctions(matches: (key: string) => boolean): number {
  return defaultEngine().invalidate(matches);
}
