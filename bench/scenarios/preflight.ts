import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { count, fmt, round } from "../format";

/**
 * What CORS preflights add in a browser: test/browser/preflight-bench.ts (run with tsx, as it
 * uses the browser tests' build, server and chromium) measures a RISK.SEARCH column of a few
 * hundred points at 300 ms in the harness, through its same-origin proxy (no preflight) and
 * straight to the emulator's origin (a preflight per new URL), and the same points in Node.
 */

const ROOT = resolve(__dirname, "..", "..");
const LATENCY_MS = 300;

interface PathRun {
  wallMs: number;
  searches: number;
  preflights: number;
  errors: number;
}

interface PreflightReport {
  points: number;
  latencyMs: number;
  harness: PathRun[];
  crossOrigin: PathRun[];
  node: PathRun[];
  skipped?: string;
}

function runBrowserBench(points: number, runs: number, log: (message: string) => void): Promise<PreflightReport> {
  const args = ["test/browser/preflight-bench.ts", "--points", String(points), "--latency", String(LATENCY_MS)];
  const child = spawn(resolve(ROOT, "node_modules/.bin/tsx"), [...args, "--runs", String(runs)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
    for (const line of chunk.toString().split("\n")) if (line.startsWith("run ")) log(`search-preflight ${line}`);
  });
  return new Promise((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{"))
        return reject(new Error(`the browser benchmark failed (exit ${code}): ${errors.trim().slice(-2000)}`));
      resolvePromise(JSON.parse(line) as PreflightReport);
    });
  });
}

function median(runs: readonly PathRun[]): PathRun {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

/** The `search-preflight` scenario: harness path, cross-origin and Node, medians of `scale.latencyRuns` runs. */
export async function preflightScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const points = Math.min(300, ctx.scale.latencyPoints);
  const report = await runBrowserBench(points, ctx.scale.latencyRuns, ctx.log);
  const base = {
    id: "search-preflight",
    scenario: `one RISK.SEARCH column over ${count(points)} points at ${LATENCY_MS} ms in chromium: what CORS preflights add`,
    naiveMs: null,
    memory: null,
    target: "report the harness path, cross-origin and Node",
  };
  if (report.skipped)
    return {
      ...base,
      requests: null,
      wallMs: null,
      boundMs: null,
      status: "INFO",
      checks: [],
      details: { skipped: report.skipped },
    };
  const harness = median(report.harness);
  const cross = median(report.crossOrigin);
  const node = median(report.node);
  const all = [...report.harness, ...report.crossOrigin, ...report.node];
  const checks: Check[] = [
    {
      name: "every row a value",
      pass: all.every((r) => r.errors === 0 && r.searches === points),
      detail: all.map((r) => `${r.searches} searches, ${r.errors} errors`).join("; "),
    },
  ];
  const runs = (list: PathRun[]) => list.map((r) => fmt(r.wallMs)).join(", ");
  return {
    ...base,
    requests: cross.searches + cross.preflights,
    requestNote: `cross-origin: ${cross.searches} searches + ${cross.preflights} preflights; harness path: ${harness.preflights} preflights`,
    wallMs: cross.wallMs,
    boundMs: (points * LATENCY_MS) / 6,
    boundNote: `${count(points)} × ${LATENCY_MS} ms ÷ 6 connections`,
    status: statusOf(checks) === "MISS" ? "MISS" : "INFO",
    checks: [
      ...checks,
      {
        name: "what preflights add",
        pass: true,
        detail:
          `cross-origin ${fmt(cross.wallMs)} ms (runs ${runs(report.crossOrigin)}) vs harness path ${fmt(harness.wallMs)} ms ` +
          `(runs ${runs(report.harness)}): ${fmt(cross.wallMs / harness.wallMs, 2)}×; Node ${fmt(node.wallMs)} ms (runs ${runs(report.node)})`,
      },
    ],
    details: {
      points,
      latencyMs: LATENCY_MS,
      harnessMs: round(harness.wallMs),
      crossOriginMs: round(cross.wallMs),
      nodeMs: round(node.wallMs),
      preflightsCrossOrigin: cross.preflights,
      preflightsHarness: harness.preflights,
    },
  };
}
