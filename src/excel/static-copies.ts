/**
 * Static copies: RISK formulas replaced by the values they show (spilled ranges included), so a
 * workbook can go to someone without the add-in, and put back exactly later. Office.js has no
 * undo, so every replaced formula is kept in the workbook, in a very hidden sheet
 * (`_ClimateRiskFormulas`): sheet, anchor address, formula, the value written, the spill area, and
 * when. "Restore formulas" clears each spill area and writes the formula back; a cell the user has
 * changed since the copy is left alone and named.
 */
import { readStoreRows, rewriteStore, type StoreRow } from "./store-sheets";
import { requirementSupported } from "../shared/requirements";
import { columnLetters, parseA1, quoteSheetName } from "../shaping/a1";
import { FORMULA_STORE_SHEET } from "../shaping/paste-provenance";
import { TEXT_FORMAT } from "../shaping/safe-cells";
import type { CellValue } from "../shaping/types";
import { readBlock } from "./read-range";
import type { Scope } from "./risk-cells";
import { readActiveSheetName, readSelectedArea } from "./selection";

/** One replaced formula. */
export interface StaticCell {
  sheetName: string;
  /** Sheet-local address of the formula's cell ("B7"). */
  address: string;
  formula: string;
  /** The value written in its place. */
  value: CellValue;
  /** Sheet-local area the formula spilled into, anchor included ("B7:D12"); the anchor alone when it did not spill. */
  spill: string;
  /** UTC time of the static copy. */
  takenAt: string;
  /** Number formats of the spill area before the copy (a formula in a text-formatted cell would stay text). */
  formats: string[][];
}

/** A formula cell to convert: where it is, its formula, the value it shows. */
export interface FormulaCellToConvert {
  sheetName: string;
  row: number;
  column: number;
  formula: string;
  value: CellValue;
}

const STORE_HEADER = ["sheet", "address", "formula", "value", "spill", "takenAt", "numberFormats"];

/** Every replaced formula on record. */
export async function readStaticCells(context: Excel.RequestContext): Promise<StaticCell[]> {
  return staticCellsOf((await readStoreRows(context, FORMULA_STORE_SHEET)) ?? []);
}

/** The replaced formulas recorded in the rows of the formula store (FORMULA_STORE_SHEET). */
export function staticCellsOf(rows: readonly StoreRow[]): StaticCell[] {
  return rows.flatMap(({ cells: row }) => {
    if (typeof row[0] !== "string" || row[0] === "" || typeof row[2] !== "string") return [];
    let value: CellValue;
    try {
      value = JSON.parse(String(row[3])) as CellValue;
    } catch {
      value = String(row[3]);
    }
    let formats: string[][];
    try {
      formats = decodeFormats(String(row[6]), parseA1(String(row[4] || row[1])));
    } catch {
      formats = [["General"]];
    }
    return [
      {
        sheetName: row[0],
        address: String(row[1]),
        formula: row[2],
        value,
        spill: String(row[4] || row[1]),
        takenAt: String(row[5]),
        formats,
      },
    ];
  });
}

/** Rewrites the store with `cells` (creating it, very hidden, when missing); a formula is kept as text, never run. */
export async function writeStaticCells(context: Excel.RequestContext, cells: readonly StaticCell[]): Promise<void> {
  await rewriteStore(
    context,
    FORMULA_STORE_SHEET,
    STORE_HEADER,
    cells.map((c) => [
      c.sheetName,
      c.address,
      c.formula,
      JSON.stringify(c.value),
      c.spill,
      c.takenAt,
      encodeFormats(c.formats),
    ]),
  );
}

/**
 * Replaces each formula cell with the value it shows, and the cells it spilled into with theirs.
 * Spill areas are found the Office way: the cells that lose their value once the anchor holds a
 * constant. On failure the formulas already replaced are written back. Returns what was replaced
 * (the caller records it).
 */
