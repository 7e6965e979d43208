/**
 * Provenance of pasted sheets in the workbook. Two forms, both saved with the file:
 * - machine-readable: a very hidden sheet (`_ClimateRiskProvenance`) with one row per pasted sheet,
 *   its worksheet id and its record as JSON. The pane finds every pasted sheet from it.
 * - for a reader: the visible "Climate Risk sources" sheet, one row per pasted sheet (service,
 *   project, portfolio, operation, filters, dataset version and digest, rows, time, add-in version,
 *   static copy), rewritten from the records each time they change; each sheet name links to its
 *   table (see {@link sheetLink}).
 * Neither holds the API key. Custom XML parts would also do, but a sheet is what the Excel fake,
 * Excel on the web and every desktop Excel keep alike (ExcelApi 1.1 only). The store sheet is
 * read and written with src/excel/store-sheets.ts, like the add-in's other very hidden stores.
 */
import { quoteSheetName } from "../shaping/a1";
import { TEXT_FORMAT } from "../shaping/safe-cells";
import {
  FORMULA_STORE_SHEET,
  PROVENANCE_STORE_SHEET,
  SOURCES_HEADER,
  SOURCES_SHEET,
  parseRecord,
  serializeRecord,
  sourcesRow,
  type ProvenanceRecord,
} from "../shaping/paste-provenance";
import type { CellValue } from "../shaping/types";
import type { Message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";
import { staticCellsOf } from "./static-copies";
import {
  addStoreSheet,
  readStoreRows,
  readStoresAtOnce,
  deleteVeryHiddenSheet,
  queueStoresRead,
  readStores,
  writeStoreRows,
  writeTextBlock,
  type StoreRow,
  type StoresReading,
} from "./store-sheets";
import { message } from "../i18n/messages";
import { sheetWords, type SheetWords } from "./sheet-words";

/** What the store holds now. */
export interface ProvenanceRead {
  /** False when the workbook has no store sheet at all (never pasted, or the store was deleted). */
  storeFound: boolean;
  records: ProvenanceRecord[];
  /** Rows of the store that are not records (edited or emptied), named by row: messages the pane words. */
  problems: Message[];
}

const STORE_HEADER = ["sheetId", "record"];

/** Reads every provenance record of the workbook: two round trips, or one (`atOnce`). */
export async function readProvenance(
  context: Excel.RequestContext,
  options: {
    /**
     * In one round trip when the store is there (readStoresAtOnce): loads the caller queued to go
     * with it are lost when it is not, so the caller queues them through queueRead.
     */
    atOnce?: boolean;
  } = {},
): Promise<ProvenanceRead> {
  if (!options.atOnce) return provenanceOf(await readStoreRows(context, PROVENANCE_STORE_SHEET));
  return provenanceOf(
    (await readStoresAtOnce(context, [PROVENANCE_STORE_SHEET])).rows.get(PROVENANCE_STORE_SHEET) ?? null,
  );
}

/** The records in the provenance store's rows (null: no store). */
function provenanceOf(rows: readonly StoreRow[] | null): ProvenanceRead {
  if (rows === null) return { storeFound: false, records: [], problems: [] };
  const records: ProvenanceRecord[] = [];
  const problems: Message[] = [];
  for (const { sheetRow, cells } of rows) {
    try {
      records.push(parseRecord(cells[1], sheetRow));
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      problems.push(error.said);
    }
  }
  return { storeFound: true, records, problems };
}

/**
 * Replaces the whole store and the Sources sheet with `records` (creating either when missing):
 * three round trips (the sheets and the static copies on record, then the writes).
 */
export async function writeProvenance(
  context: Excel.RequestContext,
  records: readonly ProvenanceRecord[],
): Promise<void> {
  await writeProvenanceKnowing(context, records, await readStores(context, [FORMULA_STORE_SHEET]));
}

/**
 * Replaces the store and the Sources sheet with `records` (the snapshot's, changed, in any order)
 * given the snapshot just read: one round trip. When it fails (applied in part, perhaps), both are
 * put back as the snapshot found them before the error is thrown.
 */
export async function rewriteProvenance(
  context: Excel.RequestContext,
  records: readonly ProvenanceRecord[],
  before: ProvenanceSnapshot,
): Promise<void> {
  try {
    await writeProvenanceKnowing(
      context,
      records,
      before.reading ?? (await readStores(context, [FORMULA_STORE_SHEET])),
    );
  } catch (error) {
    await restoreProvenance(context, before);
    throw error;
  }
}

/** {@link writeProvenance} with the workbook's sheets and the formula store already read: one round trip. */
async function writeProvenanceKnowing(
  context: Excel.RequestContext,
  records: readonly ProvenanceRecord[],
  reading: StoresReading,
): Promise<void> {
  await queueProvenanceWrites(context, records, reading);
  await context.sync();
}

/** Queues the writes of {@link writeProvenanceKnowing} to go with the caller's next request. */
async function queueProvenanceWrites(
  context: Excel.RequestContext,
  records: readonly ProvenanceRecord[],
  reading: StoresReading,
): Promise<void> {
  const sheets = context.workbook.worksheets;
  const exists = (name: string) => reading.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase());
  const store = exists(PROVENANCE_STORE_SHEET)
    ? sheets.getItem(PROVENANCE_STORE_SHEET)
    : addStoreSheet(context, PROVENANCE_STORE_SHEET);
  const sources = exists(SOURCES_SHEET) ? sheets.getItem(SOURCES_SHEET) : sheets.add(SOURCES_SHEET);
  const words = await sheetWords();
  writeStore(store, records);
  queueSources(sources, records, reading, words);
}

