import {
  LastGoodCache,
  MemoryStorage,
  RiskEngine,
  evaluateCells,
  setDefaultEngine,
  type CellResult,
  type FormulaCall,
} from "../../testing/evaluate-cells";
import { plausiblePoints } from "../assets";
import { routeRequests, statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { count, fmt, round } from "../format";
import { timed } from "../measure";
import { pagesNeeded } from "../portfolio";

/**
 * The column formulas' benchmarks (one RISK.SEARCH over a 10,000-row range, one
 * RISK.SUMMARY over a 5,000-row index column) and a restart with a warm persistent cache.
 */

const SEARCH_ROUTE = "GET /api/search";
const SUMMARY_ROUTE = /\/datasets\/physical\/summary$/;

/** The lat and lng columns: `rows` rows cycling over `points` distinct points. */
function pointColumns(rows: number, points: number): { lats: number[][]; lngs: number[][] } {
  const at = plausiblePoints(points);
  return {
    lats: Array.from({ length: rows }, (_, i) => [at[i % points]!.lat]),
    lngs: Array.from({ length: rows }, (_, i) => [at[i % points]!.lng]),
  };
}

/** The same sheet as single cells: one RISK.SEARCH per row, same hazard and horizon. */
function searchRowsAsCells(lats: number[][], lngs: number[][]): FormulaCall[] {
  return lats.map((lat, i) => ({
    fn: "SEARCH",
    args: [[lat], [lngs[i]!], [["floods"]], [["30yr"]]],
    address: `Sheet1!D${i + 2}`,
  }));
}

function elements(result: CellResult): unknown[] {
  return "value" in result && Array.isArray(result.value) ? (result.value as unknown[][]).flat() : [];
}

function isErrorElement(value: unknown): boolean {
  return typeof value === "object" && value !== null && "code" in value;
}

function engineFor(ctx: BenchContext, extra: { lastGood?: LastGoodCache } = {}): RiskEngine {
  const engine = new RiskEngine({
    connection: ctx.connection,
    concurrency: ctx.settings.concurrency,
    readAhead: ctx.settings.readAhead,
    rows: ctx.settings.rows,
    ...extra,
  });
  setDefaultEngine(engine);
  return engine;
}

/**
 * One `=RISK.SEARCH(B2:B10001, C2:C10001, "floods", "30yr")` over 1,000 distinct points, next to
 * the 10,000-cell form of the same sheet (each with a cold cache). Bound: points × latency ÷
 * concurrency. Targets: requests = points, wall ≤ 1.15 × bound, within 1.1× of the cell form.
 */
export async function searchColumnScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { scale, settings, latencyMs } = ctx;
  const rows = scale.searchCells;
  const points = scale.searchPoints;
  const { lats, lngs } = pointColumns(rows, points);
  try {
    // The cell form first (its own engine), as the reference the column form is held to.
    engineFor(ctx);
    await ctx.emulator.resetStats();
    const cellForm = await timed(() => evaluateCells(searchRowsAsCells(lats, lngs)));
    const cellRequests = routeRequests((await ctx.emulator.stats()).routes, SEARCH_ROUTE);

    const engine = engineFor(ctx);
    const column: FormulaCall = { fn: "SEARCH", args: [lats, lngs, [["floods"]], [["30yr"]]], address: "Sheet1!D2" };
    await ctx.emulator.resetStats();
    const first = await timed(() => evaluateCells([column]));
    const routes = (await ctx.emulator.stats()).routes;
    const requests = routeRequests(routes, SEARCH_ROUTE);
    const otherRequests = routeRequests(routes, /.*/) - requests;
    const values = elements(first.value[0]!);
    const errors = values.filter(isErrorElement).length;
    const sameAsCells = values.every(
      (value, i) => JSON.stringify(value) === JSON.stringify(elements(cellForm.value[i]!)[0]),
    );

    await ctx.emulator.resetStats();
    const second = await timed(() => evaluateCells([column]));
    const secondRequests = routeRequests((await ctx.emulator.stats()).routes, /.*/);

    const boundMs = (points * latencyMs) / settings.concurrency;
    const checks: Check[] = [
      {
        name: "requests = distinct points",
        pass: requests === points && otherRequests === 0,
        detail: `${requests} search requests (+${otherRequests} other) for ${points} points`,
      },
      {
        name: "wall ≤ 1.15 × bound",
        pass: first.wallMs <= 1.15 * boundMs,
        detail: `${fmt(first.wallMs)} ms ≤ ${fmt(1.15 * boundMs)} ms`,
      },
      {
        name: "within 1.1× of the cell form",
        pass: first.wallMs <= 1.1 * cellForm.wallMs,
        detail: `${fmt(first.wallMs)} ms vs ${fmt(cellForm.wallMs)} ms for ${count(rows)} cells (${cellRequests} requests)`,
      },
      {
        name: "one spill of every row",
        pass: values.length === rows && errors === 0 && sameAsCells,
        detail: `${values.length} elements, ${errors} errors, same values as the cells: ${sameAsCells}`,
      },
      {
        name: "second recalculation sends 0 requests",
        pass: secondRequests === 0,
        detail: `${secondRequests} requests in ${fmt(second.wallMs)} ms`,
      },
    ];
    const stats = engine.stats();
    return {
      id: "search-column",
      scenario: `one RISK.SEARCH over a ${count(rows)}-row range, ${count(points)} points`,
      requests,
      requestNote: `recalculation: ${secondRequests} requests in ${fmt(second.wallMs)} ms; the ${count(rows)}-cell form took ${fmt(cellForm.wallMs)} ms`,
      wallMs: first.wallMs,
      boundMs,
      boundNote: `${count(points)} × ${latencyMs} ms ÷ concurrency ${settings.concurrency}`,
      naiveMs: cellForm.wallMs,
      naiveNote: `the same sheet as ${count(rows)} single-cell formulas (engine, cold cache)`,
      memory: first.memory,
      target: "requests = points; wall ≤ 1.15 × bound; ≤ 1.1 × the cell form",
      status: statusOf(checks),
      checks,
      details: {
        rows,
        points,
        cellFormMs: round(cellForm.wallMs),
        cellFormRequests: cellRequests,
        engineLoads: stats.loads,
        secondRecalcMs: round(second.wallMs),
        secondRecalcRequests: secondRequests,
      },
    };
  } finally {
    setDefaultEngine(undefined);
  }
}