export async function convertCellsToValues(
  context: Excel.RequestContext,
  cells: readonly FormulaCellToConvert[],
  takenAt: string,
): Promise<StaticCell[]> {
  const bySheet = new Map<string, FormulaCellToConvert[]>();
  for (const cell of cells) bySheet.set(cell.sheetName, [...(bySheet.get(cell.sheetName) ?? []), cell]);
  const done: StaticCell[] = [];
  try {
    for (const [sheetName, anchors] of bySheet) {
      const sheet = context.workbook.worksheets.getItem(sheetName);
      const used = sheet.getUsedRange(false);
      used.load("rowIndex, columnIndex, rowCount, columnCount");
      await context.sync();
      const top = used.rowIndex;
      const left = used.columnIndex;
      const before = await readBlock(context, sheet, top, left, used.rowCount, used.columnCount, "values");
      const valueAt = (r: number, c: number): CellValue => before[r - top]?.[c - left] ?? "";
      const formatsBefore = await readBlock(context, sheet, top, left, used.rowCount, used.columnCount, "numberFormat");
      const formatsOf = (row: number, col: number, rows: number, cols: number): string[][] =>
        Array.from({ length: rows }, (_, r) =>
          Array.from({ length: cols }, (_, c) => String(formatsBefore[row + r - top]?.[col + c - left] ?? "General")),
        );
      // Where each anchor spilled: Range.getSpillingToRangeOrNullObject (ExcelApi 1.12) when the
      // host has it; otherwise the cells that lose their value once the anchor holds a constant.
      const canAskSpill = requirementSupported("ExcelApi", "1.12");
      const probes = anchors.map((a) => {
        if (!canAskSpill) return null;
        const cell = sheet.getCell(a.row, a.column);
        const spill = cell.getSpillingToRangeOrNullObject();
        spill.load("rowIndex, columnIndex, rowCount, columnCount");
        return spill;
      });
      await context.sync();
      const areas = new Map<FormulaCellToConvert, { rows: number; cols: number }>();
      if (probes.every((p) => p !== null)) {
        anchors.forEach((a, i) => {
          const spill = probes[i]!;
          areas.set(a, spill.isNullObject ? { rows: 1, cols: 1 } : { rows: spill.rowCount, cols: spill.columnCount });
        });
        for (const a of anchors) writeValue(sheet.getCell(a.row, a.column), a.value);
      } else {
        const beforeFormulas = await readBlock(context, sheet, top, left, used.rowCount, used.columnCount, "formulas");
        for (const a of anchors) writeValue(sheet.getCell(a.row, a.column), a.value);
        await context.sync();
        const after = await readBlock(context, sheet, top, left, used.rowCount, used.columnCount, "values");
        const vanished = (r: number, c: number): boolean => {
          const i = r - top;
          const j = c - left;
          if (i < 0 || j < 0 || i >= before.length || j >= before[0].length) return false;
          const wasFormula = typeof beforeFormulas[i][j] === "string" && String(beforeFormulas[i][j]).startsWith("=");
          return !wasFormula && before[i][j] !== "" && after[i][j] === "";
        };
        for (const a of anchors) {
          let cols = 1;
          while (vanished(a.row, a.column + cols)) cols++;
          let rows = 1;
          while (vanished(a.row + rows, a.column)) rows++;
          areas.set(a, { rows, cols });
        }
      }
      for (const a of anchors) {
        const { rows: height, cols: width } = areas.get(a)!;
        if (width > 1 || height > 1) {
          const values: CellValue[][] = [];
          for (let r = 0; r < height; r++) {
            const line: CellValue[] = [];
            for (let c = 0; c < width; c++) line.push(r === 0 && c === 0 ? a.value : valueAt(a.row + r, a.column + c));
            values.push(line);
          }
          writeValue(sheet.getRangeByIndexes(a.row, a.column, height, width), values);
        }
        done.push({
          sheetName,
          address: local(a.row, a.column, 1, 1),
          formula: a.formula,
          value: a.value,
          spill: local(a.row, a.column, height, width),
          takenAt,
          formats: formatsOf(a.row, a.column, height, width),
        });
      }
      await context.sync();
    }
  } catch (error) {
    // Put back every formula of this conversion (spill areas cleared first), then rethrow.
    await restoreCells(context, [
      ...done,
      ...cells
        .filter((c) => !done.some((d) => d.sheetName === c.sheetName && d.address === local(c.row, c.column, 1, 1)))
        .map((c) => ({
          sheetName: c.sheetName,
          address: local(c.row, c.column, 1, 1),
          formula: c.formula,
          value: c.value,
          spill: local(c.row, c.column, 1, 1),
          takenAt,
          formats: [["General"]],
        })),
    ]).catch(() => undefined);
    throw error;
  }
  return done;
}

/** Writes the formulas of `cells` back: spill areas cleared first, then the anchor's formula. */
export async function restoreCells(context: Excel.RequestContext, cells: readonly StaticCell[]): Promise<void> {
  for (const cell of cells) {
    const sheet = context.workbook.worksheets.getItem(cell.sheetName);
    const spill = parseA1(cell.spill);
    const area = sheet.getRangeByIndexes(spill.row, spill.col, spill.rows, spill.cols);
    area.clear("Contents" as Excel.ClearApplyTo);
    // The formats from before the copy: a formula written into a text-formatted cell stays text.
    if (cell.formats.length === spill.rows && cell.formats.every((line) => line.length === spill.cols))
      area.numberFormat = cell.formats;
    const anchor = sheet.getRange(cell.address);
    anchor.formulas = [[cell.formula]];
  }
  await context.sync();
}

