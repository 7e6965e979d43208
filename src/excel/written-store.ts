/**
 * The record of what the add-in wrote into a pasted table, one very hidden sheet per table
 * (`_ClimateRiskWritten1`, `_ClimateRiskWritten2`, …, named in the table's provenance record
 * `writtenStore`), saved with the workbook. One row per table row written: its locator (the values
 * that find it again after a sort), its key, a 4-character digest per cell (src/shaping/keyed-diff.ts)
 * and the columns whose analyst's value is kept by choice. It costs the workbook about 4 bytes per
 * cell of the table plus the key (docs/workbook.md gives the measured figure); it holds no values,
 * so nothing the service sent is duplicated. The same kind of sheet records which asset each row of
 * the financial impact's losses sheet is about (locator: the row's place; digests: the analyst's
 * cells beside it), named in the data sheet's record `followers.store` (formula-followers.ts),
 * from the first paste on ({@link recordMirrorAssets}).
 */
import { locatorColumns, locatorOf, rowDigest, type WrittenRow } from "../shaping/keyed-diff";
import type { ProvenanceRecord } from "../shaping/paste-provenance";
import { RowKeyError, keyRows, type AssetFacts, type RowKeySpec } from "../shaping/row-keys";
import type { CellValue } from "../shaping/types";
import { TEXT_FORMAT } from "../shaping/safe-cells";
import {
  DEFAULT_MAX_REQUEST_BYTES,
  OPERATION_OVERHEAD_BYTES,
  planRowChunks,
  rowBytes,
  textRowBytes,
  estimateJsonBytes,
} from "./chunks";
import { READ_TARGET_BYTES, queueRead, readBlock, type CellBlock } from "./read-range";
import { addStoreSheet, deleteVeryHiddenSheet } from "./store-sheets";
import { message } from "../i18n/messages";

/** Prefix of the store sheets' names. */
export const WRITTEN_STORE_PREFIX = "_ClimateRiskWritten";
const HEADER = ["locator", "key", "digest", "kept"];
/** Rows of the record's first read: about 1 MB for a table of 248 columns (4 characters a cell). */
const FIRST_ROWS_READ = 1_000;

/**
 * About what the first read of a table's record weighs at most (its first 1,000 rows: 4 characters
 * a cell of `width` columns, with room for the locator and key), for a caller whose request carries it.
 */
export function firstReadBytes(width: number): number {
  return FIRST_ROWS_READ * (4 * width + 200);
}

/** {@link queueWrittenStoreParts}: the rest of a record to read after its first rows, and the rows once read. */
export interface WrittenStoreParts {
  /**
   * Once a request carried the first read (or on its own when none did): the rest of the record to
   * read, with what its cells weigh (as the first rows did), or undefined when the first read held all.
   */
  rest(): Promise<CellBlock | undefined>;
  /** The written rows by locator, given the rest's cells as the caller read them (else read here). */
  complete(rest?: readonly CellValue[][]): Promise<Map<string, WrittenRow>>;
}

/**
 * Queues the first read of a store sheet known to exist (its row count and first 1,000 rows), to
 * go with the caller's next request (a round trip fewer). Once that request was synced, `rest()`
 * gives the rest of the record to read (a 5,000-row record is over 5 MB, more than one answer may
 * carry), for the caller to pack with other cells in its own requests (readBlocks), and
 * `complete()` the written rows by locator (reading the rest itself, in slices near 4 MB, when the
 * caller did not). When the request that was to carry the first read failed and was asked again
 * without it (an answer over the limit), it is read anew, in slices.
 */