/**
 * One `=RISK.SUMMARY("bench-portfolio", A2:A5001, "wildfire")` over the benchmark portfolio's
 * indexes. Target: requests = the summary's pages (+ at most read-ahead − 1 past the end).
 */
export async function summaryColumnScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { scale, settings, latencyMs, portfolio } = ctx;
  const assets = scale.portfolioAssets;
  const indexes = Array.from({ length: assets }, (_, i) => [i]);
  const column: FormulaCall = { fn: "SUMMARY", args: [[[portfolio]], indexes, [["wildfire"]]], address: "Sheet1!B2" };
  engineFor(ctx);
  try {
    await ctx.emulator.resetStats();
    const first = await timed(() => evaluateCells([column]));
    const routes = (await ctx.emulator.stats()).routes;
    const requests = routeRequests(routes, SUMMARY_ROUTE);
    const otherRequests = routeRequests(routes, /.*/) - requests;
    const values = elements(first.value[0]!);
    const errors = values.filter(isErrorElement).length;
    const pages = pagesNeeded(assets, settings.rows);
    const speculative = requests - pages;

    await ctx.emulator.resetStats();
    const second = await timed(() => evaluateCells([column]));
    const secondRequests = routeRequests((await ctx.emulator.stats()).routes, /.*/);
    const checks: Check[] = [
      {
        name: "requests = the summary's pages",
        pass: speculative >= 0 && speculative <= settings.readAhead - 1 && otherRequests === 0,
        detail: `${requests} requests for ${pages} pages (${speculative} past the end, at most ${settings.readAhead - 1}; ${otherRequests} other)`,
      },
      {
        name: "one spill of every row",
        pass: values.length === assets && errors === 0,
        detail: `${values.length} elements, ${errors} errors`,
      },
      {
        name: "second recalculation sends 0 requests",
        pass: secondRequests === 0,
        detail: `${secondRequests} requests in ${fmt(second.wallMs)} ms`,
      },
    ];
    return {
      id: "summary-column",
      scenario: `one RISK.SUMMARY over a ${count(assets)}-row index column`,
      requests,
      requestNote: `${pages} pages + ${speculative} speculative; recalculation: ${secondRequests} requests in ${fmt(second.wallMs)} ms`,
      wallMs: first.wallMs,
      boundMs: (pages / settings.readAhead) * latencyMs,
      boundNote: `${pages} pages ÷ read-ahead ${settings.readAhead} × ${latencyMs} ms`,
      naiveMs: null,
      memory: first.memory,
      target: "requests = pages (+ ≤ read-ahead − 1)",
      status: statusOf(checks),
      checks,
      details: {
        rows: assets,
        pages,
        speculativePages: speculative,
        secondRecalcMs: round(second.wallMs),
        secondRecalcRequests: secondRequests,
      },
    };
  } finally {
    setDefaultEngine(undefined);
  }
}

