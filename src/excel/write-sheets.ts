/**
 * Writing tables into new sheets, all or nothing. Each sheet is added hidden, filled in chunks
 * that keep every request under the 5 MB limit, made into an Excel table (with optional
 * LOW/MEDIUM/HIGH colouring and a chart, table-formats.ts), and only then shown and activated. On any failure
 * or cancellation every sheet created so far is deleted and the error is rethrown; sheets that
 * existed before are never touched.
 */
import { TEXT_FORMAT, columnTextKinds, type ColumnTextKind } from "../shaping/safe-cells";
import { uniqueSheetName, uniqueTableName } from "../shaping/sheet-names";
import { columnLetters } from "../shaping/a1";
import type { CellValue } from "../shaping/types";
import { DEFAULT_MAX_REQUEST_BYTES, OPERATION_OVERHEAD_BYTES, planRowChunks, rowBytes } from "./chunks";
import { IncompleteCleanupError, TableShapeError } from "./write-errors";
import { tableFingerprint, type PasteProvenance, type ProvenanceRecord } from "../shaping/paste-provenance";
import {
  recordProvenance,
  restoreProvenance,
  snapshotProvenance,
  utcNow,
  type ProvenanceSnapshot,
} from "./provenance-sheets";
import { addLabelColours, addTableChart, type ChartSpec } from "./table-formats";
import { deleteWrittenStore, recordMirrorAssets, recordWrittenRows, type RowKeying } from "./written-store";
import { message } from "../i18n/messages";

/** One sheet to create. */
export interface NewSheetSpec {
  /** Desired name; made valid and unique ("Summary (2)"). */
  sheetName: string;
  header: string[];
  rows: CellValue[][];
  /** Desired table name; default from the sheet name. Made valid and unique. */
  tableName?: string;
  /** Number formats of numeric data columns, by 0-based column index (e.g. {7: "0.000"}). */
  numberFormats?: Record<number, string>;
  /** 0-based columns coloured by their LOW / MEDIUM / HIGH text. */
  conditionalLabels?: number[];
  chart?: ChartSpec;
  /**
   * A sort the table keeps (Table.sort.apply, ExcelApi 1.2): the rows are written in this order
   * already; applied, Excel remembers it, so "Sort again" (TableSort.reapply) after a refresh that
   * added rows at the end puts them back in order.
   */
  sort?: { column: number; ascending: boolean };
  /**
   * How the table was made. When given, the sheet is listed on the "Climate Risk sources" sheet and
   * in the workbook's provenance store (src/excel/provenance-sheets.ts), so it can be refreshed in place.
   */
  provenance?: PasteProvenance;
  /**
   * 0-based columns whose text cells are formulas ("=A2*B2"): written without the text format
   * that otherwise keeps a value starting with "=" as text, so Excel calculates them.
   */
  formulaColumns?: number[];
  /**
   * The paste kind's row key (src/shaping/row-keys.ts): with provenance, the rows' keys and the
   * record of what was written (src/excel/written-store.ts) are kept, so a refresh goes by row.
   */
  rowKeys?: RowKeying;
  /**
   * With provenance: the specs (by index in the same write) of the tables of formulas over this
   * one, recorded by table name so its refresh brings them in line (src/excel/formula-followers.ts).
   */
  followers?: { mirror: number; summary: number };
}

/** Progress of a write, as each part of it is handed to Excel. */
export interface WriteProgress {
  sheetName: string;
  sheetIndex: number;
  sheetCount: number;
  rowsWritten: number;
  totalRows: number;
  /** 0..1 over all sheets. */
  fraction: number;
}

/** Options of a write. */
export interface WriteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: WriteProgress) => void;
  /** Budget per request in bytes; default 4,000,000 (the limit is 5 MB). */
  maxRequestBytes?: number;
  /**
   * The workbook's sheet and table names, read by an earlier request of the same batch
   * ({@link queueWorkbookNames}): the new sheets' and tables' names are chosen from them without a
   * request of their own (a round trip fewer).
   */
  names?: WorkbookNames;
}

