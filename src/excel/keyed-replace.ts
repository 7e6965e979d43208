/**
 * Refresh of a pasted table by row key, whole or not at all. Rows are matched by their key
 * (src/shaping/row-keys.ts), not their position, so the analyst's order (sorted, filtered, hidden
 * rows), their own columns (inside the table or directly beside it) and the cells they changed stay
 * with their row:
 *  - a row the service still returns keeps its place; its cells are written only where the
 *    service's value differs from what the cell shows;
 *  - a row new in the answer is added at the end (Range.insert(down) across the table and the
 *    columns beside it, then Table.resize), so the analyst's sort is not re-applied;
 *  - a row the service no longer returns is removed with Excel's own deletion (Range.delete(up)
 *    across the table and the columns beside it), so formulas elsewhere follow their rows the way
 *    Excel moves them and a reference to the removed row shows #REF!; whatever the analyst's
 *    columns held for it, and its cells they changed, is first copied to a block titled "Removed
 *    at refresh on …" below everything on the sheet, with its key;
 *  - a row the analyst deleted by hand is not added back unless asked for (`restoreKeys`);
 *  - a cell of the add-in's columns the analyst changed (its value no longer matches the record of
 *    what was written, src/excel/written-store.ts) is kept and listed unless the choice is
 *    "take-service"; "keep-mine" keeps it for good. A refresh without the pane ("ask") keeps it and
 *    leaves the question.
 * The analyst's cells move with their row because rows are inserted and deleted, never rewritten
 * elsewhere: their formulas stay relative to their own row.
 *
 * When the service's answer has columns the table lacks, the table widens: the new columns are
 * inserted at the right of its data columns (Range.insert("Right") over the table's rows, so the
 * analyst's columns inside the table and beside it move right with their rows and keep their
 * content; Table.resize, ExcelApi 1.13, takes them into the table) and filled by key like the
 * rest, with the formats the first paste gives such columns (label colours, a score scale, number
 * formats: the answer's `formats`). A column the answer no longer has is kept where it is, with
 * what it holds (the add-in's last values and anything the analyst typed), no longer written; the
 * record lists it as no longer served (`unservedColumns`) and the pane says so. Columns keep their places and order, so
 * the record of what was written stays valid column by column.
 *
 * Order, so that a failure or Cancel puts everything back: read and plan (nothing changed), append
 * rows, write changed cells, write the removed rows' block, rewrite the lines of the record of what
 * was written that change, and (`recordAs`) the sheet's provenance record; on failure these are
 * undone (rows deleted again, cells written back, block cleared, record's lines put back,
 * provenance put back). The deletion of removed rows comes last, in one request ending with a stamp
 * in the record, once nothing else can fail: a deletion cannot be undone by writing values back
 * (references to the rows are #REF!). The small writes before it (the last chunk of changed cells,
 * of the record's lines, the provenance) go first in that request, a round trip each fewer. When
 * that request fails, what of it was applied is read: no deletion and no stamp, and everything is
 * undone as above; some (Excel applies a failed request's operations up to the one that failed),
 * and the rest is sent again.
 */
import { requirementSupported } from "../shared/requirements";
import { parseA1, rangeA1 } from "../shaping/a1";
import {
  changedColumns,
  locatorColumns,
  locatorOf,
  planKeyedRefresh,
  replaceDigests,
  type KeyedPlan,
  rowDigest,
  type WrittenRow,
} from "../shaping/keyed-diff";
import type { ProvenanceRecord } from "../shaping/paste-provenance";
import { describeKey, keyKindChange, type AssetKeyKind, type RecordedRowKey } from "../shaping/row-keys";
import { TEXT_FORMAT, columnTextKinds } from "../shaping/safe-cells";
import type { CellValue, ColumnFormats } from "../shaping/types";
import {
  DEFAULT_MAX_REQUEST_BYTES,
  OPERATION_OVERHEAD_BYTES,
  planRowChunks,
  rowBytes,
  estimateJsonBytes,
} from "./chunks";
import {
  queueRecordProvenance,
  recordProvenance,
  restoreProvenance,
  queueProvenanceSnapshot,
  utcNow,
  type ProvenanceSnapshot,
} from "./provenance-sheets";
import { READ_TARGET_BYTES, isItemNotFound, queueRead, readBlock, readBlocks, type CellBlock } from "./read-range";
import {
  IncompleteRestoreError,
  PastedSheetChangedError,
  findPastedTable,
  queueFindPastedTable,
  queueFindPastedTableAtOnce,
  type FoundPastedTable,
  localOf,
  type ReplaceOptions,
} from "./replace-table";
import { followTable, type FollowedTable } from "./table-followers";
import { addLabelColours, addScoreScale } from "./table-formats";
import { checkShape } from "./write-sheets";
import {
  firstReadBytes,
  planStoreLines,
  queueStoreStamp,
  queueWrittenStoreParts,
  readStoreStamp,
  writeStoreLines,
  type StoreLineChange,
  type WrittenStoreParts,
} from "./written-store";
import { sheetWords } from "./sheet-words";
import { message, type Message } from "../i18n/messages";
import { MessageError, reasonOf } from "../i18n/message-error";

/** The service's answer, shaped as the paste shaped it, with each row's key. */
export interface KeyedTable {
  header: string[];
  rows: CellValue[][];
  /** One per row (src/shaping/row-keys.ts keyRows). */
  keys: string[];
  assetKind?: AssetKeyKind;
  /** How the first paste formats the answer's columns (by its header's order): new columns get the same. */
  formats?: ColumnFormats;
}

/** What to do with cells the analyst changed in the add-in's columns. */
export type EditChoice = "ask" | "keep-mine" | "take-service";

/** Options of a refresh by key. */
export interface KeyedRefreshOptions extends ReplaceOptions {
  /** Default "ask": keep the analyst's values and list them (a refresh without the pane). */
  edits?: EditChoice;
  /** Keys of rows the analyst deleted by hand to add back. */
  restoreKeys?: readonly string[];
  /**
   * The table's record of what was written, as read earlier in the same batch with nothing written
   * since (checkFollowers' `keyedWritten`): not read again (a round trip fewer).
   */
  written?: Map<string, WrittenRow>;
  /** Go on when the key kind changed since the paste (the pane asked). */
  acceptKeyKindChange?: boolean;
  /**
   * A table of formulas over this one (formula-followers.ts) that is filtered: its rows follow this
   * table's, and Excel moves no cell of a filtered table, so adding or removing rows is refused.
   */
  filteredFollower?: { sheet: string; table: string };
  /**
   * Records the refreshed table's provenance (this record as the caller completes it) before the
   * removed rows are deleted, the one step that cannot be undone: a refresh is on record exactly
   * when it is done, and the record is put back when anything before fails. Without it the caller
   * records the returned record itself.
   */
  recordAs?: (record: ProvenanceRecord) => ProvenanceRecord;
  /**
   * The table's first rows (header first) where its record says it is, read with an earlier
   * request ({@link queueTableHead}, with the previous sheet's last): not read again.
   */
  head?: CellValue[][];
  /**
   * Queues reads to go with the backups' first request, read-only like them, in about `roomBytes`
   * of its answer (a round trip fewer for the caller: the next sheet's first cells,
   * {@link queueTableHead}). When that request fails, the backups are read again without them.
   * Not called when no cell of a kept row changes (no backups to read).
   */
  withBackups?: (context: Excel.RequestContext, roomBytes: number) => void;
  /**
   * Queues reads to go with the refresh's last request, after everything of it (a round trip fewer
   * for the caller: the next sheet's first cells, {@link queueTableHead}). They cannot make the
   * refresh look failed: the record's stamp before them says the request applied whole. When that
   * request fails they are lost, and the caller reads them itself.
   */
  withLastRequest?: (context: Excel.RequestContext) => void;
  /** The time of the refresh (tests). */
  now?: Date;
}

/** A cell of the add-in's columns the analyst changed. */
export interface EditedCell {
  /** Sheet-local address now ("F7"). */
  address: string;
  key: string;
  column: string;
  mine: CellValue;
  service: CellValue;
}

/** What a refresh by key did, for the pane to say. */
export interface KeyedRefreshReport {
  /** Rows kept in place (their cells refreshed). */
  updated: number;
  /** Cells whose value the refresh changed. */
  cellsChanged: number;
  /** Keys of rows added at the end, shown as the pane shows keys. */
  added: string[];
  /** Keys of rows removed. */
  removed: string[];
  /** Keys (raw) and labels of rows the analyst deleted by hand that the service still returns. */
  deletedByHand: Array<{ key: string; label: string }>;
  /** Rows of the table that are not the add-in's (typed by the analyst, or a key cell changed): left as they are. */
  unknownRows: string[];
  /** Cells the analyst changed: kept awaiting a choice ("ask"), kept ("keep-mine") or overwritten ("take-service"). */
  edited: EditedCell[];
  /** Cells kept because the analyst chose to keep them before. */
  keptByEarlierChoice: number;
  /** Where the removed rows' analyst cells were kept ("A52:C55"), if any held something. */
  removedBlock?: string;
  /** Columns new in the service's answer, inserted at the right of the data columns ("H1:I41"). */
  columnsAdded: string[];
  /** Where they were inserted, sheet-local, header included; absent when none were. */
  columnsAddedAt?: string;
  /** Columns the service no longer returns: kept in place with their content, no longer written. */
  columnsNoLongerServed: string[];
}