export function queueWrittenStoreParts(context: Excel.RequestContext, store: Excel.Worksheet): WrittenStoreParts {
  const queue = () => {
    const used = store.getUsedRangeOrNullObject(true);
    used.load("rowCount");
    const head = store.getRangeByIndexes(1, 0, FIRST_ROWS_READ, HEADER.length);
    head.load("values");
    return () => ({ total: used.isNullObject ? 0 : used.rowCount - 1, head: head.values as CellValue[][] });
  };
  // Read anew when the request that carried it failed (its answer over the limit): the first rows
  // in slices too, which alone may weigh more than one answer carries.
  const readAlone = async () => {
    const used = store.getUsedRangeOrNullObject(true);
    used.load("rowCount");
    await context.sync();
    const total = used.isNullObject ? 0 : used.rowCount - 1;
    const rows = Math.min(total, FIRST_ROWS_READ);
    const head = rows > 0 ? await readBlock(context, store, 1, 0, rows, HEADER.length, "values") : [];
    return { total, head };
  };
  const read = queueRead(context, queue, readAlone);
  let known: { first: CellValue[][]; rest?: CellBlock } | undefined;
  const rest = async () => {
    if (!known) {
      const { total, head } = await read();
      const first = head.slice(0, Math.max(0, total));
      known = { first };
      if (total > FIRST_ROWS_READ) {
        const bytesPerCell = Math.max(1, estimateJsonBytes(first) / (first.length * HEADER.length));
        known.rest = {
          sheet: store,
          row: 1 + FIRST_ROWS_READ,
          col: 0,
          rows: total - FIRST_ROWS_READ,
          cols: HEADER.length,
          properties: ["values"],
          bytesPerCell,
        };
      }
    }
    return known.rest;
  };
  return {
    rest,
    async complete(lines) {
      const block = await rest();
      // Slices sized by what the first rows weighed (readBlock), near READ_TARGET_BYTES each.
      const restLines =
        block && !lines
          ? await readBlock(
              context,
              store,
              block.row,
              0,
              block.rows,
              HEADER.length,
              "values",
              Math.max(1, Math.floor(READ_TARGET_BYTES / (block.bytesPerCell! * HEADER.length))),
            )
          : (lines ?? []);
      const out = new Map<string, WrittenRow>();
      [...known!.first, ...restLines].forEach((cells, line) => {
        if (cells[0] === "") return;
        const kept = String(cells[3] ?? "");
        out.set(String(cells[0]), {
          locator: String(cells[0]),
          key: String(cells[1] ?? ""),
          digest: String(cells[2] ?? ""),
          kept: kept === "" ? [] : kept.split(",").map(Number),
          line,
        });
      });
      return out;
    },
  };
}

/**
 * Writes `rows` to a new very hidden store sheet (a name no sheet has yet), in chunks under the
 * request budget, and returns its name. The caller deletes the old store once the refresh succeeded.
 * When a request fails, the sheet is deleted again if it was made (a request applied in part, or a
 * later chunk's), and the failure is thrown: a failed write leaves no store behind.
 */
export async function writeWrittenStore(
  context: Excel.RequestContext,
  rows: readonly WrittenRow[],
  maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES,
  sheetNames?: readonly string[],
  options: { lastChunkMayWait?: boolean; queuedBytes?: number } = {},
): Promise<string> {
  const taken = new Set((sheetNames ?? (await loadSheetNames(context))).map((name) => name.toLowerCase()));
  let n = 1;
  while (taken.has(`${WRITTEN_STORE_PREFIX}${n}`.toLowerCase())) n++;
  const name = `${WRITTEN_STORE_PREFIX}${n}`;
  const store = addStoreSheet(context, name);
  const lines: string[][] = [HEADER, ...rows.map(storeLine)];
  // Every line is four texts, each cell formatted as text: sized without building its JSON, which
  // was about half the cost of writing the record.
  // `queuedBytes`: writes the caller left queued, which go with the first chunk's request.
  const queued = options.queuedBytes ?? 0;
  const chunks = planRowChunks(
    lines.map((line) => textRowBytes(line) + FORMAT_ROW_BYTES),
    maxRequestBytes - queued - OPERATION_OVERHEAD_BYTES * 2,
    OPERATION_OVERHEAD_BYTES * 2,
  );
  // With `lastChunkMayWait`, a last chunk of at most half the budget (with what the caller queued,
  // when it is the first) is left queued to go with the caller's next request (a round trip
  // fewer), whose own writes must be small; the caller deletes the store when that request fails.
  const last = chunks[chunks.length - 1];
  const lastWaits =
    options.lastChunkMayWait === true &&
    last !== undefined &&
    last.bytes + (chunks.length === 1 ? queued : 0) <= maxRequestBytes / 2;
  try {
    for (const chunk of chunks) {
      const part = lines.slice(chunk.start, chunk.end);
      const range = store.getRangeByIndexes(chunk.start, 0, part.length, HEADER.length);
      range.numberFormat = part.map(() => FORMAT_ROW);
      range.values = part;
      if (chunk !== last || !lastWaits) await context.sync();
    }
  } catch (error) {
    await deleteWrittenStore(context, name);
    throw error;
  }
  return name;
}

