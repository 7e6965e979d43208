import { recalculateWorkbook } from "../../../excel/risk-cells";
import type { ExcelRunner } from "../../ui/pane-types";

/**
 * "Refresh all": empties the functions' cache (so nothing is answered from memory), then asks Excel
 * for a full recalculation, which re-runs every RISK.* cell: one request to Excel, and nothing of
 * the workbook read. Each cell shows its new value when the service answers; the pane's usage line
 * follows the loads under way. `emptyCache` is the functions engine's refresh; it runs first so no
 * recalculated cell can be answered from the old cache.
 *
 * It used to count the RISK.* cells for the pane by reading the formula of every formula cell: in
 * a workbook with financial impact sheets that was 164 MB of formulas over 40 requests, about 20 s
 * of a refresh on Excel on the web (bench/history/weekly-refresh.md).
 */
export async function refreshAll(options: { run: ExcelRunner; emptyCache: () => void }): Promise<void> {
  options.emptyCache();
  await options.run((context) => recalculateWorkbook(context));
}