/** Where each column of the widened table comes from in the service's answer. */
interface ColumnLayout {
  /** The table's data header after the refresh: the recorded columns, then the new ones. */
  header: string[];
  /** Per column of `header`, its index in the answer's header, or -1 when the answer lacks it. */
  from: number[];
  /** Columns new in the answer, in its order. */
  added: string[];
  /** Recorded columns the answer lacks. */
  unserved: string[];
}

/**
 * Lays the answer's columns over the table's: the recorded columns keep their places (in the
 * record's order), the answer's new ones go after them. Throws PastedSheetChangedError (nothing
 * changed) when the answer repeats a column name or lacks a column the rows are found by.
 */
function layColumns(
  /** The sheet's name, for the messages. */
  sheet: string,
  recorded: readonly string[],
  answer: readonly string[],
  locators: string[],
): ColumnLayout {
  const at = new Map<string, number>();
  answer.forEach((name, i) => {
    if (at.has(name))
      throw new PastedSheetChangedError(message("excel.refresh.duplicateColumn", { sheet, column: name }));
    at.set(name, i);
  });
  const lost = locators.filter((name) => !at.has(name));
  if (lost.length > 0)
    throw new PastedSheetChangedError(
      message("excel.refresh.lostColumns", {
        sheet,
        count: lost.length,
        columns: lost.map((n) => `"${n}"`).join(", "),
      }),
    );
  const known = new Set(recorded);
  const added = answer.filter((name) => !known.has(name));
  const header = [...recorded, ...added];
  return {
    header,
    from: header.map((name) => at.get(name) ?? -1),
    added,
    unserved: recorded.filter((name) => !at.has(name)),
  };
}

/** The key kind changed since the paste: the pane asks before going on. Nothing was changed. */
export class KeyKindChangedError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "KeyKindChangedError";
  }
}

/**
 * What a backup's cell is reckoned to weigh, each of its formula and number format: the add-in's
 * values (numbers, short texts) and formats ("0.00", "@") in JSON.
 */
const BACKUP_CELL_BYTES = 16;

/** How far right of a table the analyst's columns beside it are looked for. */
const BESIDE_SCAN = 16;
/**
 * Columns right of a keyed table's data read with its first cells, before its place is known: the
 * analyst's columns inside the table and BESIDE_SCAN beside it, for up to 16 of their own.
 */
const RIGHT_GUESS = 2 * BESIDE_SCAN;
/**
 * What a cell of a table is reckoned to weigh before its answer came: a number of the service's
 * in JSON (up to 17 significant digits, a point, a comma) is at most about 20 bytes; 16 leaves the
 * request under Excel's 5 MB limit for a head of 4 MB reckoned so, unless most cells are long texts.
 */
const HEAD_CELL_BYTES = 16;
/** What a cell of the analyst's columns is reckoned to weigh before any is read: mostly empty (`"",`). */
const RIGHT_CELL_BYTES = 4;

/**
 * What a cell of a table weighs in an answer of Excel, reckoned from the service's answer (its
 * first 500 rows, `width` columns each): the table's cells hold what the service sent last time.
 */
export function answerBytesPerCell(rows: readonly CellValue[][], width: number): number | undefined {
  const sample = rows.slice(0, 500);
  // Estimated, not stringified: 500 rows of the extended summary's 248 columns are a 1 MB text.
  return sample.length > 0 && width > 0 ? estimateJsonBytes(sample) / (sample.length * width) : undefined;
}

/** What {@link refreshTableByKey} did. */
export interface KeyedRefreshDone {
  record: ProvenanceRecord;
  report: KeyedRefreshReport;
  /**
   * The provenance as read before `recordAs` recorded the refresh (absent without `recordAs`): a
   * later record in the same batch goes from it without reading the stores again
   * (provenance-sheets.ts recordProvenanceAgain).
   */
  provenanceBefore?: ProvenanceSnapshot;
  /**
   * The new record of what was written (`record.writtenStore`) by locator, as a read of it would
   * give it: what the refresh wrote there, kept in memory so a later step of the same batch need
   * not read it back (queueTableRowKeys `written`).
   */
  written: Map<string, WrittenRow>;
}

/**
 * Refreshes the table of `record` by key with `fresh`. Returns the record updated and what was
 * done. Throws PastedSheetChangedError (nothing changed) when the sheet or table is gone, its data
 * header was changed, the record of what was written is missing, or the answer is empty;
 * KeyKindChangedError when the key kind changed and `acceptKeyKindChange` is not set.
 *
 * Three phases: read the table (nothing changes), plan its cells (pure), write with undo. Its first
 * request is sent again when what it asks for is gone (readKeyedTable): the caller leaves no loads
 * of its own queued for it to carry.
 */
export async function refreshTableByKey(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  fresh: KeyedTable,
  options: KeyedRefreshOptions = {},
): Promise<KeyedRefreshDone> {
  const answer = layAnswer(record, fresh, options);
  options.signal?.throwIfAborted();
  const table = await readKeyedTable(context, record, fresh, answer, options);
  const cells = planKeyedCells(record, fresh, answer, table, options.edits ?? "ask");
  return writeKeyedRefresh(context, record, fresh, options, answer, table, cells);
}

/** The service's answer checked and laid over the table's columns (before anything is read). */
interface LaidAnswer {
  rowKey: RecordedRowKey;
  layout: ColumnLayout;
  /** The answer's rows in the table's column order (an unserved column: empty, never written to a kept row). */
  rows: CellValue[][];
  /** The table's columns (indexes) the answer no longer has. */
  unserved: Set<number>;
  /** The number format of each of the table's columns for numbers, as the first paste gives it. */
  numberFormats: Array<string | undefined>;
}

/**
 * Checks the answer against the record and lays its columns over the table's. Throws (nothing
 * changed) when the table is not keyed, the answer is empty or cannot be matched, or the key kind
 * changed unasked.
 */
function layAnswer(record: ProvenanceRecord, fresh: KeyedTable, options: KeyedRefreshOptions): LaidAnswer {
  const rowKey = record.rowKey;
  if (!rowKey || !record.writtenStore)
    throw new PastedSheetChangedError(message("excel.refresh.notKeyed", { sheet: record.sheetName }));
  checkShape({ sheetName: record.sheetName, header: fresh.header, rows: fresh.rows }, 0);
  if (fresh.rows.length === 0)
    throw new PastedSheetChangedError(message("excel.refresh.noRows", { sheet: record.sheetName }));
  const change = keyKindChange(rowKey, fresh.assetKind);
  if (change && !options.acceptKeyKindChange)
    throw new KeyKindChangedError(
      message("excel.refresh.keyKindChanged", {
        sheet: record.sheetName,
        before: change.before,
        now: change.now ?? "none",
      }),
    );
  const layout = layColumns(
    record.sheetName,
    record.header,
    fresh.header,
    (rowKey.asset ? ["portfolio_index", ...rowKey.columns] : rowKey.columns).filter((n) => record.header.includes(n)),
  );
  const sameColumns = layout.added.length === 0 && layout.unserved.length === 0 && layout.from.every((f, c) => f === c);
  const rows = sameColumns ? fresh.rows : fresh.rows.map((row) => layout.from.map((f) => (f < 0 ? "" : row[f])));
  const unserved = new Set(layout.unserved.map((name) => record.header.indexOf(name)));
  const numberFormats = layout.from.map((f) => (f < 0 ? undefined : fresh.formats?.numberFormats?.[f]));
  // Sheets of formulas over the table (formula-followers.ts) read its columns by place.
  if (!sameColumns && record.followers)
    throw new PastedSheetChangedError(
      message("excel.refresh.columnsChanged", {
        sheet: record.sheetName,
        columns: [...layout.added, ...layout.unserved].map((n) => `"${n}"`).join(", "),
      }),
    );
  return { rowKey, layout, rows, unserved, numberFormats };
}

/** What the read phase found: the table where it is now, what it holds, and which rows go where. */
interface KeyedTableRead {
  sheet: Excel.Worksheet;
  table: Excel.Table;
  /** 0-based sheet row of the header and column of the table's first column. */
  top: number;
  left: number;
  /** The table's columns (data and the analyst's inside it) and body rows before the refresh. */
  cols: number;
  body: number;
  /** The table's data columns before and after the refresh, and how many it gains. */
  width: number;
  newWidth: number;
  widen: number;
  /** The analyst's columns directly beside the table. */
  beside: number;
  /** The table's body values (all its columns). */
  values: CellValue[][];
  /** The analyst's columns (inside the table past the data, then beside it), header row included, as formulas. */
  userFormulas: CellValue[][];
  written: Map<string, WrittenRow>;
  /** Per body row, its entry in the record of what was written (undefined: not the add-in's). */
  entries: Array<WrittenRow | undefined>;
  plan: KeyedPlan;
  /**
   * Hidden body positions from the first removed row down: read (`readHidden`, queued to go with
   * the next request) with the backups, before anything is written.
   */
  hiddenBelow: number[];
  readHidden: () => Promise<number[]>;
  /** The workbook's sheets (ids and names) as the read found them. */
  sheets: Excel.WorksheetCollection;
}

/**
 * The read phase: reads the table, the analyst's columns and the record of what was written (or
 * takes `written`, read in this batch and not written since). Changes nothing.
 */
