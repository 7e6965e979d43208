/**
 * Refreshing a pasted table in place, whole or not at all. Before anything changes, the sheet is
 * checked against its provenance record: still there, same name, same table at the same address,
 * and the table's values exactly as written (fingerprint). A result of another length or width is
 * taken when the cells the table grows into are empty. Then the table is resized, the user's columns
 * inside it move with its right edge, the new header and rows are written in chunks under the 5 MB
 * request limit, and conditional formats and chart series follow the table (tableFollowers.ts).
 * Columns beside the table are never written; number formats of numeric columns stay as the user
 * set them (following their column by header name). On any failure or Cancel the old formulas and
 * formats of the whole extent are written back, the table resized back and the followers put back.
 */
import { requirementSupported } from "../shared/requirements";
import { TEXT_FORMAT, columnTextKinds } from "../shaping/safe-cells";
import { columnLetters, parseA1, rangeA1 } from "../shaping/a1";
import { fingerprintMatches, tableFingerprint, type ProvenanceRecord } from "../shaping/paste-provenance";
import type { CellValue } from "../shaping/types";
import { DEFAULT_MAX_REQUEST_BYTES, OPERATION_OVERHEAD_BYTES, planRowChunks, rowBytes } from "./chunks";
import { readBlock } from "./read-range";
import { checkShape } from "./write-sheets";
import { utcNow } from "./provenance-sheets";
import { followTable, type FollowedTable } from "./table-followers";
import { message, type Message } from "../i18n/messages";
import { MessageError, reasonOf } from "../i18n/message-error";

/** The pasted sheet is not as its record says (renamed, deleted, edited...): nothing was changed. */
export class PastedSheetChangedError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "PastedSheetChangedError";
  }
}

/** A refresh failed part-way and writing the old table back failed too: says what to check. */
export class IncompleteRestoreError extends MessageError {
  constructor(
    override readonly cause: unknown,
    readonly sheetName: string,
    readonly restoreError: unknown,
  ) {
    super(message("excel.restoreFailed", { reason: reasonOf(cause), sheet: sheetName }), { cause });
    this.name = "IncompleteRestoreError";
  }
}

/** Options of a replacement. */
export interface ReplaceOptions {
  signal?: AbortSignal;
  onProgress?: (rowsWritten: number, totalRows: number) => void;
  maxRequestBytes?: number;
}

