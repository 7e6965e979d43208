/**
 * Reading and writing cells by address: a range's values with the formulas behind them, the
 * values of the cells a formula refers to (the first, or the one a spilled element pairs with), an
 * exact range's values, and formulas written down a column without overwriting anything.
 */
import { columnLetters, parseA1, quoteSheetName, rangeA1 } from "../shaping/a1";
import type { CellValue } from "../shaping/types";
import { sheetOf } from "./read-range";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** A range's address, values and formulas, and the sheet it is on. */
export interface FormulasAndValues {
  /** Sheet-qualified address, as Excel gives it. */
  address: string;
  sheetName: string;
  values: CellValue[][];
  /** Each cell's formula, or its constant where it holds no formula ("" when empty). */
  formulas: CellValue[][];
}

/**
 * Queues a read of the values and formulas of a sheet-qualified range, or of the selection when no
 * address is given: it goes with the caller's next sync (with another read, one round trip for
 * both); the returned function gives the cells once that sync has answered.
 */
export function queueFormulasAndValues(context: Excel.RequestContext, address?: string): () => FormulasAndValues {
  const range = address
    ? context.workbook.worksheets.getItem(sheetOf(address)).getRange(address.slice(address.lastIndexOf("!") + 1))
    : context.workbook.getSelectedRange();
  range.load("address, values, formulas");
  const sheet = range.worksheet;
  sheet.load("name");
  return () => ({
    address: range.address,
    sheetName: sheet.name,
    values: range.values as CellValue[][],
    formulas: range.formulas as CellValue[][],
  });
}

/**
 * {@link queueFormulasAndValues} read at once, with whatever else the caller queued (one request).
 */
export async function readFormulasAndValues(
  context: Excel.RequestContext,
  address?: string,
): Promise<FormulasAndValues> {
  const queued = queueFormulasAndValues(context, address);
  await context.sync();
  return queued();
}

/** Which cell of a referenced range to read, given the range's size (0-based, within the range). */
export type CellOfReference = (rows: number, columns: number) => { row: number; column: number };

/**
 * Reads the value of one cell of each reference ("A12", "$B$3", "'Sites'!C2", "B2:B20"), in one
 * request: a sheet-qualified reference on its sheet, any other on `onSheet` (by name), or on the
 * active sheet when none is given. The cell is the first, or the one `cellOf` picks by the range's
 * size (one more request, for the sizes). Keyed by the reference as given.
 */
export async function readReferencedValues(
  context: Excel.RequestContext,
  references: readonly string[],
  onSheet?: string,
  cellOf?: CellOfReference,
): Promise<Map<string, CellValue>> {
  const sheets = context.workbook.worksheets;
  const home = () => (onSheet === undefined ? sheets.getActiveWorksheet() : sheets.getItem(onSheet));
  const ranges = new Map<string, Excel.Range>();
  for (const reference of references) {
    if (ranges.has(reference)) continue;
    const bang = reference.lastIndexOf("!");
    const sheet = bang < 0 ? home() : sheets.getItem(sheetOf(reference));
    const range = sheet.getRange(bang < 0 ? reference : reference.slice(bang + 1));
    if (cellOf) range.load("rowCount, columnCount");
    ranges.set(reference, range);
  }
  if (cellOf && ranges.size > 0) await context.sync();
  const cells = new Map<string, Excel.Range>();
  for (const [reference, range] of ranges) {
    const at = cellOf ? cellOf(range.rowCount, range.columnCount) : { row: 0, column: 0 };
    const cell = range.getCell(at.row, at.column);
    cell.load("values");
    cells.set(reference, cell);
  }
  if (cells.size > 0) await context.sync();
  return new Map([...cells].map(([reference, cell]) => [reference, cell.values[0]?.[0] as CellValue]));
}

/** Reads the values of a sheet-qualified range exactly as addressed; null when its sheet no longer exists. */
export async function readValuesAt(context: Excel.RequestContext, address: string): Promise<CellValue[][] | null> {
  const a = parseA1(address);
  const sheet = context.workbook.worksheets.getItemOrNullObject(a.sheet ?? "");
  await context.sync();
  if (sheet.isNullObject) return null;
  const range = sheet.getRange(rangeA1(a.row, a.col, a.rows, a.cols));
  range.load("values");
  await context.sync();
  return range.values as CellValue[][];
}