async function readKeyedTable(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  fresh: KeyedTable,
  answer: LaidAnswer,
  options: KeyedReadOptions,
): Promise<KeyedTableRead> {
  const sheets = context.workbook.worksheets;
  // The workbook's sheets go with the table's first asks: the provenance's snapshot before the
  // writes needs them (no sheet is added or removed before it is taken).
  const sheetsRead = () =>
    queueRead(context, () => {
      sheets.load("items/id, items/name");
      return () => {
        // Unloaded (the request that carried the load failed), its items throw: queueRead asks again.
        void sheets.items;
        return sheets;
      };
    });
  // Everything at once, with the table's first cells (a round trip fewer): its sheet, the table
  // and the record of what was written asked through getItem. When one of them is gone, Excel fails
  // that request (ItemNotFound), which read nothing; they are then asked first, each through a
  // null object, so the pane can say which is gone.
  try {
    const atOnce = sheetsRead();
    return await readKeyedCells(
      context,
      record,
      fresh,
      answer,
      options,
      queueRead(context, () => queueFindPastedTableAtOnce(context, record)),
      options.written ? undefined : queueWrittenStoreParts(context, sheets.getItem(record.writtenStore!)),
      atOnce,
    );
  } catch (error) {
    if (!isItemNotFound(error)) throw error;
  }
  const store = sheets.getItemOrNullObject(record.writtenStore!);
  const listed = sheetsRead();
  const finding = queueFindPastedTable(context, record);
  await context.sync();
  return readKeyedCells(
    context,
    record,
    fresh,
    answer,
    options,
    queueRead(context, () => finding.located()),
    options.written || store.isNullObject ? undefined : queueWrittenStoreParts(context, store),
    listed,
  );
}

/**
 * Queues the read of a keyed table's first rows, header first (from row `from` of them), where its
 * record says it is: about `bytes` of answer, each cell reckoned at `bytesPerCell`
 * ({@link answerBytesPerCell} of the service's answer for it, or for a table like it) or
 * HEAD_CELL_BYTES. For another request to carry (the previous sheet's, `withBackups`,
 * `withLastRequest`) and this table's refresh to take as its `head`. Gives how many rows it asks
 * for and, once that request was answered, them (none when there were none to ask), or undefined
 * when that request failed.
 */
export function queueTableHead(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  bytesPerCell: number | undefined,
  bytes = READ_TARGET_BYTES,
  from = 0,
): { rows: number; read: () => CellValue[][] | undefined } {
  const at = parseA1(record.tableAddress);
  const width = record.header.length;
  const perCell = bytesPerCell ?? HEAD_CELL_BYTES;
  const rows = Math.max(0, Math.min(at.rows - from, Math.floor(bytes / (perCell * Math.max(1, width)))));
  if (rows < 1 || width < 1) return { rows: 0, read: () => [] };
  const range = context.workbook.worksheets
    .getItem(record.sheetId)
    .getRangeByIndexes(at.row + from, at.col, rows, width);
  range.load("values");
  return {
    rows,
    read: () => {
      try {
        return range.values as CellValue[][];
      } catch {
        return undefined; // not loaded: the request that carried it failed
      }
    },
  };
}

/** What the read phase takes of the refresh's options. */
type KeyedReadOptions = Pick<KeyedRefreshOptions, "restoreKeys" | "written" | "filteredFollower" | "head">;

/**
 * {@link readKeyedTable} once its first asks are queued (`locating`, the record of what was
 * written's `writtenParts`, the workbook's `sheets`): reads the table's cells with them.
 */
async function readKeyedCells(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  fresh: KeyedTable,
  answer: LaidAnswer,
  options: KeyedReadOptions,
  locating: () => Promise<FoundPastedTable>,
  writtenParts: WrittenStoreParts | undefined,
  listing: () => Promise<Excel.WorksheetCollection>,
): Promise<KeyedTableRead> {
  const { rowKey, layout } = answer;
  // The table's place is asked with its first read, which goes where the record says it is (a
  // round trip fewer): the header and the body's data columns (the analyst's columns inside the
  // table are read as formulas below, as they are only kept, never compared); the record of what
  // was written with them. Once the place is known the rest is packed into the same requests, and
  // when the table is not where recorded it is all read again where it is.
  const width = record.header.length;
  const recorded = parseA1(record.tableAddress);
  const sheet = context.workbook.worksheets.getItem(record.sheetId);
  const guess = { sheet, row: recorded.row, col: recorded.col, rows: recorded.rows, cols: width };
  let found: FoundPastedTable | undefined;
  let moved = false;
  // Where the blocks `more` adds are in the answer (-1: not read).
  const at = { data: -1, right: -1, rightCols: -1, rightRows: -1, rest: -1 };
  // What an earlier request read of the table's first rows where the record says it is (the
  // previous sheet's last request, `head`): not read again.
  const earlier =
    options.head && options.head.length <= guess.rows && options.head.every((line) => line.length === width)
      ? options.head
      : [];
  // The cells hold what the service sent last time: what its answer weighs now is a fair guess of
  // what they weigh, so the first request takes as many as the 4 MB target allows at once.
  const bytesPerCell = answerBytesPerCell(answer.rows, width);
  // The columns right of the data are guessed too (as many as the analyst's inside a table and
  // beside it mostly take) when the data's rows fit in the first request: a table of a few MB is
  // then read whole in one. A larger one's are read once its place is known, no wider than they are.
  const firstBytes = READ_TARGET_BYTES - (writtenParts ? firstReadBytes(width) : 0);
  const guessBytes = (guess.rows - earlier.length) * width * (bytesPerCell ?? Infinity);
  const rightCols =
    guessBytes + guess.rows * RIGHT_GUESS * RIGHT_CELL_BYTES <= firstBytes
      ? Math.max(0, Math.min(RIGHT_GUESS, 16_384 - guess.col - width))
      : 0;
  const first: CellBlock[] = [
    {
      ...guess,
      row: guess.row + earlier.length,
      rows: guess.rows - earlier.length,
      properties: ["values"],
      bytesPerCell,
    },
    {
      sheet,
      row: guess.row,
      col: guess.col + width,
      rows: guess.rows,
      cols: rightCols,
      properties: ["formulas"],
      bytesPerCell: RIGHT_CELL_BYTES,
    },
  ];
  let needCols = 0;
  const blocks = await readBlocks(context, first, {
    firstBytes,
    more: async () => {
      found = await locating();
      const { range } = found;
      moved = range.rowIndex !== guess.row || range.columnIndex !== guess.col;
      const rows = range.rowCount;
      const cols = range.columnCount;
      const scan = Math.max(0, Math.min(BESIDE_SCAN, 16_384 - range.columnIndex - cols));
      // Every column right of the data: the analyst's inside the table and up to BESIDE_SCAN beside it.
      needCols = cols - width + scan;
      const more: CellBlock[] = [];
      const add = (block: CellBlock) => more.push(block) + first.length - 1;
      const top = range.rowIndex;
      const left = range.columnIndex;
      const covered = Math.min(rows, guess.rows);
      if (moved) {
        // All of it again where the table is now.
        at.data = add({ sheet, row: top, col: left, rows, cols: width, properties: ["values"] });
        at.right = add({
          sheet,
          row: top,
          col: left + width,
          rows,
          cols: needCols,
          properties: ["formulas"],
          bytesPerCell: RIGHT_CELL_BYTES,
        });
      } else {
        // What the guess did not cover: rows below the recorded ones, columns right of the guessed.
        if (rows > guess.rows)
          at.data = add({
            sheet,
            row: top + guess.rows,
            col: left,
            rows: rows - guess.rows,
            cols: width,
            properties: ["values"],
          });
        if (needCols > rightCols)
          at.rightCols = add({
            sheet,
            row: top,
            col: left + width + rightCols,
            rows: covered,
            cols: needCols - rightCols,
            properties: ["formulas"],
            bytesPerCell: RIGHT_CELL_BYTES,
          });
        if (rows > guess.rows)
          at.rightRows = add({
            sheet,
            row: top + guess.rows,
            col: left + width,
            rows: rows - guess.rows,
            cols: needCols,
            properties: ["formulas"],
            bytesPerCell: RIGHT_CELL_BYTES,
          });
      }
      const rest = await writtenParts?.rest();
      if (rest) at.rest = add(rest);
      return more;
    },
  });
  const { table, range } = found!;
  const top = range.rowIndex;
  const left = range.columnIndex;
  const cols = range.columnCount;
  const body = range.rowCount - 1;
  const newWidth = layout.header.length;
  const widen = newWidth - width;
  // The table's data cells, header first: the guess's rows (those of the table), then the rest.
  const guessed = [...earlier, ...blocks[0].values!];
  const dataRows = moved
    ? blocks[at.data].values!
    : [...guessed.slice(0, body + 1), ...(at.data >= 0 ? blocks[at.data].values! : [])];
  // The analyst's columns as formulas, header row first, `needCols` wide.
  const rightBlock = moved
    ? blocks[at.right].formulas!
    : [
        ...blocks[1]
          .formulas!.slice(0, body + 1)
          .map((line, r) =>
            at.rightCols >= 0 ? [...line, ...blocks[at.rightCols].formulas![r]] : line.slice(0, needCols),
          ),
        ...(at.rightRows >= 0 ? blocks[at.rightRows].formulas! : []),
      ];
  const headerNow = dataRows[0];
  if (headerNow.some((name, c) => String(name) !== record.header[c]))
    throw new PastedSheetChangedError(
      message("excel.refresh.headerChanged", { sheet: record.sheetName, range: localOf(range.address) }),
    );
  // The analyst's columns beside the table: up to the last one holding anything in the table's
  // rows (an empty column between them and the table is theirs too), within BESIDE_SCAN columns.
  const inside = cols - width;
  let beside = 0;
  for (const line of rightBlock)
    for (let c = inside + beside; c < line.length; c++) if (line[c] !== "") beside = c - inside + 1;
  const values = dataRows.slice(1);
  const userCols = inside + beside;
  const userFormulas = userCols > 0 ? rightBlock.map((line) => line.slice(0, userCols)) : [];
  const written = options.written ?? (await writtenParts?.complete(at.rest >= 0 ? blocks[at.rest].values : undefined));
  if (!written) throw new PastedSheetChangedError(message("excel.refresh.storeGone", { sheet: record.sheetName }));
  const locCols = locatorColumns(rowKey, record.header);
  const entries = values.map((row) => written.get(locatorOf(row, locCols)));
  const writtenKeys = new Set([...written.values()].map((w) => w.key));
  const plan = planKeyedRefresh(
    entries.map((e) => e?.key),
    writtenKeys,
    fresh.keys,
    new Set(options.restoreKeys ?? []),
  );
  if (plan.kept.length + plan.added.length + plan.unknown.length === 0)
    throw new PastedSheetChangedError(message("excel.refresh.everyRowDeleted", { sheet: record.sheetName }));
  // Excel moves no cell of a filtered table: the deletion of removed rows, last and beyond undoing,
  // and the insertion of new columns among its cells would fail. Refused first, nothing changed.
  if (found!.filtered && (plan.removed.length > 0 || widen > 0))
    throw new PastedSheetChangedError(
      message("excel.refresh.filtered", { sheet: record.sheetName, table: record.tableName }),
    );
  if (options.filteredFollower && (plan.removed.length > 0 || plan.added.length > 0))
    throw new PastedSheetChangedError(message("excel.refresh.filtered", options.filteredFollower));
  if ((plan.added.length > 0 || widen > 0) && !requirementSupported("ExcelApi", "1.13"))
    throw new PastedSheetChangedError(
      message("excel.refresh.cannotGrow", { sheet: record.sheetName, rows: plan.added.length, columns: widen }),
    );
  // Rows the analyst hid (or a filter hides) from the first removed row down: Excel keeps a row's
  // hidden state with the sheet row, not with the cells a deletion moves up, so the deletion below
  // moves it with its row.
  // Asked with the backups' first request (a round trip fewer).
  const readHidden =
    plan.removed.length > 0
      ? queueHiddenRows(context, sheet, top + 1, Math.min(...plan.removed), body)
      : () => Promise.resolve([]);
  return {
    sheet,
    readHidden,
    hiddenBelow: [],
    table,
    top,
    left,
    cols,
    body,
    width,
    newWidth,
    widen,
    beside,
    values,
    userFormulas,
    written,
    entries,
    plan,
    sheets: await listing(),
  };
}