/** The names of every sheet (hidden ones included) and every table of the workbook. */
export interface WorkbookNames {
  sheets: string[];
  tables: string[];
}

/**
 * Queues the read of the workbook's sheet and table names to go with the caller's next request;
 * the function returned gives them once that request was synced (for {@link WriteOptions.names}).
 */
export function queueWorkbookNames(context: Excel.RequestContext): () => WorkbookNames {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  const tables = context.workbook.tables;
  tables.load("items/name");
  return () => ({ sheets: sheets.items.map((s) => s.name), tables: tables.items.map((t) => t.name) });
}

/** What was written. */
export interface WrittenSheet {
  sheetName: string;
  tableName: string;
  /** Sheet-local address of the table, e.g. "A1:DZ5001". */
  tableAddress: string;
  rowCount: number;
  columnCount: number;
}

const MAX_CELL_TEXT = 32_767;

/** Check shape and cell types before anything is changed (TableShapeError names row and column). */
export function checkShape(spec: NewSheetSpec, index: number): void {
  const sheet = spec.sheetName;
  if (spec.header.length === 0)
    throw new TableShapeError(message("excel.shape.noColumns", { sheet, index: index + 1 }));
  spec.rows.forEach((row, r) => {
    if (row.length !== spec.header.length) {
      throw new TableShapeError(
        message("excel.shape.rowWidth", { sheet, row: r + 1, cells: row.length, columns: spec.header.length }),
      );
    }
    row.forEach((v, c) => {
      const ok = typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
      if (!ok)
        throw new TableShapeError(
          message("excel.shape.cellType", { sheet, row: r + 1, column: spec.header[c]!, value: String(v) }),
        );
      if (typeof v === "string" && v.length > MAX_CELL_TEXT) {
        throw new TableShapeError(
          message("excel.shape.cellTooLong", {
            sheet,
            row: r + 1,
            column: spec.header[c]!,
            length: v.length,
            max: MAX_CELL_TEXT,
          }),
        );
      }
    });
  });
}

/** Per-column number format for a cell, or null when the column needs no format. */
function formatPlan(
  kinds: ColumnTextKind[],
  custom: Record<number, string> | undefined,
  formulas: readonly number[] = [],
): Array<((v: CellValue) => string) | null> {
  return kinds.map((kind, c) => {
    const own = custom?.[c];
    if (formulas.includes(c)) {
      const format = own ?? "General";
      return own === undefined ? null : () => format;
    }
    if (kind === "none" && own === undefined) return null;
    const other = own ?? (kind === "text" ? TEXT_FORMAT : "General");
    return (v: CellValue) => (typeof v === "string" && v !== "" ? TEXT_FORMAT : other);
  });
}

/** Consecutive column runs [start, end) that carry formats. */
function formattedRuns(plan: Array<unknown | null>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let c = 0;
  while (c < plan.length) {
    if (plan[c] === null) {
      c++;
      continue;
    }
    const start = c;
    while (c < plan.length && plan[c] !== null) c++;
    runs.push([start, c]);
  }
  return runs;
}

interface Created {
  name: string;
  sheet: Excel.Worksheet;
  id?: string;
  /** What this writer puts in A1 (the first header), to tell its sheet from another of that name. */
  firstHeader: string;
}

/**
 * Create one sheet per spec, all or none. Resolves when every sheet is written, shown, and the
 * first one activated. Rejects (after deleting every new sheet) on failure or abort.
 */
