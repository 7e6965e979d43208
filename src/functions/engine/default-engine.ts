import { getConnection } from "../../shared/connection";
import { RiskEngine, type EngineOptions, type EngineProgress, type FailurePolicy } from "./engine";
import { defaultStorage, LastGoodCache, type KeyValueStorage } from "./last-good-cache";

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
  if (!holder[ENGINE_KEY]) {
    const storage = defaultStorage();
    const engine = new RiskEngine({ connection: getConnection, lastGood: new LastGoodCache(storage) });
    holder[ENGINE_KEY] = engine;
    void readFailurePolicy(storage).then((policy) => {
      if (policy) engine.failurePolicy = policy;
    });
  }
  return holder[ENGINE_KEY];
}

/** Where the task pane's "when a refresh fails" setting is kept (beside the persistent cache). */
const POLICY_KEY = "climate-risk.failure-policy";

async function readFailurePolicy(storage: KeyValueStorage): Promise<FailurePolicy | undefined> {
  const text = await storage.getItem(POLICY_KEY).catch(() => null);
  return text === "keep last good" || text === "show error" ? text : undefined;
}

/**
 * The task pane's setting: what a cell shows when a refresh fails and a last good value exists. Kept across restarts.
 */
export async function setFailurePolicy(
  policy: FailurePolicy,
  storage: KeyValueStorage = defaultStorage(),
): Promise<void> {
  defaultEngine().failurePolicy = policy;
  await storage.setItem(POLICY_KEY, policy).catch(() => undefined);
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

/**
 * The functions' current burst of loads (done, pending, an estimate of the time left): the task
 * pane's usage line shows it while many RISK cells wait.
 */
export function functionsProgress(): EngineProgress {
  return defaultEngine().progress();
}
