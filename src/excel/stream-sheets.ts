/**
 * Streaming pastes: rows are written while later pages are still being read, and the result is
 * still whole or absent. Each sheet is added hidden under a temporary name; rows are buffered and
 * written in chunks that keep every request under the 5 MB limit (planned with ./chunks); while a
 * chunk's `context.sync()` is under way the reader keeps its pages in flight, so reading and
 * writing overlap. Only {@link StreamingSheets.finish} makes the tables, renames each sheet into
 * place (a unique name chosen then) and shows it; a failure or Cancel deletes every sheet this
 * writer added. Sheets that existed before are never touched.
 *
 * Unlike writeSheets.ts (whole tables known up front) the columns may grow while rows arrive
 * (e.g. a year first seen on page 7): each chunk is written as wide as its rows, the header last.
 */
import { rowDigest } from "../shaping/keyed-diff";
import { deleteWrittenStore, recordWrittenRows, type RowKeying } from "./written-store";
import { TEXT_FORMAT } from "../shaping/safe-cells";
import { uniqueSheetName, uniqueTableName } from "../shaping/sheet-names";
import { columnLetters } from "../shaping/a1";
import type { CellValue } from "../shaping/types";
import { DEFAULT_MAX_REQUEST_BYTES, OPERATION_OVERHEAD_BYTES, rowBytes } from "./chunks";
import { IncompleteCleanupError, TableShapeError } from "./write-errors";
import { FingerprintBuilder, type PasteProvenance, type ProvenanceRecord } from "../shaping/paste-provenance";
import { recordProvenance, restoreProvenance, snapshotProvenance, type ProvenanceSnapshot } from "./provenance-sheets";
import { writtenTableRecord, type WrittenSheet } from "./write-sheets";
import { addLabelColours, addScoreScale, addTableChart, type ChartSpec } from "./table-formats";
import { message } from "../i18n/messages";

const MAX_CELL_TEXT = 32_767;

/** One sheet to stream into. */
export interface StreamSheetSpec {
  /** Desired name; made valid and unique when the sheet is renamed into place. */
  sheetName: string;
  /** Desired table name; default from the sheet name. */
  tableName?: string;
  /** A line above the table saying what it holds (scenario, window...). */
  title?: string;
  /** 0-based columns coloured by their LOW / MEDIUM / HIGH text (conditional formats: colours follow edits). */
  labelColumns?: number[];
  /** 0-based numeric columns coloured by a green–yellow–red colour scale (conditional formats). */
  scoreColumns?: number[];
  /** Number formats of numeric columns by 0-based index (e.g. {3: "0.000"}). */
  numberFormats?: Record<number, string>;
  /**
   * How the sheet was made: recorded with the sheet (as writeSheets.ts does) in the workbook's
   * provenance store, so it is listed among the pasted sheets and can be refreshed in place.
   */
  provenance?: PasteProvenance;
  /**
   * The paste kind's row key: with provenance, the rows' keys and the record of what was written
   * are kept (src/excel/written-store.ts), so a refresh goes by row. Rows are keyed by their first
   * {@link KEY_LEAD} cells, kept as they stream by with a digest of each row (the rows themselves
   * are not kept).
   */
  rowKeys?: RowKeying;
}

/** Leading cells of each streamed row kept for its key (the asset and series columns come first). */
const KEY_LEAD = 8;

/** Options of a streaming write. */
export interface StreamOptions {
  signal?: AbortSignal;
  /** Budget per request in bytes; default 4,000,000 (the limit is 5 MB). */
  maxRequestBytes?: number;
  /** After each chunk is written: the sheet and its rows written so far. */
  onProgress?: (progress: { sheetName: string; sheetIndex: number; rowsWritten: number }) => void;
}

interface SheetState {
  spec: StreamSheetSpec;
  sheet: Excel.Worksheet;
  tempName: string;
  id?: string;
  /** Rows written so far (below the header). */
  written: number;
  /** Widest row seen. */
  width: number;
  pending: CellValue[][];
  pendingBytes: number;
  /** Of every row appended, for the provenance record (a later refresh checks the table is unedited). */
  fingerprint: FingerprintBuilder;
  /** With rowKeys: each row's leading cells and digest, for the record of what was written. */
  lead: CellValue[][];
  digests: string[];
}

