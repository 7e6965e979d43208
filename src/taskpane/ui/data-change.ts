import type { DataChange } from "../../functions/data-loaders";
import { recalculateWorkbook } from "../../excel/risk-cells";
import type { ExcelRunner } from "./pane-types";

export type { DataChange };

/** Drops the RISK.* functions' cached results a change made stale; answers how many (see `dataChangeMatcher`). */
export type ForgetChange = (change: DataChange) => number;

/**
 * After the pane changed data (a sync or import, a portfolio delete, a nature create): drops the
 * functions' cached results of what changed, then asks Excel for a full recalculation. Office.js
 * cannot recalculate one custom-function cell, and a non-volatile custom function re-runs only in
 * a full recalculation (Application.calculate, "Full": "forces a full calculation of the data");
 * the cells of unchanged data answer from the cache at once, so only the dependent cells fetch.
 * It recalculates even when nothing was cached: a cell whose entry already expired still shows
 * the old number. Without a workbook only the cache is dropped.
 */
export async function refreshAfterChange(options: {
  run: ExcelRunner | null;
  forget: ForgetChange;
  change: DataChange;
}): Promise<{ dropped: number; recalculated: boolean }> {
  const dropped = options.forget(options.change);
  if (!options.run) return { dropped, recalculated: false };
  await options.run(recalculateWorkbook);
  return { dropped, recalculated: true };
}
