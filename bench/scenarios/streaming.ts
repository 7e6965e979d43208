import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import type { ExcelRunner } from "../../src/taskpane/ui/pane-types";
import type { RiskClient } from "../../src/api/client";
import { emulatorCpuMs } from "../emulator-process";
import { routeRequests, type BenchContext, type Check, type ScenarioResult } from "../context";
import { performance as nodePerformance } from "node:perf_hooks";
import { count, cpuDelta, fmt, round } from "../format";
import { threadTime, timed, type Timed } from "../measure";
import { pagesNeeded } from "../portfolio";
import { syncFigures, timedWorkbook, writeTimeseries, writeTimeseriesAlone, type TimedWorkbook } from "../workbook";
import { benchCatalog, benchPaste, TIMESERIES_FILTERS } from "./timeseries";

const SYNC_LIMIT_BYTES = 5_000_000;
const EXTENDED_ROUTE = /\/datasets\/physical\/summary$/;
/** The timeseries' pages. */
const ITEMS_ROUTE = /\/datasets\/physical\/items$/;
/** How far the streaming paste may be from its bound (docs/benchmarks.md, "The streaming paste's bound"). */
export const STREAMING_SLACK = 1.15;

/**
 * Where a paste's wall time went on the add-in's one JavaScript thread. In this process the
 * reads' JSON parsing, the shaping of rows and the Excel fake's writing all take turns on that
 * thread, so they cannot overlap one another; only waiting on the network can overlap them. In
 * Excel the writing happens in Excel's own process, which this fake cannot show, so the bound
 * counts the fake's time with the thread's.
 */
export interface PasteThreadFigures {
  wallMs: number;
  /** The thread idle during the paste: nothing to do but wait on the reads. */
  readWaitMs: number;
  /** The add-in's own work on the thread: parsing pages, shaping rows, batching writes. */
  ownThreadMs: number;
  /** The Excel fake's own work inside its syncs (Excel's part of the writing). */
  fakeWriteMs: number;
  /**
   * The thread idle before the first page's answer arrived: one round trip (the latency and the
   * emulator's CPU for that page) less what the paste's set-up overlapped. Nothing can be shaped
   * or written before it, so no pipeline overlaps it (0 when not measured).
   */
  firstPageWaitMs: number;
}

/** The streaming paste's bound and its verdict: wall ≤ 1.15 × max(read wait, own thread + fake write). */
export function streamingBound(f: PasteThreadFigures): {
  boundMs: number;
  limitMs: number;
  ratio: number;
  pass: boolean;
  detail: string;
} {
  const boundMs = Math.max(f.readWaitMs, f.firstPageWaitMs + f.ownThreadMs + f.fakeWriteMs);
  const limitMs = STREAMING_SLACK * boundMs;
  return {
    boundMs,
    limitMs,
    ratio: f.wallMs / boundMs,
    pass: f.wallMs <= limitMs,
    detail:
      `${fmt(f.wallMs)} ms ${f.wallMs <= limitMs ? "≤" : ">"} ${STREAMING_SLACK} × max(read wait ${fmt(f.readWaitMs)}, ` +
      `first page's wait ${fmt(f.firstPageWaitMs)} + own thread ${fmt(f.ownThreadMs)} + fake write ${fmt(f.fakeWriteMs)}) = ` +
      `${fmt(limitMs)} ms`,
  };
}

/**
 * Runs a paste into `workbook` (a fresh one) and splits its wall time: the thread's idle time is
 * the read wait, the fake's time inside its syncs the fake write, and the rest of the thread's
 * busy time the add-in's own (bench/measure.ts threadTime).
 */
export async function measurePaste<T>(
  workbook: TimedWorkbook,
  paste: () => Promise<T>,
): Promise<Timed<T> & { figures: PasteThreadFigures }> {
  let firstPageWaitMs = 0;
  const run = await timed(() =>
    threadTime(async () => {
      const started = nodePerformance.eventLoopUtilization();
      return whenFirstAnswered(
        ITEMS_ROUTE,
        () => {
          firstPageWaitMs = nodePerformance.eventLoopUtilization(started).idle;
        },
        paste,
      );
    }),
  );
  const fakeWriteMs = syncFigures(workbook.fake).busyMs;
  const { wallMs, idleMs, activeMs, value } = run.value;
  return {
    value,
    wallMs,
    memory: run.memory,
    figures: {
      wallMs,
      readWaitMs: idleMs,
      ownThreadMs: Math.max(0, activeMs - fakeWriteMs),
      fakeWriteMs,
      firstPageWaitMs,
    },
  };
}