/** Queues the store's rows: header, then one row per record (sheet id, JSON). */
function writeStore(store: Excel.Worksheet, records: readonly ProvenanceRecord[]): void {
  writeStoreRows(
    store,
    STORE_HEADER,
    records.map((r) => [r.sheetId, serializeRecord(r)]),
  );
}

/** Rewrites the Sources sheet from the records (and the static copies on record); syncs. */
async function writeSources(
  context: Excel.RequestContext,
  sources: Excel.Worksheet,
  records: readonly ProvenanceRecord[],
): Promise<void> {
  const words = await sheetWords();
  queueSources(sources, records, await readStores(context, [FORMULA_STORE_SHEET]), words);
  await context.sync();
}

/**
 * Queues the Sources sheet's content from the records, the workbook's sheets and the formula store;
 * a reader's words (the operations, a link's tip) in `words`' language.
 */
function queueSources(
  sources: Excel.Worksheet,
  records: readonly ProvenanceRecord[],
  reading: StoresReading,
  words: SheetWords,
): void {
  const sourceRows: CellValue[][] = [SOURCES_HEADER, ...records.map((record) => sourcesRow(record, words))];
  // A link stays on a cell whose contents are cleared: drop the old ones before rows move.
  sources.getRange().clear("RemoveHyperlinks" as Excel.ClearApplyTo);
  writeTextBlock(sources, sourceRows, SOURCES_HEADER.length);
  sources.getRangeByIndexes(0, 0, 1, SOURCES_HEADER.length).format.font.bold = true;
  sources.getRangeByIndexes(0, 0, sourceRows.length, SOURCES_HEADER.length).format.autofitColumns();
  // Below the list: which sheets hold static copies of RISK formulas, and since when.
  const copies = staticCopySummary(reading.rows.get(FORMULA_STORE_SHEET) ?? []);
  const nameById = new Map(reading.sheets.map((s) => [s.id, s.name]));
  records.forEach((record, i) => {
    const link = sheetLink(record, nameById.get(record.sheetId), words);
    if (link) sources.getCell(i + 1, 0).hyperlink = link;
  });
  if (copies.length > 0) {
    const block: CellValue[][] = [STATIC_COPIES_HEADER, ...copies.map((c) => [c.sheetName, c.cells, c.takenAt])];
    const range = sources.getRangeByIndexes(sourceRows.length + 1, 0, block.length, STATIC_COPIES_HEADER.length);
    range.numberFormat = block.map((row) =>
      row.map((v) => (typeof v === "string" && v !== "" ? TEXT_FORMAT : "General")),
    );
    range.values = block;
    sources.getRangeByIndexes(sourceRows.length + 1, 0, 1, STATIC_COPIES_HEADER.length).format.font.bold = true;
  }
}

