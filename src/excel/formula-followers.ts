/**
 * Tables of formulas that follow a keyed pasted table (the financial impact's per-asset losses and
 * roll-up, over its data sheet), brought in line after the keyed table was refreshed by key:
 *
 *  - the mirror: row n of it reads row n of the keyed table (`='Impact data'!$E7`). When the
 *    refresh deletes a row of the keyed table with Excel's own deletion, Excel re-points every
 *    mirror row below it to its moved row and turns the mirror row that read the deleted one into
 *    #REF! ("Excel adjusts references to cells that move when rows are deleted; a reference to a
 *    deleted cell becomes #REF!", the Range.delete rule testing/fake-excel/shift.ts follows). So
 *    the mirror's rows still show their own asset; the #REF! rows are deleted the same way (the
 *    analyst's columns beside them with them), and rows are appended for rows added at the end.
 *  - the summary: its totals run over whole columns of the mirror, and its groups may change, so
 *    its formulas are written anew over its body, which grows or shrinks by rows inserted or
 *    deleted at its end.
 *
 * They run after the keyed table's refresh, whose row deletion cannot be undone; everything that
 * could refuse is checked before it ({@link checkFollowers}).
 */
import { parseA1, qualify, rangeA1 } from "../shaping/a1";
import type { ProvenanceRecord } from "../shaping/paste-provenance";
import type { CellValue } from "../shaping/types";
import { DEFAULT_MAX_REQUEST_BYTES, OPERATION_OVERHEAD_BYTES, planRowChunks, rowBytes } from "./chunks";
import { readBlock } from "./read-range";
import { runs, writeRemovedBlock } from "./keyed-replace";
import { PastedSheetChangedError, findPastedTable } from "./replace-table";
import { requirementSupported } from "../shared/requirements";

const GROW_UNSUPPORTED = "this version of Excel cannot grow a table (it needs Excel 2102 or Mac 16.50 or later)";

/** The follower tables of a keyed table, by table name (a table keeps its name when its sheet is renamed). */
export interface FollowerTables {
  /** Row n reads row n of the keyed table. */
  mirror: string;
  /** Totals over the mirror's columns. */
  summary: string;
}

/** The followers' current sheet names, which their formulas name. */
export interface FollowerSheetNames {
  keyed: string;
  mirror: string;
  summary: string;
}

/** The followers' formulas, once their sheets' names are known. */
export interface FollowerFormulas {
  /** The mirror's formulas at a 1-based sheet row (reading that row of the keyed table). */
  mirrorRowAt(sheetRow: number): CellValue[];
  /** The summary's rows over a keyed table of `rows` body rows. */
  summaryRows(rows: number): CellValue[][];
}

/** What the followers' refresh did. */
export interface FollowersReport {
  /** Rows of the mirror deleted (they read a removed row) and appended (for new rows). */
  mirrorRemoved: number;
  mirrorAdded: number;
  /** Rows of the summary now. */
  summaryRows: number;
  /** Where the analyst's cells beside the mirror's removed rows were kept ("Sheet!A52:C55"), if any held something. */
  removedBlock?: string;
}

/** How far right of a table the analyst's columns beside it are looked for (as keyed-replace.ts). */
const BESIDE_SCAN = 16;

/** What the mirror's rows showed before the refresh: a label per body row (its first columns' values). */
export interface FollowersBefore {
  labels: string[];
}

/**
 * Checks, changing nothing, that the keyed table sits at A1 of its sheet (the followers' formulas
 * read its rows by sheet row) and that both follower tables exist; reads what each mirror row
 * shows (the keyed table's row at its place), to name it if it is removed. Throws PastedSheetChangedError.
 */
export async function checkFollowers(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  followers: FollowerTables,
): Promise<FollowersBefore> {
  const where = `Sheet "${record.sheetName}"`;
  const at = parseA1(record.tableAddress);
  if (at.row !== 0 || at.col !== 0)
    throw new PastedSheetChangedError(
      `${where}: its table was moved from A1 (it is at ${record.tableAddress}), and the sheets of formulas over it read its rows by place: paste it anew. Nothing was changed.`,
    );
  await findFollowers(context, record, followers);
  // Row n of the mirror shows row n of the keyed table: its asset is named from there.
  const { sheet, range } = await findPastedTable(context, record);
  const shown = await readBlock(context, sheet, 1, 0, range.rowCount - 1, Math.min(3, range.columnCount), "values");
  return {
    labels: shown.map((line) =>
      line
        .map((v) => String(v ?? ""))
        .filter((v) => v !== "")
        .join(" · "),
    ),
  };
}

