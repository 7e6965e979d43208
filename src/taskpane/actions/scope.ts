import { readBlock } from "../../excel/replaceTable";
import { columnLetters, quoteSheetName } from "../../shaping/a1";
import type { CellValue } from "../../shaping/types";
import { RISK_CALL } from "../../excel/riskCells";

/** Where a scoped operation (refresh, convert to values, restore) applies. */
export type Scope = "selection" | "sheet" | "workbook";

/** Human names of the scopes, for buttons and messages. */
export const SCOPE_LABELS: Record<Scope, string> = {
  selection: "Selection",
  sheet: "Active sheet",
  workbook: "Whole workbook",
};

/** A cell whose formula calls a RISK.* function. */
export interface RiskCell {
  sheetName: string;
  /** 0-based, on the sheet. */
  row: number;
  column: number;
  formula: string;
  /** The value it shows now. */
  value: CellValue;
  /** Whether it shows an error value (#N/A, #VALUE!, ...). */
  isError: boolean;
}

/** A block of cells to look at on one sheet (0-based). */
export interface Block {
  sheet: Excel.Worksheet;
  sheetName: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/**
 * The blocks of a scope: the selection cut to the used range, the active sheet's used range, or
 * every sheet's used range. Empty when there is nothing.
 */
export async function scopeBlocks(context: Excel.RequestContext, scope: Scope): Promise<Block[]> {
  const sheets: Excel.Worksheet[] = [];
  let selection: Excel.Range | undefined;
  if (scope === "workbook") {
    const all = context.workbook.worksheets;
    all.load("items/name");
    await context.sync();
    sheets.push(...all.items);
  } else if (scope === "sheet") {
    sheets.push(context.workbook.worksheets.getActiveWorksheet());
  } else {
    selection = context.workbook.getSelectedRange();
    sheets.push(selection.worksheet);
  }
  const used = sheets.map((sheet) => {
    sheet.load("name");
    const range = sheet.getUsedRangeOrNullObject(false);
    range.load("rowIndex, columnIndex, rowCount, columnCount");
    return { sheet, range };
  });
  selection?.load("rowIndex, columnIndex, rowCount, columnCount");
  await context.sync();
  const blocks: Block[] = [];
  for (const { sheet, range } of used) {
    if (range.isNullObject) continue;
    let top = range.rowIndex;
    let left = range.columnIndex;
    let bottom = range.rowIndex + range.rowCount;
    let right = range.columnIndex + range.columnCount;
    if (selection) {
      top = Math.max(top, selection.rowIndex);
      left = Math.max(left, selection.columnIndex);
      bottom = Math.min(bottom, selection.rowIndex + selection.rowCount);
      right = Math.min(right, selection.columnIndex + selection.columnCount);
    }
    if (bottom <= top || right <= left) continue;
    blocks.push({ sheet, sheetName: sheet.name, row: top, column: left, rows: bottom - top, columns: right - left });
  }
  return blocks;
}

/** Every RISK cell in the scope (optionally only those showing an error), sheet by sheet, row by row. */
export async function findRiskCells(
  context: Excel.RequestContext,
  scope: Scope,
  onlyErrors: boolean,
): Promise<RiskCell[]> {
  const out: RiskCell[] = [];
  for (const block of await scopeBlocks(context, scope)) {
    const formulas = await readBlock(
      context,
      block.sheet,
      block.row,
      block.column,
      block.rows,
      block.columns,
      "formulas",
    );
    const hasRisk = formulas.some((line) => line.some(isRiskFormula));
    if (!hasRisk) continue;
    const values = await readBlock(context, block.sheet, block.row, block.column, block.rows, block.columns, "values");
    formulas.forEach((line, r) =>
      line.forEach((formula, c) => {
        if (!isRiskFormula(formula)) return;
        const value = values[r][c];
        const isError = typeof value === "string" && EXCEL_ERRORS.has(value);
        if (onlyErrors && !isError) return;
        out.push({
          sheetName: block.sheetName,
          row: block.row + r,
          column: block.column + c,
          formula: formula as string,
          value,
          isError,
        });
      }),
    );
  }
  return out;
}

/** The error values a cell can show, as `values` reports them. */
const EXCEL_ERRORS = new Set([
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#SPILL!",
  "#CALC!",
  "#BUSY!",
  "#CONNECT!",
  "#GETTING_DATA",
  "#FIELD!",
  "#BLOCKED!",
  "#UNKNOWN!",
]);

/** Whether a cell's formula calls a RISK.* function. */
export function isRiskFormula(formula: unknown): boolean {
  return typeof formula === "string" && formula.startsWith("=") && RISK_CALL.test(formula);
}

/** "'My sheet'!B7". */
export function cellAddress(sheetName: string, row: number, column: number): string {
  return `${quoteSheetName(sheetName)}!${columnLetters(column)}${row + 1}`;
}