/**
 * The link of a Sources row's sheet name to the pasted table: to the sheet by its id under its
 * current name (a renamed sheet is still reached), quoted as Excel quotes it (`'My sheet'!A1:H41`).
 * None for a sheet that no longer exists: its row stays, as plain text, rather than a link that
 * answers "Reference isn't valid".
 */
export function sheetLink(
  record: ProvenanceRecord,
  currentName: string | undefined,
  words: SheetWords,
): Excel.RangeHyperlink | null {
  if (currentName === undefined) return null;
  return {
    documentReference: `${quoteSheetName(currentName)}!${record.tableAddress}`,
    textToDisplay: record.sheetName,
    screenTip: words(message("sheet.sources.linkTip", { table: record.tableName, sheet: currentName })),
  };
}

/** Header of the Sources sheet's second block: sheets whose RISK formulas were converted to values. */
export const STATIC_COPIES_HEADER = [
  "Static copy of sheet",
  "RISK formulas replaced by values",
  "Static copy taken (UTC)",
];

/** Per sheet: how many formulas the static copies (the formula store's rows) replaced, and the latest copy's time. */
function staticCopySummary(rows: readonly StoreRow[]): Array<{ sheetName: string; cells: number; takenAt: string }> {
  const bySheet = new Map<string, { sheetName: string; cells: number; takenAt: string }>();
  for (const cell of staticCellsOf(rows)) {
    const entry = bySheet.get(cell.sheetName) ?? { sheetName: cell.sheetName, cells: 0, takenAt: "" };
    entry.cells++;
    if (cell.takenAt > entry.takenAt) entry.takenAt = cell.takenAt;
    bySheet.set(cell.sheetName, entry);
  }
  return [...bySheet.values()];
}

/**
 * Adds (or replaces, by sheet id) records, dropping records of sheets that no longer exist, and
 * rewrites the store and the Sources sheet.
 */
export async function recordProvenance(
  context: Excel.RequestContext,
  added: readonly ProvenanceRecord[],
  before?: ProvenanceSnapshot,
): Promise<void> {
  // Three round trips: the sheets, both stores in one read, the writes; one when the snapshot
  // taken just before (in the same batch sequence, nothing written between) already read them.
  const reading = before?.reading ?? (await readStores(context, [PROVENANCE_STORE_SHEET, FORMULA_STORE_SHEET]));
  await writeProvenanceKnowing(context, recordsWith(reading, added), reading);
}

/**
 * {@link recordProvenance} again in the same batch, after a record made from `before`'s reading
 * (recordProvenance or queueRecordProvenance given it) that nothing but records of the same
 * sheets followed: one round trip, the writes, without reading the sheets and stores again. The
 * store and the Sources sheet exist now (that record made them when missing); the other records
 * are those read (the first record changed only its own sheets'), `added` in place of theirs.
 */
export async function recordProvenanceAgain(
  context: Excel.RequestContext,
  added: readonly ProvenanceRecord[],
  before: ProvenanceSnapshot,
): Promise<void> {
  if (!before.reading) return recordProvenance(context, added);
  await queueRecordProvenanceAgain(context, added, before.reading);
  await context.sync();
}

/**
 * {@link recordProvenanceAgain} queued to go with the caller's next request (a round trip fewer),
 * given the snapshot's reading. The caller records again when that request fails.
 */
export async function queueRecordProvenanceAgain(
  context: Excel.RequestContext,
  added: readonly ProvenanceRecord[],
  reading: StoresReading,
): Promise<void> {
  const made = [PROVENANCE_STORE_SHEET, SOURCES_SHEET]
    .filter((name) => !reading.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase()))
    .map((name) => ({ id: "", name }));
  const now = { ...reading, sheets: [...reading.sheets, ...made] };
  await queueProvenanceWrites(context, recordsWith(now, added), now);
}

