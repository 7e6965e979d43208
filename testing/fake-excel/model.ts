/**
 * The state of the fake workbook and every rule that changes it. Proxies (context.ts and friends)
 * queue operations; at `context.sync()` the operations call into this model, which enforces
 * Excel's rules (sheet names, dimensions, table overlaps, ...) by throwing FakeExcelError.
 */
import { isExcelErrorValue } from "../../src/shaping/excel-errors";
import { FakeErrorCodes, FakeExcelError, invalidArgument } from "./errors";
import type { DataValidationModel } from "./data-validation";
import { Rect, MAX_COLUMNS, MAX_ROWS, formatAddress, intersects, intersection } from "./a1";
import { adjustFormula, translateFormula, type ColumnShift, type RowShift } from "./shift";

/** A value a cell can hold, as Excel's `values` reports it ("" is an empty cell). */
export type FakeCellValue = string | number | boolean;

/** One cell. `value` of a formula cell is the evaluated result. */
export interface CellModel {
  value: FakeCellValue;
  formula?: string;
  numberFormat?: string;
  /** `range.hyperlink` as set (Excel.RangeHyperlink, ExcelApi 1.7): a URL or a place in the workbook. */
  hyperlink?: FakeHyperlink;
  /** `range.dataValidation` as set (Excel.DataValidation, ExcelApi 1.8; data-validation.ts). */
  validation?: DataValidationModel;
}

/**
 * Excel.RangeHyperlink: `address` is a URL target, `documentReference` a place in the workbook
 * (`'Sheet name'!A1`), `screenTip` the hover text, `textToDisplay` the text of the range's top-left
 * cell. Excel does not check a document reference when it is set (a link to a missing sheet is
 * kept, and says "Reference isn't valid" when clicked); neither does the fake.
 */
export interface FakeHyperlink {
  address?: string;
  documentReference?: string;
  screenTip?: string;
  textToDisplay?: string;
}

/** A table on a sheet; `rect` includes the header row. */
export interface TableModel {
  id: string;
  name: string;
  sheet: SheetModel;
  rect: Rect;
  style?: string;
  /** The fields of the last Table.sort.apply, for sort.reapply(). */
  sortFields?: Array<{ key: number; ascending?: boolean }>;
  /** Table.showTotals: the table's last row is its total row (see setTableTotals). */
  showTotals?: boolean;
  /** Its AutoFilter has criteria (AutoFilter.isDataFiltered): Excel moves none of its cells (checkNotFiltered). */
  filtered?: boolean;
  deleted: boolean;
}

/** A chart as recorded: what it was built from and which series were added. */
export interface ChartModel {
  id: string;
  name: string;
  type: string;
  sourceAddress: string;
  seriesBy: string;
  series: Array<{ name?: string; values?: string; xValues?: string }>;
  settings: Record<string, unknown>;
  deleted: boolean;
}

/** A conditional format as recorded: its type, range and whatever rule/format was set on it. */
export interface ConditionalFormatModel {
  id: string;
  type: string;
  address: string;
  settings: Record<string, unknown>;
}

/** One worksheet. Rows are sparse arrays of sparse arrays, so 650,000 cells stay cheap. */
export class SheetModel {
  rows: Array<Array<CellModel | undefined> | undefined> = [];
  merges: Rect[] = [];
  charts: ChartModel[] = [];
  conditionalFormats: ConditionalFormatModel[] = [];
  formatSettings: Array<{ address: string; path: string; value: unknown }> = [];
  selection: Rect = { row: 0, col: 0, rows: 1, cols: 1 };
  /** Rows hidden by the user or a filter (Range.rowHidden, ExcelApi 1.2), 0-based. */
  hiddenRows = new Set<number>();
  visibility: "Visible" | "Hidden" | "VeryHidden" = "Visible";
  /** Worksheet.protection.protect() (ExcelApi 1.2): its cells are locked until unprotect(). */
  protected = false;
  deleted = false;

  constructor(
    readonly id: string,
    public name: string,
  ) {}

  /** The cell at (row, col), if anything was ever written there. */
  cell(row: number, col: number): CellModel | undefined {
    return this.rows[row]?.[col];
  }

  /** The cell at (row, col), created when missing. */
  cellForWrite(row: number, col: number): CellModel {
    let r = this.rows[row];
    if (!r) {
      r = [];
      this.rows[row] = r;
    }
    let c = r[col];
    if (!c) {
      c = { value: "" };
      r[col] = c;
    }
    return c;
  }

  /** Bounding box of cells holding a value or formula (and a number format unless valuesOnly). */
  usedRect(valuesOnly: boolean): Rect | null {
    let minR = Infinity,
      maxR = -1,
      minC = Infinity,
      maxC = -1;
    this.rows.forEach((row, r) => {
      if (!row) return;
      row.forEach((cell, c) => {
        if (!cell) return;
        const used =
          cell.value !== "" || cell.formula !== undefined || (!valuesOnly && cell.numberFormat !== undefined);
        if (!used) return;
        if (r < minR) minR = r;
        if (r > maxR) maxR = r;
        if (c < minC) minC = c;
        if (c > maxC) maxC = c;
      });
    });
    if (maxR < 0) return null;
    return { row: minR, col: minC, rows: maxR - minR + 1, cols: maxC - minC + 1 };
  }

  /** Cells in a rectangle, row by row; undefined when empty. Iterates only stored rows. */
  forEachStored(rect: Rect, fn: (cell: CellModel, row: number, col: number) => void): void {
    const endR = Math.min(rect.row + rect.rows, this.rows.length);
    for (let r = rect.row; r < endR; r++) {
      const row = this.rows[r];
      if (!row) continue;
      const endC = Math.min(rect.col + rect.cols, row.length);
      for (let c = rect.col; c < endC; c++) {
        const cell = row[c];
        if (cell) fn(cell, r, c);
      }
    }
  }
}

/** What a formula evaluator is told about the cell it evaluates. */
export interface FormulaCell {
  sheetName: string;
  /** Sheet-qualified ("Sheet1!B2"). */
  address: string;
  /**
   * The cell's 0-based row and column when the caller knows them (the model always does), so an
   * evaluator need not parse `address`: a full recalculation evaluates every formula cell, over a
   * million in the weekly bench, and parsing each address was a sixth of the garbage it made.
   */
  row?: number;
  col?: number;
}