/**
 * Values written as they are; text cells get the text format first so "007" stays "007". Other
 * cells keep the number format the user gave them.
 */
function writeValue(range: Excel.Range, value: CellValue | CellValue[][]): void {
  const grid = Array.isArray(value) ? value : [[value]];
  grid.forEach((line, r) =>
    line.forEach((v, c) => {
      if (typeof v === "string" && v !== "" && !v.startsWith("#")) range.getCell(r, c).numberFormat = [[TEXT_FORMAT]];
    }),
  );
  range.values = grid;
}

/** Largest text kept in one store cell (Excel's limit is 32,767 characters). */
const MAX_STORED_TEXT = 30_000;

/**
 * A spill area's number formats, small enough for one cell: one format when all agree, the grid
 * when it fits, else one format per column (the column's first cell) — large spills are columnar.
 */
export function encodeFormats(formats: string[][]): string {
  const first = formats[0]?.[0] ?? "General";
  if (formats.every((line) => line.every((f) => f === first))) return JSON.stringify({ all: first });
  const grid = JSON.stringify({ grid: formats });
  if (grid.length <= MAX_STORED_TEXT) return grid;
  return JSON.stringify({ columns: formats[0] });
}

/** The grid back from {@link encodeFormats}, sized to `area`. */
export function decodeFormats(text: string, area: { rows: number; cols: number }): string[][] {
  const parsed = JSON.parse(text) as { all?: string; grid?: string[][]; columns?: string[] };
  if (parsed.grid) return parsed.grid;
  return Array.from({ length: area.rows }, () =>
    Array.from({ length: area.cols }, (_, c) => parsed.all ?? parsed.columns?.[c] ?? "General"),
  );
}

function local(row: number, column: number, rows: number, columns: number): string {
  const start = `${columnLetters(column)}${row + 1}`;
  return rows === 1 && columns === 1 ? start : `${start}:${columnLetters(column + columns - 1)}${row + rows}`;
}

/**
 * The replaced formulas on record (`all`), and those whose cell lies in the scope (`inScope`):
 * the selection, the active sheet, or the workbook.
 */
export async function readStaticCellsInScope(
  context: Excel.RequestContext,
  scope: Scope,
): Promise<{ all: StaticCell[]; inScope: StaticCell[] }> {
  const all = await readStaticCells(context);
  if (scope === "workbook") return { all, inScope: all };
  if (scope === "sheet") {
    const sheetName = await readActiveSheetName(context);
    return { all, inScope: all.filter((c) => c.sheetName === sheetName) };
  }
  const selection = await readSelectedArea(context);
  return {
    all,
    inScope: all.filter((c) => {
      if (c.sheetName !== selection.sheetName) return false;
      const at = parseA1(c.address);
      return (
        at.row >= selection.row &&
        at.row < selection.row + selection.rows &&
        at.col >= selection.column &&
        at.col < selection.column + selection.columns
      );
    }),
  };
}

/**
 * Splits replaced formulas by whether their cell still holds the value the static copy wrote
 * (`unchanged`: safe to restore) or was changed since, or its sheet is gone (`changed`: left alone).
 */
export async function sortByChangeSinceCopy(
  context: Excel.RequestContext,
  cells: readonly StaticCell[],
): Promise<{ unchanged: StaticCell[]; changed: StaticCell[] }> {
  const probes = cells.map((cell) => ({
    cell,
    sheet: context.workbook.worksheets.getItemOrNullObject(cell.sheetName),
  }));
  await context.sync();
  const ranges = probes.map(({ cell, sheet }) => {
    if (sheet.isNullObject) return { cell, range: null };
    const range = sheet.getRange(cell.address);
    range.load("values, formulas");
    return { cell, range };
  });
  await context.sync();
  const unchanged: StaticCell[] = [];
  const changed: StaticCell[] = [];
  for (const { cell, range } of ranges) {
    const same = range !== null && range.values[0][0] === cell.value && !String(range.formulas[0][0]).startsWith("=");
    (same ? unchanged : changed).push(cell);
  }
  return { unchanged, changed };
}

/** "'My sheet'!B7". */
export function qualified(cell: Pick<StaticCell, "sheetName" | "address">): string {
  return `${quoteSheetName(cell.sheetName)}!${cell.address}`;
}
