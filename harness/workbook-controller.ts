/**
 * What a user does to the harness workbook (typing, pasting, clearing, selecting, recalculating),
 * in one place for the grid and for `window.harness`. Edits go through the fake as a user's typing
 * would (Excel's input rules), and around each edit the calculation engine cancels the calls of
 * overwritten cells, re-checks spills the edit lands in and recalculates dependent formulas.
 */
import type { FakeCellValue, FakeExcel } from "../testing/fake-excel";
import { formatAddress, formatLocal, parseLocal, splitSheet, type Rect } from "../testing/fake-excel/a1";
import type { SheetModel } from "../testing/fake-excel/model";
import type { CellError, FormulaEngine } from "./formula/engine";
import { cellText } from "./cell-text";

/** Everything the harness knows about one cell. */
export interface CellInfo {
  /** Sheet-qualified address, e.g. "Sheet1!B2". */
  address: string;
  value: FakeCellValue;
  formula?: string;
  /** What the grid shows. */
  text: string;
  /** The error the cell shows, with its message. */
  error?: CellError;
  /** The formula cell whose array spilled here. */
  spilledFrom?: string;
}

/** A resolved address: the sheet and the rectangle. */
export interface Target {
  sheet: SheetModel;
  rect: Rect;
}

/** Edits and reads the fake workbook the way a user at the grid would. */
export class WorkbookController {
  constructor(
    readonly fake: FakeExcel,
    readonly engine: FormulaEngine,
  ) {}

  /** "Sheet1!B2:C4", "'My sheet'!A1" or "B2" (on the active sheet). */
  resolve(address: string): Target {
    const { sheet: sheetName, local } = splitSheet(address);
    const sheet = sheetName === undefined ? this.fake.model.activeSheet : this.fake.model.findSheet(sheetName);
    if (!sheet) throw new Error(`No sheet named "${sheetName}" (sheets: ${this.fake.sheetNames().join(", ")})`);
    return { sheet, rect: parseLocal(local) };
  }

  /**
   * Type a block of values and formulas starting at `topLeft`. Plain values are written first and
   * formulas second, so formulas in the block see the values beside them, as after a paste in Excel.
   */
  setCells(topLeft: string, rows: unknown[][]): void {
    if (rows.length === 0) return;
    const { sheet, rect: start } = this.resolve(topLeft);
    const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
    const rect: Rect = { row: start.row, col: start.col, rows: rows.length, cols: width };
    const full = rows.map((row) => Array.from({ length: width }, (_, c) => normalize(row[c])));
    const isFormula = (v: unknown): boolean => typeof v === "string" && v.length > 1 && v.startsWith("=");
    const blocked = this.engine.beforeUserEdit(sheet, rect);
    const local = formatLocal(rect);
    this.fake.setValues(
      sheet.name,
      local,
      full.map((row) => row.map((v) => (isFormula(v) ? "" : v))),
    );
    if (full.some((row) => row.some(isFormula))) {
      this.fake.setValues(
        sheet.name,
        local,
        full.map((row) => row.map((v) => (isFormula(v) ? v : null))),
      );
    }
    this.engine.recalculateKeys(blocked);
    this.engine.recalculateDependents(sheet, rect, rect);
  }

  /** Type one value or formula into one cell. */
  setCell(address: string, value: unknown): void {
    this.setCells(address, [[value]]);
  }

  /** Empty every cell of a range (the Delete key). */
  clear(address: string): void {
    const { sheet, rect } = this.resolve(address);
    const rows = Array.from({ length: rect.rows }, () => Array.from({ length: rect.cols }, () => ""));
    this.setCells(formatAddress(sheet.name, { ...rect, rows: 1, cols: 1 }), rows);
  }

  /** What one cell holds and shows. */
  getCell(address: string): CellInfo {
    const { sheet, rect } = this.resolve(address);
    const cell = sheet.cell(rect.row, rect.col);
    const value = cell?.value ?? "";
    const info: CellInfo = {
      address: formatAddress(sheet.name, { ...rect, rows: 1, cols: 1 }),
      value,
      text: cellText(value, cell?.numberFormat),
    };
    if (cell?.formula !== undefined) info.formula = cell.formula;
    const error = this.engine.errorAt(sheet, rect.row, rect.col);
    if (error) info.error = error;
    const anchor = this.engine.spillAnchorOf(sheet, rect.row, rect.col);
    if (anchor) info.spilledFrom = anchor;
    return info;
  }

  /** The values of a range as a 2-D array (what `range.values` would give). */
  getValues(address: string): FakeCellValue[][] {
    const { sheet, rect } = this.resolve(address);
    return this.fake.read(sheet.name, formatLocal(rect), "values") as FakeCellValue[][];
  }

  /** Make a range the selection (activating its sheet), as a click or drag would. */
  select(address: string): void {
    const { sheet, rect } = this.resolve(address);
    this.fake.setSelection(sheet.name, formatLocal(rect));
  }

  /** Show another sheet, keeping its selection. */
  activate(sheetName: string): void {
    const sheet = this.fake.model.findSheet(sheetName);
    if (!sheet) throw new Error(`No sheet named "${sheetName}"`);
    this.fake.setSelection(sheet.name, formatLocal(sheet.selection));
  }

  /** Recalculate every formula in the workbook (the Recalculate button, Excel's F9). */
  recalcAll(): void {
    this.fake.recalculate();
  }
}

/** Values as a user types them: text stays text (the fake applies Excel's input rules), null means blank. */
function normalize(value: unknown): FakeCellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return value;
  return String(value);
}