interface Checked {
  sheet: Excel.Worksheet;
  table: Excel.Table;
  /** Table extent: 0-based row/column and size (header included). */
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/**
 * Checks that the pasted sheet of `record` is still as written. Throws PastedSheetChangedError
 * with a sentence for the user otherwise; changes nothing.
 */
export async function checkPastedSheet(context: Excel.RequestContext, record: ProvenanceRecord): Promise<Checked> {
  const { sheet, table, range } = await findPastedTable(context, record);
  const width = record.header.length;
  const recorded = parseA1(record.tableAddress);
  if (
    range.rowIndex !== recorded.row ||
    range.columnIndex !== recorded.col ||
    range.rowCount !== recorded.rows ||
    range.columnCount < width
  ) {
    throw new PastedSheetChangedError(
      message("excel.refresh.movedOrResized", {
        sheet: record.sheetName,
        table: record.tableName,
        range: localOf(range.address),
        recorded: record.tableAddress,
      }),
    );
  }
  const values = await readBlock(context, sheet, range.rowIndex, range.columnIndex, range.rowCount, width, "values");
  const body = values.slice(1);
  const compared = record.rows === 0 && body.length === 1 && body[0].every((v) => v === "") ? [] : body;
  if (!fingerprintMatches(record.fingerprint, values[0], compared)) {
    throw new PastedSheetChangedError(message("excel.refresh.edited", { sheet: record.sheetName }));
  }
  return { sheet, table, row: range.rowIndex, col: range.columnIndex, rows: range.rowCount, cols: range.columnCount };
}

/**
 * A pasted table found by {@link findPastedTable}: its sheet, the table and its range (rowIndex,
 * columnIndex, rowCount, columnCount and address loaded).
 */
export interface FoundPastedTable {
  sheet: Excel.Worksheet;
  table: Excel.Table;
  range: Excel.Range;
  /**
   * Its filter has criteria (AutoFilter.isDataFiltered, ExcelApi 1.9; false where that is missing):
   * Excel then moves none of its cells, so no row of it can be deleted and no column inserted.
   */
  filtered: boolean;
}

/**
 * The sheet (by id, under its recorded name) and table of a record, with the table's range loaded
 * (rowIndex, columnIndex, rowCount, columnCount, address). Throws PastedSheetChangedError saying
 * what is gone or renamed; changes nothing. Two round trips ({@link queueFindPastedTable} lets
 * them ride with a caller's).
 */
export async function findPastedTable(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
): Promise<FoundPastedTable> {
  const finding = queueFindPastedTable(context, record);
  await context.sync();
  const found = finding.located();
  await context.sync();
  return found();
}

/**
 * {@link findPastedTable} in two steps that go with the caller's requests (a round trip fewer
 * each): its first asks are queued now; `located()`, once a request carried them, checks them
 * (throwing as findPastedTable does) and queues the second; the function it returns, once another
 * request carried those, checks them and gives the table.
 */
export function queueFindPastedTable(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
): { located(): () => FoundPastedTable } {
  const sheet = context.workbook.worksheets.getItemOrNullObject(record.sheetId);
  sheet.load("name, id");
  // Asked in the same request (a round trip fewer): a table's name is unique in the workbook (Excel
  // allows no two tables of one name: Table.name, "Rename an Excel table"), so the workbook's
  // collection finds it without waiting to know the sheet exists; the sheet holding it is checked
  // with its range. Nothing is asked through an object that may be null.
  const table = context.workbook.tables.getItemOrNullObject(record.tableName);
  return {
    located() {
      if (sheet.isNullObject)
        throw new PastedSheetChangedError(message("excel.refresh.deleted", { sheet: record.sheetName }));
      checkName(record, sheet);
      if (table.isNullObject) throw tableGone(record);
      return queueLocate(record, sheet, table);
    },
  };
}

/**
 * {@link findPastedTable} in one step, for a record whose sheet and table are most likely where it
 * says: everything is asked at once, through Excel's `getItem`, so a request that carries it fails
 * (ItemNotFound, changing nothing) when the sheet or table is gone; the caller then asks again with
 * {@link queueFindPastedTable}, which says which. The function returned, once a request carried
 * the asks, checks them (throwing as findPastedTable does) and gives the table.
 */
export function queueFindPastedTableAtOnce(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
): () => FoundPastedTable {
  const sheet = context.workbook.worksheets.getItem(record.sheetId);
  sheet.load("name, id");
  const located = queueLocate(record, sheet, context.workbook.tables.getItem(record.tableName));
  return () => {
    checkName(record, sheet);
    return located();
  };
}

function tableGone(record: ProvenanceRecord): PastedSheetChangedError {
  return new PastedSheetChangedError(
    message("excel.refresh.tableGone", { sheet: record.sheetName, table: record.tableName }),
  );
}

/** Throws when the record's sheet (found by id) no longer has its recorded name. */
function checkName(record: ProvenanceRecord, sheet: Excel.Worksheet): void {
  if (sheet.name !== record.sheetName)
    throw new PastedSheetChangedError(message("excel.refresh.renamed", { sheet: record.sheetName, name: sheet.name }));
}

/** Queues the asks about a table known to exist; once synced, checks them and gives the table. */
function queueLocate(record: ProvenanceRecord, sheet: Excel.Worksheet, table: Excel.Table): () => FoundPastedTable {
  const holder = table.worksheet;
  holder.load("id");
  const range = table.getRange();
  range.load("rowIndex, columnIndex, rowCount, columnCount, address");
  const writable = queueWritable(sheet, table);
  return () => {
    if (holder.id !== sheet.id) throw tableGone(record);
    const state = writable();
    refuseUnchangeable(record.sheetName, record.tableName, state);
    return { sheet, table, range, filtered: state.filtered };
  };
}

/** What says how a refresh may write a table ({@link queueWritable}). */
export interface TableWritability {
  protectedSheet: boolean;
  showTotals: boolean;
  filtered: boolean;
}

/**
 * Queues the asks that say how a refresh may write a table, to go with the caller's next request;
 * once synced, the function returned gives them: whether its sheet is protected (Excel refuses
 * every change to its locked cells), it shows a total row (the range's last row, not a row of the
 * answer), or its filter has criteria (Excel moves none of its cells; ExcelApi 1.9, else false).
 */
export function queueWritable(sheet: Excel.Worksheet, table: Excel.Table): () => TableWritability {
  const protection = sheet.protection;
  protection.load("protected");
  table.load("showTotals");
  const autoFilter = requirementSupported("ExcelApi", "1.9") ? table.autoFilter : undefined;
  autoFilter?.load("isDataFiltered");
  return () => ({
    protectedSheet: protection.protected,
    showTotals: table.showTotals,
    filtered: autoFilter?.isDataFiltered === true,
  });
}

/**
 * Throws PastedSheetChangedError (nothing changed) when a refresh may not write a table: its sheet
 * is protected (Excel refuses every change to its locked cells), or it shows a total row (the
 * range's last row, not a row of the answer).
 */
export function refuseUnchangeable(sheet: string, table: string, state: TableWritability): void {
  if (state.protectedSheet) throw new PastedSheetChangedError(message("excel.refresh.protected", { sheet }));
  if (state.showTotals) throw new PastedSheetChangedError(message("excel.refresh.totalRow", { sheet, table }));
}

/**
 * Replaces the table of `record` with `header` and `rows`, whole or not at all. Returns the record
 * updated (header, rows, address, time, fingerprint). A result of another width or length takes the
 * cells it grows into when they are empty; the user's columns inside the table move with its right
 * edge, keeping their values per row position. Refuses (PastedSheetChangedError, nothing changed)
 * when the sheet changed, the result is empty, or cells the table would grow into hold data.
 */
export async function replaceTableInPlace(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  header: string[],
  rows: CellValue[][],
  options: ReplaceOptions = {},
): Promise<ProvenanceRecord> {
  checkShape({ sheetName: record.sheetName, header, rows }, 0);
  if (rows.length === 0)
    throw new PastedSheetChangedError(message("excel.refresh.noRows", { sheet: record.sheetName }));
  const signal = options.signal;
  signal?.throwIfAborted();
  const at = await checkPastedSheet(context, record);
  const { sheet, table } = at;
  const oldWidth = record.header.length;
  const newWidth = header.length;
  const userCols = at.cols - oldWidth; // the user's columns inside the table, right of the data
  const newCols = newWidth + userCols;
  const oldBody = at.rows - 1;
  const newBody = rows.length;
  const resized = newBody !== oldBody || newWidth !== oldWidth;
  const blocked = await occupiedGrowth(context, sheet, at, newBody + 1, newCols);
  if (blocked) {
    throw new PastedSheetChangedError(
      message("excel.refresh.blocked", {
        sheet: record.sheetName,
        rows: Math.max(0, newBody - oldBody),
        columns: Math.max(0, newCols - at.cols),
        now: newWidth,
        before: oldWidth,
        cells: blocked,
      }),
    );
  }
  // Table.resize is ExcelApi 1.13 (Windows 2102, Mac 16.50): older builds refresh a table only
  // when its size is unchanged; asked first, so nothing is written.
  if (resized && !requirementSupported("ExcelApi", "1.13")) {
    throw new PastedSheetChangedError(
      message("excel.refresh.cannotResize", {
        sheet: record.sheetName,
        columns: newWidth === oldWidth ? "same" : "changed",
        newRows: newBody,
        oldRows: oldBody,
        newColumns: newWidth,
        oldColumns: oldWidth,
      }),
    );
  }
  // Backup of everything the refresh may change: the old and the new extent, user's columns included.
  const backupRows = Math.max(at.rows, newBody + 1);
  const backupCols = Math.max(at.cols, newCols);
  const oldFormulas = await readBlock(context, sheet, at.row, at.col, backupRows, backupCols, "formulas");
  const oldFormats = await readBlock(context, sheet, at.row, at.col, backupRows, backupCols, "numberFormat");
  const oldAddress = rangeAddress(at.row, at.col, at.rows, at.cols);
  const columnOf = columnMap(record.header, header, userCols);
  signal?.throwIfAborted();

  let followed: FollowedTable | undefined;
  try {
    if (resized) {
      table.resize(rangeAddress(at.row, at.col, newBody + 1, newCols));
      if (newWidth !== oldWidth && userCols > 0) {
        // The user's columns move with the table's right edge, every row they had. Their old cells
        // are emptied first: Excel renames a header that repeats another one ("notes" to "notes2").
        sheet.getRangeByIndexes(at.row, at.col + oldWidth, at.rows, userCols).clear("Contents" as Excel.ClearApplyTo);
        const moved = (block: CellValue[][]) => block.slice(0, at.rows).map((line) => line.slice(oldWidth, at.cols));
        await writeBlock(
          context,
          sheet,
          at.row,
          at.col + newWidth,
          moved(oldFormulas),
          moved(oldFormats),
          options.maxRequestBytes,
        );
      }
      if (newCols < at.cols)
        sheet
          .getRangeByIndexes(at.row, at.col + newCols, at.rows, at.cols - newCols)
          .clear("Contents" as Excel.ClearApplyTo);
      if (newBody < oldBody)
        sheet
          .getRangeByIndexes(at.row + 1 + newBody, at.col, oldBody - newBody, newWidth)
          .clear("Contents" as Excel.ClearApplyTo);
    }
    await writeTable(
      context,
      sheet,
      at.row,
      at.col,
      header,
      rows,
      options,
      keptFormats(record.header, header, oldFormats),
    );
    signal?.throwIfAborted();
    if (resized) {
      followed = await followTable(context, sheet, {
        row: at.row,
        col: at.col,
        oldBody,
        newBody,
        oldCols: at.cols,
        newCols,
        columnOf,
        oldLastData: oldWidth - 1,
        newLastData: newWidth - 1,
      });
      signal?.throwIfAborted();
    }
  } catch (error) {
    try {
      followed?.restore();
      if (resized) table.resize(oldAddress);
      await writeBlock(context, sheet, at.row, at.col, oldFormulas, oldFormats, options.maxRequestBytes);
    } catch (restoreError) {
      throw new IncompleteRestoreError(error, record.sheetName, restoreError);
    }
    throw error;
  }
  return {
    ...record,
    header: header.slice(),
    rows: newBody,
    tableAddress: rangeAddress(at.row, at.col, newBody + 1, newWidth),
    writtenAt: utcNow(),
    fingerprint: tableFingerprint(header, rows),
    staticCopyAt: undefined,
  };
}

/**
 * Where the new extent (`rows` × `cols` from the table's corner) reaches past the old one, the
 * address of the cells there that hold data (their bounding box), or undefined when all are empty.
 */
async function occupiedGrowth(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  at: Checked,
  rows: number,
  cols: number,
): Promise<string | undefined> {
  const strips: Array<{ row: number; col: number; rows: number; cols: number }> = [];
  if (cols > at.cols)
    strips.push({ row: at.row, col: at.col + at.cols, rows: Math.max(rows, at.rows), cols: cols - at.cols });
  if (rows > at.rows) strips.push({ row: at.row + at.rows, col: at.col, rows: rows - at.rows, cols: at.cols });
  let box: { top: number; left: number; bottom: number; right: number } | undefined;
  for (const strip of strips) {
    const values = await readBlock(context, sheet, strip.row, strip.col, strip.rows, strip.cols, "values");
    values.forEach((line, r) =>
      line.forEach((value, c) => {
        if (value === "") return;
        const row = strip.row + r;
        const col = strip.col + c;
        box = box
          ? {
              top: Math.min(box.top, row),
              left: Math.min(box.left, col),
              bottom: Math.max(box.bottom, row),
              right: Math.max(box.right, col),
            }
          : { top: row, left: col, bottom: row, right: col };
      }),
    );
  }
  return box && rangeA1(box.top, box.left, box.bottom - box.top + 1, box.right - box.left + 1);
}

/**
 * New column (relative to the table) of each old one: data columns by header name (the n-th
 * "flood" is the n-th "flood"), the user's columns after the new data columns; undefined when gone.
 */
function columnMap(
  oldHeader: string[],
  newHeader: string[],
  userCols: number,
): (oldColumn: number) => number | undefined {
  const taken = new Set<number>();
  const data = oldHeader.map((name) => {
    const found = newHeader.findIndex((h, j) => h === name && !taken.has(j));
    if (found < 0) return undefined;
    taken.add(found);
    return found;
  });
  return (c) =>
    c < oldHeader.length
      ? data[c]
      : c < oldHeader.length + userCols
        ? c - oldHeader.length + newHeader.length
        : undefined;
}

/**
 * Number formats for the numeric columns of a new header: undefined (leave the user's) where the
 * column is where it was; the format its column had (by header name) where it moved; "General" for
 * a column new to the table (the cells held another column's or nothing).
 */
function keptFormats(oldHeader: string[], newHeader: string[], oldFormats: CellValue[][]): Array<string | undefined> {
  const columnOf = columnMap(oldHeader, newHeader, 0);
  const from = new Map<number, number>();
  oldHeader.forEach((_, i) => {
    const j = columnOf(i);
    if (j !== undefined) from.set(j, i);
  });
  return newHeader.map((_, j) => {
    const i = from.get(j);
    if (i === j) return undefined;
    return i === undefined ? "General" : String(oldFormats[1]?.[i] ?? "General");
  });
}

/** Header then rows in chunks; text cells get the text format, numeric columns keep theirs. */
export async function writeTable(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  row: number,
  col: number,
  header: string[],
  rows: CellValue[][],
  options: ReplaceOptions,
  numericFormats: ReadonlyArray<string | undefined>,
): Promise<void> {
  const width = header.length;
  const kinds = columnTextKinds(rows, width);
  const head = sheet.getRangeByIndexes(row, col, 1, width);
  head.numberFormat = [header.map(() => TEXT_FORMAT)];
  head.values = [header.slice()];
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const fixed = OPERATION_OVERHEAD_BYTES * 3;
  const chunks = planRowChunks(
    rows.map((r) =>
      rowBytes(
        r,
        r.map(() => TEXT_FORMAT),
      ),
    ),
    maxBytes - rowBytes(header, null) - fixed,
    fixed,
  );
  for (const chunk of chunks) {
    options.signal?.throwIfAborted();
    const part = rows.slice(chunk.start, chunk.end);
    for (let c = 0; c < width; c++) {
      if (kinds[c] === "none") {
        // Numbers only: the user's number format stays, or follows its column when it moved.
        const kept = numericFormats[c];
        if (kept !== undefined)
          sheet.getRangeByIndexes(row + 1 + chunk.start, col + c, part.length, 1).numberFormat = part.map(() => [kept]);
        continue;
      }
      sheet.getRangeByIndexes(row + 1 + chunk.start, col + c, part.length, 1).numberFormat = part.map((r) => [
        typeof r[c] === "string" && r[c] !== "" ? TEXT_FORMAT : "General",
      ]);
    }
    sheet.getRangeByIndexes(row + 1 + chunk.start, col, part.length, width).values = part;
    await context.sync();
    options.onProgress?.(chunk.end, rows.length);
  }
}

/** Writes back a backup of formulas (formats before formulas, as the first write did). */
async function writeBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  row: number,
  col: number,
  values: CellValue[][],
  formats: CellValue[][],
  maxRequestBytes?: number,
): Promise<void> {
  const maxBytes = maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const chunks = planRowChunks(
    values.map((r, i) => rowBytes(r, formats[i] as string[])),
    maxBytes - OPERATION_OVERHEAD_BYTES * 2,
    OPERATION_OVERHEAD_BYTES * 2,
  );
  for (const chunk of chunks) {
    const count = chunk.end - chunk.start;
    const range = sheet.getRangeByIndexes(row + chunk.start, col, count, values[0].length);
    range.numberFormat = formats.slice(chunk.start, chunk.end) as string[][];
    range.formulas = values.slice(chunk.start, chunk.end);
    await context.sync();
  }
}

function rangeAddress(row: number, col: number, rows: number, cols: number): string {
  return `${columnLetters(col)}${row + 1}:${columnLetters(col + cols - 1)}${row + rows}`;
}

/** The sheet-local part of an address ("A1:H41" of "Sheet1!A1:H41"). */
export function localOf(address: string): string {
  return address.slice(address.lastIndexOf("!") + 1);
}