/** A formula cell as the model hands it to the evaluator: its address is built only when asked for. */
class CellToEvaluate implements FormulaCell {
  constructor(
    readonly sheetName: string,
    readonly row: number,
    readonly col: number,
  ) {}

  get address(): string {
    return formatAddress(this.sheetName, { row: this.row, col: this.col, rows: 1, cols: 1 });
  }
}

/** Turns a formula into the value Excel would show; undefined falls back to "#NAME?". */
export type FormulaEvaluator = (formula: string, cell: FormulaCell) => FakeCellValue | undefined;

/** A change the model reports to listeners after a sync or a direct edit. */
export type FakeChange =
  | { kind: "cells"; sheetName: string; address: string }
  | { kind: "sheets" }
  | { kind: "selection"; sheetName: string; address: string }
  | { kind: "tables" }
  | { kind: "charts"; sheetName: string }
  | { kind: "formats"; sheetName: string; address: string };

const FORBIDDEN_SHEET_CHARS = /[[\]:*?/\\]/;
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The whole workbook: sheets in tab order, tables, the active sheet, and formula evaluation. */
/**
 * Excel's number culture: the system culture's separators (Application.cultureInfo.numberFormat)
 * and Excel's own override (File > Options > Advanced > "Use system separators"), which
 * Application.decimalSeparator / thousandsSeparator report ("Excel.Application", ExcelApi 1.11).
 */
export interface ExcelCultureModel {
  /** The system culture ("de-DE"), CultureInfo.name. */
  name: string;
  /** NumberFormatInfo.numberDecimalSeparator / numberGroupSeparator: the culture's. */
  cultureDecimal: string;
  cultureGroup: string;
  /** Application.useSystemSeparators; when false, Excel uses `customDecimal` and `customThousands`. */
  useSystemSeparators: boolean;
  customDecimal: string;
  customThousands: string;
}

/** en-US with system separators: the fake's default culture. */
export const EN_US_CULTURE: ExcelCultureModel = {
  name: "en-US",
  cultureDecimal: ".",
  cultureGroup: ",",
  useSystemSeparators: true,
  customDecimal: ".",
  customThousands: ",",
};

export class WorkbookModel {
  /** Application.calculationMode (workbook.ts FakeApplication). */
  calculationMode: "Automatic" | "AutomaticExceptTables" | "Manual" = "Automatic";
  sheets: SheetModel[] = [];
  /** Excel's number culture (what Application and its cultureInfo report). */
  culture: ExcelCultureModel = { ...EN_US_CULTURE };
  tables: TableModel[] = [];
  activeSheet: SheetModel;
  evaluator: FormulaEvaluator | undefined;
  /** Where an anchor cell's array spilled (set by the calculation engine that owns spills), if it did. */
  spillAreaOf: ((sheet: SheetModel, row: number, col: number) => Rect | undefined) | undefined;
  private nextId = 1;
  private pendingChanges: FakeChange[] = [];
  /**
   * Counts the operations that moved cells to other addresses (row shifts, table sorts): a
   * calculation engine that indexes formula cells by address rebuilds its index when it changes.
   */
  cellsMoved = 0;

  constructor(initialSheetName = "Sheet1") {
    this.activeSheet = new SheetModel(this.newId("sheet"), initialSheetName);
    this.sheets.push(this.activeSheet);
  }

  /** A fresh id like Excel's GUID-ish ids, readable in tests. */
  newId(prefix: string): string {
    return `{${prefix}-${this.nextId++}}`;
  }

  /** Changes gathered since the last call; the context hands them to listeners. */
  takeChanges(): FakeChange[] {
    const out = this.pendingChanges;
    this.pendingChanges = [];
    return out;
  }

  note(change: FakeChange): void {
    this.pendingChanges.push(change);
  }

  // ---- sheets -------------------------------------------------------------------------------

  /** Sheets that are not deleted, in tab order. */
  liveSheets(): SheetModel[] {
    return this.sheets.filter((s) => !s.deleted);
  }

  /** Find a sheet by name (case-insensitive) or id. */
  findSheet(key: string): SheetModel | undefined {
    const lower = key.toLowerCase();
    return this.liveSheets().find((s) => s.name.toLowerCase() === lower || s.id === key);
  }

  /** Excel's sheet-name rules; throws InvalidArgument / ItemAlreadyExists like Excel. */
  checkSheetName(name: string, except?: SheetModel): void {
    if (typeof name !== "string" || name.trim() === "" || name.length > 31) {
      throw invalidArgument(`The sheet name '${name}' is not valid: it must be 1 to 31 characters.`);
    }
    if (FORBIDDEN_SHEET_CHARS.test(name) || name.startsWith("'") || name.endsWith("'")) {
      throw invalidArgument(
        `The sheet name '${name}' is not valid: it contains [ ] : * ? / \\ or starts or ends with an apostrophe.`,
      );
    }
    if (name.toLowerCase() === "history") throw invalidArgument("'History' is a reserved sheet name.");
    const clash = this.liveSheets().find((s) => s !== except && s.name.toLowerCase() === name.toLowerCase());
    if (clash) {
      throw new FakeExcelError(
        FakeErrorCodes.itemAlreadyExists,
        `A resource with the same name or identifier already exists: '${clash.name}'.`,
      );
    }
  }

  /** worksheets.add(name?): appends a visible sheet, does not activate it. */
  addSheet(name?: string): SheetModel {
    let finalName = name;
    if (finalName === undefined || finalName === null) {
      let n = this.liveSheets().length + 1;
      while (this.findSheet(`Sheet${n}`)) n++;
      finalName = `Sheet${n}`;
    }
    this.checkSheetName(finalName);
    const sheet = new SheetModel(this.newId("sheet"), finalName);
    this.sheets.push(sheet);
    this.note({ kind: "sheets" });
    return sheet;
  }

  renameSheet(sheet: SheetModel, name: string): void {
    if (sheet.name === name) return;
    this.checkSheetName(name, sheet);
    sheet.name = name;
    this.note({ kind: "sheets" });
  }

  private visibleSheets(): SheetModel[] {
    return this.liveSheets().filter((s) => s.visibility === "Visible");
  }