/** The follower tables, their sheets and ranges (loaded at the next sync); PastedSheetChangedError when one is gone. */
async function findFollowers(context: Excel.RequestContext, record: ProvenanceRecord, followers: FollowerTables) {
  const tables = [followers.mirror, followers.summary].map((name) => {
    const table = context.workbook.tables.getItemOrNullObject(name);
    return { name, table, sheet: table.worksheet };
  });
  await context.sync();
  const gone = tables.filter((t) => t.table.isNullObject).map((t) => t.name);
  if (gone.length > 0)
    throw new PastedSheetChangedError(
      `Sheet "${record.sheetName}": the table${gone.length > 1 ? "s" : ""} ${gone.map((n) => `"${n}"`).join(" and ")} of the formulas over it ${gone.length > 1 ? "were" : "was"} deleted or renamed: paste it anew. Nothing was changed.`,
    );
  return tables.map(({ table, sheet }) => {
    sheet.load("name");
    const range = table.getRange();
    range.load("rowIndex, columnIndex, rowCount, columnCount");
    return { table, sheet, range };
  });
}

/**
 * Brings the follower tables in line with the keyed table of `record` (already refreshed; `rows`
 * is its body rows now): deletes the mirror's rows that read a removed row, appends mirror rows up
 * to `rows`, and writes the summary anew over `rows`.
 */
export async function refreshFollowers(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  followers: FollowerTables,
  before: FollowersBefore,
  build: (names: FollowerSheetNames) => FollowerFormulas,
  options: { maxRequestBytes?: number; now?: Date } = {},
): Promise<FollowersReport> {
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const [mirror, summary] = await findFollowers(context, record, followers);
  await context.sync();
  const formulas = build({ keyed: record.sheetName, mirror: mirror.sheet.name, summary: summary.sheet.name });
  const rows = record.rows;

  // ---- the mirror: delete the rows that read a removed row, then append up to `rows` ----
  const m = mirror.range;
  const top = m.rowIndex;
  const left = m.columnIndex;
  const cols = m.columnCount;
  let body = m.rowCount - 1;
  const beside = await besideWidth(context, mirror.sheet, top, left + cols, body + 1);
  const first = await readBlock(context, mirror.sheet, top + 1, left, body, 1, "formulas");
  const broken = first.flatMap((line, i) => (String(line[0]).includes("#REF!") ? [i] : []));
  // Excel keeps a table's header and one row: the last row left is written anew below instead.
  const keepOne = broken.length === body ? broken.pop() : undefined;
  // What the analyst's columns beside the removed rows held is kept below, as keyed-replace.ts does.
  let removedLines: Array<{ key: string; cells: CellValue[] }> = [];
  let besideHeader: string[] = [];
  if (beside > 0 && broken.length > 0) {
    const mine = await readBlock(context, mirror.sheet, top, left + cols, body + 1, beside, "formulas");
    besideHeader = mine[0].map((h, i) => (h === "" ? `(column ${i + 1})` : String(h)));
    removedLines = broken
      .map((i) => ({ key: before.labels[i] ?? `row ${top + 2 + i}`, cells: mine[i + 1] }))
      .filter((line) => line.cells.some((v) => v !== ""));
  }
  // Bottom run first, so the rows above keep their places.
  for (const run of runs(broken).reverse())
    mirror.sheet
      .getRangeByIndexes(top + 1 + run.start, left, run.count, cols + beside)
      .delete("Up" as Excel.DeleteShiftDirection);
  await context.sync();
  body -= broken.length;
  const formats = (await readBlock(context, mirror.sheet, top + 1, left, 1, cols, "numberFormat"))[0];
  if (body > rows) {
    mirror.sheet
      .getRangeByIndexes(top + 1 + rows, left, body - rows, cols + beside)
      .delete("Up" as Excel.DeleteShiftDirection);
    await context.sync();
  } else if (body < rows) {
    // Growing a table needs ExcelApi 1.13; without it the sheets cannot follow (the outcome says so).
    if (!requirementSupported("ExcelApi", "1.13")) throw new Error(GROW_UNSUPPORTED);
    mirror.sheet
      .getRangeByIndexes(top + 1 + body, left, rows - body, cols + beside)
      .insert("Down" as Excel.InsertShiftDirection);
    mirror.table.resize(rangeA1(top, left, rows + 1, cols));
    await context.sync();
  }
  const fresh = Array.from({ length: rows - body }, (_, i) => top + 2 + body + i);
  if (keepOne !== undefined) fresh.unshift(top + 2 + keepOne);
  await writeFormulas(context, mirror.sheet, left, fresh, formulas.mirrorRowAt, formats, maxRequestBytes);
  let removedBlock: string | undefined;
  if (removedLines.length > 0) {
    const at = await writeRemovedBlock(context, mirror.sheet, left, besideHeader, removedLines, options.now);
    removedBlock = rangeA1(at.row, left, at.rows, at.cols);
  }

  // ---- the summary: its rows anew ----
  const s = summary.range;
  const next = formulas.summaryRows(rows);
  const old = s.rowCount - 1;
  const summaryFormats = (
    await readBlock(context, summary.sheet, s.rowIndex + 1, s.columnIndex, 1, s.columnCount, "numberFormat")
  )[0];
  if (next.length < old) {
    summary.sheet
      .getRangeByIndexes(s.rowIndex + 1 + next.length, s.columnIndex, old - next.length, s.columnCount)
      .delete("Up" as Excel.DeleteShiftDirection);
    await context.sync();
  } else if (next.length > old) {
    if (!requirementSupported("ExcelApi", "1.13")) throw new Error(GROW_UNSUPPORTED);
    summary.sheet
      .getRangeByIndexes(s.rowIndex + 1 + old, s.columnIndex, next.length - old, s.columnCount)
      .insert("Down" as Excel.InsertShiftDirection);
    summary.table.resize(rangeA1(s.rowIndex, s.columnIndex, next.length + 1, s.columnCount));
    await context.sync();
  }
  await writeFormulas(
    context,
    summary.sheet,
    s.columnIndex,
    next.map((_, i) => s.rowIndex + 2 + i),
    (sheetRow) => next[sheetRow - s.rowIndex - 2],
    summaryFormats,
    maxRequestBytes,
  );
  return {
    mirrorRemoved: broken.length + (keepOne === undefined ? 0 : 1),
    mirrorAdded: rows - body,
    summaryRows: next.length,
    ...(removedBlock ? { removedBlock: qualify(mirror.sheet.name, removedBlock) } : {}),
  };
}

