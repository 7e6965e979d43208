import type { RiskClient } from "../src/api/client";
import { RISK_DATA_AVAILABLE } from "../src/api/types";
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
  await client.portfolios.create(portfolio).catch(() => undefined); // exists: the import below replaces its assets
  await client.portfolios.importAssets(portfolio, csv);
  for (;;) {
    const record = await client.portfolios.get(portfolio);
    if (record.status === RISK_DATA_AVAILABLE) break;
    if (performance.now() - started > timeoutMs)
      throw new Error(`portfolio ${portfolio} still "${record.status}" after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { portfolio, assets: count, csvBytes: Buffer.byteLength(csv), readyMs: performance.now() - started };
}

/**
 * Pages a complete read of `items` items with `rows` a page needs: the full pages, then the short
 * page that ends the list (an empty one when the last full page leaves it open).
 */
export function pagesNeeded(items: number, rows: number): number {
  return Math.floor(items / rows) + 1;
}
