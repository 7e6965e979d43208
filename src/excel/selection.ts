/**
 * Reading where the user is: the selection's place and size, the active sheet's name, and the
 * selected cell with what surrounds it (its formula, value, the used range's header and row, and
 * the formula that spilled into it).
 */
import type { CellValue } from "../shaping/types";
import { requirementSupported } from "../shared/requirements";

/** The selection: its sheet, 0-based top-left, and size. */
export interface SelectedArea {
  sheetName: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/** Reads the place and size of the current selection (nothing of its contents). */
export async function readSelectedArea(context: Excel.RequestContext): Promise<SelectedArea> {
  const range = context.workbook.getSelectedRange();
  range.load("rowIndex, columnIndex, rowCount, columnCount");
  const sheet = range.worksheet;
  sheet.load("name");
  await context.sync();
  return {
    sheetName: sheet.name,
    row: range.rowIndex,
    column: range.columnIndex,
    rows: range.rowCount,
    columns: range.columnCount,
  };
}

/** The active sheet's name. */
export async function readActiveSheetName(context: Excel.RequestContext): Promise<string> {
  const sheet = context.workbook.worksheets.getActiveWorksheet();
  sheet.load("name");
  await context.sync();
  return sheet.name;
}

/** The formula whose array spilled into a cell, and where in that array the cell is. */
export interface SpillParent {
  /** The anchor's sheet-qualified address, e.g. "Sheet1!B2". */
  address: string;
  formula: string;
  /** The cell's 0-based row and column within the spill (the anchor is 0, 0). */
  row: number;
  column: number;
}

/** The selected cell (the selection's top-left) and its place in the used range of its sheet. */
export interface SelectedCell {
  /** Sheet-qualified address, e.g. "Sheet1!B7". */
  address: string;
  sheetName: string;
  /** Its formula ("" when it holds none), and the value it shows. */
  formula: string;
  value: CellValue;
  /** The used range's first row, as text; empty when the sheet is empty. */
  header: string[];
  /** The used range's row the cell is on; empty when the sheet is empty. */
  row: CellValue[];
  /** The cell's column within the used range (an index into `header` and `row`); -1 when the sheet is empty. */
  column: number;
  /**
   * For a cell without a formula: the formula that spilled into it, or null when none did;
   * "unknown" when this Excel cannot tell (Range.getSpillParentOrNullObject is ExcelApi 1.12).
   * Undefined for a formula cell: it is its own anchor.
   */
  spillParent?: SpillParent | null | "unknown";
}

/** Reads the selected cell: formula, value, the header and row of the used range around it, and its spill's anchor. */
export async function readSelectedCell(context: Excel.RequestContext): Promise<SelectedCell> {
  const cell = context.workbook.getSelectedRange().getCell(0, 0);
  cell.load("address, formulas, values, rowIndex, columnIndex");
  const sheet = cell.worksheet;
  sheet.load("name");
  // Only the used range's header row and the cell's row are read, never the whole used range: a
  // pasted extended summary holds over a million cells, more than one response may carry.
  // (The rows come from getUsedRange, which answers A1 on an empty sheet, so no call is made on a
  // null object; the null form says whether the sheet is empty.)
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("columnIndex");
  const usedOrA1 = sheet.getUsedRange(true);
  const headerRow = usedOrA1.getRow(0);
  headerRow.load("values");
  const cellRow = usedOrA1.getIntersectionOrNullObject(cell.getEntireRow());
  cellRow.load("values");
  // Asked in the same request, used only when the cell holds no formula. Office.js: "Gets the range
  // object containing the anchor cell for the cell getting spilled into. If it's not a spilled cell
  // [...] returns an object with its isNullObject property set to true" (ExcelApi 1.12).
  const parent = requirementSupported("ExcelApi", "1.12") ? cell.getSpillParentOrNullObject() : undefined;
  parent?.load("address, formulas, rowIndex, columnIndex");
  await context.sync();
  const formula = String(cell.formulas[0]?.[0] ?? "");
  const spillParent = (): SelectedCell["spillParent"] => {
    if (!parent) return "unknown";
    if (parent.isNullObject) return null;
    return {
      address: parent.address,
      formula: String(parent.formulas[0]?.[0] ?? ""),
      row: cell.rowIndex - parent.rowIndex,
      column: cell.columnIndex - parent.columnIndex,
    };
  };
  return {
    address: cell.address,
    sheetName: sheet.name,
    formula,
    value: cell.values[0]?.[0] as CellValue,
    header: used.isNullObject ? [] : (headerRow.values[0] ?? []).map((h) => String(h ?? "")),
    row: used.isNullObject || cellRow.isNullObject ? [] : ((cellRow.values[0] ?? []) as CellValue[]),
    column: used.isNullObject ? -1 : cell.columnIndex - used.columnIndex,
    spillParent: formula.startsWith("=") ? undefined : spillParent(),
  };
}
