import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { routeRequests, type BenchContext, type Check, type ScenarioResult } from "../context";
import { count, fmt, round } from "../format";
import { timed } from "../measure";
import { pagesNeeded } from "../portfolio";
import { syncFigures, timedWorkbook, writeTimeseriesAlone } from "../workbook";
import { TIMESERIES_FILTERS } from "./timeseries";

const SYNC_LIMIT_BYTES = 5_000_000;
const EXTENDED_ROUTE = /\/datasets\/physical\/summary$/;

/**
 * The streaming timeseries paste (pages read while earlier chunks are written) next to
 * reading alone and writing alone, all three in the same run, same filters (one series per asset).
 * Target: wall ≤ 1.15 × max(read alone, write alone); every sync < 5 MB.
 */
export async function timeseriesStreamScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client, portfolio, settings, latencyMs } = ctx;
  const query = { ...TIMESERIES_FILTERS, rows: settings.rows };

  // Read alone: every page with the same read-ahead, nothing written.
  await ctx.emulator.resetStats();
  const read = await timed(() => client.datasets.items(portfolio, query).all({ readAhead: settings.readAhead }));
  const items = read.value;

  // Write alone: the same rows through the same writer into a fresh workbook, nothing read.
  const write = await timed(() => writeTimeseriesAlone(items, settings.rows));

  // Streamed: the task pane's paste.
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const paste = await timed(() =>
    pasteTimeseries({
      client,
      run: workbook.run,
      portfolio,
      filters: TIMESERIES_FILTERS,
      readAhead: settings.readAhead,
      rows: settings.rows,
    }),
  );
  const requests = routeRequests((await ctx.emulator.stats()).routes, /\/datasets\/physical\/items$/);
  const syncs = syncFigures(workbook.fake);
  const bound = Math.max(read.wallMs, write.wallMs);
  const limit = 1.15 * bound;
  const years = paste.value.years;
  const checks: Check[] = [
    {
      name: "wall ≤ 1.15 × max(read alone, write alone)",
      pass: paste.wallMs <= limit,
      detail: `${fmt(paste.wallMs)} ms ≤ 1.15 × max(${fmt(read.wallMs)}, ${fmt(write.wallMs)}) = ${fmt(limit)} ms (read + write in sequence would be ${fmt(read.wallMs + write.wallMs)} ms)`,
    },
    {
      name: "every sync < 5 MB",
      pass: syncs.maxRequestBytes < SYNC_LIMIT_BYTES,
      detail: `largest sync ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB over ${syncs.syncs} syncs`,
    },
    {
      name: "rows = items read",
      pass: paste.value.rowCount === items.length,
      detail: `${count(paste.value.rowCount)} rows, ${count(items.length)} items`,
    },
  ];
  return {
    id: "timeseries-stream",
    scenario: `Streaming timeseries paste, ${count(items.length)} series × ${years} years`,
    requests,
    requestNote: `${pagesNeeded(items.length, settings.rows)} pages; ${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB`,
    wallMs: paste.wallMs,
    boundMs: bound,
    boundNote: `max(read alone ${fmt(read.wallMs)} ms, write alone ${fmt(write.wallMs)} ms), same run, emulator at ${latencyMs} ms`,
    naiveMs: read.wallMs + write.wallMs,
    naiveNote: "read, then write (no overlap)",
    memory: paste.memory,
    target: "wall ≤ 1.15 × max(read, write); every sync < 5 MB",
    status: checks.every((c) => c.pass) ? "PASS" : "MISS",
    checks,
    details: {
      items: items.length,
      years,
      readMs: round(read.wallMs),
      writeMs: round(write.wallMs),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
      totalSyncBytes: syncs.totalRequestBytes,
    },
  };
}

/**
 * The extended summary offered one scenario at a time (all three were 15,000 rows ×
 * 248 columns for 5,000 assets, about 650 MB in the fake). Reports wall, peak memory and bytes
 * per sync of the extended summary paste of one scenario.
 */
export async function extendedSummaryScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client, portfolio } = ctx;
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  // The default summary of one scenario comes with it, as the pane pastes them together.
  const paste = await timed(() => pasteSummary({ client, run: workbook.run, portfolio, scenario: "ssp585" }));
  const requests = routeRequests((await ctx.emulator.stats()).routes, EXTENDED_ROUTE);
  const syncs = syncFigures(workbook.fake);
  const extended = paste.value[1];
  const perSync = syncs.syncs ? syncs.totalRequestBytes / syncs.syncs : 0;
  const checks: Check[] = [
    {
      name: "every sync < 5 MB",
      pass: syncs.maxRequestBytes < SYNC_LIMIT_BYTES,
      detail: `largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB, mean ${fmt(perSync / 1e6, 2)} MB over ${syncs.syncs} syncs`,
    },
  ];
  return {
    id: "extended-summary",
    scenario: `Summary + extended summary paste, one scenario (${paste.value.map((s) => `${s.sheetName}: ${count(s.rowCount)} × ${s.columnCount}`).join("; ")})`,
    requests,
    requestNote: `${syncs.syncs} syncs, ${fmt(perSync / 1e6, 2)} MB per sync on average, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB`,
    wallMs: paste.wallMs,
    boundMs: null,
    naiveMs: null,
    memory: paste.memory,
    target: "report wall, peak memory, bytes per sync",
    status: checks.every((c) => c.pass) ? "INFO" : "MISS",
    checks,
    details: {
      extendedRows: extended?.rowCount ?? 0,
      extendedColumns: extended?.columnCount ?? 0,
      syncs: syncs.syncs,
      meanSyncBytes: round(perSync),
      maxSyncBytes: syncs.maxRequestBytes,
      totalSyncBytes: syncs.totalRequestBytes,
    },
  };
}
