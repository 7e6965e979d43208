/**
 * Finding the cells that call RISK.* functions (in the whole workbook, or in a scope: the
 * selection, the active sheet, the workbook), re-entering their formulas, and recalculating the
 * workbook, on the Office API.
 */
import { isExcelErrorValue } from "../shaping/excel-errors";
import type { CellValue } from "../shaping/types";
import { RISK_CALL } from "../shaping/risk-formula";
import { readBlock, readBlocks } from "./read-range";

/** How many RISK.* cells a workbook holds, and where. */
export interface RiskCellCount {
  /** Cells whose formula calls a RISK.* function. */
  riskCells: number;
  /** Sheets holding at least one of them. */
  sheets: string[];
}

/**
 * Counts formulas that call RISK.* on every sheet; with `matches`, only those formulas it accepts
 * (e.g. the ones naming one portfolio). Only the cells holding a formula are read (Excel finds
 * them: {@link formulaBlocks}), in requests shared by the sheets' blocks: a workbook's pasted
 * sheets hold values, and reading their every cell's formula cost the weekly refresh 250 MB of
 * answers over 70 round trips before its recalculation could start.
 */
export async function countRiskCells(
  context: Excel.RequestContext,
  matches?: (formula: string) => boolean,
): Promise<RiskCellCount> {
  const blocks = await formulaBlocks(context);
  const read = await readBlocks(
    context,
    blocks.map((b) => ({
      sheet: b.sheet,
      row: b.row,
      col: b.column,
      rows: b.rows,
      cols: b.columns,
      properties: ["formulas"],
    })),
  );
  const bySheet = new Map<string, number>();
  blocks.forEach((block, i) => {
    let count = 0;
    for (const line of read[i].formulas!)
      for (const cell of line) if (isRiskFormula(cell) && (!matches || matches(cell))) count++;
    if (count > 0) bySheet.set(block.sheetName, (bySheet.get(block.sheetName) ?? 0) + count);
  });
  let riskCells = 0;
  for (const count of bySheet.values()) riskCells += count;
  return { riskCells, sheets: [...bySheet.keys()] };
}

/**
 * The blocks of every sheet's cells that hold a formula: each sheet's used range's special cells
 * of type formulas (`Range.getSpecialCellsOrNullObject`, ExcelApi 1.9, within the manifest's
 * requirement), in sheet order. Should Excel refuse to list them (a sheet of too many separate
 * areas), every sheet's used range instead, as before.
 */
async function formulaBlocks(context: Excel.RequestContext): Promise<Block[]> {
  const all = context.workbook.worksheets;
  all.load("items/name");
  await context.sync();
  const found = all.items.map((sheet) => {
    const special = sheet.getUsedRange(false).getSpecialCellsOrNullObject("Formulas" as Excel.SpecialCellType);
    special.load("areaCount");
    return { sheet, special };
  });
  try {
    await context.sync();
    const areas = found
      .filter(({ special }) => !special.isNullObject)
      .map(({ sheet, special }) => {
        const ranges = special.areas;
        ranges.load("items/rowIndex, items/columnIndex, items/rowCount, items/columnCount");
        return { sheet, ranges };
      });
    if (areas.length > 0) await context.sync();
    return areas.flatMap(({ sheet, ranges }) =>
      ranges.items.map((r) => ({
        sheet,
        sheetName: sheet.name,
        row: r.rowIndex,
        column: r.columnIndex,
        rows: r.rowCount,
        columns: r.columnCount,
      })),
    );
  } catch {
    return scopeBlocks(context, "workbook");
  }
}

/**
 * Queues the read of Excel's calculation mode with the caller's next request; the function
 * returned says, once it was sent, whether calculation is manual (formulas wait for F9).
 */
export function queueManualCalculation(context: Excel.RequestContext): () => boolean {
  const application = context.workbook.application;
  application.load("calculationMode");
  return () => application.calculationMode === ("Manual" as Excel.CalculationMode);
}

/**
 * Asks Excel to calculate what changed (F9: `Recalculate`, not a full recalculation): in manual
 * calculation the formulas over cells the add-in wrote wait for it, showing the old data.
 */
export async function recalculateChanged(context: Excel.RequestContext): Promise<void> {
  context.workbook.application.calculate("Recalculate" as Excel.CalculationType);
  await context.sync();
}

/** Asks Excel for a full recalculation, which re-runs every custom function in the workbook. */
export async function recalculateWorkbook(context: Excel.RequestContext): Promise<void> {
  context.workbook.application.calculate("Full" as Excel.CalculationType);
  await context.sync();
}

/** Whether a cell's formula calls a RISK.* function. */
export function isRiskFormula(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && RISK_CALL.test(formula);
}

/** Where a scoped operation (refresh, convert to values, restore) applies. */
export type Scope = "selection" | "sheet" | "workbook";

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
interface Block {
  sheet: Excel.Worksheet;
  sheetName: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/** Reads one property of a scope block's cells, in reads small enough for Excel on the web. */
function readScopeBlock(
  context: Excel.RequestContext,
  block: Block,
  property: "values" | "formulas",
): Promise<CellValue[][]> {
  return readBlock(context, block.sheet, block.row, block.column, block.rows, block.columns, property);
}

/**
 * The blocks of a scope: the selection cut to the used range, the active sheet's used range, or
 * every sheet's used range. Empty when there is nothing.
 */
async function scopeBlocks(context: Excel.RequestContext, scope: Scope): Promise<Block[]> {
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
    const formulas = await readScopeBlock(context, block, "formulas");
    const hasRisk = formulas.some((line) => line.some(isRiskFormula));
    if (!hasRisk) continue;
    const values = await readScopeBlock(context, block, "values");
    formulas.forEach((line, r) =>
      line.forEach((formula, c) => {
        if (!isRiskFormula(formula)) return;
        const value = values[r][c];
        const isError = isExcelErrorValue(value);
        if (onlyErrors && !isError) return;
        out.push({ sheetName: block.sheetName, row: block.row + r, column: block.column + c, formula, value, isError });
      }),
    );
  }
  return out;
}

/**
 * Writes each cell's formula back, in one request: Excel recalculates exactly those cells (and
 * what depends on them), and no other.
 */
export async function reenterRiskFormulas(context: Excel.RequestContext, cells: readonly RiskCell[]): Promise<void> {
  const sheets = new Map<string, Excel.Worksheet>();
  for (const cell of cells) {
    let sheet = sheets.get(cell.sheetName);
    if (!sheet) {
      sheet = context.workbook.worksheets.getItem(cell.sheetName);
      sheets.set(cell.sheetName, sheet);
    }
    sheet.getCell(cell.row, cell.column).formulas = [[cell.formula]];
  }
  await context.sync();
}