/** One line of a store a refresh rewrites in place: what it holds after, and before (to undo). */
export interface StoreLineChange {
  /** 0-based, below the header. */
  line: number;
  after: string[];
  /** Undefined: past the store's last line before, cleared to undo. */
  before?: string[];
}

/** The lines of a store that a refresh changes, and its rows as they are once written. */
export interface StoreLinesPlan {
  changes: StoreLineChange[];
  /** `next` with each row's line. */
  next: WrittenRow[];
}

/** The four cells of a store line. */
function storeLine(row: WrittenRow): string[] {
  return [row.locator, row.key, row.digest, row.kept.join(",")];
}

/**
 * Whether two rows of one locator make the same store line, without building either: most rows of a
 * refresh do (15,000 lines of the weekly refresh's tables, compared at every refresh).
 */
function sameLine(a: WrittenRow, b: WrittenRow): boolean {
  if (a.key !== b.key || a.digest !== b.digest || a.kept.length !== b.kept.length) return false;
  for (let i = 0; i < a.kept.length; i++) if (String(a.kept[i]) !== String(b.kept[i])) return false;
  return true;
}

const BLANK_LINE: string[] = HEADER.map(() => "");

/**
 * Which lines of a store, as read (`before`, each row with its line), change for it to record
 * `next` (pure): a row whose locator is recorded keeps its line, rewritten only when its key, digest
 * or kept columns changed; a new row takes the line of one no longer recorded, else one past the
 * last; a line no row takes any more is blanked (a read skips it). Most rows of a weekly refresh
 * change in none, so a refresh writes tens of lines, not the whole record again. Lines past the
 * last recorded row count as free: a line without a locator is none (a read skips it too).
 */
export function planStoreLines(before: ReadonlyMap<string, WrittenRow>, next: readonly WrittenRow[]): StoreLinesPlan {
  const lineOf = new Map<number, WrittenRow>();
  for (const row of before.values()) {
    if (row.line === undefined) throw new Error(`The record's row ${row.locator} was not read from its store`);
    lineOf.set(row.line, row);
  }
  let end = 0;
  for (const line of lineOf.keys()) if (line >= end) end = line + 1;
  const taken = new Set(next.filter((r) => r.locator !== "").map((r) => r.locator));
  const free = [...lineOf.values()]
    .filter((r) => !taken.has(r.locator))
    .map((r) => r.line!)
    .sort((a, b) => b - a);
  let past = end;
  const changes = new Map<number, StoreLineChange>();
  const change = (line: number, after: string[]) => {
    const old = lineOf.get(line);
    changes.set(line, { line, after, ...(line < end ? { before: old ? storeLine(old) : BLANK_LINE } : {}) });
  };
  const placed = next.map((row) => {
    if (row.locator === "") return row;
    const old = before.get(row.locator);
    const line = old?.line ?? free.pop() ?? past++;
    if (!old || !sameLine(old, row)) change(line, storeLine(row));
    return { ...row, line };
  });
  for (const line of free) change(line, BLANK_LINE);
  return { changes: [...changes.values()].sort((a, b) => a.line - b.line), next: placed };
}

