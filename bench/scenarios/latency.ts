import { RiskEngine, evaluateCells, setDefaultEngine, type FormulaCall } from "../../testing/evaluate-cells";
import { plausiblePoints } from "../assets";
import { routeRequests, statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { benchConnection, spawnEmulator, type BenchEmulatorOptions } from "../emulator-process";
import { count, fmt, round } from "../format";
import { timed } from "../measure";

/**
 * Searching at a production-like latency: one RISK.SEARCH column over thousands of distinct
 * points, against an emulator (its own process, started per scenario) that adds 300 ms to every
 * answer and limits the key by a concurrency cap, a rate limit, or nothing; or through a client
 * that, like a browser over HTTP/1.1, has only 6 connections to the host. Each scenario runs
 * `scale.latencyRuns` times with a new engine (nothing learned, cold cache) and reports the median.
 */

const SEARCH_ROUTE = "GET /api/search";

/**
 * Today's figures with the fixed concurrency of 6 (the engine before it adapted), measured on the
 * same machine with this code and 5,000 points: the yardstick of the "no harm" scenarios
 * (docs/benchmarks.md, "Search at real latency").
 */
export const FIXED_SIX_MS = {
  /** 300 ms latency, 6 connections: median of three runs (258,202, 260,053, 261,431 ms). */
  sixConnections300: 260_053,
  /** 40 ms latency, no limit: median of three runs (49,110, 45,169, 41,406 ms, a busy machine). */
  unlimited40: 45_169,
} as const;

/** One emulator set-up, its bound and its targets. */
interface LatencyCase {
  id: string;
  what: string;
  emulator: Omit<BenchEmulatorOptions, "processingDelayMs" | "seed">;
  /** At most this many requests on the wire at once (a browser's connections per host); none by default. */
  connections?: number;
  /** The physical bound for `points` distinct points, and how it is computed. */
  bound(points: number): { ms: number; note: string };
  /** The target's wall time for `points` distinct points, and how it is computed. */
  limit(points: number): { ms: number; note: string };
  /** Largest share of requests answered 429 (default: no limit). */
  max429Share?: number;
}

const CASES: Record<string, LatencyCase> = {
  "search-300-cap32": {
    id: "search-300-cap32",
    what: "300 ms, cap of 32 requests at once per key",
    emulator: { latencyMs: 300, concurrencyLimit: 32 },
    bound: (points) => ({ ms: (points * 300) / 32, note: `${count(points)} × 300 ms ÷ 32` }),
    limit: (points) => ({ ms: (1.2 * points * 300) / 32, note: "1.2 × bound" }),
    max429Share: 0.01,
  },
  "search-300-rate50": {
    id: "search-300-rate50",
    what: "300 ms, rate limit of 50 requests per second per key",
    emulator: { latencyMs: 300, rateLimit: 50 },
    bound: (points) => ({ ms: (points / 50) * 1000, note: `${count(points)} ÷ 50 per second` }),
    limit: (points) => ({ ms: (1.2 * points * 1000) / 50, note: "1.2 × bound" }),
  },
  "search-300-six": {
    id: "search-300-six",
    what: "300 ms, 6 connections to the host (HTTP/1.1 in a browser)",
    emulator: { latencyMs: 300 },
    connections: 6,
    bound: (points) => ({ ms: (points * 300) / 6, note: `${count(points)} × 300 ms ÷ 6 connections` }),
    limit: (points) => fixedSixLimit(FIXED_SIX_MS.sixConnections300, points, (points * 300) / 6),
  },
  "search-40": {
    id: "search-40",
    what: "40 ms, no limit",
    emulator: { latencyMs: 40 },
    bound: (points) => ({ ms: (points * 40) / 6, note: `${count(points)} × 40 ms ÷ concurrency 6 (today's)` }),
    limit: (points) => fixedSixLimit(FIXED_SIX_MS.unlimited40, points, (points * 40) / 6),
  },
};

/** 1.2 × today's fixed-6 figure when it was measured at this scale (5,000 points), else 1.2 × the fixed-6 bound. */
function fixedSixLimit(todayMs: number, points: number, fixedBoundMs: number): { ms: number; note: string } {
  if (points === 5_000 && Number.isFinite(todayMs))
    return { ms: 1.2 * todayMs, note: `1.2 × today's fixed 6 (${fmt(todayMs)} ms)` };
  return { ms: 1.2 * fixedBoundMs, note: "1.2 × the fixed-6 bound (today's figure is for 5,000 points)" };
}

/** Every scenario id of this file, in the order the bench runs them. */
export const LATENCY_SCENARIOS = Object.keys(CASES);

/**
 * A fetch that keeps at most `connections` requests on the wire, each until its body is read, as
 * a browser's connection pool for one host does over HTTP/1.1; the others wait their turn.
 */
export function connectionLimitedFetch(connections: number): typeof fetch {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    busy--;
    waiting.shift()?.();
  };
  return async (input, init) => {
    if (busy >= connections) await new Promise<void>((resolve) => waiting.push(resolve));
    busy++;
    try {
      const response = await fetch(input, init);
      const body = await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      release();
    }
  };
}