/** A set of new sheets being filled by a stream of rows; see the module comment. */
export class StreamingSheets {
  private readonly maxBytes: number;
  private finished = false;
  /** Record sheets of what was written, deleted again when the paste fails. */
  private readonly stores: string[] = [];

  private constructor(
    private readonly context: Excel.RequestContext,
    private readonly states: SheetState[],
    private readonly options: StreamOptions,
  ) {
    this.maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  }

  /** Adds one hidden sheet per spec under a temporary name (one request). */
  static async open(
    context: Excel.RequestContext,
    specs: readonly StreamSheetSpec[],
    options: StreamOptions = {},
  ): Promise<StreamingSheets> {
    options.signal?.throwIfAborted();
    const sheets = context.workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    const taken = sheets.items.map((s) => s.name);
    const stamp = Date.now().toString(36).slice(-5);
    const states: SheetState[] = specs.map((spec, i) => {
      const tempName = uniqueSheetName(`~writing ${stamp} ${i + 1}`, taken);
      taken.push(tempName);
      const sheet = sheets.add(tempName);
      sheet.visibility = "Hidden"; // never seen half-written
      sheet.load("id");
      return {
        spec,
        sheet,
        tempName,
        written: 0,
        width: 0,
        pending: [],
        pendingBytes: 0,
        fingerprint: new FingerprintBuilder(),
        lead: [],
        digests: [],
      };
    });
    const writer = new StreamingSheets(context, states, options);
    try {
      await context.sync();
      for (const s of states) s.id = s.sheet.id;
    } catch (error) {
      await writer.discard(error);
      throw error;
    }
    return writer;
  }

  /**
   * Queues rows for sheet `index`; writes (and syncs) a chunk whenever the buffered rows reach the
   * request budget. Checks every cell first, naming the row and column of a bad one.
   */
  async append(index: number, rows: readonly CellValue[][]): Promise<void> {
    const state = this.states[index];
    if (!state) throw new TableShapeError(message("excel.shape.noSheet", { index: index + 1 }));
    for (const row of rows) {
      const bytes = checkedRowBytes(state, row);
      if (bytes + OPERATION_OVERHEAD_BYTES * 3 > this.maxBytes) {
        throw new TableShapeError(
          message("excel.shape.rowTooLarge", {
            row: state.written + state.pending.length + 1,
            sheet: state.spec.sheetName,
            bytes,
          }),
        );
      }
      if (state.pendingBytes + bytes + OPERATION_OVERHEAD_BYTES * 3 > this.maxBytes) await this.flush(state);
      state.pending.push(row as CellValue[]);
      state.pendingBytes += bytes;
      if (row.length > state.width) state.width = row.length;
    }
    state.fingerprint.addRows(rows);
    if (state.spec.rowKeys && state.spec.provenance)
      for (const row of rows) {
        state.lead.push(row.slice(0, KEY_LEAD));
        state.digests.push(rowDigest(row));
      }
  }

  /** Rows already synced to the workbook, over every sheet. */
  writtenRows(): number {
    return this.states.reduce((n, s) => n + s.written, 0);
  }

  /** Rows written or buffered so far for sheet `index`. */
  rowCount(index: number): number {
    const s = this.states[index];
    return s.written + s.pending.length;
  }

