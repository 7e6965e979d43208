import type { DataChange } from "../../functions/data-loaders";
import { syncedRangesOf } from "./asset-source-actions";
import { countRiskCells, recalculateWorkbook, type RiskCellCount } from "../../excel/risk-cells";
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

/** Where a portfolio is in use in this workbook, for the delete confirmation. */
export interface PortfolioUsage {
  /** RISK.* cells whose formula names the portfolio (as a text argument), and their sheets. */
  riskCells: RiskCellCount;
  /** Ranges synced to the portfolio, as recorded in this workbook (e.g. `Sites!A1:D40`). */
  syncedRanges: string[];
}

/**
 * Finds where a portfolio is used: RISK.* formulas that name it ("name" as a text argument; a name
 * held in another cell is not seen) and the ranges synced to it, as recorded in the workbook.
 */
export async function findPortfolioUsage(run: ExcelRunner, portfolio: string): Promise<PortfolioUsage> {
  const quoted = `"${portfolio.toLowerCase()}"`;
  const riskCells = await run((context) =>
    countRiskCells(context, (formula) => formula.toLowerCase().includes(quoted)),
  );
  return { riskCells, syncedRanges: await syncedRangesOf(run, portfolio) };
}
