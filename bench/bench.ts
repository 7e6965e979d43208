import { cpus, loadavg } from "node:os";
import { RiskClient } from "../src/api/client";
import { FULL_SCALE, type BenchContext, type BenchScale, type BenchSettings, type ScenarioResult } from "./context";
import { benchConnection, emulatorCpuMs, spawnEmulator } from "./emulator-process";
import { round } from "./format";
import { setUpPortfolio, type PortfolioSetup } from "./portfolio";
import { LATENCY_SCENARIOS, latencyScenario } from "./scenarios/latency";
import { warmUpSearch } from "./scenarios/search";

/** Options of one benchmark run. */
export interface BenchOptions {
  /** Latency the emulator adds to every response (default 40 ms). */
  latencyMs?: number;
  scale?: BenchScale;
  settings?: BenchSettings;
  /**
   * Bundle sizes: "build" (default) runs the production build, "reuse" measures a fresh dist/, "skip" leaves it out.
   */
  bundle?: "build" | "reuse" | "skip";
  /** Only these scenario ids (all by default). */
  only?: string[];
  /** The browser scenario (`search-preflight`: chromium and a development build); default true. */
  browser?: boolean;
  log?: (message: string) => void;
}

/** Everything a run measured, as written to results.json. */
export interface BenchReport {
  startedAt: string;
  totalMs: number;
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
  };
  latencyMs: number;
  settings: BenchSettings;
  scale: BenchScale;
  setup: PortfolioSetup | null;
  results: ScenarioResult[];
}

/** The add-in's defaults: engine concurrency 6, 4 pages in flight, 250 rows a page. */
export const DEFAULT_SETTINGS: BenchSettings = { concurrency: 6, readAhead: 4, rows: 250 };

const PORTFOLIO = "bench-portfolio";

/**
 * Starts the emulator in its own process, runs every scenario one after another (never two at
 * once, so none slows another down), and kills the emulator whatever happens.
 */
