import { RiskClient, RISK_DATA_AVAILABLE, type ConnectionConfig } from "../../../src/api";
import { closingFetch } from "./http-fetch";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../../src/shared/vocabulary";

/**
 * A started emulator with the demo connection and helpers to read what crossed the wire. Every
 * request goes through closingFetch (see there), so close() never waits on pooled sockets.
 */
export interface EmulatorFixture {
  emulator: RunningEmulator;
  connection: ConnectionConfig;
  client: RiskClient;
  /** Requests per route (`GET /api/search`, ...) since the last `resetStats`, service routes only. */
  routes(): Promise<Record<string, number>>;
  resetStats(): Promise<void>;
}

/** The demo connection (the vocabulary's key and project) to a running emulator. */
export function demoConnection(emulator: RunningEmulator): ConnectionConfig {
  return { baseUrl: emulator.baseUrl, natureUrl: emulator.natureUrl, apiKey: DEMO_API_KEY, project: DEMO_PROJECT };
}

export async function startEmulatorFixture(options: EmulatorOptions = {}): Promise<EmulatorFixture> {
  const emulator = await startEmulator({ port: 0, quiet: true, ...options });
  const connection = demoConnection(emulator);
  return {
    emulator,
    connection,
    client: new RiskClient(connection, { maxRetries: 0, fetch: closingFetch }),
    async routes() {
      const response = await closingFetch(`${emulator.url}/__emulator/stats`);
      const body = (await response.json()) as { routes: Record<string, number> };
      return Object.fromEntries(Object.entries(body.routes).filter(([route]) => !route.includes("/__emulator/")));
    },
    async resetStats() {
      await closingFetch(`${emulator.url}/__emulator/stats/reset`, { method: "POST" });
    },
  };
}

/**
 * A CSV of `count` assets spread over the land and sea of the world, in the service's import layout
 * (docs/service.md#portfolios-and-assets).
 */
export function assetsCsv(count: number): string {
  const lines = ["entity_id,entity_name,lat,lng,label:region"];
  for (let i = 0; i < count; i++) {
    const lat = (((i * 37) % 1400) / 10 - 70).toFixed(3);
    const lng = (((i * 91) % 3500) / 10 - 175).toFixed(3);
    lines.push(`A${i},Asset ${i},${lat},${lng},r${i % 5}`);
  }
  return lines.join("\n");
}

/** Creates (or replaces) a portfolio from a CSV and waits until its risk data is available. */
export async function importPortfolio(
  client: RiskClient,
  name: string,
  csv: string,
  timeoutMs = 15_000,
): Promise<void> {
  await client.portfolios.create(name).catch(() => undefined); // exists already: the import replaces its assets
  await client.portfolios.importAssets(name, csv);
  const started = Date.now();
  for (;;) {
    const portfolio = await client.portfolios.get(name);
    if (portfolio.status === RISK_DATA_AVAILABLE) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`portfolio ${name} still "${portfolio.status}" after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