/** Columns right of a table holding anything in its rows (the analyst's), within BESIDE_SCAN. */
async function besideWidth(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  top: number,
  from: number,
  rows: number,
): Promise<number> {
  const scan = Math.min(BESIDE_SCAN, 16_384 - from);
  if (scan <= 0) return 0;
  let width = 0;
  for (const line of await readBlock(context, sheet, top, from, rows, scan, "formulas"))
    for (let c = width; c < line.length; c++) if (line[c] !== "") width = c + 1;
  return width;
}

/**
 * Writes formulas at 1-based sheet rows (`rowAt(sheetRow)`), with the number formats of the
 * table's first body row (`formats`), consecutive rows together, in requests under the budget.
 */
async function writeFormulas(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  left: number,
  sheetRows: readonly number[],
  rowAt: (sheetRow: number) => CellValue[],
  formats: readonly CellValue[],
  maxRequestBytes: number,
): Promise<void> {
  if (sheetRows.length === 0) return;
  const lines = sheetRows.map((n) => rowAt(n));
  const format = formats.map((f) => String(f ?? "General")).slice(0, lines[0].length);
  const chunks = planRowChunks(
    lines.map((line) => rowBytes(line, format)),
    maxRequestBytes - OPERATION_OVERHEAD_BYTES * 2,
    OPERATION_OVERHEAD_BYTES * 2,
  );
  for (const chunk of chunks) {
    let i = chunk.start;
    while (i < chunk.end) {
      let j = i + 1;
      while (j < chunk.end && sheetRows[j] === sheetRows[j - 1] + 1) j++;
      const target = sheet.getRangeByIndexes(sheetRows[i] - 1, left, j - i, lines[i].length);
      target.numberFormat = lines.slice(i, j).map(() => format);
      target.formulas = lines.slice(i, j) as string[][];
      i = j;
    }
    await context.sync();
  }
}