/** A kept row's cells to write: the columns [first, first + values.length) (null: leave the cell). */
interface RowUpdate {
  first: number;
  values: CellValue[];
}

/** What the plan phase decided: the cells to write, the next record of what was written, the report. */
interface KeyedCellPlan {
  choice: EditChoice;
  report: KeyedRefreshReport;
  /** Body position → its kept row's changed cells. */
  updates: Map<number, RowUpdate>;
  nextWritten: WrittenRow[];
  kinds: ReturnType<typeof columnTextKinds>;
  /**
   * The analyst's cells of removed rows (those holding anything), for the block that keeps them:
   * the service's cells they changed, then their columns.
   */
  removedLines: Array<{ key: string; cells: CellValue[] }>;
  /** The block's header after its key column: the changed service columns', then the analyst's. */
  userHeader: Array<string | Message>;
}

/**
 * The plan phase (pure): which cells of the kept rows change, which of the analyst's edits are
 * kept or listed, the next record of what was written, and what the pane is told.
 */
function planKeyedCells(
  record: ProvenanceRecord,
  fresh: KeyedTable,
  answer: LaidAnswer,
  read: KeyedTableRead,
  choice: EditChoice,
): KeyedCellPlan {
  const { layout } = answer;
  const { top, left, cols, entries, plan, written } = read;
  const locCols = locatorColumns(answer.rowKey, record.header);
  const report: KeyedRefreshReport = {
    updated: plan.kept.length,
    cellsChanged: 0,
    added: plan.added.map((i) => describeKey(fresh.keys[i])),
    removed: plan.removed.map((p) => describeKey(entries[p]!.key)),
    deletedByHand: plan.deletedByHand.map((i) => ({ key: fresh.keys[i], label: describeKey(fresh.keys[i]) })),
    unknownRows: plan.unknown.map((p) => rangeA1(top + 1 + p, left, 1, cols)),
    edited: [],
    keptByEarlierChoice: 0,
    columnsAdded: layout.added,
    columnsNoLongerServed: layout.unserved,
  };
  const nextWritten: WrittenRow[] = [];
  const updates = new Map<number, RowUpdate>();
  for (const { position, newRow } of plan.kept) {
    const row = planKeptRow(record, answer, read, choice, report, position, newRow);
    if (row.update) updates.set(position, row.update);
    nextWritten.push({ locator: locatorOf(answer.rows[newRow], locCols), key: fresh.keys[newRow], ...row.written });
  }
  for (const i of plan.added)
    nextWritten.push({
      locator: locatorOf(answer.rows[i], locCols),
      key: fresh.keys[i],
      digest: rowDigest(answer.rows[i], read.newWidth),
      kept: [],
    });
  // Rows deleted by hand stay on record, so the next refresh does not add them back either.
  for (const i of plan.deletedByHand) {
    const old = [...written.values()].find((w) => w.key === fresh.keys[i]);
    // Its old locator may now be another row's (portfolio_index shifts): one that finds no row.
    if (old) nextWritten.push({ ...old, locator: `deleted:${old.key}` });
  }
  // A cell of the service's the analyst changed in a removed row is theirs too, kept with their
  // columns: the columns any removed row changed, blank in the rows that did not.
  const changedOf = plan.removed.map((p) => changedColumns(read.values[p], entries[p]!.digest, read.width));
  const theirs = [...new Set(changedOf.flat())].sort((a, b) => a - b);
  const removedLines = plan.removed
    .map((p, n) => ({
      key: describeKey(entries[p]!.key),
      cells: [
        ...theirs.map((c) => (changedOf[n].includes(c) ? read.values[p][c] : "")),
        ...(read.userFormulas[p + 1] ?? []),
      ],
    }))
    .filter((line) => line.cells.some((v) => v !== ""));
  const userHeader = [
    ...theirs.map((c) => message("sheet.removedBlock.yourValue", { column: record.header[c] })),
    ...(read.userFormulas[0] ?? []).map((h, i) => (h === "" ? `(column ${i + 1})` : String(h))),
  ];
  return {
    choice,
    report,
    updates,
    nextWritten,
    kinds: columnTextKinds(answer.rows, read.newWidth),
    removedLines,
    userHeader,
  };
}

/**
 * One kept row's plan: the cells whose shown value differs from the service's are written, unless
 * the analyst changed them (listed in `report`, kept by `choice`) or chose to keep them before.
 * Returns its span to write (none when nothing changes) and its next digest and kept columns.
 */
function planKeptRow(
  record: ProvenanceRecord,
  answer: LaidAnswer,
  read: KeyedTableRead,
  choice: EditChoice,
  report: KeyedRefreshReport,
  position: number,
  newRow: number,
): { update?: RowUpdate; written: { digest: string; kept: number[] } } {
  const { top, left, width, newWidth } = read;
  const entry = read.entries[position]!;
  const now = read.values[position];
  const service = answer.rows[newRow];
  // Most rows of a refresh show what was written and change in no cell: the sets, map and span
  // below are made only when a row needs them (a Set, a Map and an array a row were 65 MB of
  // garbage over the weekly refresh's 55,000 kept rows).
  const editedList = changedColumns(now, entry.digest, width);
  const edited = editedList.length > 0 ? new Set(editedList) : undefined;
  const kept = entry.kept.length > 0 ? new Set(entry.kept) : undefined;
  let keptAdded: number[] | undefined; // columns kept by this refresh's choice ("keep-mine")
  let writtenCells: Map<number, CellValue> | undefined; // columns whose record changes: what was written
  let out: CellValue[] | undefined; // the cells to write, null where none
  let changes = 0;
  for (let c = 0; c < newWidth; c++) {
    // A column no longer served is left as it is, its record too.
    if (answer.unserved.has(c)) continue;
    // A new column is blank when inserted; past the data columns `now` holds the analyst's.
    const shown = c < width ? now[c] : "";
    // The cell already shows the service's value: nothing to write, and nothing to ask.
    if (service[c] === shown) {
      kept?.delete(c);
      if (edited?.has(c)) (writtenCells ??= new Map()).set(c, service[c]);
      continue;
    }
    let write = true;
    if (kept?.has(c)) {
      report.keptByEarlierChoice++;
      write = false;
    } else if (edited?.has(c)) {
      report.edited.push({
        address: rangeA1(top + 1 + position, left + c, 1, 1),
        key: describeKey(entry.key),
        column: record.header[c],
        mine: shown,
        service: service[c],
      });
      if (choice === "keep-mine") (keptAdded ??= []).push(c);
      // Kept and asked ("ask") or kept for good: the record keeps what was written before.
      write = choice === "take-service";
    }
    if (write) {
      (writtenCells ??= new Map()).set(c, service[c]);
      (out ??= new Array<CellValue>(newWidth).fill(null as unknown as CellValue))[c] = service[c];
      changes++;
    }
  }
  const digest = replaceDigests(entry.digest, writtenCells ?? NO_CELLS, newWidth);
  report.cellsChanged += changes;
  const keptNow = kept ? [...kept, ...(keptAdded ?? [])] : (keptAdded ?? []);
  const written = { digest, kept: keptNow.sort((a, b) => a - b) };
  if (out === undefined) return { written };
  // Only the span of changed cells: a shifted portfolio_index writes one cell, not the row.
  let first = 0;
  let last = newWidth - 1;
  while (out[first] === null) first++;
  while (out[last] === null) last--;
  return { update: { first, values: out.slice(first, last + 1) }, written };
}