/**
 * Writes `changes` into the store sheet `store` (`"after"`), or puts back what they replaced
 * (`"before"`: a line that was past the last is cleared), each run of consecutive lines one range,
 * in chunks under the request budget. With `lastChunkMayWait`, a last chunk of at most half the
 * budget is left queued for the caller's next request (a round trip fewer). Does not undo itself:
 * the caller puts the lines back ("before") when this or a later request fails.
 */
export async function writeStoreLines(
  context: Excel.RequestContext,
  store: Excel.Worksheet,
  changes: readonly StoreLineChange[],
  side: "after" | "before",
  maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES,
  options: { lastChunkMayWait?: boolean; queuedBytes?: number } = {},
): Promise<void> {
  const queued = options.queuedBytes ?? 0;
  // Each line counted as its own range (at worst no two are consecutive).
  const chunks = planRowChunks(
    changes.map((c) => textRowBytes(c[side] ?? BLANK_LINE) + FORMAT_ROW_BYTES + OPERATION_OVERHEAD_BYTES * 2),
    maxRequestBytes - queued,
    0,
  );
  const last = chunks[chunks.length - 1];
  const lastWaits =
    options.lastChunkMayWait === true &&
    last !== undefined &&
    last.bytes + (chunks.length === 1 ? queued : 0) <= maxRequestBytes / 2;
  for (const chunk of chunks) {
    const part = changes.slice(chunk.start, chunk.end);
    // Lines cleared to undo go in runs of their own.
    const cleared = (c: StoreLineChange) => side === "before" && c.before === undefined;
    for (let i = 0; i < part.length;) {
      let j = i + 1;
      while (j < part.length && part[j].line === part[j - 1].line + 1 && cleared(part[j]) === cleared(part[i])) j++;
      const run = part.slice(i, j);
      const range = store.getRangeByIndexes(1 + run[0].line, 0, run.length, HEADER.length);
      if (cleared(run[0])) range.clear("All" as Excel.ClearApplyTo);
      else {
        range.numberFormat = run.map(() => FORMAT_ROW);
        range.values = run.map((c) => c[side] ?? BLANK_LINE);
      }
      i = j;
    }
    if (chunk !== last || !lastWaits) await context.sync();
  }
}

/** The store's cell past its header that says which refresh last finished writing it (E1). */
const STAMP_COLUMN = HEADER.length;

/**
 * Queues, as the last operation of a refresh's last request, the stamp that says it applied
 * whole: Excel applies a request's operations in order, so when a request failed part-way and its
 * stamp is there ({@link readStoreStamp}), everything before it applied.
 */
export function queueStoreStamp(store: Excel.Worksheet, stamp: string): void {
  const cell = store.getRangeByIndexes(0, STAMP_COLUMN, 1, 1);
  cell.numberFormat = [[TEXT_FORMAT]];
  cell.values = [[stamp]];
}

/** Queues the read of a store's stamp ({@link queueStoreStamp}): its text once synced. */
export function readStoreStamp(store: Excel.Worksheet): () => string {
  const cell = store.getRangeByIndexes(0, STAMP_COLUMN, 1, 1);
  cell.load("values");
  return () => String(cell.values[0][0] ?? "");
}

/** The workbook's sheet names (one round trip). */
async function loadSheetNames(context: Excel.RequestContext): Promise<string[]> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  return sheets.items.map((s) => s.name);
}

/** The number formats of one line of the record: every cell text. */
const FORMAT_ROW: string[] = HEADER.map(() => TEXT_FORMAT);
/** What {@link rowBytes} counts for {@link FORMAT_ROW}. */
const FORMAT_ROW_BYTES = rowBytes([], FORMAT_ROW) - rowBytes([], null);

