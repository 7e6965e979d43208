import type { RiskClient } from "../src/api/client";
import type { ConnectionConfig } from "../src/api/config";
import type { BenchEmulator } from "./emulator-process";
import type { MemoryPeak } from "./measure";

/** How big the benchmark runs: the full run uses the figures of docs/benchmarks.md, the smoke test tiny ones. */
export interface BenchScale {
  /** RISK.SEARCH cells and the distinct points they ask about (10,000 over 1,000). */
  searchCells: number;
  searchPoints: number;
  /** Cells the naive search client sends (extrapolated to searchCells when smaller). */
  naiveSearchCells: number;
  /** Assets of the benchmark portfolio (5,000), also the RISK.SUMMARY cells and the synced rows. */
  portfolioAssets: number;
  /** Cells the naive summary client sends (extrapolated to portfolioAssets when smaller). */
  naiveSummaryCells: number;
  /** Rows the naive writer writes one sync each (extrapolated to the table's rows when smaller). */
  naiveWriteRows: number;
  /** Distinct points of the searches at real latency (5,000), and how many runs each (3; the median is reported). */
  latencyPoints: number;
  latencyRuns: number;
  /** The weekly refresh's workbook (bench/scenarios/weekly-refresh.ts). */
  weekly: WeeklyScale;
  /** Addresses of the geocoding runs (bench/scenarios/geocode.ts), on the real clock. */
  geocode: GeocodeScale;
}

/** How many addresses each geocoding run finds (docs/benchmarks.md, row 12). */
export interface GeocodeScale {
  /** At 20 requests a second (1,000). */
  atTwentyPerSecond: number;
  /** At one a second, as the public Nominatim allows (60). */
  atOnePerSecond: number;
  /** 20 at once at 100 ms latency (5,000). */
  twentyAtOnce: number;
}

/** The sizes of the weekly refresh's workbook (docs/benchmarks.md, "The weekly refresh"). */
export interface WeeklyScale {
  /** Assets of the portfolio: its RISK.SUMMARY cells are 6 × this (5,000). */
  assets: number;
  /** RISK.SEARCH cells, each over its own point (500). */
  searchCells: number;
  /** RISK.IMPACT cells (200). */
  impactCells: number;
  /** Series of the timeseries paste: the sites of a second portfolio (1,000). */
  series: number;
  /** Latency of the run against a cap of 32 requests at once per key (300 ms). */
  cappedLatencyMs: number;
  /**
   * Round trips a sync (ms) of the further runs at the bench's latency, each charged on every sync
   * of the refresh with its transfer time ([20, 100]); the first run and the capped one charge none.
   */
  syncRoundTripsMs: number[];
  /**
   * Refreshes measured in each run (3; the median of wall ÷ bound is reported, every one listed):
   * the workbook is built once per run, each further refresh follows another 1 % change.
   */
  refreshes: number;
}

/** The full figures (docs/benchmarks.md). Naive clients run a subset and are extrapolated (see docs/benchmarks.md). */
export const FULL_SCALE: BenchScale = {
  searchCells: 10_000,
  searchPoints: 1_000,
  naiveSearchCells: 1_200,
  portfolioAssets: 5_000,
  naiveSummaryCells: 600,
  naiveWriteRows: 5_000,
  latencyPoints: 5_000,
  latencyRuns: 3,
  weekly: {
    assets: 5_000,
    searchCells: 500,
    impactCells: 200,
    series: 1_000,
    cappedLatencyMs: 300,
    syncRoundTripsMs: [20, 100],
    refreshes: 3,
  },
  geocode: { atTwentyPerSecond: 1_000, atOnePerSecond: 60, twentyAtOnce: 5_000 },
};

/** The engine's and the readers' settings the bench runs with (the add-in's defaults). */
export interface BenchSettings {
  concurrency: number;
  readAhead: number;
  rows: number;
}

/** Everything a scenario needs. */
export interface BenchContext {
  emulator: BenchEmulator;
  connection: ConnectionConfig;
  /** A plain client (no engine) for set-up and the naive clients; counts its requests. */
  client: RiskClient;
  latencyMs: number;
  scale: BenchScale;
  settings: BenchSettings;
  /** The 5,000-asset portfolio the portfolio scenarios read (made by the set-up step). */
  portfolio: string;
  log(message: string): void;
}

/** One requirement of a scenario and whether the run met it. */
export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

/** One row of the results table. */
export interface ScenarioResult {
  id: string;
  scenario: string;
  /** Requests the emulator counted for the measured work (null: none sent, e.g. bundle sizes). */
  requests: number | null;
  requestNote?: string;
  wallMs: number | null;
  /** The physical bound of the work, and how it is computed. */
  boundMs: number | null;
  boundNote?: string;
  /** What the naive client took (possibly extrapolated) and how it works. */
  naiveMs: number | null;
  naiveNote?: string;
  memory: MemoryPeak | null;
  /** The target in words. */
  target: string;
  /** PASS when every check passed, MISS otherwise, INFO when the scenario has no target. */
  status: "PASS" | "MISS" | "INFO";
  checks: Check[];
  /** Further figures for the JSON and the notes (sync bytes, pages, ...). */
  details: Record<string, number | string | boolean>;
}

/** The status a list of checks gives. */
export function statusOf(checks: readonly Check[]): ScenarioResult["status"] {
  if (checks.length === 0) return "INFO";
  return checks.every((c) => c.pass) ? "PASS" : "MISS";
}

/** Requests of one route (e.g. `GET /api/search`) between two stats snapshots; `*` matches any route. */
export function routeRequests(routes: Record<string, number>, pattern: string | RegExp): number {
  let total = 0;
  for (const [route, count] of Object.entries(routes)) {
    if (route.includes("/__emulator/")) continue;
    if (typeof pattern === "string" ? route === pattern : pattern.test(route)) total += count;
  }
  return total;
}
