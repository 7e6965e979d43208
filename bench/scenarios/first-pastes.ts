/**
 * The first pastes of the kinds that had no row of their own (the risk matrix with its label
 * counts, an export unpacked), and a refresh of kinds whose sheets share one read (the timeseries'
 * projected and observed sheets, an export's files): each through the pane's own actions against
 * the fake, so a branch and main run back to back compare the paste and the refresh as they run.
 */
import { downloadExport, unpackExport } from "../../src/taskpane/features/export/export-actions";
import { PASTE_KINDS } from "../../src/taskpane/features/paste-kinds";
import { refreshPastedSheetsWithoutPane } from "../../src/taskpane/features/pasted/pasted-sheets-actions";
import { pasteTimeseries } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { pasteRiskMatrix } from "../../src/taskpane/features/visual/risk-views-actions";
import { routeRequests, type BenchContext, type ScenarioResult } from "../context";
import { emulatorCpuMs } from "../emulator-process";
import { count, cpuDelta, fmt, round } from "../format";
import { timed } from "../measure";
import { setUpPortfolio } from "../portfolio";
import { syncFigures, timedWorkbook } from "../workbook";

const ITEMS_ROUTE = /\/datasets\/physical\/items$/;
const EXPORT_ROUTE = /\/datasets\/physical\/export$/;

/**
 * The export rows' portfolio: a twentieth of the benchmark's (250 sites), imported once. The export
 * of 5,000 sites is nine files of 540,000 rows in all, minutes to unpack into the fake.
 */
const EXPORT_PORTFOLIO = "bench-export-portfolio";
let exportPortfolio: Promise<string> | undefined;
function exportPortfolioOf(ctx: BenchContext): Promise<string> {
  exportPortfolio ??= setUpPortfolio(ctx.client, EXPORT_PORTFOLIO, Math.max(10, ctx.scale.portfolioAssets / 20)).then(
    (setup) => setup.portfolio,
  );
  return exportPortfolio;
}

/**
 * The emulator's request counts. Pending I/O is let through first: after a long synchronous write
 * into the fake, the emulator may have closed the idle connection meanwhile, and a request sent
 * before the client has seen that close fails ("other side closed").
 */
async function routesNow(ctx: BenchContext): Promise<Record<string, number>> {
  await new Promise((done) => setImmediate(done));
  return (await ctx.emulator.stats()).routes;
}

/** What every row here reports: the wall time, its requests, its syncs and the fake's write time. */
function pasteRow(
  id: string,
  scenario: string,
  measured: { wallMs: number; memory: ScenarioResult["memory"] },
  requests: number,
  requestNote: string,
  details: ScenarioResult["details"],
): ScenarioResult {
  return {
    id,
    scenario,
    requests,
    requestNote,
    wallMs: measured.wallMs,
    boundMs: null,
    boundNote: "",
    naiveMs: null,
    memory: measured.memory,
    target: "within ±15 % of main's wall (issue 36, 1b)",
    status: "INFO",
    checks: [],
    details,
  };
}

/** The risk matrix (labels, ssp585, 30-year window) and its label counts: two sheets from one summary read. */
export async function riskSheetsPasteScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client, portfolio } = ctx;
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
  const paste = await timed(() =>
    pasteRiskMatrix({ client, run: workbook.run, portfolio, scenario: "ssp585", window: 30, cells: "label" }),
  );
  const requests = routeRequests(await routesNow(ctx), /.*/);
  const syncs = syncFigures(workbook.fake);
  const [matrix, counts] = paste.value;
  return pasteRow(
    "risk-sheets-paste",
    `Risk matrix + label counts paste (${count(matrix.rowCount)} × ${matrix.columnCount}; ${counts.rowCount} × ${counts.columnCount})`,
    paste,
    requests,
    `${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB; write ${fmt(workbook.runMs())} ms`,
    {
      writeMs: round(workbook.runMs()),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
      emulatorCpuBulkMs: cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid)) ?? "n/a",
    },
  );
}

/**
 * The export of the export rows' portfolio downloaded (not timed: the pane's "Download"), then
 * every CSV file unpacked into its sheet.
 */
export async function exportPasteScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client } = ctx;
  const download = await downloadExport(client, await exportPortfolioOf(ctx));
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const paste = await timed(() => unpackExport({ client, run: workbook.run, download }));
  const requests = routeRequests(await routesNow(ctx), /.*/);
  const syncs = syncFigures(workbook.fake);
  const rows = paste.value.reduce((n, s) => n + s.rowCount, 0);
  return pasteRow(
    "export-paste",
    `Export unpacked (${paste.value.length} files, ${count(rows)} rows, ZIP ${fmt(download.bytes.length / 1e6, 1)} MB)`,
    paste,
    requests,
    `${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB; write ${fmt(workbook.runMs())} ms`,
    {
      files: paste.value.length,
      rows,
      zipBytes: download.bytes.length,
      writeMs: round(workbook.runMs()),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
    },
  );
}

/**
 * "Refresh pasted sheets" (without the pane, nothing changed on the service) over a wildfire
 * timeseries paste of the export rows' portfolio (ssp585, mid: a projected and an observed sheet
 * from one read) and its unpacked export (one sheet per file from one download).
 */
export async function kindsRefreshScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client } = ctx;
  const portfolio = await exportPortfolioOf(ctx);
  const workbook = timedWorkbook();
  const timeseries = await pasteTimeseries({
    client,
    run: workbook.run,
    portfolio,
    filters: { hazard: "wildfire", scenario: "ssp585", measure: "mid" },
  });
  const files = await unpackExport({ client, run: workbook.run, download: await downloadExport(client, portfolio) });
  const sheets = timeseries.sheets.length + files.length;
  await ctx.emulator.resetStats();
  const syncsBefore = workbook.fake.syncs.length;
  const refresh = await timed(() => refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client, run: workbook.run }));
  const routes = await routesNow(ctx);
  const itemRequests = routeRequests(routes, ITEMS_ROUTE);
  const exportRequests = routeRequests(routes, EXPORT_ROUTE);
  return pasteRow(
    "kinds-refresh",
    `Refresh of a timeseries paste (${timeseries.sheets.map((s) => `${s.kind} ${count(s.rowCount)} × ${s.columnCount}`).join(", ")}) and an unpacked export (${files.length} files): ${sheets} sheets`,
    refresh,
    routeRequests(routes, /.*/),
    `${itemRequests} item pages, ${exportRequests} export downloads; ${workbook.fake.syncs.length - syncsBefore} syncs`,
    {
      sheets,
      refreshed: refresh.value.refreshed,
      itemRequests,
      exportRequests,
    },
  );
}