export async function writeSheetsAtomically(
  context: Excel.RequestContext,
  specs: readonly NewSheetSpec[],
  options: WriteOptions = {},
): Promise<WrittenSheet[]> {
  specs.forEach(checkShape);
  const signal = options.signal;
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  signal?.throwIfAborted();

  const sheets = context.workbook.worksheets;
  let names = options.names;
  if (!names) {
    const queued = queueWorkbookNames(context);
    await context.sync();
    names = queued();
  }
  const takenSheets = [...names.sheets];
  const takenTables = [...names.tables];
  const plans = specs.map((spec) => {
    const sheetName = uniqueSheetName(spec.sheetName, takenSheets);
    takenSheets.push(sheetName);
    const tableName = uniqueTableName(spec.tableName ?? spec.sheetName, takenTables);
    takenTables.push(tableName);
    return { spec, sheetName, tableName };
  });

  const created: Created[] = [];
  let provenanceBefore: ProvenanceSnapshot | undefined;
  const stores: string[] = [];
  try {
    signal?.throwIfAborted();
    for (const plan of plans) {
      const sheet = sheets.add(plan.sheetName);
      sheet.visibility = "Hidden"; // the user never sees a half-written sheet
      sheet.load("id");
      created.push({ name: plan.sheetName, sheet, firstHeader: String(plan.spec.header[0] ?? "") });
    }
    // The sheets are added in the same request as their first rows (and, for small sheets, their
    // tables and their showing): a batch is applied in one sync, in order, up to a command that
    // fails, the rest not run (OfficeExtension.Error.traceMessages: "all trace messages that were
    // executed before the error occurred", https://learn.microsoft.com/javascript/api/office/officeextension.error),
    // so a sheet is shown only by a request that got that far, and one still hidden when anything
    // fails is deleted below (by name when its id never came back).
    const queue = new QueuedWrites(context, maxBytes, () => {
      for (const c of created) if (c.id === undefined) c.id = c.sheet.id;
    });

    const totalRows = specs.reduce((n, s) => n + s.rows.length, 0);
    let rowsDone = 0;
    const results: WrittenSheet[] = [];
    for (let i = 0; i < plans.length; i++) {
      const { spec, sheetName, tableName } = plans[i];
      const sheet = created[i].sheet;
      await fillSheet(queue, sheet, spec, maxBytes, signal, (written) => {
        options.onProgress?.({
          sheetName,
          sheetIndex: i,
          sheetCount: plans.length,
          rowsWritten: written,
          totalRows: spec.rows.length,
          fraction: totalRows === 0 ? 1 : (rowsDone + written) / totalRows,
        });
      });
      rowsDone += spec.rows.length;
      signal?.throwIfAborted();
      const tableAddress = finishTable(sheet, spec, tableName);
      results.push({ sheetName, tableName, tableAddress, rowCount: spec.rows.length, columnCount: spec.header.length });
    }

    signal?.throwIfAborted();
    // The records below need each sheet's id, known once its request has answered.
    if (plans.some((p) => p.spec.provenance)) await queue.flush();
    const records: ProvenanceRecord[] = [];
    for (let i = 0; i < plans.length; i++) {
      const { spec } = plans[i];
      if (!spec.provenance) continue;
      const written = results[i];
      const keyed = spec.rowKeys
        ? await recordWrittenRows(context, spec.rowKeys, spec.header, spec.rows, maxBytes)
        : undefined;
      if (keyed?.writtenStore) stores.push(keyed.writtenStore);
      // Which asset each row of the mirror is about, recorded from the paste on (not only from the
      // first refresh), so the first refresh keeps the analyst's notes beside it as later ones do.
      const mirrorStore =
        spec.followers && spec.rowKeys && keyed?.writtenStore
          ? await recordMirrorAssets(
              context,
              spec.rowKeys,
              spec.header,
              spec.rows,
              plans[spec.followers.mirror].spec.rows,
              maxBytes,
            )
          : undefined;
      if (mirrorStore) stores.push(mirrorStore);
      records.push({
        ...writtenTableRecord(
          spec.provenance,
          created[i].id,
          written,
          spec.header,
          tableFingerprint(spec.header, spec.rows),
        ),
        ...keyed,
        ...(spec.followers
          ? {
              followers: {
                mirror: results[spec.followers.mirror].tableName,
                summary: results[spec.followers.summary].tableName,
                ...(mirrorStore ? { store: mirrorStore } : {}),
              },
            }
          : {}),
      });
    }
    if (records.length > 0) {
      provenanceBefore = await snapshotProvenance(context);
      await recordProvenance(context, records, provenanceBefore);
    }
    signal?.throwIfAborted();
    for (const c of created) c.sheet.visibility = "Visible";
    created[0]?.sheet.activate();
    created[0]?.sheet.getRange("A1").select();
    await queue.flush(true);
    return results;
  } catch (error) {
    // Best effort: the sheets go below whatever happens here.
    if (provenanceBefore) await restoreProvenance(context, provenanceBefore).catch(() => undefined);
    for (const store of stores) await deleteWrittenStore(context, store).catch(() => undefined);
    await discard(context, created, error);
    throw error;
  }
}

