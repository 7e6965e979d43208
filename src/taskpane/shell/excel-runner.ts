import { SyncWatchdog } from "../../excel/sync-watchdog";
import type { ExcelRunner } from "../ui/pane-types";

/**
 * The page's one watch on Excel's syncs: the pane's sections, the ribbon's commands and the
 * ribbon's state reads all run through it, so one notice in the pane covers every batch.
 */
export const excelWatchdog = new SyncWatchdog();

/**
 * Excel.run read at call time, so the browser harness can install its fake as the global `Excel`
 * after this module loaded, with every sync watched (src/excel/sync-watchdog.ts). Null when there
 * is no Excel at all.
 *
 * Each batch waits while the analyst is editing a cell (`delayForCellEdit`). Without it Excel fails
 * the batch (InvalidOperationInCellEditMode): a refresh of many requests the analyst started, who
 * then begins typing a note, would fail part-way, and the request that puts the old table back
 * would fail the same way. Waiting, the watchdog's notice says Excel is not answering, and why.
 */
export function excelRunner(): ExcelRunner | null {
  const excel = (globalThis as { Excel?: { run?: unknown } }).Excel;
  if (!excel || typeof excel.run !== "function") return null;
  // The one place the pane obtains Excel.run; everything it runs goes through src/excel.
  return excelWatchdog.runner((batch) =>
    // eslint-disable-next-line no-restricted-syntax -- the runner itself is how src/excel is reached
    (globalThis as unknown as { Excel: typeof Excel }).Excel.run({ delayForCellEdit: true }, batch),
  );
}
