import { pasteAppliedLayer } from "../../src/taskpane/features/layer/applied-layer-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { SUMMARY_READ_AHEAD } from "../../src/taskpane/features/summary/summary-kinds";
import { plausibleAssets } from "../assets";
import { routeRequests, type BenchContext, type ScenarioResult } from "../context";
import { emulatorCpuMs } from "../emulator-process";
import { count, cpuDelta, fmt, round } from "../format";
import { timed } from "../measure";
import { pagesNeeded } from "../portfolio";
import { syncFigures, timedWorkbook } from "../workbook";

const SUMMARY_ROUTE = /\/datasets\/physical\/summary$/;
/** Scenarios × windows of the default summary: items per asset when no filter is given. */
const SUMMARY_ROWS_PER_ASSET = 3 * 3;
/** The reader's default read-ahead, which the extended summary's paste uses. */
const PASTE_READ_AHEAD = 4;

/**
 * A vector layer of one square zone (±0.5°) around each city the benchmark sites cluster around,
 * with loss figures: every site falls in a zone, so every row of the applied layer has values.
 */
function cityZones(count: number) {
  const centres = new Map<string, { lat: number; lng: number; n: number }>();
  for (const site of plausibleAssets(count)) {
    const city = site.entity_name.split(" ")[0];
    const c = centres.get(city) ?? { lat: 0, lng: 0, n: 0 };
    centres.set(city, { lat: c.lat + site.lat, lng: c.lng + site.lng, n: c.n + 1 });
  }
  const features = [...centres].map(([city, c], i) => {
    const lat = c.lat / c.n;
    const lng = c.lng / c.n;
    const d = 0.5;
    return {
      type: "Feature" as const,
      id: `zone-${i}`,
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [lng - d, lat - d],
            [lng + d, lat - d],
            [lng + d, lat + d],
            [lng - d, lat + d],
            [lng - d, lat - d],
          ],
        ],
      },
      properties: {
        zone: city,
        loss_flood_bsln: 10_000 * (i + 1),
        loss_flood_2050: 14_000 * (i + 1),
        loss_wildfire_bsln: 2_000 * (i % 5),
        loss_wildfire_2050: 3_500 * (i % 5),
      },
    };
  });
  return { type: "FeatureCollection" as const, features };
}

/** Scenario 5a: apply a vector layer to the benchmark portfolio and paste the CSV into a new sheet. */
export async function appliedLayerScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client, portfolio, latencyMs } = ctx;
  const vector = await client.compositions.createVector({
    name: "bench-city-zones",
    geojson: cityZones(ctx.scale.portfolioAssets) as never,
  });
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
  const paste = await timed(() =>
    pasteAppliedLayer({ client, run: workbook.run, vectorId: vector.id, vectorName: "Zones", portfolio }),
  );
  const requests = routeRequests((await ctx.emulator.stats()).routes, /.*/);
  const emulatorCpu = cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid));
  const syncs = syncFigures(workbook.fake);
  const writeMs = workbook.runMs();
  return {
    id: "applied-layer",
    scenario: `Applied-layer paste, ${count(paste.value.rowCount)} rows × ${paste.value.columnCount} columns`,
    requests,
    requestNote: `${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB; write ${fmt(writeMs)} ms`,
    wallMs: paste.wallMs,
    boundMs: latencyMs + writeMs,
    boundNote: `1 apply request × ${latencyMs} ms + write ${fmt(writeMs)} ms`,
    naiveMs: null,
    memory: paste.memory,
    target: "report wall, requests, syncs",
    status: "INFO",
    checks: [],
    details: {
      rows: paste.value.rowCount,
      columns: paste.value.columnCount,
      writeMs: round(writeMs),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
      totalSyncBytes: syncs.totalRequestBytes,
      emulatorCpuBulkMs: emulatorCpu ?? "n/a",
    },
  };
}

/** Scenario 5b: paste the default and the extended summary of the benchmark portfolio (all scenarios). */
export async function summaryPasteScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { client, portfolio, latencyMs } = ctx;
  const assets = ctx.scale.portfolioAssets;
  const workbook = timedWorkbook();
  await ctx.emulator.resetStats();
  const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
  const paste = await timed(() => pasteSummary({ client, run: workbook.run, portfolio }));
  const routes = (await ctx.emulator.stats()).routes;
  const requests = routeRequests(routes, /.*/);
  const summaryRequests = routeRequests(routes, SUMMARY_ROUTE);
  const emulatorCpu = cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid));
  const syncs = syncFigures(workbook.fake);
  const writeMs = workbook.runMs();
  // The two lists are read at the same time: the default summary SUMMARY_READ_AHEAD pages in
  // flight, the extended summary PASTE_READ_AHEAD.
  const summaryPages = pagesNeeded(assets * SUMMARY_ROWS_PER_ASSET, 250);
  const extendedPages = pagesNeeded(assets, 250);
  const readBoundMs = Math.max(summaryPages / SUMMARY_READ_AHEAD, extendedPages / PASTE_READ_AHEAD) * latencyMs;
  const rows = paste.value
    .map((sheet) => `${sheet.sheetName}: ${count(sheet.rowCount)} × ${sheet.columnCount}`)
    .join("; ");
  return {
    id: "summary-paste",
    scenario: `Summary + extended summary paste (${rows})`,
    requests,
    requestNote: `${summaryPages} + ${extendedPages} pages (${summaryRequests} summary requests); ${syncs.syncs} syncs, largest ${fmt(syncs.maxRequestBytes / 1e6, 2)} MB; write ${fmt(writeMs)} ms`,
    wallMs: paste.wallMs,
    boundMs: readBoundMs + writeMs,
    boundNote: `max(${summaryPages} pages ÷ read-ahead ${SUMMARY_READ_AHEAD}, ${extendedPages} ÷ ${PASTE_READ_AHEAD}) × ${latencyMs} ms + write ${fmt(writeMs)} ms`,
    naiveMs: null,
    memory: paste.memory,
    target: "report wall, requests, syncs",
    status: "INFO",
    checks: [],
    details: {
      summaryPages,
      extendedPages,
      summaryRequests,
      writeMs: round(writeMs),
      readBoundMs: round(readBoundMs),
      syncs: syncs.syncs,
      maxSyncBytes: syncs.maxRequestBytes,
      totalSyncBytes: syncs.totalRequestBytes,
      emulatorCpuBulkMs: emulatorCpu ?? "n/a",
    },
  };
}
