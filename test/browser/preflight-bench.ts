/**
 * The browser half of the benchmark `search-preflight` (bench/scenarios/preflight.ts runs this
 * file with tsx and reads the one JSON line it prints; it is not a jest test). It measures what
 * CORS preflights add to a column of RISK.SEARCH in chromium:
 *
 * - "harness path": the harness page reaches the emulator through its own origin's `/emulator`
 *   proxy, as `npm start` serves it: same origin, no preflight;
 * - "cross-origin": the same page with the connection set to the emulator's own URL, as the add-in
 *   in Excel on the web reaches a service on another origin: each search of a new point is a new
 *   URL, so the browser sends an OPTIONS preflight first (Access-Control-Max-Age caches it per URL);
 * - "Node": the same points through the same engine in Node (no browser, no preflight).
 *
 * Usage: `tsx test/browser/preflight-bench.ts --points 300 --latency 300 --runs 3`.
 */
import type { Browser } from "playwright-core";
import { type RunningEmulator } from "../../emulator/server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { RiskEngine, evaluateCells, setDefaultEngine } from "../../testing/evaluate-cells";
import { addinBuild } from "./support/addin-build";
import { startAddinServer } from "./support/addin-server";
import { CHROMIUM_PATH, launchBrowser } from "./support/browser";
import { emulatorStats, routeCount } from "../support/emulator";
import { openHarness } from "./support/harness-page";
import { existsSync } from "node:fs";
import { startTestEmulator } from "../support/emulator";

/** One measured run of one path. */
interface PathRun {
  wallMs: number;
  searches: number;
  preflights: number;
  errors: number;
}

/** What this prints, as one JSON line. */
export interface PreflightReport {
  points: number;
  latencyMs: number;
  harness: PathRun[];
  crossOrigin: PathRun[];
  node: PathRun[];
  /** Set when chromium is missing: nothing was measured. */
  skipped?: string;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a number ≥ 0`);
  return value;
}

/** `count` distinct points, shifted per run so no run finds another's answers or preflights cached. */
function pointsFor(run: number, count: number): [number, number][] {
  return Array.from({ length: count }, (_, i) => [
    -60 + ((i * 0.37) % 120) + run * 0.001,
    -170 + ((i * 1.13) % 340) + run * 0.001,
  ]);
}

/** One column formula over the points in A and B of an empty harness workbook; the time until it settled. */
async function browserRun(
  browser: Browser,
  origin: string,
  emulator: RunningEmulator,
  points: [number, number][],
  crossOrigin: boolean,
): Promise<PathRun> {
  const harness = await openHarness(browser, origin, { demo: false });
  try {
    if (crossOrigin) {
      const connection = {
        baseUrl: emulator.url,
        natureUrl: emulator.natureUrl,
        apiKey: DEMO_API_KEY,
        project: DEMO_PROJECT,
      };
      // The connection store (src/shared/connection.ts) keeps it there outside Office; read at start.
      await harness.page.evaluate(
        (text) => localStorage.setItem("climate-risk.connection", text),
        JSON.stringify(connection),
      );
      await harness.page.reload();
      await harness.page.waitForFunction(() => window.harness !== undefined);
      await harness.page.evaluate(() => window.harness?.ready);
    }
    await harness.page.evaluate((rows) => window.harness?.setCells("A1", rows), points);
    await fetch(`${emulator.url}/__emulator/stats/reset`, { method: "POST" });
    const formula = `=RISK.SEARCH(A1:A${points.length},B1:B${points.length},"floods","30yr")`;
    const wallMs = await harness.page.evaluate(async (text) => {
      const api = window.harness!;
      const started = performance.now();
      api.setCell("D1", text);
      await api.waitForIdle(600_000);
      return performance.now() - started;
    }, formula);
    const spilled = await harness.page.evaluate((n) => window.harness?.getValues(`D1:D${n}`), points.length);
    const stats = await emulatorStats(emulator.url);
    return {
      wallMs,
      searches: routeCount(stats, "GET", "/api/search"),
      preflights: routeCount(stats, "OPTIONS", "*"),
      errors: (spilled ?? []).filter((row) => typeof row[0] !== "number").length,
    };
  } finally {
    await harness.close();
  }
}

async function nodeRun(emulator: RunningEmulator, points: [number, number][]): Promise<PathRun> {
  const connection = {
    baseUrl: emulator.url,
    natureUrl: emulator.natureUrl,
    apiKey: DEMO_API_KEY,
    project: DEMO_PROJECT,
  };
  setDefaultEngine(new RiskEngine({ connection }));
  await fetch(`${emulator.url}/__emulator/stats/reset`, { method: "POST" });
  const started = performance.now();
  const [cell] = await evaluateCells([
    { fn: "SEARCH", args: [points.map((p) => [p[0]]), points.map((p) => [p[1]]), [["floods"]], [["30yr"]]] },
  ]);
  const wallMs = performance.now() - started;
  setDefaultEngine(undefined);
  const stats = await emulatorStats(emulator.url);
  const values = cell && "value" in cell && Array.isArray(cell.value) ? (cell.value as unknown[][]) : [];
  return {
    wallMs,
    searches: routeCount(stats, "GET", "/api/search"),
    preflights: routeCount(stats, "OPTIONS", "*"),
    errors: points.length - values.filter((row) => typeof row[0] === "number").length,
  };
}

async function main(): Promise<void> {
  const count = option("--points", 300);
  const latencyMs = option("--latency", 300);
  const runs = Math.max(1, option("--runs", 3));
  const report: PreflightReport = { points: count, latencyMs, harness: [], crossOrigin: [], node: [] };
  if (!existsSync(CHROMIUM_PATH)) {
    report.skipped = `no browser at ${CHROMIUM_PATH} (apt-get install -y chromium)`;
    console.log(JSON.stringify(report));
    return;
  }
  const launching = launchBrowser();
  const buildDir = await addinBuild().finally(() => launching.catch(() => undefined));
  const browser = await launching;
  const emulator = await startTestEmulator({ latencyMs });
  const server = await startAddinServer(buildDir, emulator.url);
  try {
    for (let run = 0; run < runs; run++) {
      report.harness.push(await browserRun(browser, server.origin, emulator, pointsFor(3 * run, count), false));
      report.crossOrigin.push(await browserRun(browser, server.origin, emulator, pointsFor(3 * run + 1, count), true));
      report.node.push(await nodeRun(emulator, pointsFor(3 * run + 2, count)));
      console.error(
        `run ${run + 1}: ${JSON.stringify([report.harness.at(-1), report.crossOrigin.at(-1), report.node.at(-1)])}`,
      );
    }
  } finally {
    await server.close();
    await browser.close();
    await emulator.close();
  }
  console.log(JSON.stringify(report));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