/**
 * Excel restarts with a warm persistent cache: the 10,000 RISK.SEARCH cells of the search
 * scenario, evaluated by a new engine (empty memory) over the storage the previous one filled.
 * Target: 0 requests; reported: the time and the storage used. The storage here is the in-memory
 * stand-in; in Office each read is an OfficeRuntime.storage call, so the time is a lower bound.
 */
export async function warmRestartScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { scale } = ctx;
  const { lats, lngs } = pointColumns(scale.searchCells, scale.searchPoints);
  const calls = searchRowsAsCells(lats, lngs);
  const storage = new MemoryStorage();
  try {
    const before = engineFor(ctx, { lastGood: new LastGoodCache(storage) });
    const filled = await evaluateCells(calls);
    await before.flushPersistent();
    const usage = await before.persistentUsage();

    const after = engineFor(ctx, { lastGood: new LastGoodCache(storage) }); // the runtime restarted
    await ctx.emulator.resetStats();
    const restart = await timed(() => evaluateCells(calls));
    const requests = routeRequests((await ctx.emulator.stats()).routes, /.*/);
    const same = restart.value.every((cell, i) => JSON.stringify(cell) === JSON.stringify(filled[i]));
    const errors = restart.value.filter((cell) => "error" in cell).length;
    const stats = after.stats();
    const checks: Check[] = [
      {
        name: "0 requests after the restart",
        pass: requests === 0,
        detail: `${requests} requests; ${stats.persistentHits} loads answered by the persistent cache`,
      },
      {
        name: "every cell shows its value",
        pass: same && errors === 0,
        detail: `${errors} errors, same values as before the restart: ${same}`,
      },
    ];
    return {
      id: "warm-restart",
      scenario: `restart with a warm persistent cache: ${count(calls.length)} RISK.SEARCH cells`,
      requests,
      requestNote: `storage used: ${count(usage?.chars ?? 0)} characters in ${usage?.entries ?? 0} entries (${count(storage.chars)} with keys; OfficeRuntime.storage holds 10 MB)`,
      wallMs: restart.wallMs,
      boundMs: null,
      naiveMs: null,
      memory: restart.memory,
      target: "0 requests; report time and storage used",
      status: statusOf(checks),
      checks,
      details: {
        cells: calls.length,
        points: scale.searchPoints,
        storageChars: storage.chars,
        storageEntries: usage?.entries ?? 0,
        persistentHits: stats.persistentHits,
      },
    };
  } finally {
    setDefaultEngine(undefined);
  }
}