/** No cell whose record changes (a row that changes in no cell). */
const NO_CELLS: ReadonlyMap<number, CellValue> = new Map();

/** What the write phase has done so far, for its undo. */
interface KeyedWrites {
  /** Cells of kept rows as they were before they were written. */
  backups: Array<{ position: number; first: number; formulas: CellValue[][]; formats: CellValue[][] }>;
  /** Columns inserted, rows appended. */
  widened: number;
  appended: number;
  followed?: FollowedTable;
  /** Where the removed rows' block was written. */
  blockAt?: { row: number; rows: number; cols: number };
  /**
   * The lines of the record of what was written that the refresh rewrites in place, put back by
   * its undo (set before the first is sent: putting back a line never written changes nothing).
   */
  storeLines?: StoreLineChange[];
  /** The record's rows as written, with their lines. */
  nextWritten?: WrittenRow[];
  /** The provenance records before `recordAs` recorded the refresh. */
  provenanceBefore?: ProvenanceSnapshot;
  next?: ProvenanceRecord;
  /**
   * The removed rows' runs still to delete once the one request that deletes them was applied in
   * part (possibly none: its later operations still to send).
   */
  removalLeft?: Array<{ start: number; count: number }>;
}

/**
 * The write phase: everything that can be undone first (undone on failure), then the deletion of
 * removed rows, last, in one request; when that request was applied in part, the rest once more.
 */
async function writeKeyedRefresh(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  fresh: KeyedTable,
  options: KeyedRefreshOptions,
  answer: LaidAnswer,
  read: KeyedTableRead,
  cells: KeyedCellPlan,
): Promise<KeyedRefreshDone> {
  const { top, left, width, body, widen, plan } = read;
  const report = cells.report;
  const done: KeyedWrites = { backups: [], widened: 0, appended: 0 };
  const removed = [...plan.removed].sort((a, b) => a - b);
  const rows = body + plan.added.length - removed.length;
  // Written last in the request that deletes the removed rows: it applied whole if this is there.
  const stamp = `${(options.now ?? new Date()).toISOString()} ${Math.random().toString(36).slice(2, 10)}`;
  const queueRemoval = (bottomFirst: ReadonlyArray<{ start: number; count: number }>) =>
    queueRowRemoval(context, record, read, removed, done.appended, bottomFirst, stamp);
  try {
    await applyKeyedWrites(context, record, fresh, options, answer, read, cells, rows, done);
    // ---- remove rows the service no longer returns: Excel's own deletion, last, one request ----
    // (after the writes applyKeyedWrites left queued, the new record's last chunk and the
    // provenance: a request applies in order, so the refresh is on record before a row is deleted)
    queueRemoval(runs(removed).reverse());
    options.withLastRequest?.(context);
    try {
      await context.sync();
    } catch (error) {
      // Nothing of it applied (whatever of the provenance's writes were): undone below, like any
      // write. Its deletions applied in part: finished after.
      const left = await removalNotApplied(
        context,
        read.table,
        record.writtenStore!,
        stamp,
        body + done.appended,
        runs(removed),
      );
      if (left === undefined) throw error;
      done.removalLeft = left ?? undefined;
    }
  } catch (error) {
    await undoKeyedWrites(context, record, read, done, error);
    throw error;
  }

  // The request that deletes the removed rows failed part-way (the operations before the failing
  // one applied): the rest of it, once more. Nothing can be undone now.
  if (done.removalLeft) {
    queueRemoval([...done.removalLeft].reverse());
    try {
      await context.sync();
    } catch (error) {
      const left = done.removalLeft.reduce((n, run) => n + run.count, 0);
      throw new RefreshInterruptedError(record.sheetName, left, error);
    }
  }
  const blockAt = done.blockAt;
  if (blockAt) report.removedBlock = rangeA1(blockAt.row - removed.length, left, blockAt.rows, blockAt.cols);
  if (widen > 0) report.columnsAddedAt = rangeA1(top, left + width, rows + 1, widen);
  // As a read of the store gives it back (queueWrittenStoreParts): rows without a locator are none.
  const written = new Map(done.nextWritten!.filter((w) => w.locator !== "").map((w) => [w.locator, w]));
  return { report, record: done.next!, provenanceBefore: done.provenanceBefore, written };
}

/**
 * Everything of the write phase that can be undone, in order: new columns, changed cells of kept
 * rows (backed up first), new rows, what follows the table, the new columns' formats, the removed
 * rows' block, the new record of what was written and (`recordAs`) the provenance. Notes each step
 * in `done` as it is applied.
 */
async function applyKeyedWrites(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  fresh: KeyedTable,
  options: KeyedRefreshOptions,
  answer: LaidAnswer,
  read: KeyedTableRead,
  cells: KeyedCellPlan,
  rows: number,
  done: KeyedWrites,
): Promise<void> {
  const { sheet, table, top, left, cols, body, width, newWidth, widen, beside, plan } = read;
  const { layout, numberFormats } = answer;
  const { updates, kinds } = cells;
  const signal = options.signal;
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  // The table's columns (data and the analyst's inside it) once widened.
  const grown = cols + widen;
  signal?.throwIfAborted();
  // New columns first, at the right of the data columns over the table's rows: the analyst's
  // columns inside the table and beside it move right with their rows (references follow them).
  if (widen > 0) {
    sheet.getRangeByIndexes(top, left + width, body + 1, widen).insert("Right" as Excel.InsertShiftDirection);
    // Alone in its request: a refused insertion (another table in the way) must not be undone by
    // deleting cells that never moved.
    await context.sync();
    done.widened = widen;
    // Cells inserted at a table's right edge are not part of it (testing/fake-excel/model.ts shiftColumns).
    table.resize(rangeA1(top, left, body + 1, grown));
    const names = sheet.getRangeByIndexes(top, left + width, 1, widen);
    names.numberFormat = [layout.added.map(() => TEXT_FORMAT)];
    names.values = [layout.added];
    await context.sync();
  }
  // Cells of kept rows that change: back up, then write; consecutive rows of the same span together,
  // every group's backup read in as few requests as their answers allow (not two per group).
  const positions = [...updates.keys()].sort((a, b) => a - b);
  const groups = spans(positions, (p) => updates.get(p)!);
  // The provenance as it is before the writes goes with the backups' first request (a round trip
  // fewer): nothing below writes a store or adds a sheet before the new record of what was written.
  const snapshot = options.recordAs ? queueProvenanceSnapshot(context, read.sheets) : undefined;
  const backupBlocks = groups.map((g) => ({
    sheet,
    row: top + 1 + g.start,
    col: left + g.first,
    rows: g.count,
    cols: g.width,
    properties: ["formulas", "numberFormat"] as const,
    bytesPerCell: BACKUP_CELL_BYTES,
  }));
  // The analyst's cells of rows to remove, as they are now, for the block that keeps them: read
  // with the backups to find what was typed since the read (the columns of formulas are not
  // compared, so those a widening moved need not be told apart).
  const userCols = read.userFormulas[0]?.length ?? 0;
  const removedRuns = userCols > 0 ? runs([...plan.removed].sort((a, b) => a - b)) : [];
  const removedBlocks = removedRuns.map((run) => ({
    sheet,
    row: top + 1 + run.start,
    col: left + newWidth,
    rows: run.count,
    cols: userCols,
    properties: ["formulas"] as const,
    bytesPerCell: 2 * BACKUP_CELL_BYTES,
  }));
  const blocks = [...backupBlocks, ...removedBlocks];
  // What is left of the first request's answer goes to the caller's reads (withBackups).
  const backupBytes = blocks.reduce((n, b) => n + b.rows * b.cols * 2 * BACKUP_CELL_BYTES, 0);
  const room = READ_TARGET_BYTES - backupBytes;
  const riding = groups.length > 0 && options.withBackups !== undefined && room >= READ_TARGET_BYTES / 4;
  if (riding) options.withBackups!(context, room);
  let backups: Awaited<ReturnType<typeof readBlocks>>;
  try {
    backups = await readBlocks(context, blocks, riding ? { firstBytes: backupBytes } : {});
  } catch (error) {
    if (!riding) throw error;
    // A read of the caller's refused (a sheet gone): the backups alone, as without them.
    backups = await readBlocks(context, blocks);
  }
  read.hiddenBelow = await read.readHidden();
  // The plan was made from the read; the analyst may have typed into a cell it writes since (while
  // it planned, or an earlier sheet's requests ran). The backups are those cells as they are now:
  // one that differs from the read would be written over unasked, so the sheet is left whole.
  const typed = [
    ...typedSinceRead(read, groups, backups, updates),
    ...removedRuns.flatMap((run, i) => typedBeside(read, run, userCols, backups[groups.length + i].formulas!)),
  ];
  if (typed.length > 0)
    throw new PastedSheetChangedError(
      message("excel.refresh.typedDuring", {
        sheet: record.sheetName,
        count: typed.length,
        cells: typed.slice(0, MAX_LISTED_CELLS).join(", ") + (typed.length > MAX_LISTED_CELLS ? ", …" : ""),
      }),
    );
  groups.forEach((group, i) =>
    done.backups.push({
      position: group.start,
      first: group.first,
      formulas: backups[i].formulas!,
      formats: backups[i].numberFormat!,
    }),
  );
  // The last chunk of the cells, when small, is left queued for a later request (a round trip
  // fewer): every request below is undone alike. `waiting` bytes of writes so queued, at most.
  let waiting = await writeRows(
    context,
    sheet,
    positions.map((p) => ({ row: top + 1 + p, first: updates.get(p)!.first, values: updates.get(p)!.values })),
    left,
    { kinds, numberFormats },
    maxBytes,
    signal,
  );
  signal?.throwIfAborted();
  // New rows at the end: insert across the table and the columns beside it, grow the table, write.
  if (plan.added.length > 0) {
    const bottom = top + 1 + body;
    sheet
      .getRangeByIndexes(bottom, left, plan.added.length, grown + beside)
      .insert("Down" as Excel.InsertShiftDirection);
    table.resize(rangeA1(top, left, body + 1 + plan.added.length, grown));
    await context.sync();
    done.appended = plan.added.length;
    waiting = await writeRows(
      context,
      sheet,
      plan.added.map((i, n) => ({ row: bottom + n, first: 0, values: answer.rows[i] })),
      left,
      { kinds, numberFormats },
      maxBytes,
      signal,
    );
    options.onProgress?.(fresh.rows.length, fresh.rows.length);
  }
  // Excel does not grow a colour rule or a chart series over rows added below their range, nor a
  // series over a row to the last data column when columns are inserted right of it: the ones
  // over whole columns of the table, and rows to its last data column, follow it (table-followers.ts).
  if (done.appended > 0 || done.widened > 0)
    done.followed = await followTable(context, sheet, {
      row: top,
      col: left,
      oldBody: body,
      newBody: body + done.appended,
      oldCols: grown,
      newCols: grown,
      columnOf: (c) => c,
      oldLastData: width - 1,
      newLastData: newWidth - 1,
    });
  // New columns get what the first paste gives such columns: label colours, a score scale (the
  // number formats were written with their cells). Over the rows there are once rows are added;
  // Excel shrinks a rule's range with the rows deleted below, and drops it with its columns if
  // the widening is undone.
  if (done.widened > 0) {
    formatNewColumns(sheet, fresh.formats, layout.from.slice(width), top + 1, left + width, body + done.appended);
    await context.sync();
  }
  signal?.throwIfAborted();
  // The removed rows' analyst cells, below everything on the sheet.
  if (cells.removedLines.length > 0)
    done.blockAt = await writeRemovedBlock(context, sheet, left, cells.userHeader, cells.removedLines, options.now);
  signal?.throwIfAborted();
  const provenanceBefore = snapshot ? await snapshot() : undefined;
  // The record of what was written, rewritten in place where it changes: tens of lines in a weekly
  // refresh, where a new record would weigh 4 MB for a table of 5,000 rows and add a sheet (which a
  // workbook whose structure is protected refuses). Its last chunk, when small, goes with the
  // removal's request (writeKeyedRefresh); every line is put back when any request fails.
  const lines = planStoreLines(read.written, cells.nextWritten);
  done.storeLines = lines.changes;
  done.nextWritten = lines.next;
  await writeStoreLines(context, storeOf(context, record), lines.changes, "after", maxBytes, {
    lastChunkMayWait: true,
    queuedBytes: waiting,
  });
  signal?.throwIfAborted();
  done.next = refreshedRecord(record, fresh, answer, read, cells, rows, options.now);
  if (options.recordAs && provenanceBefore) {
    done.provenanceBefore = provenanceBefore;
    const next = [options.recordAs(done.next)];
    // Queued to go first in the removal's request (writeKeyedRefresh), a round trip fewer: it is on
    // record before any row is deleted, and put back with the rest when that request fails before
    // deleting anything.
    if (provenanceBefore.reading) await queueRecordProvenance(context, next, provenanceBefore.reading);
    else await recordProvenance(context, next, provenanceBefore);
  }
  signal?.throwIfAborted();
}

