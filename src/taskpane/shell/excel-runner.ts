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
 */
export function excelRunner(): ExcelRunner | null {
  const excel = (globalThis as { Excel?: { run?: unknown } }).Excel;
  if (!excel || typeof excel.run !== "function") return null;
  // The one place the pane obtains Excel.run; everything it runs goes through src/excel.
  // eslint-disable-next-line no-restricted-syntax -- the runner itself is how src/excel is reached
  return excelWatchdog.runner((batch) => (globalThis as unknown as { Excel: typeof Excel }).Excel.run(batch));
}