/**
 * {@link recordProvenance} queued to go with the caller's next request (a round trip fewer), given
 * the snapshot's reading of the sheets and stores, taken in this batch with nothing written since.
 * The caller puts the snapshot back ({@link restoreProvenance}) when that request fails.
 */
export async function queueRecordProvenance(
  context: Excel.RequestContext,
  added: readonly ProvenanceRecord[],
  reading: StoresReading,
): Promise<void> {
  await queueProvenanceWrites(context, recordsWith(reading, added), reading);
}

/** The records the store read holds, those of sheets that no longer exist dropped, `added` in place of theirs. */
function recordsWith(reading: StoresReading, added: readonly ProvenanceRecord[]): ProvenanceRecord[] {
  const { records } = provenanceOf(reading.rows.get(PROVENANCE_STORE_SHEET) ?? null);
  const live = new Set(reading.sheets.map((s) => s.id));
  const replaced = new Set(added.map((r) => r.sheetId));
  const kept = records.filter((r) => live.has(r.sheetId) && !replaced.has(r.sheetId));
  return [...kept, ...added];
}

/** The UTC time now as ISO 8601 without milliseconds ("2026-11-23T19:05:34Z"). */
export function utcNow(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The provenance store and Sources sheet as they were before a paste, to put back if it fails. */
export interface ProvenanceSnapshot {
  storeExisted: boolean;
  sourcesExisted: boolean;
  records: ProvenanceRecord[];
  /**
   * The workbook's sheets and both stores as read for the snapshot: handed to
   * {@link recordProvenance} right after, it records without reading them again.
   */
  reading?: StoresReading;
}

/** Reads what {@link restoreProvenance} needs to undo a {@link recordProvenance} (two round trips). */
export async function snapshotProvenance(context: Excel.RequestContext): Promise<ProvenanceSnapshot> {
  return snapshotOf(await readStores(context, [PROVENANCE_STORE_SHEET, FORMULA_STORE_SHEET]));
}

/**
 * {@link snapshotProvenance} queued to go with the caller's next request, given the workbook's
 * sheets already loaded in this batch (see queueStoresRead): the function returned gives the
 * snapshot once that request was synced. No store may be written meanwhile.
 */
export function queueProvenanceSnapshot(
  context: Excel.RequestContext,
  loadedSheets: Excel.WorksheetCollection,
): () => Promise<ProvenanceSnapshot> {
  const finish = queueStoresRead(context, [PROVENANCE_STORE_SHEET, FORMULA_STORE_SHEET], loadedSheets);
  return async () => snapshotOf(await finish());
}

function snapshotOf(reading: StoresReading): ProvenanceSnapshot {
  const read = provenanceOf(reading.rows.get(PROVENANCE_STORE_SHEET) ?? null);
  const sourcesExisted = reading.sheets.some((s) => s.name.toLowerCase() === SOURCES_SHEET.toLowerCase());
  return { storeExisted: read.storeFound, sourcesExisted, records: read.records, reading };
}

/**
 * Puts the store and the Sources sheet back as the snapshot found them: sheets this paste created
 * are deleted, the others rewritten from the old records. A failed paste leaves no trace.
 */
export async function restoreProvenance(context: Excel.RequestContext, before: ProvenanceSnapshot): Promise<void> {
  const sheets = context.workbook.worksheets;
  const store = sheets.getItemOrNullObject(PROVENANCE_STORE_SHEET);
  const sources = sheets.getItemOrNullObject(SOURCES_SHEET);
  await context.sync();
  if (!store.isNullObject) {
    if (before.storeExisted) writeStore(store, before.records);
    else deleteVeryHiddenSheet(store);
  }
  if (!sources.isNullObject) {
    if (before.sourcesExisted) await writeSources(context, sources, before.records);
    else sources.delete();
  }
  await context.sync();
}