/** The table's provenance record once refreshed (pure). */
function refreshedRecord(
  record: ProvenanceRecord,
  fresh: KeyedTable,
  answer: LaidAnswer,
  read: KeyedTableRead,
  cells: KeyedCellPlan,
  rows: number,
  now: Date | undefined,
): ProvenanceRecord {
  const { layout, rowKey } = answer;
  const { choice, report } = cells;
  return {
    ...record,
    rows,
    header: layout.header,
    tableAddress: rangeA1(read.top, read.left, rows + 1, read.newWidth),
    writtenAt: utcNow(now),
    // A keyed table is checked against the record of what was written, not this positional
    // fingerprint; it stays the paste's (computing it for 1.2 million cells costs a fifth of a second).
    fingerprint: record.fingerprint,
    staticCopyAt: undefined,
    rowKey: {
      asset: rowKey.asset,
      columns: rowKey.columns,
      ...(fresh.assetKind ? { assetKind: fresh.assetKind } : {}),
    },
    pendingEdits: choice === "ask" ? report.edited.length : 0,
    unservedColumns: layout.unserved.length > 0 ? layout.unserved : undefined,
    ...(choice !== "ask" && report.edited.length > 0
      ? { editChoice: { choice, cells: report.edited.length, at: utcNow(now) } }
      : {}),
  };
}

/**
 * Queues the one request that cannot be undone: the removed rows' runs (bottom run first, so the
 * rows above keep their places), each hidden row's state moved up with it (the sheet rows it moved
 * from, down to the table's last row before the deletion, shown, the rows it moved to hidden),
 * and the stamp in the record of what was written that says the request applied whole, last.
 */
function queueRowRemoval(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  read: KeyedTableRead,
  removed: readonly number[],
  appended: number,
  bottomFirst: ReadonlyArray<{ start: number; count: number }>,
  stamp: string,
): void {
  const { sheet, top, left, body, hiddenBelow } = read;
  const grown = read.cols + read.widen;
  for (const run of bottomFirst)
    sheet
      .getRangeByIndexes(top + 1 + run.start, left, run.count, grown + read.beside)
      .delete("Up" as Excel.DeleteShiftDirection);
  if (hiddenBelow.length > 0) {
    const from = removed[0];
    sheet.getRangeByIndexes(top + 1 + from, 0, body + appended - from, 1).rowHidden = false;
    const gone = new Set(removed);
    for (const position of hiddenBelow) {
      if (gone.has(position)) continue;
      const above = removed.filter((p) => p < position).length;
      sheet.getRangeByIndexes(top + 1 + position - above, 0, 1, 1).rowHidden = true;
    }
  }
  queueStoreStamp(storeOf(context, record), stamp);
}

/** The table's record of what was written (its store sheet, known to exist: the read found it). */
function storeOf(context: Excel.RequestContext, record: ProvenanceRecord): Excel.Worksheet {
  return context.workbook.worksheets.getItem(record.writtenStore!);
}

/**
 * Undoes what `done` says the write phase applied (provenance put back, record's lines put back, the
 * table's followers restored, block cleared, rows deleted again, cells written back, columns
 * removed), in one request. Throws IncompleteRestoreError when that fails.
 */
async function undoKeyedWrites(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  read: KeyedTableRead,
  done: KeyedWrites,
  error: unknown,
): Promise<void> {
  const { sheet, table, top, left, cols, body, width } = read;
  const grown = cols + read.widen;
  try {
    if (done.provenanceBefore) await restoreProvenance(context, done.provenanceBefore);
    // Its own requests, as many as writing them took; the last with the rest.
    if (done.storeLines)
      await writeStoreLines(context, storeOf(context, record), done.storeLines, "before", undefined, {
        lastChunkMayWait: true,
      });
    done.followed?.restore();
    const blockAt = done.blockAt;
    if (blockAt)
      sheet.getRangeByIndexes(blockAt.row, left, blockAt.rows, blockAt.cols).clear("All" as Excel.ClearApplyTo);
    if (done.appended > 0) {
      sheet
        .getRangeByIndexes(top + 1 + body, left, done.appended, grown + read.beside)
        .delete("Up" as Excel.DeleteShiftDirection);
    }
    for (const b of done.backups) {
      const target = sheet.getRangeByIndexes(
        top + 1 + b.position,
        left + b.first,
        b.formulas.length,
        b.formulas[0].length,
      );
      target.numberFormat = b.formats as string[][];
      target.formulas = b.formulas;
    }
    if (done.widened > 0) {
      // The inserted columns go again; the table shrinks with them, the analyst's cells come back.
      sheet.getRangeByIndexes(top, left + width, body + 1, done.widened).delete("Left" as Excel.DeleteShiftDirection);
      table.resize(rangeA1(top, left, body + 1, cols));
    }
    await context.sync();
  } catch (restoreError) {
    throw new IncompleteRestoreError(error, record.sheetName, restoreError);
  }
}

/**
 * What of the request that deletes the removed rows (their runs, bottom first, the hidden rows'
 * states, then the record's stamp) was applied when its sync failed: undefined when nothing was
 * (no stamp, and the table has all its rows), null when all of it was (the stamp is there: only
 * its answer was lost), else the runs still to delete, which the request's later operations
 * follow. Operations apply in order.
 */
