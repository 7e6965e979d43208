/**
 * Reading where the user is: the selection's place and size, the active sheet's name, and the
 * selected cell with what surrounds it (its formula, value, and the used range's header and row).
 */
import type { CellValue } from "../shaping/types";

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
}

/** Reads the selected cell: formula, value, and the header and row of the used range around it. */
export async function readSelectedCell(context: Excel.RequestContext): Promise<SelectedCell> {
  const cell = context.workbook.getSelectedRange().getCell(0, 0);
  cell.load("address, formulas, values, rowIndex, columnIndex");
  const sheet = cell.worksheet;
  sheet.load("name");
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("rowIndex, columnIndex, values");
  await context.sync();
  return {
    address: cell.address,
    sheetName: sheet.name,
    formula: String(cell.formulas[0]?.[0] ?? ""),
    value: cell.values[0]?.[0] as CellValue,
    header: used.isNullObject ? [] : (used.values[0] ?? []).map((h) => String(h ?? "")),
    row: used.isNullObject ? [] : ((used.values[cell.rowIndex - used.rowIndex] ?? []) as CellValue[]),
    column: used.isNullObject ? -1 : cell.columnIndex - used.columnIndex,
  };
}
