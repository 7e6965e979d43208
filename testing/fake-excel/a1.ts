/**
 * A1 addresses for the fake: parsing "Sheet1!B2:D9", "A:C", "3:5" and formatting them back the
 * way Excel reports `range.address` (sheet name quoted when it needs quotes).
 * Kept separate from src/shaping on purpose: the fake models Excel on its own, so tests of our
 * address code against the fake cross-check two implementations.
 */
import { invalidArgument } from "./errors";

/** Excel's grid size. */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

/** A rectangle of cells, 0-based. */
export interface Rect {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/** 0-based column index to letters: 0 → "A", 27 → "AB". */
export function columnLetters(col: number): string {
  let n = col + 1;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function lettersToColumn(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Quote a sheet name for an address when Excel would: anything but plain letters/digits/_/. */
export function quoteSheetName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name)) return name;
  return `'${name.replace(/'/g, "''")}'`;
}

/** Split "Sheet1!A1:B2" into sheet and local part; the sheet is undefined when absent. */
export function splitSheet(address: string): { sheet?: string; local: string } {
  const bang = address.lastIndexOf("!");
  if (bang < 0) return { local: address.trim() };
  let sheet = address.slice(0, bang).trim();
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheet, local: address.slice(bang + 1).trim() };
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;
const COLS = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/;
const ROWS = /^\$?(\d{1,7}):\$?(\d{1,7})$/;

/** Parse a local A1 reference ("B2", "B2:D9", "A:C", "3:5"); throws InvalidArgument otherwise. */
export function parseLocal(local: string): Rect {
  const parts = local.split(":");
  let rect: Rect | undefined;
  const cols = COLS.exec(local);
  const rows = ROWS.exec(local);
  if (cols) {
    const a = lettersToColumn(cols[1]);
    const b = lettersToColumn(cols[2]);
    rect = { row: 0, rows: MAX_ROWS, col: Math.min(a, b), cols: Math.abs(a - b) + 1 };
  } else if (rows) {
    const a = Number(rows[1]) - 1;
    const b = Number(rows[2]) - 1;
    rect = { row: Math.min(a, b), rows: Math.abs(a - b) + 1, col: 0, cols: MAX_COLUMNS };
  } else if (parts.length === 1 || parts.length === 2) {
    const a = CELL.exec(parts[0]);
    const b = CELL.exec(parts[parts.length - 1]);
    if (a && b) {
      const r1 = Number(a[2]) - 1;
      const r2 = Number(b[2]) - 1;
      const c1 = lettersToColumn(a[1]);
      const c2 = lettersToColumn(b[1]);
      rect = {
        row: Math.min(r1, r2),
        rows: Math.abs(r1 - r2) + 1,
        col: Math.min(c1, c2),
        cols: Math.abs(c1 - c2) + 1,
      };
    }
  }
  if (!rect || rect.row < 0 || rect.col < 0 || rect.row + rect.rows > MAX_ROWS || rect.col + rect.cols > MAX_COLUMNS) {
    throw invalidArgument(`The address '${local}' is not a valid A1 reference.`);
  }
  return rect;
}

/** Local A1 text of a rectangle, the way Excel writes it ("A:A" for whole columns). */
export function formatLocal(rect: Rect): string {
  if (rect.row === 0 && rect.rows === MAX_ROWS) {
    return `${columnLetters(rect.col)}:${columnLetters(rect.col + rect.cols - 1)}`;
  }
  if (rect.col === 0 && rect.cols === MAX_COLUMNS) return `${rect.row + 1}:${rect.row + rect.rows}`;
  const first = `${columnLetters(rect.col)}${rect.row + 1}`;
  if (rect.rows === 1 && rect.cols === 1) return first;
  return `${first}:${columnLetters(rect.col + rect.cols - 1)}${rect.row + rect.rows}`;
}

/** Sheet-qualified address, as `range.address` reports it. */
export function formatAddress(sheetName: string, rect: Rect): string {
  return `${quoteSheetName(sheetName)}!${formatLocal(rect)}`;
}

/** Whether two rectangles share at least one cell. */
export function intersects(a: Rect, b: Rect): boolean {
  return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

/** The common part of two rectangles, or null. */
export function intersection(a: Rect, b: Rect): Rect | null {
  if (!intersects(a, b)) return null;
  const row = Math.max(a.row, b.row);
  const col = Math.max(a.col, b.col);
  return {
    row,
    col,
    rows: Math.min(a.row + a.rows, b.row + b.rows) - row,
    cols: Math.min(a.col + a.cols, b.col + b.cols) - col,
  };
}
