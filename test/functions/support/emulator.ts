/**
 * Portfolios for the functions tests: a CSV of assets spread over the world and an import that waits
 * until the risk data is available. Emulators are started with test/support/emulator.ts.
 */
import { waitForRiskData, type RiskClient } from "../../../src/api";

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
  await waitForRiskData(client, name, { intervalMs: 25, timeoutMs });
}