async function removalNotApplied(
  context: Excel.RequestContext,
  table: Excel.Table,
  storeName: string,
  stamp: string,
  bodyBefore: number,
  topFirst: ReadonlyArray<{ start: number; count: number }>,
): Promise<Array<{ start: number; count: number }> | null | undefined> {
  const range = table.getRange();
  range.load("rowCount");
  const stamped = readStoreStamp(context.workbook.worksheets.getItem(storeName));
  await context.sync();
  if (stamped() === stamp) return null;
  let deleted = bodyBefore - (range.rowCount - 1);
  if (deleted === 0) return undefined;
  // Bottom runs first: the runs left are the top ones.
  const left = [...topFirst];
  while (deleted > 0 && left.length > 0) deleted -= left.pop()!.count;
  return left;
}

/**
 * The request that deletes the removed rows failed part-way, twice, and a deletion cannot be
 * undone: the table is refreshed and on record, but `rowsLeft` rows the service no longer returns
 * may still be in it, and rows the analyst hid may not have moved with their row.
 */
export class RefreshInterruptedError extends MessageError {
  constructor(
    sheetName: string,
    readonly rowsLeft: number,
    override readonly cause: unknown,
  ) {
    super(
      message("excel.refresh.interrupted", {
        sheet: sheetName,
        reason: reasonOf(cause),
        rowsLeft,
      }),
    );
    this.name = "RefreshInterruptedError";
  }
}

/**
 * Keeps what the analyst's columns held for rows a refresh removes: as text (a formula as they
 * wrote it, not re-evaluated elsewhere), in a block titled "Removed at refresh on …" two rows below
 * everything on the sheet, one line per row with its key. Returns where (0-based row, size).
 */
export async function writeRemovedBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  left: number,
  userHeader: ReadonlyArray<string | Message>,
  lines: ReadonlyArray<{ key: string; cells: readonly CellValue[] }>,
  now?: Date,
): Promise<{ row: number; rows: number; cols: number }> {
  const used = sheet.getUsedRange(true);
  used.load("rowIndex, rowCount");
  await context.sync();
  const row = used.rowIndex + used.rowCount + 2;
  // A note for the reader, in the pane's language: nothing finds the block by its words.
  const words = await sheetWords();
  const title = words(message("sheet.removedBlock.title", { time: utcNow(now) }));
  const block: CellValue[][] = [
    [title, ...userHeader.map(() => "")],
    ["key", ...userHeader.map((h) => (typeof h === "string" ? h : words(h)))],
    ...lines.map((line) => [line.key, ...line.cells]),
  ];
  const target = sheet.getRangeByIndexes(row, left, block.length, block[0].length);
  target.numberFormat = block.map((line) => line.map(() => TEXT_FORMAT));
  target.values = block;
  sheet.getRangeByIndexes(row, left, 2, block[0].length).format.font.bold = true;
  try {
    await context.sync();
  } catch (error) {
    // Applied in part (its formats, not its values): the cells were empty, below everything.
    target.clear("All" as Excel.ClearApplyTo);
    await context.sync();
    throw error;
  }
  return { row, rows: block.length, cols: block[0].length };
}

/** Rows of a block at most this tall are read one by one when some of them are hidden. */
const HIDDEN_BLOCK = 256;

/**
 * The body positions from `from` to `body` (exclusive) whose sheet rows are hidden, the body's
 * first row being 0-based sheet row `first`. Range.rowHidden is true when every row of a range is
 * hidden, false when none is and null when some are: the whole span first, queued to go with the
 * caller's next request (none of its own when nothing is hidden), then blocks, then the rows of the
 * blocks that are mixed.
 */
function queueHiddenRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  first: number,
  from: number,
  body: number,
): () => Promise<number[]> {
  const span = (start: number, count: number) => {
    const range = sheet.getRangeByIndexes(first + start, 0, count, 1);
    range.load("rowHidden");
    return { start, count, range };
  };
  const whole = queueRead(context, () => {
    const range = span(from, body - from).range;
    return () => range.rowHidden;
  });
  return async () => ((await whole()) === false ? [] : hiddenRowsIn(context, span, from, body));
}

/** {@link queueHiddenRows} once the whole span said some rows are hidden: by blocks, then rows. */
async function hiddenRowsIn(
  context: Excel.RequestContext,
  span: (start: number, count: number) => { start: number; count: number; range: Excel.Range },
  from: number,
  body: number,
): Promise<number[]> {
  const blocks: Array<ReturnType<typeof span>> = [];
  for (let start = from; start < body; start += HIDDEN_BLOCK)
    blocks.push(span(start, Math.min(HIDDEN_BLOCK, body - start)));
  await context.sync();
  const hidden: number[] = [];
  const rows: Array<ReturnType<typeof span>> = [];
  for (const block of blocks) {
    if (block.range.rowHidden === true) for (let p = block.start; p < block.start + block.count; p++) hidden.push(p);
    else if (block.range.rowHidden === null)
      for (let p = block.start; p < block.start + block.count; p++) rows.push(span(p, 1));
  }
  if (rows.length > 0) await context.sync();
  for (const row of rows) if (row.range.rowHidden === true) hidden.push(row.start);
  return hidden.sort((a, b) => a - b);
}

/** Runs of consecutive numbers in an ascending list. */
export function runs(sorted: readonly number[]): Array<{ start: number; count: number }> {
  const out: Array<{ start: number; count: number }> = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && last.start + last.count === n) last.count++;
    else out.push({ start: n, count: 1 });
  }
  return out;
}

/** A cell's `formulas` entry holds a formula (not a constant, which it gives as its value). */
function isFormula(cell: CellValue): boolean {
  return typeof cell === "string" && cell.startsWith("=");
}

/** At most this many cells typed during a refresh are named in its message (the count says the rest). */
const MAX_LISTED_CELLS = 5;

/**
 * The addresses of the cells the refresh writes whose backup (their formulas now) differs from the
 * values the read found. A cell without a formula gives its value as its formula ("If a cell has no
 * formula, its value is returned instead", Excel.Range.formulas), so a constant compares as read; a
 * formula's result is not in its backup, and a cell holding one is not compared (the read saw its
 * result, which the plan already weighed).
 */
function typedSinceRead(
  read: KeyedTableRead,
  groups: ReadonlyArray<{ start: number; count: number; first: number; width: number }>,
  backups: ReadonlyArray<{ formulas?: CellValue[][] }>,
  updates: ReadonlyMap<number, RowUpdate>,
): string[] {
  const { top, left, width } = read;
  const typed: string[] = [];
  groups.forEach((group, i) => {
    const formulas = backups[i].formulas!;
    for (let r = 0; r < group.count; r++) {
      const position = group.start + r;
      const { first, values } = updates.get(position)!;
      const now = read.values[position];
      for (let c = 0; c < values.length; c++) {
        const cell = formulas[r][c];
        if (values[c] === null || isFormula(cell)) continue;
        // A column added by this refresh was inserted blank just now.
        const wasRead = first + c < width ? now[first + c] : "";
        if (cell !== wasRead) typed.push(rangeA1(top + 1 + position, left + first + c, 1, 1));
      }
    }
  });
  return typed;
}

/**
 * The addresses (where the read found them, and a failed refresh leaves them) of the analyst's
 * cells of a run of rows to remove whose formulas now (`now`) differ from the read's. Formulas are
 * not compared: a widening since the read rewrote references to the cells it moved.
 */
function typedBeside(
  read: KeyedTableRead,
  run: { start: number; count: number },
  userCols: number,
  now: readonly CellValue[][],
): string[] {
  const typed: string[] = [];
  for (let r = 0; r < run.count; r++) {
    const before = read.userFormulas[run.start + r + 1];
    for (let c = 0; c < userCols; c++)
      if (!isFormula(before[c]) && !isFormula(now[r][c]) && now[r][c] !== before[c])
        typed.push(rangeA1(read.top + 1 + run.start + r, read.left + read.width + c, 1, 1));
  }
  return typed;
}

/** Consecutive positions whose spans are the same, as groups (start, count, first column, width). */
function spans(
  sorted: readonly number[],
  spanOf: (position: number) => { first: number; values: readonly CellValue[] },
): Array<{ start: number; count: number; first: number; width: number }> {
  const out: Array<{ start: number; count: number; first: number; width: number }> = [];
  for (const p of sorted) {
    const { first, values } = spanOf(p);
    const last = out[out.length - 1];
    if (last && last.start + last.count === p && last.first === first && last.width === values.length) last.count++;
    else out.push({ start: p, count: 1, first, width: values.length });
  }
  return out;
}

/**
 * Writes rows (a null cell is left as it is) at their sheet rows from data column `first` of the
 * table (at sheet column `left`), consecutive rows of the same span together, in requests under the
 * budget. Text cells get the text format; numeric columns keep the analyst's number format. A last
 * request of at most a quarter of the budget is left queued for the caller's next one: answers its
 * bytes (0 when every request was sent).
 */
