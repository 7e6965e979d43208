/**
 * How Excel rewrites formulas when cells move, for the fake's row insertion and deletion and its
 * sort. The rules, as Excel applies them (Microsoft Support, "Move or copy a formula" and "How to
 * correct a #REF! error"; the Office.js Range.insert / Range.delete and TableRow.delete members
 * only move cells, and Excel's own reference adjustment does the rest):
 *  - inserting cells shifts the cells below down; every reference to a shifted cell, on any sheet,
 *    is rewritten to the cell's new place ($-absolute references too: "absolute" is about copying,
 *    not moving). A range whose rows span the insertion point grows.
 *  - deleting cells shifts the cells below up; references to shifted cells follow them; a range
 *    that loses some of its rows shrinks; a reference whose every cell was deleted becomes #REF!
 *    (`=#REF!*2`, `=Summary!#REF!`), and the formula shows #REF!.
 *  - a shift of some columns only (Range.delete(up) of part of a row) moves references that lie
 *    wholly inside those columns; a range that reaches outside them keeps its address.
 *  - sorting moves cells as a copy would: a formula sorted to another row has its relative row
 *    references moved by as many rows (so `=B5*2` sorted from row 5 to row 3 reads `=B3*2`), while
 *    references from elsewhere into the sorted range are not changed (they name places, not rows).
 *  - inserting cells with a shift to the right (Range.insert("Right")) and deleting them with a
 *    shift to the left (Range.delete("Left")) are the same rules turned sideways: cells right of
 *    the range, in its rows, move; a reference wholly inside those rows follows them, a range whose
 *    columns span the insertion point widens, one whose every cell was deleted becomes #REF!. A
 *    whole-row reference ("3:5") spans every column and is not changed by a sideways shift.
 * Structured references (`Table1[@flood]`, `Table1[flood]`) name a table and a column, so they
 * follow the table by themselves: the rewriting leaves them, and anything in quotes, alone.
 */
import { columnLetters } from "../../src/shaping/a1";

/** A move of cells in some columns of one sheet: `count` > 0 inserts rows at `row`, < 0 deletes from it. */
export interface RowShift {
  sheetName: string;
  /** 0-based first row inserted, or first row deleted. */
  row: number;
  /** Rows inserted (positive) or deleted (negative). */
  count: number;
  /** 0-based columns that move: [col, col + cols). */
  col: number;
  cols: number;
}

/**
 * A sideways move of cells in some rows of one sheet: `count` > 0 inserts columns at `col`, < 0
 * deletes from it (Range.insert("Right"), Range.delete("Left")).
 */
export interface ColumnShift {
  axis: "columns";
  sheetName: string;
  /** 0-based first column inserted, or first column deleted. */
  col: number;
  /** Columns inserted (positive) or deleted (negative). */
  count: number;
  /** 0-based rows that move: [row, row + rows). */
  row: number;
  rows: number;
}

