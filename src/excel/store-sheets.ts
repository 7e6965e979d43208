/**
 * The add-in's very hidden store sheets (`_ClimateRiskProvenance`, `_ClimateRiskFormulas`,
 * `_ClimateRiskAssetSources`): a header row, then one record per row, every non-empty string kept
 * as text so nothing in them is ever calculated. Saved with the workbook; only add-ins see them.
 */
import { TEXT_FORMAT } from "../shaping/safe-cells";
import type { CellValue } from "../shaping/types";
import { isItemNotFound, queueRead } from "./read-range";

/** One record row of a store sheet: its 1-based sheet row and its cells from column A. */
export interface StoreRow {
  sheetRow: number;
  cells: CellValue[];
}

/** What {@link readStores} read: every sheet of the workbook (id and name), and each store's rows. */
export interface StoresReading {
  sheets: Array<{ id: string; name: string }>;
  /** By store name: its rows, or null when the workbook has no such sheet. */
  rows: Map<string, StoreRow[] | null>;
}

/**
 * The rows of each of the very hidden store sheets `storeNames`, in two round trips whatever their
 * number (the workbook's sheets, then every store's used range in one request, rather than two
 * requests a store: "Avoid using the context.sync method in loops",
 * https://learn.microsoft.com/office/dev/add-ins/concepts/correlated-objects-pattern). The sheets'
 * ids and names come with them, for the caller's own use.
 */
export async function readStores(context: Excel.RequestContext, storeNames: readonly string[]): Promise<StoresReading> {
  const collection = context.workbook.worksheets;
  collection.load("items/id, items/name");
  await context.sync();
  const finish = queueStoresRead(context, storeNames, collection);
  await context.sync(); // nothing is sent when no store exists
  return finish();
}

/**
 * {@link readStores} in one round trip, for stores most likely there (a refresh's provenance): each
 * asked through `getItem` with the workbook's sheets. When one is missing Excel fails that
 * read-only request (ItemNotFound) and they are read as readStores reads them; loads the caller
 * queued to go with it are lost then, so the caller queues them through queueRead.
 */
export async function readStoresAtOnce(
  context: Excel.RequestContext,
  storeNames: readonly string[],
): Promise<StoresReading> {
  const collection = context.workbook.worksheets;
  collection.load("items/id, items/name");
  const reads = storeNames.map((name) => {
    const used = collection.getItem(name).getUsedRangeOrNullObject(true);
    used.load("values, rowIndex, columnIndex");
    return { name, used };
  });
  try {
    await context.sync();
  } catch (error) {
    if (!isItemNotFound(error)) throw error;
    return readStores(context, storeNames);
  }
  const rows = new Map<string, StoreRow[] | null>();
  for (const { name, used } of reads) rows.set(name, used.isNullObject ? [] : recordRows(used));
  return { sheets: collection.items.map((s) => ({ id: s.id, name: s.name })), rows };
}

/**
 * Queues the read of the store sheets `storeNames` (their used ranges) to go with the caller's next
 * request, given the workbook's sheets already loaded; the function returned gives what was read
 * once that request was synced. When the request that was to carry it failed and was asked again
 * without it (an answer over the limit), or none was sent, it is read anew.
 */
export function queueStoresRead(
  context: Excel.RequestContext,
  storeNames: readonly string[],
  loadedSheets: Excel.WorksheetCollection,
): () => Promise<StoresReading> {
  const sheets = loadedSheets.items.map((s) => ({ id: s.id, name: s.name }));
  const queue = () => {
    const reads: Array<{ name: string; used: Excel.Range | null }> = storeNames.map((name) => {
      const sheet = loadedSheets.items.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!sheet) return { name, used: null };
      const used = sheet.getUsedRangeOrNullObject(true);
      used.load("values, rowIndex, columnIndex");
      return { name, used };
    });
    return () => {
      const rows = new Map<string, StoreRow[] | null>();
      for (const { name, used } of reads)
        rows.set(name, used === null ? null : used.isNullObject ? [] : recordRows(used));
      return rows;
    };
  };
  const read = queueRead(context, queue);
  return async () => ({ sheets, rows: await read() });
}

function recordRows(used: Excel.Range): StoreRow[] {
  const lead: CellValue[] = Array.from({ length: used.columnIndex }, () => "");
  return (used.values as CellValue[][]).flatMap((row, i) => {
    const sheetRow = used.rowIndex + i + 1;
    if (sheetRow === 1 || row.every((v) => v === "" || v === null || v === undefined)) return []; // header, empty
    return [{ sheetRow, cells: [...lead, ...row] }];
  });
}

/**
 * The rows of the very hidden store sheet `storeName` under its header, each from column A with its
 * 1-based sheet row; empty rows are skipped. Null when the workbook has no such sheet.
 */
export async function readStoreRows(context: Excel.RequestContext, storeName: string): Promise<StoreRow[] | null> {
  return (await readStores(context, [storeName])).rows.get(storeName) ?? null;
}

/** Adds the very hidden store sheet `storeName` (only add-ins see it; users cannot unhide it by mistake). */
export function addStoreSheet(context: Excel.RequestContext, storeName: string): Excel.Worksheet {
  const store = context.workbook.worksheets.add(storeName);
  store.visibility = "VeryHidden" as Excel.SheetVisibility;
  return store;
}

/**
 * Queues the deletion of a very hidden sheet (a store, a scratch sheet). Excel refuses to delete
 * one: "if the worksheet's visibility is set to "VeryHidden", the delete operation will fail with an
 * `InvalidOperation` exception. You should first change its visibility to hidden or visible before
 * deleting it" (Worksheet.delete, Office.js reference). So it is made hidden first, in the same
 * request: never shown, and an analyst cannot unhide it in between.
 */
export function deleteVeryHiddenSheet(sheet: Excel.Worksheet): void {
  sheet.visibility = "Hidden" as Excel.SheetVisibility;
  sheet.delete();
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
