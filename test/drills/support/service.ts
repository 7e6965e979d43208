import { RiskClient, type ConnectionConfig, type TransportOptions } from "../../../src/api";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/server";
import { demoConnection } from "../../functions/support/emulator";
import { closingFetch } from "../../functions/support/http-fetch";

/** Request counters of the emulator, as /__emulator/stats reports them. */
export interface EmulatorStats {
  total: number;
  /** `METHOD /route/pattern` → count, e.g. `POST /api/portfolios`. */
  routes: Record<string, number>;
  faults: { "429": number; "503": number };
}

/** An emulator started for a drill, with the demo connection and readers of its counters. */
export interface DrillService {
  emulator: RunningEmulator;
  connection: ConnectionConfig;
  /** A client of the demo connection over {@link closingFetch}; retries off unless asked. */
  client(options?: TransportOptions): RiskClient;
  stats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an in-process emulator on a free port. Every request of a drill goes through
 * closingFetch (one connection per request), so close() never waits on pooled keep-alive sockets.
 */
export async function startDrillService(options: EmulatorOptions = {}): Promise<DrillService> {
  const emulator = await startEmulator({ port: 0, quiet: true, processingDelayMs: 30, ...options });
  const connection = demoConnection(emulator);
  return {
    emulator,
    connection,
    client: (transport = {}) =>
      new RiskClient(connection, { maxRetries: 0, timeoutMs: 10_000, fetch: closingFetch, ...transport }),
    async stats() {
      const response = await closingFetch(`${emulator.url}/__emulator/stats`);
      return (await response.json()) as EmulatorStats;
    },
    async resetStats() {
      await closingFetch(`${emulator.url}/__emulator/stats/reset`, { method: "POST" });
    },
    close: () => emulator.close(),
  };
}

/** Sum of the counts of routes whose key starts with `prefix` (e.g. "POST "). */
export function routesStartingWith(stats: EmulatorStats, prefix: string): number {
  return Object.entries(stats.routes).reduce((sum, [route, n]) => (route.startsWith(prefix) ? sum + n : sum), 0);
}

export { closingFetch };