// A reference: optional sheet, a cell or cell range in A1, or a row range ("3:5").
const REFERENCE =
  /((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(?:(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})(?::(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7}))?|(\$?)(\d{1,7}):(\$?)(\d{1,7}))(?![A-Za-z0-9_(![])/g;

/**
 * The parts of a formula outside string literals and structured-reference brackets, each with a
 * function that rewrites it; the rest stays as it was.
 */
function rewritePlain(formula: string, rewrite: (plain: string) => string): string {
  let out = "";
  let plain = "";
  let depth = 0;
  let inString = false;
  for (let i = 0; i < formula.length; i++) {
    const ch = formula[i];
    if (inString) {
      out += ch;
      if (ch === '"') inString = false;
      continue;
    }
    if (depth > 0) {
      out += ch;
      if (ch === "[") depth++;
      else if (ch === "]") depth--;
      continue;
    }
    if (ch === '"' || ch === "[") {
      // A bracket after a name is a structured reference: the name goes with it, untouched.
      const name = ch === "[" ? (/[A-Za-z_\\][A-Za-z0-9_.\\]*$/.exec(plain)?.[0] ?? "") : "";
      out += rewrite(plain.slice(0, plain.length - name.length)) + name + ch;
      plain = "";
      if (ch === '"') inString = true;
      else depth = 1;
      continue;
    }
    plain += ch;
  }
  return out + rewrite(plain);
}

function letters(col: string): number {
  let n = 0;
  for (const ch of col.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function unquote(sheet: string): string {
  const name = sheet.slice(0, -1);
  return name.startsWith("'") ? name.slice(1, -1).replace(/''/g, "'") : name;
}

/**
 * New first and last row (0-based) of rows [top, bottom] after the shift (or columns after a
 * sideways one: the same rule), or null when all were deleted.
 */
function shiftRows(top: number, bottom: number, shift: { row: number; count: number }): [number, number] | null {
  if (shift.count > 0) {
    const moves = (r: number) => (r >= shift.row ? r + shift.count : r);
    // A range that spans the insertion point grows; one starting at it moves whole.
    return [moves(top), bottom >= shift.row ? bottom + shift.count : bottom];
  }
  const first = shift.row;
  const end = shift.row - shift.count; // one past the last deleted row
  if (top >= first && bottom < end) return null;
  const newTop = top < first ? top : top >= end ? top + shift.count : first;
  const newBottom = bottom < first ? bottom : bottom >= end ? bottom + shift.count : first - 1;
  return [newTop, newBottom];
}

/**
 * A formula of a cell on `formulaSheet` rewritten for a row shift on `shift.sheetName`: the
 * references into the moved cells follow them, those into deleted cells become #REF!.
 */
export function adjustFormula(formula: string, formulaSheet: string, shift: RowShift | ColumnShift): string {
  if ("axis" in shift) return adjustFormulaSideways(formula, formulaSheet, shift);
  const target = shift.sheetName.toLowerCase();
  return rewritePlain(formula, (plain) =>
    plain.replace(REFERENCE, (whole: string, ...g: Array<string | undefined>) => {
      const [sheet, c1$, c1, r1$, r1, c2$, c2, r2$, r2, rr1$, rr1, rr2$, rr2] = g;
      const onSheet = sheet === undefined ? formulaSheet : unquote(sheet);
      if (onSheet.toLowerCase() !== target) return whole;
      const prefix = sheet ?? "";
      if (rr1 !== undefined) {
        // Whole rows: every column moves only when the shift is of whole rows.
        if (shift.col !== 0 || shift.cols < 16_384) return whole;
        const rows = shiftRows(Number(rr1) - 1, Number(rr2) - 1, shift);
        return rows ? `${prefix}${rr1$}${rows[0] + 1}:${rr2$}${rows[1] + 1}` : `${prefix}#REF!`;
      }
      const left = letters(c1!);
      const right = c2 === undefined ? left : letters(c2);
      if (Math.min(left, right) < shift.col || Math.max(left, right) >= shift.col + shift.cols) return whole;
      const top = Number(r1) - 1;
      const bottom = r2 === undefined ? top : Number(r2) - 1;
      const rows = shiftRows(Math.min(top, bottom), Math.max(top, bottom), shift);
      if (!rows) return `${prefix}#REF!`;
      const first = `${c1$}${c1}${r1$}${rows[0] + 1}`;
      return c2 === undefined ? `${prefix}${first}` : `${prefix}${first}:${c2$}${c2}${r2$}${rows[1] + 1}`;
    }),
  );
}

/** {@link adjustFormula} for a sideways shift: references wholly inside the moved rows follow their columns. */
function adjustFormulaSideways(formula: string, formulaSheet: string, shift: ColumnShift): string {
  const target = shift.sheetName.toLowerCase();
  const along = { row: shift.col, count: shift.count };
  return rewritePlain(formula, (plain) =>
    plain.replace(REFERENCE, (whole: string, ...g: Array<string | undefined>) => {
      const [sheet, c1$, c1, r1$, r1, c2$, c2, r2$, r2, rr1] = g;
      const onSheet = sheet === undefined ? formulaSheet : unquote(sheet);
      if (onSheet.toLowerCase() !== target || rr1 !== undefined) return whole;
      const top = Number(r1) - 1;
      const bottom = r2 === undefined ? top : Number(r2) - 1;
      if (Math.min(top, bottom) < shift.row || Math.max(top, bottom) >= shift.row + shift.rows) return whole;
      const left = letters(c1!);
      const right = c2 === undefined ? left : letters(c2);
      const cols = shiftRows(Math.min(left, right), Math.max(left, right), along);
      const prefix = sheet ?? "";
      if (!cols) return `${prefix}#REF!`;
      const first = `${c1$}${columnLetters(cols[0])}${r1$}${r1}`;
      return c2 === undefined ? `${prefix}${first}` : `${prefix}${first}:${c2$}${columnLetters(cols[1])}${r2$}${r2}`;
    }),
  );
}

/** A formula moved `rows` rows as a copy moves it: relative row parts change, $-rows stay. */
export function translateFormula(formula: string, rows: number): string {
  if (rows === 0) return formula;
  const move = (abs: string | undefined, row: string) => (abs === "$" ? row : String(Number(row) + rows));
  return rewritePlain(formula, (plain) =>
    plain.replace(REFERENCE, (whole: string, ...g: Array<string | undefined>) => {
      const [sheet, c1$, c1, r1$, r1, c2$, c2, r2$, r2, rr1$, rr1, rr2$, rr2] = g;
      const prefix = sheet ?? "";
      if (rr1 !== undefined) return `${prefix}${rr1$}${move(rr1$, rr1)}:${rr2$}${move(rr2$, rr2!)}`;
      const first = `${c1$}${c1}${r1$}${move(r1$, r1!)}`;
      return c2 === undefined ? `${prefix}${first}` : `${prefix}${first}:${c2$}${c2}${r2$}${move(r2$, r2!)}`;
    }),
  );
}
