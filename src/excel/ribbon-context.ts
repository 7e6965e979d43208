/**
 * What the Climate Risk tab's buttons depend on, read from the workbook cheaply: the selected
 * cell's address (read on every pause in selection changes), what it holds for Explain (its
 * formula, the formula that spilled into it, whether it is a data cell of a pasted summary), and
 * whether the workbook keeps formulas a static copy replaced (Restore formulas). Plus the scratch
 * evaluation of one RISK formula that "Check the add-in" asks for, which leaves nothing behind.
 */
import { parseA1 } from "../shaping/a1";
import { requirementSupported } from "../shared/requirements";
import { readProvenance } from "./provenance-sheets";
import { readStaticCells } from "./static-copies";
import { deleteVeryHiddenSheet } from "./store-sheets";

/** The selected cell's address ("Demo!B2"): the top-left cell of the selection, the one Explain reads. */
export async function readSelectedCellAddress(context: Excel.RequestContext): Promise<string> {
  const cell = context.workbook.getSelectedRange().getCell(0, 0);
  cell.load("address");
  await context.sync();
  return cell.address;
}

/** What Explain needs to know of the selected cell to be offered. */
export interface SelectedCellFacts {
  address: string;
  /** Its formula, or the formula of the cell that spilled into it. */
  formula: string;
  /** It is a data cell of a pasted summary or extended summary table (the scores Explain explains). */
  pastedScore: boolean;
}

/** Operations whose pasted rows Explain explains. */
const EXPLAINED_PASTES = new Set(["summary", "extended-summary"]);

/** Reads the selected cell's formula (or its spill parent's, from ExcelApi 1.12) and whether it is a pasted score. */
export async function readSelectedCellFacts(context: Excel.RequestContext): Promise<SelectedCellFacts> {
  const cell = context.workbook.getSelectedRange().getCell(0, 0);
  cell.load("address, formulas, rowIndex, columnIndex");
  const sheet = cell.worksheet;
  sheet.load("name");
  // "If it's not a spilled cell [...] returns an object with its isNullObject property set to
  // true" (Range.getSpillParentOrNullObject, ExcelApi 1.12); below 1.12 only the cell's own formula counts.
  const parent = requirementSupported("ExcelApi", "1.12") ? cell.getSpillParentOrNullObject() : undefined;
  parent?.load("formulas");
  await context.sync();
  // `formulas` holds a constant's value too: only text starting with "=" is a formula.
  const formulaOf = (value: unknown) => (typeof value === "string" && value.startsWith("=") ? value : "");
  const own = formulaOf(cell.formulas[0]?.[0]);
  const formula = own || (parent && !parent.isNullObject ? formulaOf(parent.formulas[0]?.[0]) : "");
  let pastedScore = false;
  if (!formula) {
    const { records } = await readProvenance(context);
    pastedScore = records.some((record) => {
      if (record.sheetName !== sheet.name || !EXPLAINED_PASTES.has(record.operation)) return false;
      const table = parseA1(record.tableAddress);
      return (
        cell.rowIndex > table.row &&
        cell.rowIndex < table.row + table.rows &&
        cell.columnIndex >= table.col &&
        cell.columnIndex < table.col + table.cols
      );
    });
  }
  return { address: cell.address, formula, pastedScore };
}

/** Whether the workbook keeps formulas a static copy replaced ("Restore formulas" has work to do). */
export async function hasStaticCopy(context: Excel.RequestContext): Promise<boolean> {
  return (await readStaticCells(context)).length > 0;
}

/** The name of the scratch sheet "Check the add-in" evaluates a formula in. */
export const SCRATCH_SHEET = "_ClimateRiskCheck";

/**
 * Writes `formula` into a very hidden scratch sheet, waits until Excel has calculated it (polling
 * its value while it shows #BUSY!, up to `timeoutMs`), and deletes the sheet again, whatever
 * happened: nothing is left in the workbook. Returns the value shown, or "#BUSY!" when it never settled.
 */
export async function evaluateInScratchSheet(
  context: Excel.RequestContext,
  formula: string,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<{ value: unknown; settled: boolean }> {
  const sheets = context.workbook.worksheets;
  // A scratch sheet left by a check the host closed half-way is removed first.
  const leftOver = sheets.getItemOrNullObject(SCRATCH_SHEET);
  await context.sync();
  if (!leftOver.isNullObject) deleteVeryHiddenSheet(leftOver);
  const scratch = sheets.add(SCRATCH_SHEET);
  scratch.visibility = "VeryHidden" as Excel.SheetVisibility;
  try {
    const cell = scratch.getRange("A1");
    cell.formulas = [[formula]];
    await context.sync();
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    for (;;) {
      cell.load("values");
      await context.sync();
      const value = cell.values[0]?.[0];
      if (value !== "#BUSY!" && value !== "#GETTING_DATA") return { value, settled: true };
      if (Date.now() > deadline) return { value, settled: false };
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
    }
  } finally {
    deleteVeryHiddenSheet(scratch);
    await context.sync();
  }
}
