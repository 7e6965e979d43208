import { recalculateWorkbook } from "../../../excel/risk-cells";
import type { RiskEngine } from "../../../functions/engine/engine";
import type { ExcelRunner } from "../../ui/pane-types";

/**
 * "Retry these": forgets the cached failures and last good values behind the listed cells (the
 * persistent copies stay, for the next outage) and asks Excel to recalculate. Every other RISK
 * cell answers from the cache, so only the listed cells' data is requested again. Returns how many
 * cells were listed.
 */
export async function retryStaleCells(options: { run: ExcelRunner; engine: RiskEngine }): Promise<number> {
  const addresses = options.engine.retryStale();
  if (addresses.length === 0) return 0;
  // Range.calculate (ExcelApi 1.6) would do for a few cells, but a column formula's cell and
  // dozens of scattered ones are one full recalculation away; custom functions are not volatile,
  // so "Recalculate" alone would not re-run them.
  await options.run(recalculateWorkbook);
  return addresses.length;
}

/** "Clear cache": empties the functions' memory and persistent caches and the stale list. */
export function clearFunctionsCache(engine: RiskEngine): Promise<void> {
  return engine.clearCache();
}
