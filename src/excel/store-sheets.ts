/**
 * The add-in's very hidden store sheets (`_ClimateRiskProvenance`, `_ClimateRiskFormulas`,
 * `_ClimateRiskAssetSources`): a header row, then one record per row, every non-empty string kept
 * as text so nothing in them is ever calculated. Saved with the workbook; only add-ins see them.
 */
import { TEXT_FORMAT } from "../shaping/safe-cells";
import type { CellValue } from "../shaping/types";

/**
 * The rows of the very hidden store sheet `storeName` under its header, each from column A with its
 * 1-based sheet row; empty rows are skipped. Null when the workbook has no such sheet.
 */
export async function readStoreRows(
  context: Excel.RequestContext,
  storeName: string,
): Promise<Array<{ sheetRow: number; cells: CellValue[] }> | null> {
  const store = context.workbook.worksheets.getItemOrNullObject(storeName);
  await context.sync();
  if (store.isNullObject) return null;
  const used = store.getUsedRangeOrNullObject(true);
  used.load("values, rowIndex, columnIndex");
  await context.sync();
  if (used.isNullObject) return [];
  const lead: CellValue[] = Array.from({ length: used.columnIndex }, () => "");
  return (used.values as CellValue[][]).flatMap((row, i) => {
    const sheetRow = used.rowIndex + i + 1;
    if (sheetRow === 1 || row.every((v) => v === "" || v === null || v === undefined)) return []; // header, empty
    return [{ sheetRow, cells: [...lead, ...row] }];
  });
}

/** Adds the very hidden store sheet `storeName` (only add-ins see it; users cannot unhide it by mistake). */
export function addStoreSheet(context: Excel.RequestContext, storeName: string): Excel.Worksheet {
  const store = context.workbook.worksheets.add(storeName);
  store.visibility = "VeryHidden" as Excel.SheetVisibility;
  return store;
}

/** Queues a store sheet's whole content: its header, then `rows`, every non-empty string kept as text. */
export function writeStoreRows(store: Excel.Worksheet, header: readonly string[], rows: readonly CellValue[][]): void {
  writeTextBlock(store, [[...header], ...rows], header.length);
}

/**
 * Replaces the whole content of the store sheet `storeName` with `header` and `rows`, adding the
 * sheet (very hidden) when the workbook has none; syncs.
 */
export async function rewriteStore(
  context: Excel.RequestContext,
  storeName: string,
  header: readonly string[],
  rows: readonly CellValue[][],
): Promise<void> {
  let store = context.workbook.worksheets.getItemOrNullObject(storeName);
  await context.sync();
  if (store.isNullObject) store = addStoreSheet(context, storeName);
  writeStoreRows(store, header, rows);
  await context.sync();
}

/** Clears the sheet's used cells, then writes `rows` (strings as text) from A1. */
export function writeTextBlock(sheet: Excel.Worksheet, rows: CellValue[][], width: number): void {
  sheet.getRange().clear("Contents" as Excel.ClearApplyTo);
  const range = sheet.getRangeByIndexes(0, 0, rows.length, width);
  range.numberFormat = rows.map((row) => row.map((v) => (typeof v === "string" && v !== "" ? TEXT_FORMAT : "General")));
  range.values = rows;
}