/** Deletes a store sheet when it exists. */
export async function deleteWrittenStore(context: Excel.RequestContext, name: string | undefined): Promise<void> {
  if (!name) return;
  const sheet = context.workbook.worksheets.getItemOrNullObject(name);
  await context.sync();
  if (!sheet.isNullObject) deleteVeryHiddenSheet(sheet);
  await context.sync();
}

/** How a paste keys its rows: the kind's key, and the portfolio's assets when the table lacks coordinates. */
export interface RowKeying {
  spec: RowKeySpec;
  assets?: readonly AssetFacts[];
}

/** What a write records about its keys: the key and its store, or why the rows could not be keyed. */
export type KeyedRecordFields = Pick<ProvenanceRecord, "rowKey" | "writtenStore" | "rowKeyProblem">;

/**
 * Keys the rows a paste wrote and writes the record of what was written to a new store sheet.
 * Rows that cannot be keyed (assets that collide) are no reason to refuse the paste: the record
 * then says why (`rowKeyProblem`), and a refresh says so too.
 */
export async function recordWrittenRows(
  context: Excel.RequestContext,
  keying: RowKeying,
  header: readonly string[],
  rows: readonly (readonly CellValue[])[],
  maxRequestBytes?: number,
  digests?: readonly string[],
): Promise<KeyedRecordFields> {
  let keyed;
  const columns = locatorColumns(keying.spec, header);
  try {
    // Streamed rows come as their leading cells with their digests: the key must lie within them.
    const width = digests ? rows.reduce((w, r) => Math.min(w, r.length), header.length) : header.length;
    const needed = [...columns, ...keying.spec.columns.map((n) => header.indexOf(n))];
    if (needed.some((c) => c >= width)) throw new RowKeyError(message("excel.rowKey.columnsPastWidth", { width }));
    keyed = keyRows(keying.spec, header, rows, keying.assets);
  } catch (error) {
    if (error instanceof RowKeyError) return { rowKeyProblem: error.message };
    throw error;
  }
  const written = rows.map((row, i) => ({
    locator: locatorOf(row, columns),
    key: keyed.keys[i],
    digest: digests ? digests[i] : rowDigest(row, header.length),
    kept: [],
  }));
  const writtenStore = await writeWrittenStore(context, written, maxRequestBytes);
  const rowKey = {
    asset: keying.spec.asset,
    columns: [...keying.spec.columns],
    ...(keyed.assetKind ? { assetKind: keyed.assetKind } : {}),
  };
  return { rowKey, writtenStore };
}

/**
 * At a paste, the record of which asset each row of a mirror table is about (the financial impact's
 * losses sheet over its data sheet, src/excel/formula-followers.ts), as a refresh writes it: mirror
 * row n (locator `n`) holds in its first column the lookup key of a row of the keyed table (what
 * that row's first column holds), whose asset key it records; no cells of the analyst's beside it
 * yet (an empty digest reads as empty cells). So the first refresh tells notes moved by a sort of
 * the mirror from notes typed beside it, as later refreshes do. Undefined when the keyed table's
 * rows cannot be keyed (the paste then records why) or a mirror row's lookup is not one of them.
 */
export async function recordMirrorAssets(
  context: Excel.RequestContext,
  keying: RowKeying,
  header: readonly string[],
  rows: readonly (readonly CellValue[])[],
  mirrorRows: readonly (readonly CellValue[])[],
  maxRequestBytes?: number,
): Promise<string | undefined> {
  let keys: readonly string[];
  try {
    keys = keyRows(keying.spec, header, rows, keying.assets).keys;
  } catch (error) {
    if (error instanceof RowKeyError) return undefined;
    throw error;
  }
  const keyOf = new Map(rows.map((row, i) => [String(row[0] ?? ""), keys[i]]));
  const owners = mirrorRows.map((row) => keyOf.get(String(row[0] ?? "")));
  if (owners.some((key) => key === undefined)) return undefined;
  return writeWrittenStore(
    context,
    owners.map((key, n) => ({ locator: String(n), key: key!, digest: "", kept: [] })),
    maxRequestBytes,
  );
}
