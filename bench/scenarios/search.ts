import { RiskEngine, evaluateCells, setDefaultEngine, type FormulaCall } from "../../testing/evaluate-cells";
import { plausiblePoints } from "../assets";
import { routeRequests, statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { emulatorCpuMs } from "../emulator-process";
import { count, cpuDelta, fmt, round } from "../format";
import { mapLimited, timed } from "../measure";

const SEARCH_ROUTE = "GET /api/search";
const HAZARDS = ["floods", "cyclones", "drought", "heatwaves", "sea_level_rise", "wildfire"] as const;

/** The cells of the sheet: each point asked about by several cells (hazard, horizon, field vary). */
export function searchCells(cells: number, points: number): FormulaCall[] {
  const at = plausiblePoints(points);
  return Array.from({ length: cells }, (_, i) => {
    const { lat, lng } = at[i % points];
    const k = Math.floor(i / points);
    return {
      fn: "SEARCH",
      args: [lat, lng, HAZARDS[k % HAZARDS.length], k % 2 === 0 ? "30yr" : "15yr", null, k % 3 === 2 ? "label" : null],
      address: `Sheet1!A${i + 1}`,
    };
  });
}

/**
 * Scenario 1: N RISK.SEARCH cells over P distinct points in one recalculation, through the engine
 * exactly as Excel calls the functions. Bound: P requests at `concurrency` at once, each taking the
 * emulator's latency. The naive client sends one request per cell with the same concurrency.
 */
export async function searchScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { scale, settings, latencyMs } = ctx;
  const calls = searchCells(scale.searchCells, scale.searchPoints);
  let firstRequestAt: number | undefined;
  const engine = new RiskEngine({
    connection: ctx.connection,
    concurrency: settings.concurrency,
    readAhead: settings.readAhead,
    rows: settings.rows,
    onRequest: () => {
      firstRequestAt ??= performance.now();
    },
  });
  setDefaultEngine(engine);
  try {
    await ctx.emulator.resetStats();
    const cpuBefore = emulatorCpuMs(ctx.emulator.pid);
    const startedAt = performance.now();
    const first = await timed(() => evaluateCells(calls));
    const emulatorCpu = cpuDelta(cpuBefore, emulatorCpuMs(ctx.emulator.pid));
    // Time before the first request left: collecting the cells of the recalculation.
    const setupMs = (firstRequestAt ?? startedAt) - startedAt;
    const firstRoutes = (await ctx.emulator.stats()).routes;
    const requests = routeRequests(firstRoutes, SEARCH_ROUTE);
    const otherRequests = routeRequests(firstRoutes, /.*/) - requests;
    const errors = first.value.filter((cell) => "error" in cell);

    await ctx.emulator.resetStats();
    const second = await timed(() => evaluateCells(calls));
    const secondRequests = routeRequests((await ctx.emulator.stats()).routes, /.*/);
    const secondErrors = second.value.filter((cell) => "error" in cell).length;
    const sameValues = second.value.every((cell, i) => JSON.stringify(cell) === JSON.stringify(first.value[i]));

    // Naive: one request per cell, the same concurrency, no de-duplication, no cache.
    const naiveCalls = calls.slice(0, Math.min(scale.naiveSearchCells, calls.length));
    await ctx.emulator.resetStats();
    const naive = await timed(() =>
      mapLimited(naiveCalls, settings.concurrency, (call) =>
        ctx.client.search.point(call.args[0] as number, call.args[1] as number),
      ),
    );
    const naiveRequests = routeRequests((await ctx.emulator.stats()).routes, SEARCH_ROUTE);
    const naiveMs = (naive.wallMs * calls.length) / naiveCalls.length;
    // The same distinct requests sent by the bare client: what the engine could at best achieve here.
    const floorMs = (naive.wallMs * scale.searchPoints) / naiveCalls.length;

    const boundMs = (scale.searchPoints * latencyMs) / settings.concurrency;
    const limitMs = 1.15 * boundMs;
    const checks: Check[] = [
      {
        name: "requests = distinct points",
        pass: requests === scale.searchPoints && otherRequests === 0,
        detail: `${requests} search requests (+${otherRequests} other) for ${scale.searchPoints} points`,
      },
      {
        name: "wall ≤ 1.15 × bound",
        pass: first.wallMs <= limitMs,
        detail: `${fmt(first.wallMs)} ms ≤ ${fmt(limitMs)} ms`,
      },
      {
        name: "second recalculation sends 0 requests",
        pass: secondRequests === 0 && sameValues,
        detail: `${secondRequests} requests, ${fmt(second.wallMs)} ms, same values: ${sameValues}`,
      },
      {
        name: "every cell has a value",
        pass: errors.length === 0 && secondErrors === 0,
        detail:
          errors.length === 0 ? "no error values" : `${errors.length} error values, e.g. ${JSON.stringify(errors[0])}`,
      },
    ];
    const stats = engine.stats();
    return {
      id: "search",
      scenario: `${count(scale.searchCells)} RISK.SEARCH cells over ${count(scale.searchPoints)} points`,
      requests,
      requestNote: `second recalculation: ${secondRequests} requests in ${fmt(second.wallMs)} ms; first request after ${fmt(setupMs)} ms (collecting the cells); the bare client sends the same ${count(scale.searchPoints)} distinct requests in ${fmt(floorMs)} ms`,
      wallMs: first.wallMs,
      boundMs,
      boundNote: `${count(scale.searchPoints)} × ${latencyMs} ms ÷ concurrency ${settings.concurrency}`,
      naiveMs,
      naiveNote:
        naiveCalls.length === calls.length
          ? `one request per cell, concurrency ${settings.concurrency}`
          : `one request per cell, concurrency ${settings.concurrency}: ${count(naiveCalls.length)} cells (${naiveRequests} requests) took ${fmt(naive.wallMs)} ms, × ${fmt(calls.length / naiveCalls.length, 2)}`,
      memory: first.memory,
      target: "requests = points; wall ≤ 1.15 × bound; recalculation sends 0",
      status: statusOf(checks),
      checks,
      details: {
        cells: calls.length,
        points: scale.searchPoints,
        engineRequests: stats.requests,
        engineLoads: stats.loads,
        engineJoined: stats.joined,
        secondRecalcMs: round(second.wallMs),
        secondRecalcRequests: secondRequests,
        naiveCellsMeasured: naiveCalls.length,
        naiveMeasuredMs: round(naive.wallMs),
        naiveRequests,
        setupMs: round(setupMs),
        bareClientFloorMs: round(floorMs),
        emulatorCpuBulkMs: emulatorCpu ?? "n/a",
      },
    };
  } finally {
    setDefaultEngine(undefined);
  }
}

/**
 * Runs a small recalculation over points the scenario does not use, so the first measured run
 * does not pay for compiling the client's code paths (an open workbook has paid that already).
 */
export async function warmUpSearch(ctx: BenchContext): Promise<void> {
  const engine = new RiskEngine({ connection: ctx.connection, concurrency: ctx.settings.concurrency });
  setDefaultEngine(engine);
  try {
    const calls = searchCells(300, 30).map((call) => ({
      ...call,
      args: [(call.args[0] as number) + 0.5, ...call.args.slice(1)],
    }));
    await evaluateCells(calls);
  } finally {
    setDefaultEngine(undefined);
  }
}