/**
 * Runs `work` with the global fetch (the client's, src/api/http.ts) watched: `onFirst` is called
 * when the first answer to a URL matching `route` arrives (its headers; the emulator sends a page
 * whole once made). The answer itself is handed on untouched, not read or copied.
 */
async function whenFirstAnswered<T>(route: RegExp, onFirst: () => void, work: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  let seen = false;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!seen && route.test(new URL(url).pathname)) {
      seen = true;
      onFirst();
    }
    return response;
  };
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}

/**
 * A deliberately serial paste: every page read first (with the same read-ahead), then every row
 * written through the paste's writer. What a paste that does not stream costs; it must miss the
 * streaming bound (test/bench/streaming-bound.test.ts).
 */
export async function serialTimeseriesPaste(options: {
  client: RiskClient;
  run: ExcelRunner;
  portfolio: string;
  readAhead: number;
  rows: number;
}): Promise<number> {
  const items = await options.client.datasets
    .items(options.portfolio, { ...TIMESERIES_FILTERS, rows: options.rows })
    .all({ readAhead: options.readAhead });
  await writeTimeseries(options.run, items, options.rows);
  return items.length;
}

/** The figures of a paste for results.json, each name prefixed (e.g. `serial` → `serialReadWaitMs`). */
const figureDetails = (f: PasteThreadFigures, prefix = "") => {
  const name = (n: string) => (prefix ? `${prefix}${n[0].toUpperCase()}${n.slice(1)}` : n);
  return {
    [name("readWaitMs")]: round(f.readWaitMs),
    [name("ownThreadMs")]: round(f.ownThreadMs),
    [name("fakeWriteMs")]: round(f.fakeWriteMs),
    [name("firstPageWaitMs")]: round(f.firstPageWaitMs),
  };
};

/**
 * The streaming timeseries paste (pages read while earlier chunks are written), its wall split
 * into read wait, own thread time and fake write time; next to reading alone, writing alone and a
 * deliberately serial paste, all in the same run, same filters (one series per asset).
 * Target: wall ≤ 1.15 × max(read wait, own thread + fake write); every sync < 5 MB.
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

  // Serial: read everything, then write everything (what the bound must catch).
  const serialBook = timedWorkbook();
  const serial = await measurePaste(serialBook, () =>
    serialTimeseriesPaste({
      client,
      run: serialBook.run,
      portfolio,
      readAhead: settings.readAhead,
      rows: settings.rows,
    }),
  );
  const serialBound = streamingBound(serial.figures);

  // Streamed: the task pane's paste.
  const catalog = await benchCatalog(ctx);
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
  const paste = await measurePaste(workbook, benchPaste(ctx, workbook.run, catalog));
  const emulatorCpu = cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid));
  const requests = routeRequests((await ctx.emulator.stats()).routes, ITEMS_ROUTE);
  const syncs = syncFigures(workbook.fake);
  const bound = streamingBound(paste.figures);
  const years = paste.value.years;
  const f = paste.figures;
  const checks: Check[] = [
    {
      name: "wall ≤ 1.15 × max(read wait, first page's wait + own thread + fake write)",
      pass: bound.pass,
      detail: `${bound.detail} (${fmt(bound.ratio, 2)} ×; the serial paste: ${fmt(serialBound.ratio, 2)} ×)`,
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
    boundMs: bound.boundMs,
    boundNote:
      `max(read wait ${fmt(f.readWaitMs)} ms, first page's wait ${fmt(f.firstPageWaitMs)} + own thread ` +
      `${fmt(f.ownThreadMs)} + fake write ${fmt(f.fakeWriteMs)} ms); ` +
      `read alone ${fmt(read.wallMs)} ms, write alone ${fmt(write.wallMs)} ms; emulator at ${latencyMs} ms`,
    naiveMs: serial.wallMs,
    naiveNote: `the same paste read first, then written (${fmt(serialBound.ratio, 2)} × its own bound)`,
    memory: paste.memory,
    target: "wall ≤ 1.15 × max(read wait, first page's wait + own thread + fake write); every sync < 5 MB",
    status: checks.every((c) => c.pass) ? "PASS" : "MISS",
    checks,
    details: {
      items: items.length,
      years,
      ...figureDetails(f),
      readMs: round(read.wallMs),
      writeMs: round(write.wallMs),
      serialMs: round(serial.wallMs),
      ...figureDetails(serial.figures, "serial"),
      serialRatio: round(serialBound.ratio, 2),
      ratio: round(bound.ratio, 2),
      emulatorCpuBulkMs: emulatorCpu ?? "n/a",
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