/** Where a column of formulas goes: its sheet, 0-based top cell, and how many rows must be empty. */
export interface FormulaColumnTarget {
  sheetName: string;
  row: number;
  column: number;
  rows: number;
}

/**
 * Writes `formulas` down one column from the target's top cell. Refuses, changing nothing, when a
 * cell of that column (the target's rows, or as many as there are formulas if more) holds anything,
 * so nothing of the user's is overwritten, or when a formula that `spills` would go into an Excel
 * table (Excel shows #SPILL!: "Spilled array formulas aren't supported in Excel tables"). Returns
 * the sheet-qualified address written.
 */
export async function writeFormulaColumn(
  context: Excel.RequestContext,
  target: FormulaColumnTarget,
  formulas: readonly string[],
  options: { spills?: boolean } = {},
): Promise<string> {
  const sheet = context.workbook.worksheets.getItem(target.sheetName);
  const rows = Math.max(target.rows, formulas.length);
  const range = sheet.getRangeByIndexes(target.row, target.column, rows, 1);
  range.load("formulas");
  // Range.getTables (ExcelApi 1.9), in the same request.
  const tables = options.spills ? range.getCell(0, 0).getTables(false).load("items/name") : undefined;
  await context.sync();
  const taken = (range.formulas as CellValue[][]).findIndex((line) => line[0] !== "");
  const at = (row: number) => `${quoteSheetName(target.sheetName)}!${columnLetters(target.column)}${row + 1}`;
  if (taken >= 0)
    throw new Error(`${at(target.row + taken)} is not empty: select empty cells to insert into. Nothing was written.`);
  const table = tables?.items[0];
  if (table) throw new MessageError(message("excel.insert.spillInTable", { cell: at(target.row), table: table.name }));
  sheet.getRangeByIndexes(target.row, target.column, formulas.length, 1).formulas = formulas.map((f) => [f]);
  await context.sync();
  const last = formulas.length > 1 ? `:${columnLetters(target.column)}${target.row + formulas.length}` : "";
  return `${at(target.row)}${last}`;
}

/**
 * Writes one formula into a cell of a sheet by its local address ("K1"), replacing what it held:
 * for a cell the add-in owns (a check beside a table it wrote), never one of the user's.
 */
export async function writeOwnFormula(
  context: Excel.RequestContext,
  sheetName: string,
  address: string,
  formula: string,
): Promise<void> {
  context.workbook.worksheets.getItem(sheetName).getRange(address).formulas = [[formula]];
  await context.sync();
}

/**
 * Replaces a table's body by `rows` (values and formulas), growing it by rows added at its end
 * (TableRowCollection.add, ExcelApi 1.1) or shrinking it by its last rows deleted (TableRow.delete),
 * so cells below the table move with it as Excel moves them. For a table the add-in owns whole.
 */
export async function rewriteTableBody(
  context: Excel.RequestContext,
  tableName: string,
  rows: readonly (readonly CellValue[])[],
): Promise<void> {
  const table = context.workbook.tables.getItem(tableName);
  const body = table.getDataBodyRange();
  body.load("rowCount");
  await context.sync();
  const width = rows[0]?.length ?? 0;
  if (rows.length > body.rowCount)
    table.rows.add(
      undefined,
      Array.from({ length: rows.length - body.rowCount }, () => Array<string>(width).fill("")),
    );
  for (let i = body.rowCount - 1; i >= rows.length; i--) table.rows.getItemAt(i).delete();
  await context.sync();
  if (rows.length > 0) table.getDataBodyRange().formulas = rows.map((row) => row.map((v) => v ?? "")) as string[][];
  await context.sync();
}

/** The tables whose header row is `header` (every cell in order), with their body's formulas. */
export async function readTablesWithHeader(
  context: Excel.RequestContext,
  header: readonly string[],
): Promise<Array<{ name: string; formulas: CellValue[][] }>> {
  const tables = context.workbook.tables;
  tables.load("items/name");
  await context.sync();
  const heads = tables.items.map((t) => {
    const range = t.getHeaderRowRange();
    range.load("values");
    return range;
  });
  await context.sync();
  const ours = tables.items.filter((_, i) => heads[i]!.values[0]!.map(String).join("\n") === header.join("\n"));
  const bodies = ours.map((t) => {
    const body = t.getDataBodyRange();
    body.load("formulas");
    return body;
  });
  await context.sync();
  return ours.map((t, i) => ({ name: t.name, formulas: bodies[i]!.formulas as CellValue[][] }));
}