  /**
   * Writes what is buffered, the headers and the titles, makes each block a table (with its
   * colours and chart), renames every sheet into place, shows them and activates the first one
   * that has rows. Sheets that received no rows are deleted (a kind with no series gets no
   * sheet). Rejects, after deleting every sheet, when anything fails.
   */
  async finish(headers: readonly string[][], charts: Array<ChartSpec | undefined> = []): Promise<WrittenSheet[]> {
    let provenanceBefore: ProvenanceSnapshot | undefined;
    try {
      for (const s of this.states) await this.flush(s);
      this.options.signal?.throwIfAborted();
      const sheets = this.context.workbook.worksheets;
      sheets.load("items/name");
      const tables = this.context.workbook.tables;
      tables.load("items/name");
      await this.context.sync();
      const temp = new Set(this.states.map((s) => s.tempName.toLowerCase()));
      const takenSheets = sheets.items.map((s) => s.name).filter((n) => !temp.has(n.toLowerCase()));
      const takenTables = tables.items.map((t) => t.name);
      const results: WrittenSheet[] = [];
      const kept: SheetState[] = [];
      this.states.forEach((state, i) => {
        if (state.written === 0) {
          state.sheet.delete();
          return;
        }
        const header = headers[i] ?? [];
        if (header.length < state.width)
          throw new TableShapeError(
            message("excel.shape.streamWidth", {
              sheet: state.spec.sheetName,
              width: state.width,
              header: header.length,
            }),
          );
        const sheetName = uniqueSheetName(state.spec.sheetName, takenSheets);
        takenSheets.push(sheetName);
        const tableName = uniqueTableName(state.spec.tableName ?? state.spec.sheetName, takenTables);
        takenTables.push(tableName);
        state.sheet.name = sheetName; // renamed into place first, so formats and charts name it
        const address = this.finishTable(state, header, tableName, charts[i]);
        kept.push(state);
        results.push({
          sheetName,
          tableName,
          tableAddress: address,
          rowCount: state.written,
          columnCount: header.length,
        });
      });
      this.options.signal?.throwIfAborted();
      await this.context.sync();
      const records: ProvenanceRecord[] = [];
      for (let i = 0; i < kept.length; i++) {
        const state = kept[i];
        if (!state.spec.provenance) continue;
        const written = results[i];
        const header = headers[this.states.indexOf(state)] ?? [];
        const keyed = state.spec.rowKeys
          ? await recordWrittenRows(this.context, state.spec.rowKeys, header, state.lead, this.maxBytes, state.digests)
          : undefined;
        if (keyed?.writtenStore) this.stores.push(keyed.writtenStore);
        records.push({
          ...writtenTableRecord(state.spec.provenance, state.id, written, header, state.fingerprint.finish(header)),
          ...keyed,
        });
      }
      if (records.length > 0) {
        provenanceBefore = await snapshotProvenance(this.context);
        await recordProvenance(this.context, records, provenanceBefore);
      }
      this.options.signal?.throwIfAborted();
      for (const s of kept) s.sheet.visibility = "Visible";
      kept[0]?.sheet.activate();
      kept[0]?.sheet.getRange("A1").select();
      await this.context.sync();
      this.finished = true;
      return results;
    } catch (error) {
      // Best effort: the sheets go below whatever happens here.
      if (provenanceBefore) await restoreProvenance(this.context, provenanceBefore).catch(() => undefined);
      for (const store of this.stores) await deleteWrittenStore(this.context, store).catch(() => undefined);
      await this.discard(error);
      throw error;
    }
  }

