import type { FreshPass } from "../../../functions/engine/engine";
import { findRiskCells, recalculateWorkbook, reenterRiskFormulas, type Scope } from "../../../excel/risk-cells";
import { CancelledError, type ExcelRunner, type LongRunning } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** What a scoped refresh needs of the functions' engine. */
export interface FreshPassSource {
  beginFreshPass(): FreshPass;
}

/** What a refresh of the whole workbook needs of the functions' engine (RiskEngine). */
export interface WorkbookRefreshSource extends FreshPassSource {
  /** Empties the cache: no later call is answered from a result cached before (RiskEngine.refresh). */
  refresh(): void;
  /** The engine's counters; `calls`: RISK calls so far, in this workbook's session. */
  stats(): { calls: number };
}

/** What a scoped refresh did. */
export interface ScopedRefreshResult {
  scope: Scope;
  /** RISK cells in scope (those with errors only, when asked). */
  riskCells: number;
  /** Calls the functions answered afresh during the refresh. */
  answered: number;
  sheets: string[];
}

/** Cells re-entered per request: small enough for a quick sync, large enough for big sheets. */
const CELLS_PER_BATCH = 500;
/** With no call made or settled for this long after the last write, the refresh is over. */
const QUIET_MS = 1_500;
/**
 * How long a refresh of the whole workbook waits for Excel's first RISK call when the workbook has
 * made some before: on a large workbook Excel may calculate other formulas first, for longer than
 * the quiet time. A workbook that never called one is told it has none after the quiet time.
 */
const FIRST_CALL_MS = 15_000;

/**
 * Counts the RISK cells of a scope (for the button's label: "Refresh 12 cells"). Throws with a
 * sentence when the scope is empty or holds none.
 */
export async function countScope(
  run: ExcelRunner,
  scope: Scope,
  onlyErrors: boolean,
): Promise<{ cells: number; sheets: string[] }> {
  const found = await run((context) => findRiskCells(context, scope, onlyErrors));
  return { cells: found.length, sheets: [...new Set(found.map((c) => c.sheetName))] };
}

/**
 * Refreshes the RISK cells of the selection, the active sheet or the workbook (optionally only
 * those showing an error): opens a fresh pass on the engine, so these cells' calls skip the cache
 * while every other cell keeps its cached result, re-enters their formulas in batches (Excel
 * recalculates exactly those cells), and reports progress as their calls settle. Cancel stops
 * before the next batch; cells already re-entered finish.
 */
export async function refreshScope(
  options: LongRunning & {
    run: ExcelRunner;
    engine: FreshPassSource;
    scope: Scope;
    onlyErrors: boolean;
    quietMs?: number;
  },
): Promise<ScopedRefreshResult> {
  const { run, engine, scope, onlyErrors, signal, onProgress } = options;
  const cells = await run((context) => findRiskCells(context, scope, onlyErrors));
  if (cells.length === 0)
    throw new MessageError(message("refresh.run.none", { scope, onlyErrors: onlyErrors ? "yes" : "no" }));
  const sheets = [...new Set(cells.map((c) => c.sheetName))];
  const pass = engine.beginFreshPass();
  const total = cells.length;
  const report = (written: number) =>
    onProgress?.({
      message: message("refresh.run.progress", { total, written, answered: pass.settled }),
      fraction: Math.min(1, (written + pass.settled) / (2 * total)),
    });
  const stop = pass.onChange(() => report(total));
  try {
    for (let start = 0; start < total; start += CELLS_PER_BATCH) {
      if (signal?.aborted) throw new CancelledError(message("refresh.run.cancelled", { done: start, total }));
      const batch = cells.slice(start, start + CELLS_PER_BATCH);
      await run((context) => reenterRiskFormulas(context, batch));
      report(Math.min(total, start + CELLS_PER_BATCH));
    }
    await settled(pass, signal, options.quietMs ?? QUIET_MS);
    return { scope, riskCells: total, answered: pass.settled, sheets };
  } finally {
    stop();
    pass.end();
  }
}

/** What a refresh of the whole workbook by recalculation did. */
export interface WorkbookRefreshResult {
  /** Calls of the RISK functions the recalculation made (a cell calling two makes two). */
  calls: number;
  /** Of those, the ones answered. */
  answered: number;
}

/**
 * Refreshes every RISK cell of the workbook without reading it: empties the engine's cache and
 * opens a pass to count the calls, asks Excel for a full recalculation (one request), and reports
 * progress as the calls settle, resolving once they have and none came for a while. Finding and
 * re-entering every RISK formula ({@link refreshScope}) reads every formula of the workbook first:
 * 164 MB of a financial impact sheet's formulas in the weekly refresh's workbook, about 20 s on
 * Excel on the web. Throws with a sentence when the workbook made no RISK call, or when cancelled
 * before Excel was asked (after that, the cells finish).
 *
 * The cache is emptied rather than skipped for the pass's length: Excel gives no event for "done",
 * and a call it makes after the quiet time (a cell over another RISK cell's result, recalculated
 * late on a large workbook) must not be answered with what the refresh meant to replace.
 */
export async function refreshWorkbookByRecalculation(
  options: LongRunning & {
    run: ExcelRunner;
    engine: WorkbookRefreshSource;
    quietMs?: number;
    /** How long to wait for the first call when the workbook has made some before (FIRST_CALL_MS). */
    firstCallMs?: number;
  },
): Promise<WorkbookRefreshResult> {
  const { run, engine, signal, onProgress } = options;
  if (signal?.aborted) throw new CancelledError(message("refresh.run.cancelledBeforeRecalculation"));
  const quietMs = options.quietMs ?? QUIET_MS;
  const firstCallMs = engine.stats().calls > 0 ? Math.max(quietMs, options.firstCallMs ?? FIRST_CALL_MS) : quietMs;
  engine.refresh();
  const pass = engine.beginFreshPass();
  const report = () =>
    onProgress?.({
      message: message("refresh.run.progressRecalculation", { calls: pass.calls, answered: pass.settled }),
      fraction: pass.calls === 0 ? 0 : pass.settled / pass.calls,
    });
  const stop = pass.onChange(report);
  try {
    await run((context) => recalculateWorkbook(context));
    report();
    await settled(pass, signal, quietMs, firstCallMs);
    if (pass.calls === 0) throw new MessageError(message("refresh.run.none", { scope: "workbook", onlyErrors: "no" }));
    return { calls: pass.calls, answered: pass.settled };
  } finally {
    stop();
    pass.end();
  }
}

/**
 * Resolves when every call of the pass has settled and none came for `quietMs` (`firstCallMs`
 * before the first call; Excel gives no event for "custom functions done": the pass's own events
 * drive this, the quiet time only ends it), or at once on Cancel.
 */
function settled(
  pass: FreshPass,
  signal: AbortSignal | undefined,
  quietMs: number,
  firstCallMs = quietMs,
): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener("abort", finish);
      resolve();
    };
    const arm = () => {
      clearTimeout(timer);
      if (pass.pending === 0) timer = setTimeout(finish, pass.calls === 0 ? firstCallMs : quietMs);
    };
    const unsubscribe = pass.onChange(arm);
    signal?.addEventListener("abort", finish, { once: true });
    arm();
  });
}