  setVisibility(sheet: SheetModel, visibility: string): void {
    if (visibility !== "Visible" && visibility !== "Hidden" && visibility !== "VeryHidden") {
      throw invalidArgument(`'${visibility}' is not a sheet visibility.`);
    }
    if (visibility !== "Visible" && sheet.visibility === "Visible" && this.visibleSheets().length === 1) {
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        "A workbook must contain at least one visible worksheet.",
      );
    }
    sheet.visibility = visibility;
    if (visibility !== "Visible" && this.activeSheet === sheet) this.activeSheet = this.visibleSheets()[0];
    this.note({ kind: "sheets" });
  }

  /**
   * Refuses a change to the cells of a protected sheet. Every cell is locked unless its format says
   * otherwise (the fake keeps no unlocked cells), and Excel lets no locked cell of a protected sheet
   * change; Office.js reports protection refusals as `AccessDenied` ("If worksheet protection is
   * enabled and not paused, this method throws an `AccessDenied` error", WorksheetProtection).
   */
  checkUnprotected(sheet: SheetModel, what: string): void {
    if (sheet.protected)
      throw new FakeExcelError(
        FakeErrorCodes.accessDenied,
        `The cells of '${sheet.name}' are on a protected sheet: ${what} is refused until it is unprotected.`,
      );
  }

  /** WorksheetProtection.protect() / unprotect(): "Fails if the worksheet has already been protected." */
  setProtected(sheet: SheetModel, protect: boolean): void {
    if (protect && sheet.protected)
      throw new FakeExcelError(FakeErrorCodes.invalidOperation, `'${sheet.name}' is already protected.`);
    sheet.protected = protect;
    this.note({ kind: "sheets" });
  }

  deleteSheet(sheet: SheetModel): void {
    // Worksheet.delete(): "if the worksheet's visibility is set to "VeryHidden", the delete operation
    // will fail with an `InvalidOperation` exception. You should first change its visibility to hidden
    // or visible before deleting it." (Office.js reference; office-js issue #365: by design.)
    if (sheet.visibility === "VeryHidden") {
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        `The worksheet '${sheet.name}' is very hidden: make it hidden or visible before deleting it.`,
      );
    }
    const visible = this.visibleSheets();
    if (sheet.visibility === "Visible" && visible.length === 1) {
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        "A workbook must contain at least one visible worksheet.",
      );
    }
    const index = this.liveSheets().indexOf(sheet);
    sheet.deleted = true;
    for (const t of this.tables) if (t.sheet === sheet) t.deleted = true;
    this.tables = this.tables.filter((t) => !t.deleted);
    if (this.activeSheet === sheet) {
      const live = this.visibleSheets();
      this.activeSheet = live[Math.min(index, live.length - 1)] ?? live[0];
    }
    this.sheets = this.sheets.filter((s) => !s.deleted);
    this.note({ kind: "sheets" });
  }

  activate(sheet: SheetModel): void {
    if (sheet.visibility !== "Visible") {
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        `The sheet '${sheet.name}' is hidden and cannot be activated.`,
      );
    }
    this.activeSheet = sheet;
    this.note({ kind: "selection", sheetName: sheet.name, address: formatAddress(sheet.name, sheet.selection) });
  }

  select(sheet: SheetModel, rect: Rect): void {
    this.activate(sheet);
    sheet.selection = rect;
    this.note({ kind: "selection", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  // ---- cells --------------------------------------------------------------------------------

  /** Evaluate a formula through the hook, "#NAME?" when nobody knows it (as Excel without add-ins). */
  evaluate(sheet: SheetModel, row: number, col: number, formula: string): FakeCellValue {
    if (!this.evaluator) return "#NAME?";
    const result = this.evaluator(formula, new CellToEvaluate(sheet.name, row, col));
    return result === undefined ? "#NAME?" : result;
  }

  /**
   * Store what a user (or `values`/`formulas`) typed into a cell, following Excel's input rules:
   * in a cell formatted "@" everything stays as typed; otherwise "=..." is a formula, "+x"/"-x"
   * that are not numbers and "@x" become formulas (the way Excel's grid treats them; stricter than
   * Excel's API, so code that passes here is safe there), numeric text becomes a number and
   * TRUE/FALSE become booleans.
   */
  private input(
    sheet: SheetModel,
    row: number,
    col: number,
    raw: unknown,
    property: string,
    r: number,
    c: number,
  ): void {
    if (raw === null) return; // Excel: null in a values array leaves the cell unchanged
    if (typeof raw === "number") {
      if (!Number.isFinite(raw))
        throw invalidArgument(`A cell value must be a finite number (${property}[${r}][${c}]).`, property);
    } else if (typeof raw !== "string" && typeof raw !== "boolean") {
      throw invalidArgument(
        `Cell values must be strings, numbers or booleans; got ${typeof raw} (${property}[${r}][${c}]).`,
        property,
      );
    }
    if (typeof raw === "string" && raw.length > 32767) {
      throw invalidArgument(`Text in a cell is limited to 32,767 characters (${property}[${r}][${c}]).`, property);
    }
    const cell = sheet.cellForWrite(row, col);
    cell.formula = undefined;
    if (typeof raw !== "string") {
      // Office.js sends the batch as JSON, where -0 is written 0 (JSON.stringify, ECMA-262
      // SerializeJSONProperty): Excel never holds a negative zero, and reads 0 back.
      cell.value = raw === 0 ? 0 : raw;
      return;
    }
    if (cell.numberFormat === "@" || raw === "") {
      cell.value = raw;
      return;
    }
    const first = raw[0];
    let formula: string | undefined;
    if (first === "=" && raw.length > 1) formula = raw;
    else if ((first === "+" || first === "-") && raw.length > 1 && !NUMERIC.test(raw)) formula = "=" + raw;
    else if (first === "@" && raw.length > 1) formula = "=" + raw.slice(1);
    if (formula !== undefined) {
      cell.formula = formula;
      cell.value = this.evaluate(sheet, row, col, formula);
      return;
    }
    const trimmed = raw.trim();
    if (NUMERIC.test(trimmed))
      cell.value = Number(trimmed) + 0; // "-0" typed is 0 (+ 0 turns -0 into 0)
    else if (/^(true|false)$/i.test(trimmed)) cell.value = trimmed.toLowerCase() === "true";
    else cell.value = raw;
  }

  /** Broadcast a scalar or check a 2-D array against the range size, like Excel. */
  private grid(rect: Rect, data: unknown, property: string): (r: number, c: number) => unknown {
    if (!Array.isArray(data)) return () => data;
    if (data.length !== rect.rows || data.some((row) => !Array.isArray(row) || row.length !== rect.cols)) {
      const got = `${data.length}×${Array.isArray(data[0]) ? data[0].length : "?"}`;
      throw invalidArgument(
        `The number of rows or columns in the input array doesn't match the size or dimensions of the range (${property}: range is ${rect.rows}×${rect.cols}, array is ${got}).`,
        property,
      );
    }
    return (r, c) => (data as unknown[][])[r][c];
  }

  private checkWritable(sheet: SheetModel, rect: Rect): void {
    if (rect.rows * rect.cols > 5_000_000) throw invalidArgument("The range is too large to write in one request.");
    void sheet;
  }

  /** `range.values = ...` and `range.formulas = ...` (both follow the input rules). */
  writeValues(sheet: SheetModel, rect: Rect, data: unknown, property: "values" | "formulas"): void {
    this.checkUnprotected(sheet, `writing ${property}`);
    this.checkWritable(sheet, rect);
    const at = this.grid(rect, data, property);
    const rows = Array.isArray(data) ? (data as unknown[][]) : null;
    for (let r = 0; r < rect.rows; r++) {
      const line = rows ? rows[r] : null;
      for (let c = 0; c < rect.cols; c++) {
        this.input(sheet, rect.row + r, rect.col + c, line ? line[c] : at(r, c), property, r, c);
      }
    }
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /** `range.numberFormat = ...`: changes the format, never the stored value. */
  writeNumberFormat(sheet: SheetModel, rect: Rect, data: unknown): void {
    this.checkUnprotected(sheet, "writing number formats");
    this.checkWritable(sheet, rect);
    const at = this.grid(rect, data, "numberFormat");
    for (let r = 0; r < rect.rows; r++) {
      for (let c = 0; c < rect.cols; c++) {
        const f = at(r, c);
        if (f === null) continue;
        if (typeof f !== "string")
          throw invalidArgument(`A number format must be a string (numberFormat[${r}][${c}]).`);
        sheet.cellForWrite(rect.row + r, rect.col + c).numberFormat = f === "General" ? undefined : f;
      }
    }
    this.note({ kind: "formats", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /**
   * `range.clear(applyTo)`, as Excel.ClearApplyTo describes it: "Contents" keeps formatting and
   * hyperlinks (as the Delete key does), "Formats" keeps values and hyperlinks, "Hyperlinks" clears
   * only the links, "RemoveHyperlinks" the links and formatting, "All" everything.
   */
  clear(sheet: SheetModel, rect: Rect, what: string): void {
    this.checkUnprotected(sheet, "clearing cells");
    const links = what === "All" || what === "Hyperlinks" || what === "RemoveHyperlinks";
    const contents = what === "All" || what === "Contents";
    const formats = what === "All" || what === "Formats" || what === "RemoveHyperlinks";
    sheet.forEachStored(rect, (cell) => {
      if (contents) {
        cell.value = "";
        cell.formula = undefined;
      }
      if (formats) cell.numberFormat = undefined;
      if (links) cell.hyperlink = undefined;
    });
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /**
   * `range.hyperlink = link`: every cell of the range links to the target; `textToDisplay`, when
   * given, becomes the text of the top-left cell (Excel.RangeHyperlink). Only the four documented
   * fields are accepted.
   */
  writeHyperlink(sheet: SheetModel, rect: Rect, link: unknown): void {
    this.checkUnprotected(sheet, "writing a hyperlink");
    if (typeof link !== "object" || link === null) throw invalidArgument("A hyperlink must be an object.", "hyperlink");
    const fields = ["address", "documentReference", "screenTip", "textToDisplay"];
    for (const [key, value] of Object.entries(link)) {
      if (!fields.includes(key)) throw invalidArgument(`RangeHyperlink has no field '${key}'.`, "hyperlink");
      if (value !== undefined && typeof value !== "string")
        throw invalidArgument(`RangeHyperlink.${key} must be a string.`, "hyperlink");
    }
    const stored = { ...(link as FakeHyperlink) };
    for (let r = 0; r < rect.rows; r++)
      for (let c = 0; c < rect.cols; c++) sheet.cellForWrite(rect.row + r, rect.col + c).hyperlink = { ...stored };
    if (stored.textToDisplay !== undefined) {
      const corner = sheet.cellForWrite(rect.row, rect.col);
      corner.value = stored.textToDisplay; // shown as typed: a display text is never parsed
      corner.formula = undefined;
    }
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /** The hyperlink of the range's top-left cell, or an empty object when it has none. */
  readHyperlink(sheet: SheetModel, rect: Rect): FakeHyperlink {
    const link = sheet.cell(rect.row, rect.col)?.hyperlink;
    return link ? { ...link } : {};
  }

  /** Read a property of every cell in a rectangle as a 2-D array. */
  read(sheet: SheetModel, rect: Rect, property: string): unknown[][] {
    if (rect.rows * rect.cols > 10_000_000) throw invalidArgument("The range is too large to read.");
    const out: unknown[][] = new Array(rect.rows);
    for (let r = 0; r < rect.rows; r++) {
      const row = sheet.rows[rect.row + r];
      const line: unknown[] = new Array(rect.cols);
      for (let c = 0; c < rect.cols; c++) line[c] = cellProperty(row?.[rect.col + c], property);
      out[r] = line;
    }
    return out;
  }

  /** Re-run the evaluator over every formula cell (Application.calculate, or the harness). */
  recalculate(): void {
    for (const sheet of this.liveSheets()) {
      sheet.rows.forEach((row, r) =>
        row?.forEach((cell, c) => {
          if (cell?.formula !== undefined) cell.value = this.evaluate(sheet, r, c, cell.formula);
        }),
      );
      this.note({ kind: "cells", sheetName: sheet.name, address: `${sheet.name}!A1` });
    }
  }

  // ---- merges -------------------------------------------------------------------------------

  merge(sheet: SheetModel, rect: Rect, across: boolean): void {
    this.checkUnprotected(sheet, "merging cells");
    if (this.tables.some((t) => t.sheet === sheet && intersects(t.rect, rect))) {
      throw new FakeExcelError(FakeErrorCodes.invalidOperation, "Cells inside a table cannot be merged.");
    }
    const areas: Rect[] = across
      ? Array.from({ length: rect.rows }, (_, i) => ({ row: rect.row + i, col: rect.col, rows: 1, cols: rect.cols }))
      : [rect];
    for (const area of areas) {
      if (area.rows * area.cols < 2) continue;
      sheet.merges = sheet.merges.filter((m) => !intersects(m, area));
      sheet.merges.push(area);
      // Excel keeps only the upper-left value of a merged area.
      sheet.forEachStored(area, (cell, r, c) => {
        if (r === area.row && c === area.col) return;
        cell.value = "";
        cell.formula = undefined;
      });
    }
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  unmerge(sheet: SheetModel, rect: Rect): void {
    this.checkUnprotected(sheet, "unmerging cells");
    sheet.merges = sheet.merges.filter((m) => !intersects(m, rect));
  }

  mergedAreasIn(sheet: SheetModel, rect: Rect): Rect[] {
    return sheet.merges.filter((m) => intersects(m, rect)).map((m) => intersection(m, rect) ?? m);
  }

  // ---- tables -------------------------------------------------------------------------------

  /**
   * Table.showTotals (ExcelApi 1.1): "Specifies if the total row is visible." Turned on, the row
   * below the body becomes the total row ("Total" under the first column); turned off, it is
   * cleared. The fake asks for that row to be empty (Excel would make room), and models no row
   * additions or deletions of a table with a total row: it refuses them rather than guess.
   */
  setTableTotals(table: TableModel, show: boolean): void {
    if (show === (table.showTotals === true)) return;
    const sheet = table.sheet;
    this.checkUnprotected(sheet, "showing a total row");
    if (show) {
      const below: Rect = {
        row: table.rect.row + table.rect.rows,
        col: table.rect.col,
        rows: 1,
        cols: table.rect.cols,
      };
      let taken = false;
      sheet.forEachStored(below, (cell) => (taken ||= cell.value !== "" || cell.formula !== undefined));
      if (taken)
        throw new FakeExcelError(FakeErrorCodes.invalidOperation, "The fake shows a total row only over an empty row.");
      sheet.cellForWrite(below.row, below.col).value = "Total";
      table.rect = { ...table.rect, rows: table.rect.rows + 1 };
    } else {
      const last = table.rect.row + table.rect.rows - 1;
      for (let c = 0; c < table.rect.cols; c++) {
        const cell = sheet.cell(last, table.rect.col + c);
        if (cell) {
          cell.value = "";
          cell.formula = undefined;
        }
      }
      table.rect = { ...table.rect, rows: table.rect.rows - 1 };
    }
    table.showTotals = show;
    this.note({ kind: "tables" });
  }

  /** Excel's table-name rules, including uniqueness across the workbook. */
  checkTableName(name: string, except?: TableModel): void {
    if (
      typeof name !== "string" ||
      name.length === 0 ||
      name.length > 255 ||
      !/^[A-Za-z_\\][A-Za-z0-9_.\\]*$/.test(name) ||
      /^[A-Za-z]{1,3}\d+$/.test(name) ||
      /^[RrCc]$/.test(name) ||
      /^[Rr]\d*[Cc]\d*$/.test(name)
    ) {
      throw invalidArgument(`The table name '${name}' is not valid.`);
    }
    if (this.tables.some((t) => t !== except && t.name.toLowerCase() === name.toLowerCase())) {
      throw new FakeExcelError(FakeErrorCodes.itemAlreadyExists, `A table named '${name}' already exists.`);
    }
  }

  /** tables.add(address, hasHeaders): header cells become unique non-blank text. */
  addTable(sheet: SheetModel, rect: Rect, hasHeaders: boolean): TableModel {
    this.checkUnprotected(sheet, "adding a table");
    if (rect.rows * rect.cols > 5_000_000 || rect.rows === MAX_ROWS || rect.cols === MAX_COLUMNS) {
      throw invalidArgument("A table cannot span whole rows or columns in the fake.");
    }
    if (this.tables.some((t) => t.sheet === sheet && intersects(t.rect, rect))) {
      throw invalidArgument("A table can't overlap another table.");
    }
    if (sheet.merges.some((m) => intersects(m, rect))) {
      throw new FakeExcelError(FakeErrorCodes.invalidOperation, "A table can't contain merged cells.");
    }
    let tableRect = rect;
    if (!hasHeaders) {
      // Excel generates a header row and shifts the data down by one row.
      this.shiftDown(sheet, rect.row, rect.col, rect.cols, 1);
      tableRect = { ...rect, rows: rect.rows + 1 };
      for (let c = 0; c < rect.cols; c++) sheet.cellForWrite(rect.row, rect.col + c).value = "";
    }
    if (tableRect.rows === 1) tableRect = { ...tableRect, rows: 2 };
    const seen = new Set<string>();
    for (let c = 0; c < tableRect.cols; c++) {
      const cell = sheet.cellForWrite(tableRect.row, tableRect.col + c);
      let text = cell.formula !== undefined ? String(cell.value) : cellText(cell);
      if (text === "") text = `Column${c + 1}`;
      let unique = text;
      for (let n = 2; seen.has(unique.toLowerCase()); n++) unique = `${text}${n}`;
      seen.add(unique.toLowerCase());
      cell.value = unique;
      cell.formula = undefined;
    }
    let n = this.tables.length + 1;
    while (this.tables.some((t) => t.name.toLowerCase() === `table${n}`)) n++;
    const table: TableModel = { id: this.newId("table"), name: `Table${n}`, sheet, rect: tableRect, deleted: false };
    this.tables.push(table);
    this.note({ kind: "tables" });
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, tableRect) });
    return table;
  }

  /** Shift cells of some columns down from a row (table row insertion, header generation). */
  shiftDown(sheet: SheetModel, fromRow: number, col: number, cols: number, count: number): void {
    this.checkUnprotected(sheet, "inserting cells");
    for (let r = sheet.rows.length - 1; r >= fromRow; r--) {
      const row = sheet.rows[r];
      if (!row) continue;
      for (let c = col; c < col + cols; c++) {
        const cell = row[c];
        if (!cell) continue;
        const target = sheet.rows[r + count] ?? (sheet.rows[r + count] = []);
        target[c] = cell;
        row[c] = undefined;
      }
    }
  }

  /**
   * table.rows.add(index, values): inserts rows inside the table, shifting the cells below the
   * insertion point down in the table's columns only (cells beside the table stay where they are),
   * with references into the moved cells following them (see shift.ts). Excel.TableRowCollection:
   * "Adds one or more rows to the table."
   */
  addTableRows(table: TableModel, index: number | undefined | null, values: unknown): void {
    if (!Array.isArray(values) || values.length === 0) throw invalidArgument("rows.add needs a 2-D array of values.");
    this.checkNotFiltered(table.sheet, table.rect, "rows");
    const count = values.length;
    const bodyRows = table.rect.rows - 1;
    const at = index === undefined || index === null ? bodyRows : index;
    if (at < 0 || at > bodyRows) throw invalidArgument(`Row index ${at} is outside the table (0..${bodyRows}).`);
    const insertRow = table.rect.row + 1 + at;
    const insertRect: Rect = { row: insertRow, col: table.rect.col, rows: count, cols: table.rect.cols };
    this.grid(insertRect, values, "rows.add values"); // dimension check before changing anything
    const shift = { row: insertRow, count, col: table.rect.col, cols: table.rect.cols };
    const moves = this.tableMoves(table.sheet, shift, table);
    this.applyShift(table.sheet, shift, moves);
    table.rect = { ...table.rect, rows: table.rect.rows + count };
    this.writeValues(table.sheet, insertRect, values, "values");
    this.note({ kind: "tables" });
  }

  /**
   * TableRow.delete() and TableRowCollection.deleteRowsAt: "Deletes the cells of the table row and
   * shifts upward any remaining cells below" — in the table's columns only, so a note typed beside
   * the table stays on its sheet row while the table's rows move up under it. A table keeps at
   * least one body row: deleting every row is refused here (Excel empties the last row instead).
   */
  deleteTableRows(table: TableModel, index: number, count: number): void {
    this.checkNotFiltered(table.sheet, table.rect, "rows");
    const bodyRows = table.rect.rows - 1;
    if (!Number.isInteger(index) || index < 0 || count < 1 || index + count > bodyRows)
      throw invalidArgument(`Rows ${index}..${index + count - 1} are outside the table (0..${bodyRows - 1}).`);
    if (count === bodyRows)
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        "The fake keeps a table's last row: delete fewer rows.",
      );
    const shift = { row: table.rect.row + 1 + index, count: -count, col: table.rect.col, cols: table.rect.cols };
    const moves = this.tableMoves(table.sheet, shift, table);
    this.applyShift(table.sheet, shift, moves);
    table.rect = { ...table.rect, rows: table.rect.rows - count };
    this.note({ kind: "tables" });
  }

  /**
   * Excel moves no cell of a table whose AutoFilter has criteria: deleting or inserting cells that
   * shift its rows (from one of its rows down, in its columns) or its columns (in its rows, from
   * one of its columns right) fails, "Can't move cells in a filtered range or table" (Excel's own
   * words through COM, xlwings #2587); Excel on the web's "The operation failed because it
   * conflicts with a filtered range" (Graph, msgraph-sdk-java #1273); TableRow.delete does nothing
   * on a filtered table (office-js #994). InvalidOperation here. A shift wholly below or right of
   * the table moves none of its cells and is allowed.
   */
  checkNotFiltered(sheet: SheetModel, rect: Rect, along: "rows" | "columns"): void {
    for (const t of this.tables) {
      if (t.sheet !== sheet || t.deleted || !t.filtered) continue;
      const r = t.rect;
      const moves =
        along === "rows"
          ? rect.row < r.row + r.rows && rect.col < r.col + r.cols && r.col < rect.col + rect.cols
          : rect.col < r.col + r.cols && rect.row < r.row + r.rows && r.row < rect.row + rect.rows;
      if (moves)
        throw new FakeExcelError(
          FakeErrorCodes.invalidOperation,
          `Can't move cells in a filtered range or table (table "${t.name}").`,
        );
    }
  }

  /**
   * Range.delete(Excel.DeleteShiftDirection.up) and Range.insert(Excel.InsertShiftDirection.down)
   * (ExcelApi 1.1): the cells of the range are removed (or blank cells inserted) and the cells below
   * it, in its columns, move up (down); references follow (shift.ts). A table whose rows the range
   * covers in full width loses (gains) those rows; a table below in the range's columns moves with
   * them; Excel refuses an operation that would shift part of a table ("This operation is not
   * allowed. The operation is attempting to shift cells in a table on your worksheet."), and so
   * does the fake (InvalidOperation). Range.insert("Right") and Range.delete("Left") shift sideways
   * ({@link shiftColumns}).
   */
  shiftCells(sheet: SheetModel, rect: Rect, direction: string, insert: boolean): void {
    this.checkUnprotected(sheet, insert ? "inserting cells" : "deleting cells");
    this.checkNotFiltered(sheet, rect, direction === (insert ? "Right" : "Left") ? "columns" : "rows");
    if (direction === (insert ? "Right" : "Left")) return this.shiftColumns(sheet, rect, insert);
    if (direction !== (insert ? "Down" : "Up"))
      throw invalidArgument(
        `The fake models ${insert ? "insert(Down) and insert(Right)" : "delete(Up) and delete(Left)"}, not '${direction}'.`,
      );
    if (rect.rows >= MAX_ROWS) throw invalidArgument("Whole columns cannot be shifted up or down.");
    const shift = { row: rect.row, count: insert ? rect.rows : -rect.rows, col: rect.col, cols: rect.cols };
    const moves = this.tableMoves(sheet, shift);
    this.applyShift(sheet, shift, moves);
    this.note({ kind: "tables" });
  }

  /**
   * What a shift does to the sheet's tables: the rectangles they will have, or an error when it
   * would cut through one. `own` is the table whose rows are added or deleted (its rectangle is
   * updated by the caller).
   */
  private tableMoves(sheet: SheetModel, shift: Omit<RowShift, "sheetName">, own?: TableModel): Array<() => void> {
    const moves: Array<() => void> = [];
    const refuse = () =>
      new FakeExcelError(
        FakeErrorCodes.invalidOperation,
        "This operation is not allowed. The operation is attempting to shift cells in a table on your worksheet.",
      );
    const deleted = shift.count < 0 ? -shift.count : 0;
    for (const t of this.tables) {
      if (t.sheet !== sheet || t === own) continue;
      const r = t.rect;
      const sharesColumns = r.col < shift.col + shift.cols && shift.col < r.col + r.cols;
      const within = r.col >= shift.col && r.col + r.cols <= shift.col + shift.cols;
      const bottom = r.row + r.rows; // one past
      if (!sharesColumns || bottom <= shift.row) continue; // beside or wholly above
      if (!within) throw refuse();
      if (shift.count > 0) {
        if (shift.row <= r.row) moves.push(() => (t.rect = { ...r, row: r.row + shift.count }));
        else moves.push(() => (t.rect = { ...r, rows: r.rows + shift.count }));
        continue;
      }
      const end = shift.row + deleted;
      if (end <= r.row) {
        moves.push(() => (t.rect = { ...r, row: r.row - deleted }));
        continue;
      }
      if (shift.row <= r.row && end >= bottom) {
        moves.push(() => this.deleteTable(t));
        continue;
      }
      if (shift.row <= r.row) throw refuse(); // the header row would go, the body stay
      const gone = Math.min(end, bottom) - shift.row;
      if (r.rows - gone < 2)
        throw new FakeExcelError(FakeErrorCodes.invalidOperation, "The fake keeps a table's last row.");
      moves.push(() => (t.rect = { ...r, rows: r.rows - gone }));
    }
    return moves;
  }

  /** Moves the cells, rewrites every formula of the workbook, then applies the table moves. */
  private applyShift(sheet: SheetModel, at: Omit<RowShift, "sheetName">, tableMoves: Array<() => void>): void {
    this.cellsMoved++;
    const shift: RowShift = { ...at, sheetName: sheet.name };
    const end = at.col + at.cols;
    const moved: SheetModel["rows"] = [];
    const stored = sheet.rows.length;
    for (let r = 0; r < stored; r++) {
      const row = sheet.rows[r];
      if (!row) continue;
      for (let c = at.col; c < Math.min(end, row.length); c++) {
        const cell = row[c];
        if (!cell || r < at.row) continue;
        row[c] = undefined;
        if (at.count < 0 && r < at.row - at.count) continue; // deleted
        const to = r + at.count;
        (moved[to] ??= [])[c] = cell;
      }
    }
    moved.forEach((line, r) => line?.forEach((cell, c) => cell && ((sheet.rows[r] ??= [])[c] = cell)));
    if (at.col === 0 && at.cols >= MAX_COLUMNS) {
      const hidden = [...sheet.hiddenRows];
      sheet.hiddenRows = new Set(
        hidden
          .filter((r) => at.count > 0 || r < at.row || r >= at.row - at.count)
          .map((r) => (r >= at.row ? r + at.count : r)),
      );
    }
    this.followShift(sheet, shift);
    for (const move of tableMoves) move();
    this.note({
      kind: "cells",
      sheetName: sheet.name,
      address: `${formatAddress(sheet.name, { row: 0, col: 0, rows: 1, cols: 1 })}`,
    });
  }

  /** Every formula of the workbook, and the sheet's conditional formats, follow the moved cells (shift.ts). */
  private followShift(sheet: SheetModel, shift: RowShift | ColumnShift): void {
    for (const s of this.liveSheets()) {
      s.rows.forEach((row, r) =>
        row?.forEach((cell, c) => {
          if (cell?.formula === undefined) return;
          const next = adjustFormula(cell.formula, s.name, shift);
          if (next === cell.formula) return;
          cell.formula = next;
          cell.value = next.includes("#REF!") ? "#REF!" : this.evaluate(s, r, c, next);
        }),
      );
    }
    // Conditional formats on the sheet follow their cells the same way (Excel moves, grows and
    // shrinks their ranges with inserted and deleted cells); one whose cells were all deleted goes.
    sheet.conditionalFormats = sheet.conditionalFormats.filter((cf) => {
      const next = adjustFormula(`=${cf.address}`, sheet.name, shift).slice(1);
      if (next.includes("#REF!")) return false;
      cf.address = next;
      return true;
    });
  }

  /**
   * Range.insert(Excel.InsertShiftDirection.right) and Range.delete(Excel.DeleteShiftDirection.left)
   * (ExcelApi 1.1: "shifts the other cells to make space" / "Deletes the cells associated with the
   * range"): the cells right of the range, in its rows, move right (left) by its width; references
   * follow them (shift.ts). Tables, as Excel treats them when cells are inserted in or beside one:
   *  - a table right of the range, in its rows, moves with its cells;
   *  - cells inserted inside a table's columns (between its first and last), over its full height,
   *    become new columns of the table, whose header cells Excel names "Column1", "Column2", … (the
   *    names it gives any blank header, unique in the table); deleting columns of a table over its
   *    full height removes them from it, and deleting all of them deletes the table;
   *  - cells inserted at the column just right of a table are not part of it: a table grows on its
   *    own only when the analyst types beside it (AutoCorrect's "include new rows and columns"),
   *    never on an insertion; a program widens it with Table.resize (ExcelApi 1.13);
   *  - a shift that covers only some rows of a table is refused ("This operation is not allowed.
   *    The operation is attempting to shift cells in a table on your worksheet."), as for rows.
   */
  private shiftColumns(sheet: SheetModel, rect: Rect, insert: boolean): void {
    if (rect.cols >= MAX_COLUMNS) throw invalidArgument("Whole rows cannot be shifted left or right.");
    const count = insert ? rect.cols : -rect.cols;
    const deleted = insert ? 0 : rect.cols;
    const end = rect.col + deleted; // one past the last deleted column
    const moves: Array<() => void> = [];
    const named: TableModel[] = [];
    for (const t of this.tables) {
      const r = t.rect;
      if (t.sheet !== sheet || r.row >= rect.row + rect.rows || rect.row >= r.row + r.rows) continue;
      const right = r.col + r.cols; // one past
      if (right <= rect.col) continue; // wholly left of the shift
      if (r.row < rect.row || r.row + r.rows > rect.row + rect.rows)
        throw new FakeExcelError(
          FakeErrorCodes.invalidOperation,
          "This operation is not allowed. The operation is attempting to shift cells in a table on your worksheet.",
        );
      if (insert) {
        if (rect.col <= r.col) moves.push(() => (t.rect = { ...r, col: r.col + count }));
        else {
          moves.push(() => (t.rect = { ...r, cols: r.cols + count }));
          named.push(t);
        }
      } else if (end <= r.col) moves.push(() => (t.rect = { ...r, col: r.col - deleted }));
      else if (rect.col <= r.col && end >= right) moves.push(() => this.deleteTable(t));
      else if (rect.col <= r.col) moves.push(() => (t.rect = { ...r, col: rect.col, cols: right - end }));
      else moves.push(() => (t.rect = { ...r, cols: r.cols - (Math.min(end, right) - rect.col) }));
    }
    this.cellsMoved++;
    for (let r = rect.row; r < rect.row + rect.rows; r++) {
      const row = sheet.rows[r];
      if (!row || row.length <= rect.col) continue;
      const tail = row.splice(rect.col);
      if (insert) row.push(...new Array<CellModel | undefined>(rect.cols), ...tail);
      else row.push(...tail.slice(deleted));
    }
    this.followShift(sheet, {
      axis: "columns",
      sheetName: sheet.name,
      col: rect.col,
      count,
      row: rect.row,
      rows: rect.rows,
    });
    for (const move of moves) move();
    for (const t of named) {
      const taken = new Set<string>();
      for (let c = 0; c < t.rect.cols; c++) taken.add(cellText(sheet.cell(t.rect.row, t.rect.col + c)).toLowerCase());
      let n = 1;
      for (let c = rect.col; c < rect.col + rect.cols; c++) {
        while (taken.has(`column${n}`)) n++;
        sheet.cellForWrite(t.rect.row, c).value = `Column${n}`;
        taken.add(`column${n}`);
      }
    }
    this.note({ kind: "tables" });
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /**
   * Table.sort.apply(fields) (ExcelApi 1.2, Excel.TableSort): the body rows are reordered by the
   * fields (column index into the table, ascending unless `ascending: false`; numbers before text,
   * text case-insensitive, empty cells last, ties keep their order). Whole table rows move, the
   * analyst's columns inside the table with them; a formula in a moved cell has its relative row
   * references moved like a copy (shift.ts), and references from elsewhere keep their address.
   */
  sortTable(table: TableModel, fields: ReadonlyArray<{ key: number; ascending?: boolean }>): void {
    this.cellsMoved++;
    if (!Array.isArray(fields) || fields.length === 0) throw invalidArgument("sort.apply needs at least one field.");
    for (const f of fields)
      if (!Number.isInteger(f.key) || f.key < 0 || f.key >= table.rect.cols)
        throw invalidArgument(`Sort key ${String(f.key)} is not a column of the table.`);
    const { sheet, rect } = table;
    const top = rect.row + 1;
    const body = rect.rows - 1;
    const lines = Array.from({ length: body }, (_, i) =>
      Array.from({ length: rect.cols }, (_, c) => sheet.cell(top + i, rect.col + c)),
    );
    const rank = (v: FakeCellValue | undefined): [number, string | number] =>
      v === undefined || v === "" ? [2, ""] : typeof v === "number" ? [0, v] : [1, String(v).toLowerCase()];
    const order = lines.map((_, i) => i);
    order.sort((a, b) => {
      for (const f of fields) {
        const [ka, va] = rank(lines[a][f.key]?.value);
        const [kb, vb] = rank(lines[b][f.key]?.value);
        if (ka !== kb) return ka - kb; // empty cells last either way
        if (va === vb) continue;
        const less = va < vb ? -1 : 1;
        return f.ascending === false && ka !== 2 ? -less : less;
      }
      return a - b;
    });
    order.forEach((from, to) => {
      for (let c = 0; c < rect.cols; c++) {
        const cell = lines[from][c];
        const target = (sheet.rows[top + to] ??= []);
        target[rect.col + c] = cell;
        if (cell?.formula !== undefined && from !== to) {
          cell.formula = translateFormula(cell.formula, to - from);
          cell.value = this.evaluate(sheet, top + to, rect.col + c, cell.formula);
        }
      }
    });
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /** Range.rowHidden = hidden (ExcelApi 1.2): hides or shows every row of the rectangle. */
  setRowsHidden(sheet: SheetModel, rect: Rect, hidden: boolean): void {
    this.checkUnprotected(sheet, "hiding or showing rows");
    for (let r = rect.row; r < rect.row + rect.rows; r++) {
      if (hidden) sheet.hiddenRows.add(r);
      else sheet.hiddenRows.delete(r);
    }
    this.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /**
   * table.resize(range) (ExcelApi 1.13): "The header row must remain in the same row, and the
   * resulting table range must overlap the original table range"; it may not overlap another table.
   * Cells keep their values; only the table's extent changes.
   */
  resizeTable(table: TableModel, rect: Rect): void {
    if (rect.row !== table.rect.row) throw invalidArgument("The table's header row must stay in the same row.");
    if (!intersects(rect, table.rect))
      throw invalidArgument("The new table range must overlap the original table range.");
    if (rect.rows < 2) throw invalidArgument("A table needs a header row and at least one row.");
    if (this.tables.some((t) => t !== table && t.sheet === table.sheet && intersects(t.rect, rect))) {
      throw invalidArgument("A table can't overlap another table.");
    }
    table.rect = { ...rect };
    this.note({ kind: "tables" });
  }

  findTable(key: string): TableModel | undefined {
    const lower = key.toLowerCase();
    return this.tables.find((t) => !t.deleted && (t.name.toLowerCase() === lower || t.id === key));
  }

  deleteTable(table: TableModel): void {
    table.deleted = true;
    this.tables = this.tables.filter((t) => t !== table);
    this.note({ kind: "tables" });
  }
}

/** The displayed text of a cell (General format: shortest round-trip number text). */
export function cellText(cell: CellModel | undefined): string {
  if (!cell) return "";
  const v = cell.value;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return String(v);
}

function cellProperty(cell: CellModel | undefined, property: string): unknown {
  switch (property) {
    case "values":
      return cell ? cell.value : "";
    case "formulas":
      return cell ? (cell.formula ?? cell.value) : "";
    case "numberFormat":
      return cell?.numberFormat ?? "General";
    case "text":
      return cellText(cell);
    case "valueTypes": {
      if (!cell || cell.value === "") return "Empty";
      if (typeof cell.value === "number") return "Double";
      if (typeof cell.value === "boolean") return "Boolean";
      return cell.formula !== undefined && isExcelErrorValue(cell.value) ? "Error" : "String";
    }
    default:
      throw invalidArgument(`Unknown range property '${property}'.`);
  }
}