  /** Deletes every sheet this writer added (after a failure or Cancel); rethrow `cause` after. */
  async discard(cause: unknown): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      const found = this.states.map((s) => this.context.workbook.worksheets.getItemOrNullObject(s.id ?? s.tempName));
      await this.context.sync();
      for (const proxy of found) if (!proxy.isNullObject) proxy.delete();
      await this.context.sync();
    } catch (cleanupError) {
      throw new IncompleteCleanupError(
        cause,
        this.states.map((s) => s.tempName),
        cleanupError,
      );
    }
  }

  private top(state: SheetState): number {
    return state.spec.title ? 1 : 0;
  }

  /** One request: the buffered rows (text cells formatted as text first), then a sync. */
  private async flush(state: SheetState): Promise<void> {
    if (state.pending.length === 0) return;
    this.options.signal?.throwIfAborted();
    const rows = state.pending;
    const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
    const grid = rows.map((r) => (r.length < width ? [...r, ...new Array<CellValue>(width - r.length).fill("")] : r));
    const firstRow = this.top(state) + 1 + state.written;
    for (const [start, end] of textRuns(grid, width)) {
      const formats = grid.map((row) => {
        const out = new Array<string>(end - start);
        for (let c = start; c < end; c++)
          out[c - start] =
            typeof row[c] === "string" && row[c] !== "" ? TEXT_FORMAT : (state.spec.numberFormats?.[c] ?? "General");
        return out;
      });
      state.sheet.getRangeByIndexes(firstRow, start, grid.length, end - start).numberFormat = formats;
    }
    state.sheet.getRangeByIndexes(firstRow, 0, grid.length, width).values = grid;
    state.pending = [];
    state.pendingBytes = 0;
    await this.context.sync();
    state.written += grid.length;
    const index = this.states.indexOf(state);
    this.options.onProgress?.({ sheetName: state.spec.sheetName, sheetIndex: index, rowsWritten: state.written });
  }

  /** Queues the header, the title, the table, its number formats, colours and chart. */
  private finishTable(
    state: SheetState,
    header: readonly string[],
    tableName: string,
    chart: ChartSpec | undefined,
  ): string {
    const { sheet, spec } = state;
    const top = this.top(state);
    const width = header.length;
    if (spec.title) {
      const title = sheet.getRange("A1");
      title.numberFormat = [[TEXT_FORMAT]];
      title.values = [[spec.title]];
      title.format.font.bold = true;
    }
    // The header is text whatever it says ("2030" stays "2030").
    const headerRange = sheet.getRangeByIndexes(top, 0, 1, width);
    headerRange.numberFormat = [header.map(() => TEXT_FORMAT)];
    headerRange.values = [header.slice()];
    const address = `A${top + 1}:${columnLetters(width - 1)}${top + 1 + state.written}`;
    const table = sheet.tables.add(address, true);
    table.name = tableName;
    headerRange.format.autofitColumns();
    for (const col of spec.labelColumns ?? [])
      addLabelColours(sheet.getRangeByIndexes(top + 1, checkColumn(col, width), state.written, 1));
    for (const col of spec.scoreColumns ?? [])
      addScoreScale(sheet.getRangeByIndexes(top + 1, checkColumn(col, width), state.written, 1));
    if (chart) addTableChart(sheet, chart, top, header.length, state.written);
    return address;
  }
}

/** Request bytes of a row (values plus text formats), after checking each cell can be held. */
function checkedRowBytes(state: SheetState, row: readonly CellValue[]): number {
  let bytes = rowBytes(row, null);
  // Every cell of every row passes here (640,000 for a timeseries of 5,000 series): nothing is
  // allocated for a cell unless it is refused.
  for (let c = 0; c < row.length; c++) {
    const v = row[c];
    const ok = typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
    if (!ok) throw new TableShapeError(message("excel.shape.cellTypeAt", { ...cellAt(state, c), value: String(v) }));
    if (typeof v === "string") {
      if (v.length > MAX_CELL_TEXT)
        throw new TableShapeError(
          message("excel.shape.cellTooLongAt", { ...cellAt(state, c), length: v.length, max: MAX_CELL_TEXT }),
        );
      if (v !== "") bytes += 13; // a format array entry ("@" or "General") goes with each text cell's column
    }
  }
  return bytes;
}

/** Where the row being appended to `state`'s sheet holds column `c` (0-based), for an error. */
function cellAt(state: SheetState, c: number): { sheet: string; row: number; column: number } {
  return { sheet: state.spec.sheetName, row: state.written + state.pending.length + 1, column: c + 1 };
}

/** Column runs [start, end) holding text in some row: those get per-cell number formats. */
function textRuns(grid: readonly CellValue[][], width: number): Array<[number, number]> {
  const text = new Array<boolean>(width).fill(false);
  for (const row of grid)
    for (let c = 0; c < width; c++) if (typeof row[c] === "string" && row[c] !== "") text[c] = true;
  const runs: Array<[number, number]> = [];
  for (let c = 0; c < width;) {
    if (!text[c]) {
      c++;
      continue;
    }
    const start = c;
    while (c < width && text[c]) c++;
    runs.push([start, c]);
  }
  return runs;
}

function checkColumn(col: number, width: number): number {
  if (!Number.isInteger(col) || col < 0 || col >= width)
    throw new TableShapeError(message("excel.shape.columnOutside", { column: col, last: width - 1 }));
  return col;
}