interface Run {
  wallMs: number;
  /** Mean time from sending to the answer's headers, as the client saw it (the machine's load adds to the 300 ms). */
  latencyMs: number;
  requests: number;
  rateLimited: number;
  errors: number;
  elements: number;
  retries: number;
}

/** Stall window of {@link watchProgress}: a search at 300 ms answers far sooner, Retry-After pauses included. */
const STALL_MS = 20_000;

/**
 * Watches one run (every promise must settle): logs when no search has been answered for 20 s,
 * with what the engine holds; with `BENCH_TRACE=1`, logs every second the answers and 429s of that
 * second and the limiter's state. Returns the function that stops watching.
 */
function watchProgress(
  ctx: BenchContext,
  label: string,
  engine: RiskEngine,
  progress: { answered: number; refused: number; lastAnswerAt: number },
): () => void {
  const trace = process.env.BENCH_TRACE === "1";
  const started = performance.now();
  let last = { answered: 0, refused: 0 };
  let stalled = false;
  const timer = setInterval(() => {
    const now = performance.now();
    const s = engine.stats();
    const p = engine.progress();
    const state = `in flight ${s.inFlight}, limit ${s.concurrency}, cap ${s.learnedCap ?? "-"}, queued ${s.queued}, retries ${s.retries}, estimate ${p.estimateMs === undefined ? "-" : fmt(p.estimateMs)} ms`;
    if (trace)
      ctx.log(
        `${label} t=${fmt((now - started) / 1000)} s: ${progress.answered - last.answered} answered, ${progress.refused - last.refused} × 429; ${state}`,
      );
    last = { answered: progress.answered, refused: progress.refused };
    const idle = now - progress.lastAnswerAt;
    if (idle >= STALL_MS && !stalled) ctx.log(`${label}: STALL, no search answered for ${fmt(idle)} ms; ${state}`);
    stalled = idle >= STALL_MS;
  }, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Runs the scenario `id` (one of {@link LATENCY_SCENARIOS}). */
export async function latencyScenario(ctx: BenchContext, id: string): Promise<ScenarioResult> {
  const spec = CASES[id];
  if (!spec) throw new Error(`no latency scenario ${id}`);
  const points = ctx.scale.latencyPoints;
  const at = plausiblePoints(points);
  const column: FormulaCall = {
    fn: "SEARCH",
    args: [at.map((p) => [p.lat]), at.map((p) => [p.lng]), [["floods"]], [["30yr"]]],
    address: "Sheet1!D2",
  };
  const emulator = await spawnEmulator({ ...spec.emulator, processingDelayMs: 200 });
  const runs: Run[] = [];
  try {
    const connection = benchConnection(emulator);
    for (let i = 0; i < ctx.scale.latencyRuns; i++) {
      const latencies: number[] = [];
      const progress = { answered: 0, refused: 0, lastAnswerAt: performance.now() };
      const wire = spec.connections ? connectionLimitedFetch(spec.connections) : fetch;
      const engine = new RiskEngine({
        connection,
        readAhead: ctx.settings.readAhead,
        rows: ctx.settings.rows,
        fetch: async (input, init) => {
          const sent = performance.now();
          const response = await wire(input, init);
          latencies.push(performance.now() - sent);
          if (response.status === 429) progress.refused++;
          else {
            progress.answered++;
            progress.lastAnswerAt = performance.now();
          }
          return response;
        },
      });
      setDefaultEngine(engine);
      await emulator.resetStats();
      const watch = watchProgress(ctx, `${id} run ${i + 1}`, engine, progress);
      const run = await timed(() => evaluateCells([column])).finally(watch);
      const stats = await emulator.stats();
      const cell = run.value[0]!;
      const values = "value" in cell && Array.isArray(cell.value) ? (cell.value as unknown[][]).flat() : [];
      runs.push({
        wallMs: run.wallMs,
        latencyMs: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
        requests: routeRequests(stats.routes, SEARCH_ROUTE),
        rateLimited: stats.faults?.["429"] ?? 0,
        errors: "error" in cell ? points : values.filter((v) => typeof v === "object" && v !== null).length,
        elements: values.length,
        retries: engine.stats().retries,
      });
      ctx.log(
        `${id} run ${i + 1}: ${fmt(run.wallMs)} ms, ${runs[i]!.rateLimited} × 429, mean latency ${fmt(runs[i]!.latencyMs)} ms`,
      );
    }
  } finally {
    setDefaultEngine(undefined);
    emulator.stop();
  }
  const median = [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
  const bound = spec.bound(points);
  const limit = spec.limit(points);
  const share429 = (r: Run) => r.rateLimited / Math.max(1, r.requests);
  const worst429 = Math.max(...runs.map(share429));
  const checks: Check[] = [
    {
      name: `median wall ≤ ${limit.note}`,
      pass: median.wallMs <= limit.ms,
      detail: `${fmt(median.wallMs)} ms ≤ ${fmt(limit.ms)} ms (runs: ${runs.map((r) => fmt(r.wallMs)).join(", ")} ms)`,
    },
    {
      name: "every row a value",
      pass: runs.every((r) => r.errors === 0 && r.elements === points),
      detail: runs.map((r) => `${r.elements} elements, ${r.errors} errors`).join("; "),
    },
  ];
  if (spec.max429Share !== undefined)
    checks.push({
      name: `fewer than ${fmt(spec.max429Share * 100)} % of requests answered 429 (the median run)`,
      pass: share429(median) < spec.max429Share,
      detail: `${median.rateLimited} of ${count(median.requests)}; every run: ${runs.map((r) => `${r.rateLimited} of ${count(r.requests)}`).join("; ")}`,
    });
  return {
    id,
    scenario: `one RISK.SEARCH column over ${count(points)} points, ${spec.what} (median of ${runs.length})`,
    requests: median.requests,
    requestNote:
      `429 answers: ${runs.map((r) => r.rateLimited).join(", ")}; retries: ${runs.map((r) => r.retries).join(", ")}; ` +
      `mean latency seen by the client: ${runs.map((r) => fmt(r.latencyMs)).join(", ")} ms`,
    wallMs: median.wallMs,
    boundMs: bound.ms,
    boundNote: bound.note,
    naiveMs: null,
    memory: null,
    target: `wall ≤ ${limit.note}${spec.max429Share === undefined ? "" : `; < ${fmt(spec.max429Share * 100)} % 429`}`,
    status: statusOf(checks),
    checks,
    details: {
      points,
      runs: runs.length,
      runsMs: runs.map((r) => round(r.wallMs)).join(", "),
      medianMs: round(median.wallMs),
      meanLatencyMs: runs.map((r) => round(r.latencyMs)).join(", "),
      limitMs: round(limit.ms),
      rateLimited: runs.map((r) => r.rateLimited).join(", "),
      worst429Share: round(worst429, 4),
    },
  };
}
