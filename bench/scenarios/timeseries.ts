import type { RiskClient } from "../../src/api/client";
import type { PagedList, ReadAllOptions } from "../../src/api/pagination";
import type { DatasetMetadata, ItemsQuery, PhysicalItem } from "../../src/api/types";
import { flattenTimeseries } from "../../src/shaping/flatten-timeseries";
import {
  loadTimeseriesCatalog,
  pasteTimeseries,
  type TimeseriesCatalog,
  type TimeseriesFilters,
  type TimeseriesPasted,
} from "../../src/taskpane/features/timeseries/timeseries-actions";
import type { ExcelRunner } from "../../src/taskpane/ui/pane-types";
import { routeRequests, statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { emulatorCpuMs } from "../emulator-process";
import { count, cpuDelta, fmt, round } from "../format";
import { timed, type Timed } from "../measure";
import { pagesNeeded } from "../portfolio";
import { syncFigures, timedWorkbook, writeRowByRow } from "../workbook";

const ITEMS_ROUTE = /\/datasets\/physical\/items$/;
const SYNC_LIMIT_BYTES = 5_000_000;
/** Pastes measured; the one with the median wall ÷ limit is reported, every one listed. */
const PASTE_RUNS = 3;

/** One measured paste: its wall and memory, the emulator's CPU and requests while it ran, its syncs. */
interface PasteRun {
  paste: Timed<TimeseriesPasted>;
  emulatorCpu: number | null;
  requests: number;
  syncs: ReturnType<typeof syncFigures>;
}

/** One hazard, scenario, indicator and measure: one series per asset. */
export const TIMESERIES_FILTERS: Required<Omit<TimeseriesFilters, "startYear" | "startDate" | "endDate">> = {
  hazard: "wildfire",
  indicator: "unified_prob",
  scenario: "ssp585",
  measure: "mid",
};

/**
 * The timeseries form's catalog of the bench's portfolio (its assets, indicators and one sample
 * series of each), loaded once and not measured: the pane loads it when the form opens, before
 * the analyst starts a paste, and passes it to the paste.
 */
export const benchCatalog: (ctx: BenchContext) => Promise<TimeseriesCatalog> = (() => {
  let loaded: Promise<TimeseriesCatalog> | undefined;
  return (ctx) => (loaded ??= loadTimeseriesCatalog(ctx.client, ctx.portfolio));
})();

/**
 * The task pane's timeseries paste of the bench's portfolio into `run`'s workbook (rows 3 and 7a),
 * with the form's catalog as the pane passes it; through `client` (default: the bench's).
 */
export function benchPaste(
  ctx: BenchContext,
  run: ExcelRunner,
  catalog: TimeseriesCatalog,
  client = ctx.client,
): () => Promise<TimeseriesPasted> {
  return () =>
    pasteTimeseries({
      client,
      catalog,
      run,
      portfolio: ctx.portfolio,
      filters: TIMESERIES_FILTERS,
      readAhead: ctx.settings.readAhead,
      rows: ctx.settings.rows,
    });
}

/**
 * A client for a paste whose reads are already done: the timeseries' pages come from `items` in
 * memory, each handed over once the writing of the one before has finished, and the dataset's
 * version (the sheets' provenance) is the answer already read. The task pane's paste through it
 * is the paste's writing alone: the same sheets, table, row keys, written store and provenance,
 * with nothing read and nothing decoded. Anything else it asked for would throw.
 */
export function replayingClient(
  client: RiskClient,
  items: readonly PhysicalItem[],
  rows: number,
  metadata: DatasetMetadata,
): RiskClient {
  const replayed: Pick<RiskClient, "connection"> & { datasets: Pick<RiskClient["datasets"], "items" | "metadata"> } = {
    connection: client.connection,
    datasets: {
      metadata: () => Promise.resolve(metadata),
      items: () =>
        ({
          all: async (options: ReadAllOptions<PhysicalItem> = {}) => {
            for (let start = 0, page = 1; start < items.length; start += rows, page++)
              await options.onPage?.(items.slice(start, start + rows), page);
            return [];
          },
        }) as unknown as PagedList<PhysicalItem>,
    },
  };
  return replayed as RiskClient;
}

/**
 * Scenario 3: the task pane's timeseries paste (pasteTimeseries) of the benchmark portfolio for
 * one filter set into a new sheet of the in-memory Excel fake. Bound: the read bound, plus the
 * same paste's writing alone (its reads replayed from memory: {@link replayingClient}). The naive
 * client reads the pages one after another and writes one row per sync.
 */
export async function timeseriesScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { scale, settings, latencyMs, portfolio, client } = ctx;
  // Three pastes, each into a workbook of its own; the one with the median wall ÷ limit is
  // reported (the first pays for compiling the paste's code, which no analyst's second paste does).
  const catalog = await benchCatalog(ctx);
  const runs: PasteRun[] = [];
  for (let i = 0; i < PASTE_RUNS; i++) {
    const workbook = timedWorkbook();
    await ctx.emulator.resetStats();
    const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
    const paste = await timed(benchPaste(ctx, workbook.run, catalog));
    const emulatorCpu = cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid));
    const requests = routeRequests((await ctx.emulator.stats()).routes, ITEMS_ROUTE);
    // The paste streams (its workbook batch spans the whole read), so reading and writing are each
    // measured alone below: the read with read-ahead, the write as this paste with its reads
    // replayed from memory (the rows the naive client reads).
    runs.push({ paste, emulatorCpu, requests, syncs: syncFigures(workbook.fake) });
  }
  const items = runs[0]!.paste.value.rowCount;
  const pages = pagesNeeded(items, settings.rows);

  // Naive: pages one after another, then one sync per row.
  const query: Omit<ItemsQuery, "page"> = { ...TIMESERIES_FILTERS, rows: settings.rows };
  const naiveBook = timedWorkbook();
  await ctx.emulator.resetStats();
  const naiveRead = await timed(async () => {
    const all: PhysicalItem[] = [];
    for await (const page of client.datasets.items(portfolio, query).pages()) all.push(...page);
    return all;
  });
  const naiveRequests = routeRequests((await ctx.emulator.stats()).routes, ITEMS_ROUTE);
  // The write term: the paste itself with its reads replayed from memory (the median of three,
  // each into a workbook of its own), so it writes all the paste writes.
  const metadata = await client.datasets.metadata(portfolio);
  const replaying = replayingClient(client, naiveRead.value, settings.rows, metadata);
  const writes: number[] = [];
  for (let i = 0; i < PASTE_RUNS; i++)
    writes.push((await timed(benchPaste(ctx, timedWorkbook().run, catalog, replaying))).wallMs);
  const writeMs = writes.sort((a, b) => a - b)[Math.floor(writes.length / 2)]!;
  const readMs = (await timed(() => client.datasets.items(portfolio, query).all({ readAhead: settings.readAhead })))
    .wallMs;
  const table = flattenTimeseries(naiveRead.value);
  const naiveRows = table.rows.slice(0, Math.min(scale.naiveWriteRows, table.rows.length));
  const naiveWrite = await timed(() => writeRowByRow(naiveBook.run, "Naive", table.header, naiveRows));
  const naiveWriteMs = (naiveWrite.wallMs * table.rows.length) / Math.max(1, naiveRows.length);
  const naiveMs = naiveRead.wallMs + naiveWriteMs;

  // The emulator makes the pages one after another on one thread (docs/benchmarks.md, "What limits
  // the figures"): read-ahead overlaps their latency, not its CPU. Each page's round trip is the
  // latency plus its share of the emulator's CPU, and all of them together cannot take less than
  // that CPU. Production spreads its work over many machines; this machine does not.
  const boundsOf = (run: PasteRun) => {
    const cpuPerRequestMs = run.emulatorCpu === null || run.requests === 0 ? 0 : run.emulatorCpu / run.requests;
    const readBoundMs = Math.max((pages / settings.readAhead) * (latencyMs + cpuPerRequestMs), run.emulatorCpu ?? 0);
    return { cpuPerRequestMs, readBoundMs, boundMs: readBoundMs + writeMs, limitMs: 1.3 * readBoundMs + writeMs };
  };
  const ranked = [...runs].sort((a, b) => a.paste.wallMs / boundsOf(a).limitMs - b.paste.wallMs / boundsOf(b).limitMs);
  const reported = ranked[Math.floor(ranked.length / 2)]!;
  const { paste, emulatorCpu, requests, syncs } = reported;
  const { cpuPerRequestMs, readBoundMs, boundMs, limitMs } = boundsOf(reported);
  const everyRun = runs.map((r) => `${fmt(r.paste.wallMs)} ms ≤ ${fmt(boundsOf(r).limitMs)}`).join(", ");
  const speedup = naiveMs / paste.wallMs;
  // The naive client reads one page at a time, so the emulator's CPU costs it no more than the
  // latency already does, while it caps the paste's read (the read bound): the most the paste
  // can be faster by is naive ÷ bound (issue 41, item 5: the target restated to count it).
  const speedupTarget = Math.min(3, naiveMs / limitMs);
  const readSpeedup = naiveRead.wallMs / readMs;
  // The fake answers a sync at once; Excel does not (issue 41). With the weekly refresh's smallest
  // round trip charged on every sync of both (the naive's one a row, extrapolated like its write),
  // reported beside the target, which stays at 0 ms a sync.
  const roundTripMs = Math.min(...scale.weekly.syncRoundTripsMs);
  const naiveSyncs = table.rows.length + 1;
  const speedupWithRoundTrips = (naiveMs + naiveSyncs * roundTripMs) / (paste.wallMs + syncs.syncs * roundTripMs);
  const checks: Check[] = [
    {
      name: "wall ≤ 1.3 × read bound + write",
      pass: paste.wallMs <= limitMs,
      detail: `${fmt(paste.wallMs)} ms ≤ 1.3 × ${fmt(readBoundMs)} + ${fmt(writeMs)} = ${fmt(limitMs)} ms (the median of ${PASTE_RUNS}: ${everyRun} ms)`,
    },
    {
      name: "every sync < 5 MB",
      pass: syncs.maxRequestBytes < SYNC_LIMIT_BYTES,
      detail: `largest sync ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB over ${syncs.syncs} syncs`,
    },
    {
      name: "≥ 3× faster than naive, or the most the emulator's CPU allows",
      pass: speedup >= speedupTarget,
      detail:
        `${fmt(speedup, 1)}× ≥ ${fmt(speedupTarget, 2)}× = min(3, naive ${fmt(naiveMs)} ms ÷ the wall's limit ${fmt(limitMs)} ms) (naive: sequential pages ${fmt(naiveRead.wallMs)} ms + row-by-row write ${fmt(naiveWriteMs)} ms); ` +
        `reading alone ${fmt(readSpeedup, 1)}×; with ${roundTripMs} ms a sync (${count(naiveSyncs)} syncs against ${syncs.syncs}) ` +
        `${fmt(speedupWithRoundTrips, 0)}×`,
    },
    {
      name: "requests = pages",
      pass: requests >= pages && requests <= pages + settings.readAhead - 1,
      detail: `${requests} requests for ${pages} pages`,
    },
  ];
  return {
    id: "timeseries",
    scenario: `Timeseries paste, ${count(items)} series × ${table.years.length} years`,
    requests,
    requestNote: `${pages} pages; ${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB; read ${fmt(readMs)} ms, write ${fmt(writeMs)} ms`,
    wallMs: paste.wallMs,
    boundMs,
    boundNote:
      `max(${pages} pages ÷ read-ahead ${settings.readAhead} × (${latencyMs} ms + the emulator's CPU per request ` +
      `${fmt(cpuPerRequestMs)} ms), the emulator's CPU ${emulatorCpu === null ? "n/a" : `${fmt(emulatorCpu)} ms`}) ` +
      `+ the paste's writing alone ${fmt(writeMs)} ms (its reads replayed from memory; median of ${PASTE_RUNS})`,
    naiveMs,
    naiveNote:
      naiveRows.length === table.rows.length
        ? `pages one after another (${naiveRequests} requests, ${fmt(naiveRead.wallMs)} ms), one sync per row (${fmt(naiveWriteMs)} ms)`
        : `pages one after another (${naiveRequests} requests, ${fmt(naiveRead.wallMs)} ms), one sync per row: ${count(naiveRows.length)} rows took ${fmt(naiveWrite.wallMs)} ms, extrapolated to ${fmt(naiveWriteMs)} ms`,
    memory: paste.memory,
    target: "wall ≤ 1.3 × read bound + write (median of 3); syncs < 5 MB; ≥ min(3, naive ÷ that) × faster than naive",
    status: statusOf(checks),
    checks,
    details: {
      items,
      years: table.years.length,
      pages,
      readMs: round(readMs),
      writeMs: round(writeMs),
      readBoundMs: round(readBoundMs),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
      totalSyncBytes: syncs.totalRequestBytes,
      naiveReadMs: round(naiveRead.wallMs),
      naiveWriteMs: round(naiveWriteMs),
      naiveWriteRowsMeasured: naiveRows.length,
      naiveSyncs: naiveBook.fake.syncs.length,
      readSpeedup: round(readSpeedup, 2),
      speedupWithRoundTrips: round(speedupWithRoundTrips, 1),
      roundTripMs,
      emulatorCpuBulkMs: emulatorCpu ?? "n/a",
      pasteWallsMs: runs.map((r) => Math.round(r.paste.wallMs)).join(", "),
      speedupTarget: round(speedupTarget, 2),
    },
  };
}