export async function runBenchmarks(options: BenchOptions = {}): Promise<BenchReport> {
  const latencyMs = options.latencyMs ?? 40;
  const scale = options.scale ?? FULL_SCALE;
  const settings = options.settings ?? DEFAULT_SETTINGS;
  const log = options.log ?? (() => undefined);
  const wanted = (id: string) => !options.only || options.only.includes(id);
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const loadAverageBefore = loadavg().map((v) => round(v, 2));
  const results: ScenarioResult[] = [];
  let setup: PortfolioSetup | null = null;

  log(`starting the emulator (latency ${latencyMs} ms) in its own process…`);
  const emulator = await spawnEmulator({ latencyMs });
  const connection = benchConnection(emulator);
  const client = new RiskClient(connection, { maxRetries: 0, timeoutMs: 60_000 });
  const ctx: BenchContext = { emulator, connection, client, latencyMs, scale, settings, portfolio: PORTFOLIO, log };
  try {
    // Each scenario's module is loaded when the scenario runs: the pane's actions bring the task
    // pane's UI library with them (its index.ts exports the panel), which under Node is over 100 MB
    // of heap, and the runtime scenario brings playwright. Loaded up front, they were counted in
    // every scenario's heap and slowed every collection of the formula scenarios, which use neither.
    const measure = async (id: string, load: () => Promise<(c: BenchContext) => Promise<ScenarioResult>>) => {
      if (!wanted(id)) return;
      log(`${id}…`);
      const scenario = await load();
      const cpuBefore = emulatorCpuMs(emulator.pid);
      const result = await scenario(ctx);
      const cpuAfter = emulatorCpuMs(emulator.pid);
      if (cpuBefore !== null && cpuAfter !== null) result.details.emulatorCpuMs = Math.round(cpuAfter - cpuBefore);
      log(`${id}: ${result.status}${result.wallMs === null ? "" : `, ${Math.round(result.wallMs)} ms`}`);
      results.push(result);
    };

    // Not measured: compiles the client's code paths once, as an open workbook has done before.
    await warmUpSearch(ctx);
    await measure("search", async () => (await import("./scenarios/search")).searchScenario);
    await measure("search-column", async () => (await import("./scenarios/columns")).searchColumnScenario);
    await measure("warm-restart", async () => (await import("./scenarios/columns")).warmRestartScenario);
    if (
      [
        "summary",
        "summary-column",
        "timeseries",
        "applied-layer",
        "summary-paste",
        "timeseries-stream",
        "extended-summary",
        "risk-sheets-paste",
        "export-paste",
        "kinds-refresh",
        "keyed-refresh",
      ].some(wanted)
    ) {
      log(`importing the ${scale.portfolioAssets}-asset portfolio…`);
      setup = await setUpPortfolio(client, PORTFOLIO, scale.portfolioAssets);
    }
    await measure("summary", async () => (await import("./scenarios/summary")).summaryScenario);
    await measure("summary-column", async () => (await import("./scenarios/columns")).summaryColumnScenario);
    await measure("timeseries", async () => (await import("./scenarios/timeseries")).timeseriesScenario);
    await measure("sync", async () => (await import("./scenarios/sync")).syncScenario);
    await measure("applied-layer", async () => (await import("./scenarios/pastes")).appliedLayerScenario);
    await measure("summary-paste", async () => (await import("./scenarios/pastes")).summaryPasteScenario);
    await measure("timeseries-stream", async () => (await import("./scenarios/streaming")).timeseriesStreamScenario);
    await measure("extended-summary", async () => (await import("./scenarios/streaming")).extendedSummaryScenario);
    await measure("risk-sheets-paste", async () => (await import("./scenarios/first-pastes")).riskSheetsPasteScenario);
    await measure("export-paste", async () => (await import("./scenarios/first-pastes")).exportPasteScenario);
    await measure("kinds-refresh", async () => (await import("./scenarios/first-pastes")).kindsRefreshScenario);
    await measure("keyed-refresh", async () => (await import("./scenarios/keyed-refresh")).keyedRefreshScenario);
    await measure("weekly-refresh", async () => (await import("./scenarios/weekly-refresh")).weeklyRefreshScenario);
    await measure("geocode", async () => (await import("./scenarios/geocode")).geocodeScenario);
    // It makes a production build and drives chromium: part of a full run, and of `--only runtime`,
    // but not of a run without builds (--skip-bundle, the smoke test).
    if (options.only?.includes("runtime") || (!options.only && options.bundle !== "skip")) {
      log("measuring the shared runtime with the pane hidden (production build, chromium)…");
      const { runtimeScenario } = await import("./scenarios/runtime");
      results.push(await runtimeScenario(emulator.url, log));
    }
  } finally {
    emulator.stop();
  }
  // Each starts an emulator of its own (latency 300 ms, a cap or a rate limit) and runs three times.
  for (const id of LATENCY_SCENARIOS.filter(wanted)) {
    log(`${id}…`);
    const result = await latencyScenario(ctx, id);
    log(`${id}: ${result.status}, median ${Math.round(result.wallMs ?? 0)} ms`);
    results.push(result);
  }
  if (options.browser !== false && wanted("search-preflight")) {
    log("search-preflight (chromium)…");
    const { preflightScenario } = await import("./scenarios/preflight");
    results.push(await preflightScenario(ctx));
  }
  if (options.bundle !== "skip" && wanted("bundle")) {
    log(options.bundle === "reuse" ? "measuring the bundle (dist/ when fresh)…" : "running the production build…");
    const { bundleScenario } = await import("./scenarios/bundle");
    results.push(bundleScenario({ reuseDist: options.bundle === "reuse" }));
  }
  return {
    startedAt,
    totalMs: Math.round(performance.now() - started),
    environment: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      loadAverageBefore,
      loadAverageAfter: loadavg().map((v) => round(v, 2)),
    },
    latencyMs,
    settings,
    scale,
    setup,
    results,
  };
}