/**
 * The provenance record of a table a writer has just made: the paste's provenance, the sheet's id
 * (its name when the id is not known), where the table is, its header, rows and fingerprint,
 * and when. Both writers (this one and stream-sheets.ts) record their tables with it.
 */
export function writtenTableRecord(
  provenance: PasteProvenance,
  sheetId: string | undefined,
  written: WrittenSheet,
  header: readonly string[],
  fingerprint: string,
): ProvenanceRecord {
  return {
    ...provenance,
    sheetId: sheetId ?? written.sheetName,
    sheetName: written.sheetName,
    tableName: written.tableName,
    tableAddress: written.tableAddress,
    header: header.slice(),
    rows: written.rowCount,
    writtenAt: utcNow(),
    fingerprint,
  };
}

/** Same as {@link writeSheetsAtomically} for a single sheet. */
export async function writeTableToNewSheet(
  context: Excel.RequestContext,
  spec: NewSheetSpec,
  options: WriteOptions = {},
): Promise<WrittenSheet> {
  const [written] = await writeSheetsAtomically(context, [spec], options);
  return written;
}

/**
 * Commands queued on a context until the next would take the request past the byte budget: then
 * they are sent (one sync) and the next request begins.
 */
class QueuedWrites {
  private bytes = 0;

  constructor(
    private readonly context: Excel.RequestContext,
    private readonly maxBytes: number,
    private readonly afterSync: () => void,
  ) {}

  /** Makes room for a part of `bytes`: sends what is queued when both would not fit one request. */
  async room(bytes: number): Promise<void> {
    if (this.bytes > 0 && this.bytes + bytes > this.maxBytes) await this.flush();
  }

  /** Counts a part just queued. */
  queued(bytes: number): void {
    this.bytes += bytes;
  }

  /** Sends what is queued (always when `always`: commands that carry no counted bytes). */
  async flush(always = false): Promise<void> {
    if (!always && this.bytes === 0) return;
    await this.context.sync();
    this.bytes = 0;
    this.afterSync();
  }
}

/**
 * Header and rows, chunk by chunk; formats are queued before values in the same request. A chunk
 * shares its request with what was queued before it when both fit the budget, so a small sheet
 * goes in the request that adds it.
 */
async function fillSheet(
  queue: QueuedWrites,
  sheet: Excel.Worksheet,
  spec: NewSheetSpec,
  maxBytes: number,
  signal: AbortSignal | undefined,
  progress: (rows: number) => void,
): Promise<void> {
  const width = spec.header.length;
  const kinds = columnTextKinds(spec.rows, width);
  const plan = formatPlan(kinds, spec.numberFormats, spec.formulaColumns);
  const runs = formattedRuns(plan);
  const formatted = plan.flatMap((f, c) => (f ? [c] : []));
  const sizes = spec.rows.map((row) => {
    let bytes = rowBytes(row, null);
    for (const c of formatted) bytes += plan[c]!(row[c]).length + 3;
    return bytes;
  });
  const fixed = OPERATION_OVERHEAD_BYTES * (2 + runs.length);
  const headerBytes =
    rowBytes(
      spec.header,
      spec.header.map(() => TEXT_FORMAT),
    ) + fixed;
  const chunks = planRowChunks(sizes, maxBytes - headerBytes, fixed);

  // The header is text whatever it says ("2030" stays "2030").
  await queue.room(headerBytes + (chunks[0]?.bytes ?? 0));
  const headerRange = sheet.getRangeByIndexes(0, 0, 1, width);
  headerRange.numberFormat = [spec.header.map(() => TEXT_FORMAT)];
  headerRange.values = [spec.header.slice()];
  queue.queued(headerBytes);
  if (chunks.length === 0) progress(0);
  for (const chunk of chunks) {
    signal?.throwIfAborted();
    await queue.room(chunk.bytes);
    const rows = spec.rows.slice(chunk.start, chunk.end);
    const count = rows.length;
    for (const [start, end] of runs) {
      const formats = rows.map((row) => {
        const out = new Array<string>(end - start);
        for (let c = start; c < end; c++) out[c - start] = plan[c]!(row[c]);
        return out;
      });
      sheet.getRangeByIndexes(1 + chunk.start, start, count, end - start).numberFormat = formats;
    }
    sheet.getRangeByIndexes(1 + chunk.start, 0, count, width).values = rows as CellValue[][];
    queue.queued(chunk.bytes);
    // Told when queued: a Cancel then is seen before the request that shows the sheets is sent.
    progress(chunk.end);
  }
}