async function writeRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  rows: ReadonlyArray<{ row: number; first: number; values: CellValue[] }>,
  left: number,
  columns: { kinds: ReturnType<typeof columnTextKinds>; numberFormats: ReadonlyArray<string | undefined> },
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (rows.length === 0) return 0;
  const { kinds, numberFormats } = columns;
  // A column with no text keeps its cells' formats, unless the paste gives its numbers one.
  const formatOf = (v: CellValue | null, c: number): string | null =>
    v === null
      ? null
      : typeof v === "string" && v !== ""
        ? TEXT_FORMAT
        : (numberFormats[c] ?? (kinds[c] === "none" ? null : "General"));
  const formats = rows.map((r) => r.values.map((v, c) => formatOf(v, r.first + c)));
  const chunks = planRowChunks(
    rows.map((r, i) => rowBytes(r.values, formats[i])),
    maxBytes - OPERATION_OVERHEAD_BYTES * 4,
    OPERATION_OVERHEAD_BYTES * 4,
  );
  const last = chunks[chunks.length - 1];
  for (const chunk of chunks) {
    signal?.throwIfAborted();
    // Consecutive sheet rows in a chunk share one range.
    let i = chunk.start;
    while (i < chunk.end) {
      let j = i + 1;
      while (
        j < chunk.end &&
        rows[j].row === rows[j - 1].row + 1 &&
        rows[j].first === rows[i].first &&
        rows[j].values.length === rows[i].values.length
      )
        j++;
      const target = sheet.getRangeByIndexes(rows[i].row, left + rows[i].first, j - i, rows[i].values.length);
      target.numberFormat = formats.slice(i, j) as string[][];
      target.values = rows.slice(i, j).map((r) => r.values);
      i = j;
    }
    // The last chunk, at most a quarter of the budget, waits for the caller's next request.
    if (chunk === last && last.bytes <= maxBytes / 4) return last.bytes;
    await context.sync();
  }
  return 0;
}

/**
 * Gives columns a refresh inserted (`sources`: each one's column in the answer, whose `formats`
 * say how the first paste formats it) the first paste's conditional formats, over `rows` rows
 * from 0-based sheet row `top` and column `left`.
 */
function formatNewColumns(
  sheet: Excel.Worksheet,
  formats: ColumnFormats | undefined,
  sources: readonly number[],
  top: number,
  left: number,
  rows: number,
): void {
  if (!formats || rows <= 0) return;
  sources.forEach((source, i) => {
    const column = () => sheet.getRangeByIndexes(top, left + i, rows, 1);
    if (formats.labelColumns?.includes(source)) addLabelColours(column());
    if (formats.scoreColumns?.includes(source)) addScoreScale(column());
  });
}

/**
 * Sorts a pasted table again by its own sort (Table.sort.reapply, ExcelApi 1.2), for the rows a
 * refresh added at the end. A table the analyst never sorted is left as it is.
 */
export async function sortPastedTableAgain(context: Excel.RequestContext, record: ProvenanceRecord): Promise<void> {
  const { table } = await findPastedTable(context, record);
  table.sort.reapply();
  await context.sync();
}

/** The keys of a keyed pasted table's rows where they are now, for comparing by key ("what changed"). */
export interface TableRowKeys {
  /** 0-based first column of the table and its data header (the add-in's columns). */
  left: number;
  header: string[];
  /** 0-based sheet row → the row's key, for the rows the add-in wrote. */
  keys: Map<number, string>;
  /**
   * 0-based sheet row → what the table's first column holds there (read with the keys: a mirror's
   * rows find their asset by it, formula-followers.ts), for the same rows.
   */
  firstColumn: Map<number, CellValue>;
  /** The table's record of what was written, by locator, as read (or as known: `written`). */
  written: Map<string, WrittenRow>;
}

/**
 * Where each row of a keyed pasted table is now, by key (through the record of what was written),
 * or null when the table is not keyed or is gone. Changes nothing.
 */
export async function readTableRowKeys(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
): Promise<TableRowKeys | null> {
  const reading = queueTableRowKeys(context, record);
  await context.sync();
  reading.located();
  await context.sync();
  const block = reading.block();
  if (!block) return null;
  const values = await readBlock(context, block.sheet, block.row, block.col, block.rows, block.cols, "values");
  return reading.keysOf(values);
}

/** {@link queueTableRowKeys} of a table refreshed just now (`justWritten`). */
function queueWrittenTableRowKeys(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  columns: readonly number[],
  width: number,
  written: Map<string, WrittenRow> | undefined,
): ReturnType<typeof queueTableRowKeys> {
  const sheet = context.workbook.worksheets.getItem(record.sheetId);
  const placeRead = queueRead(context, () => {
    const range = context.workbook.tables.getItem(record.tableName).getRange();
    range.load("rowIndex, columnIndex, rowCount");
    return () => ({ row: range.rowIndex, col: range.columnIndex, rows: range.rowCount });
  });
  const writtenRead = written
    ? undefined
    : queueWrittenStoreParts(context, context.workbook.worksheets.getItem(record.writtenStore!));
  const at = parseA1(record.tableAddress);
  return {
    located() {},
    block: () => ({ sheet, row: at.row + 1, col: at.col, rows: at.rows - 1, cols: width }),
    rest: async () => writtenRead?.rest(),
    async keysOf(values, rest) {
      const place = await placeRead();
      if (place.row !== at.row || place.col !== at.col || place.rows !== at.rows)
        throw new MessageError(
          message("excel.refresh.notWhereLeft", {
            sheet: record.sheetName,
            range: rangeA1(place.row, place.col, place.rows, width),
            recorded: record.tableAddress,
          }),
        );
      const known = written ?? (await writtenRead!.complete(rest));
      return rowKeysOf(values, known, columns, at.row + 1, at.col, record.header);
    },
  };
}

/**
 * {@link readTableRowKeys} in steps that go with the caller's requests (a round trip fewer each):
 * the first asks are queued now; `located()`, once a request carried them, queues the next;
 * `block()`, once another did, gives the cells to read (the table's rows up to its last locator
 * column; null when the table is not keyed or is gone), the record of what was written queued to
 * go with their first read; `keysOf` their values, once read, gives the keys.
 */
export function queueTableRowKeys(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  options: {
    /**
     * The record of a table refreshed just now in this batch (its sheet, table and store are
     * there, at the address it records): nothing to locate, `block()` is known at once (its cells
     * may go with the caller's next request), and `keysOf` checks the table is where the record
     * says (an Error otherwise).
     */
    justWritten?: boolean;
    /**
     * With `justWritten`: the record of what was written as the refresh wrote it
     * (refreshTableByKey's `written`), which is then not read back (a round trip or two fewer).
     */
    written?: Map<string, WrittenRow>;
    /**
     * The sheet, table and record asked through `getItem` with the first asks, so `located()`
     * needs no request of its own (a round trip fewer): the request that carries them fails
     * (ItemNotFound) when one is gone, and the caller asks again without.
     */
    atOnce?: boolean;
  } = {},
): {
  located(): void;
  block(): { sheet: Excel.Worksheet; row: number; col: number; rows: number; cols: number } | null;
  /**
   * Once a request carried `block()`'s asks: the rest of the record of what was written, for the
   * caller to read with its cells (undefined: none to read).
   */
  rest(): Promise<CellBlock | undefined>;
  /** The keys, from the block's values and the record's rest as read (read here when not given). */
  keysOf(values: readonly CellValue[][], rest?: readonly CellValue[][]): Promise<TableRowKeys | null>;
} {
  const rowKey = record.rowKey;
  const keyed = rowKey && record.writtenStore ? rowKey : undefined;
  // Sent with the table's first asks: whether the record of what was written is still there.
  const atOnce = keyed && options.atOnce && !options.justWritten;
  const store = keyed
    ? atOnce
      ? context.workbook.worksheets.getItem(record.writtenStore!)
      : context.workbook.worksheets.getItemOrNullObject(record.writtenStore!)
    : undefined;
  const storeGone = () => !store || (!atOnce && store.isNullObject);
  const foundAtOnce = atOnce ? queueFindPastedTableAtOnce(context, record) : undefined;
  const finding = keyed && !atOnce ? queueFindPastedTable(context, record) : undefined;
  let located: (() => FoundPastedTable) | undefined = foundAtOnce;
  let found: FoundPastedTable | undefined;
  let writtenRead: WrittenStoreParts | undefined;
  // A table gone or changed has no keys to read (null), as when it is not keyed.
  const unlessChanged = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (error) {
      if (error instanceof PastedSheetChangedError) return undefined;
      throw error;
    }
  };
  const columns = keyed ? locatorColumns(keyed, record.header) : [];
  // Only as far as the last locator column: the rest of a wide table is not needed to find its rows.
  const width = columns.length > 0 && columns.every((c) => c >= 0) ? Math.max(...columns) + 1 : record.header.length;
  if (keyed && options.justWritten) return queueWrittenTableRowKeys(context, record, columns, width, options.written);
  return {
    located() {
      if (finding) located = unlessChanged(() => finding.located());
    },
    block() {
      found = located ? unlessChanged(located) : undefined;
      if (!found || storeGone()) return null;
      writtenRead = queueWrittenStoreParts(context, store!);
      const { sheet, range } = found;
      return { sheet, row: range.rowIndex + 1, col: range.columnIndex, rows: range.rowCount - 1, cols: width };
    },
    rest: async () => writtenRead?.rest(),
    async keysOf(values, rest) {
      if (!found || !writtenRead) return null;
      const { range } = found;
      const written = await writtenRead.complete(rest);
      return rowKeysOf(values, written, columns, range.rowIndex + 1, range.columnIndex, record.header);
    },
  };
}

/** The keys of a table's body rows (`values` from 0-based sheet row `top`), through the record of what was written. */
function rowKeysOf(
  values: readonly CellValue[][],
  written: Map<string, WrittenRow>,
  columns: readonly number[],
  top: number,
  left: number,
  header: readonly string[],
): TableRowKeys {
  const keys = new Map<number, string>();
  const firstColumn = new Map<number, CellValue>();
  values.forEach((row, i) => {
    const entry = written.get(locatorOf(row, columns));
    if (!entry) return;
    keys.set(top + i, entry.key);
    firstColumn.set(top + i, row[0] ?? "");
  });
  return { left, header: header.slice(), keys, firstColumn, written };
}
