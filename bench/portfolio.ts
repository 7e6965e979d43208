import type { RiskClient } from "../src/api/client";
import { waitForRiskData } from "../src/api/risk-data";
import { assetsCsv, plausibleAssets } from "./assets";

/** What setting up the benchmark portfolio took. */
export interface PortfolioSetup {
  portfolio: string;
  assets: number;
  csvBytes: number;
  /** Create + import + wait for `Risk data available`, in ms. */
  readyMs: number;
}

/**
 * Creates the benchmark portfolio (or reuses it: the import replaces its assets), imports a CSV of
 * `count` plausible sites and waits until its status is `Risk data available`.
 */
export async function setUpPortfolio(
  client: RiskClient,
  portfolio: string,
  count: number,
  timeoutMs = 120_000,
): Promise<PortfolioSetup> {
  const started = performance.now();
  const csv = assetsCsv(plausibleAssets(count));
  await importAndWait(client, portfolio, csv, { intervalMs: 100, timeoutMs });
  return { portfolio, assets: count, csvBytes: Buffer.byteLength(csv), readyMs: performance.now() - started };
}

/**
 * Creates the portfolio (or reuses it: the import replaces its assets), imports the CSV and waits
 * until its risk data is available.
 */
export async function importAndWait(
  client: RiskClient,
  portfolio: string,
  csv: string,
  wait: { intervalMs: number; timeoutMs: number },
): Promise<void> {
  await client.portfolios.create(portfolio).catch(() => undefined); // exists: the import below replaces its assets
  await client.portfolios.importAssets(portfolio, csv);
  await waitForRiskData(client, portfolio, wait);
}

/**
 * Pages a complete read of `items` items with `rows` a page needs: the full pages, then the short
 * page that ends the list (an empty one when the last full page leaves it open).
 */
export function pagesNeeded(items: number, rows: number): number {
  return Math.floor(items / rows) + 1;
}