/**
 * Queue making the written block a table, colouring labels, adding the chart (sent with the
 * sheet's last rows); returns the table's address.
 */
function finishTable(sheet: Excel.Worksheet, spec: NewSheetSpec, tableName: string): string {
  const width = spec.header.length;
  const lastRow = Math.max(spec.rows.length, 1) + 1;
  const address = `A1:${columnLetters(width - 1)}${lastRow}`;
  const table = sheet.tables.add(address, true);
  table.name = tableName;
  sheet.getRangeByIndexes(0, 0, 1, width).format.autofitColumns();

  if (spec.rows.length > 0) {
    for (const col of spec.conditionalLabels ?? []) {
      if (col < 0 || col >= width)
        throw new TableShapeError(message("excel.shape.columnOutside", { column: col, last: width - 1 }));
      addLabelColours(sheet.getRangeByIndexes(1, col, spec.rows.length, 1));
    }
    if (spec.chart) addTableChart(sheet, spec.chart, 0, width, spec.rows.length);
    if (spec.sort) table.sort.apply([{ key: spec.sort.column, ascending: spec.sort.ascending }]);
  }
  return address;
}

/** Delete every sheet this operation created; never a sheet that existed before or that the analyst made meanwhile. */
async function discard(context: Excel.RequestContext, created: Created[], cause: unknown): Promise<void> {
  if (created.length === 0) return;
  const left: string[] = [];
  try {
    const found = created.map((c) => {
      const proxy = context.workbook.worksheets.getItemOrNullObject(c.id ?? c.name);
      if (c.id === undefined) proxy.load("visibility");
      return { c, proxy };
    });
    await context.sync();
    // A sheet known only by name (its id never came back) may be the analyst's, made after the
    // names were read (which made our add fail). Ours is hidden from its add on; or visible and
    // empty, when the batch stopped right after the add; or visible with our header in A1, when
    // Excel applied the batch but its answer never came (a sync abandoned as not answering). A
    // visible sheet with something else in it is never deleted. (A method of a null object fails
    // its request, hence the second read.)
    const byName = found
      .filter(({ c, proxy }) => c.id === undefined && !proxy.isNullObject && proxy.visibility === "Visible")
      .map(({ c, proxy }) => ({
        c,
        proxy,
        used: proxy.getUsedRangeOrNullObject(true).load("address"),
        first: proxy.getRange("A1").load("values"),
      }));
    if (byName.length > 0) await context.sync();
    const theirs = (proxy: Excel.Worksheet) =>
      byName.some(
        (b) => b.proxy === proxy && !b.used.isNullObject && String(b.first.values[0]?.[0] ?? "") !== b.c.firstHeader,
      );
    for (const { proxy } of found) {
      if (proxy.isNullObject || theirs(proxy)) continue;
      proxy.delete();
    }
    await context.sync();
  } catch (cleanupError) {
    left.push(...created.map((c) => c.name));
    throw new IncompleteCleanupError(cause, left, cleanupError);
  }
}
