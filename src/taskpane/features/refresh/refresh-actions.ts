import { countRiskCells, recalculateWorkbook, type RiskCellCount } from "../../../excel/risk-cells";
import type { ExcelRunner } from "../../ui/pane-types";

/** What "Refresh all" did: the RISK.* cells now refreshing, and the sheets holding them. */
export type RefreshResult = RiskCellCount;

/**
 * "Refresh all": empties the functions' cache (so nothing is answered from memory), asks Excel for
 * a full recalculation, which re-runs every RISK.* cell, then counts them for the pane. The count
 * comes after, so the cells' requests are on their way while it reads the workbook's formulas.
 * `emptyCache` is the functions engine's refresh; it runs first so no recalculated cell can be
 * answered from the old cache.
 */
export async function refreshAll(options: { run: ExcelRunner; emptyCache: () => void }): Promise<RefreshResult> {
  options.emptyCache();
  return options.run(async (context) => {
    await recalculateWorkbook(context);
    return countRiskCells(context);
  });
}
