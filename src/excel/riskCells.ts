/** Finding the cells that call RISK.* functions, and recalculating the workbook, on the Office API. */

/** How many RISK.* cells a workbook holds, and where. */
export interface RiskCellCount {
  /** Cells whose formula calls a RISK.* function. */
  riskCells: number;
  /** Sheets holding at least one of them. */
  sheets: string[];
}

/** Cells read per sync while counting: keeps each response far below Excel on the web's 5 MB. */
const CELLS_PER_READ = 40_000;
/** A formula that calls one of the RISK.* functions. */
export const RISK_CALL = /\bRISK\.[A-Z]+\s*\(/i;

/**
 * Counts formulas that call RISK.* on every sheet, reading the used range in slices; with
 * `matches`, only those formulas it accepts (e.g. the ones naming one portfolio).
 */
export async function countRiskCells(
  context: Excel.RequestContext,
  matches?: (formula: string) => boolean,
): Promise<RiskCellCount> {
  const worksheets = context.workbook.worksheets;
  worksheets.load("items/name");
  await context.sync();
  const used = worksheets.items.map((sheet) => ({ sheet, range: sheet.getUsedRangeOrNullObject(false) }));
  for (const { range } of used) range.load(["rowCount", "columnCount", "rowIndex", "columnIndex"]);
  await context.sync();

  let riskCells = 0;
  const sheets: string[] = [];
  for (const { sheet, range } of used) {
    if (range.isNullObject) continue;
    const rowsPerRead = Math.max(1, Math.floor(CELLS_PER_READ / Math.max(1, range.columnCount)));
    let onSheet = 0;
    for (let row = 0; row < range.rowCount; row += rowsPerRead) {
      const slice = sheet.getRangeByIndexes(
        range.rowIndex + row,
        range.columnIndex,
        Math.min(rowsPerRead, range.rowCount - row),
        range.columnCount,
      );
      slice.load("formulas");
      await context.sync();
      for (const line of slice.formulas as unknown[][]) {
        for (const cell of line)
          if (typeof cell === "string" && cell.startsWith("=") && RISK_CALL.test(cell) && (!matches || matches(cell)))
            onSheet++;
      }
    }
    if (onSheet > 0) {
      riskCells += onSheet;
      sheets.push(sheet.name);
    }
  }
  return { riskCells, sheets };
}

/** Asks Excel for a full recalculation, which re-runs every custom function in the workbook. */
export async function recalculateWorkbook(context: Excel.RequestContext): Promise<void> {
  context.workbook.application.calculate("Full" as Excel.CalculationType);
  await context.sync();
}
