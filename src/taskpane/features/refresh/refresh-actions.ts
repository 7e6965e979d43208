import { countRiskCells, recalculateWorkbook, type RiskCellCount } from "../../../excel/risk-cells";
import type { ExcelRunner } from "../../ui/pane-types";

/** What "Refresh all" did: the RISK.* cells now refreshing, and the sheets holding them. */
export type RefreshResult = RiskCellCount;

/**
 * "Refresh all": empties the functions' cache (so nothing is answered from memory), counts the
 * RISK.* cells, then asks Excel for a full recalculation, which re-runs every one of them.
 * `emptyCache` is the functions engine's refresh; it runs first so no recalculated cell can be
 * answered from the old cache.
 */
export async function refreshAll(options: { run: ExcelRunner; emptyCache: () => void }): Promise<RefreshResult> {
  options.emptyCache();
  return options.run(async (context) => {
    const result = await countRiskCells(context);
    await recalculateWorkbook(context);
    return result;
  });
}
