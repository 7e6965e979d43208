import { readProvenance, utcNow, writeProvenance } from "../../../excel/provenance-sheets";
import { findRiskCells, type Scope } from "../../../excel/risk-cells";
import {
  convertCellsToValues,
  qualified,
  readStaticCells,
  readStaticCellsInScope,
  restoreCells,
  sortByChangeSinceCopy,
  writeStaticCells,
} from "../../../excel/static-copies";
import { cellA1, parseA1, qualify } from "../../../shaping/a1";
import type { ExcelRunner } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** What "Convert to values" did. */
export interface ConvertResult {
  converted: number;
  /** Cells of spilled ranges written as values, anchors excluded. */
  spilledCells: number;
  sheets: string[];
  takenAt: string;
}

/** What "Restore formulas" did. */
export interface RestoreResult {
  restored: number;
  /** Cells changed since the static copy, left as they are (qualified addresses). */
  skipped: string[];
}

/** How many RISK formulas "Convert to values" would replace in a scope (for the confirmation). */
export async function countConvertible(run: ExcelRunner, scope: Scope): Promise<number> {
  return (await run((context) => findRiskCells(context, scope, false))).length;
}

/**
 * "Convert to values": replaces the RISK formulas of the scope with the values they show (spilled
 * ranges included), keeps every replaced formula in the workbook for "Restore formulas", and marks
 * the Sources sheet (and the provenance of those sheets) as a static copy taken now. Refuses, with
 * nothing changed, when the scope has no RISK formulas or some are still calculating.
 */
export async function convertToValues(options: { run: ExcelRunner; scope: Scope }): Promise<ConvertResult> {
  const { run, scope } = options;
  return run(async (context) => {
    const cells = await findRiskCells(context, scope, false);
    if (cells.length === 0) throw new MessageError(message("static.run.noFormulas", { scope }));
    const busy = cells.filter((c) => c.value === "#BUSY!" || c.value === "#GETTING_DATA");
    if (busy.length > 0) {
      const first = qualify(busy[0].sheetName, cellA1(busy[0].row, busy[0].column));
      throw new MessageError(message("static.run.busy", { count: busy.length, first }));
    }
    const takenAt = utcNow();
    const converted = await convertCellsToValues(context, cells, takenAt);
    const kept = (await readStaticCells(context)).filter(
      (s) => !converted.some((c) => c.sheetName === s.sheetName && c.address === s.address),
    );
    await writeStaticCells(context, [...kept, ...converted]);
    const sheets = [...new Set(converted.map((c) => c.sheetName))];
    const { records } = await readProvenance(context);
    await writeProvenance(
      context,
      records.map((r) => (sheets.includes(r.sheetName) ? { ...r, staticCopyAt: takenAt } : r)),
    );
    const spilledCells = converted.reduce((n, c) => {
      const area = parseA1(c.spill);
      return n + area.rows * area.cols - 1;
    }, 0);
    return { converted: converted.length, spilledCells, sheets, takenAt };
  });
}

/** How many replaced formulas "Restore formulas" would put back in a scope. */
export async function countRestorable(run: ExcelRunner, scope: Scope): Promise<number> {
  return run(async (context) => (await readStaticCellsInScope(context, scope)).inScope.length);
}

/**
 * "Restore formulas": writes back the formulas a static copy replaced in the scope, exactly as
 * they were (spill areas cleared first so they can spill again). A cell the user changed since
 * the copy is left alone and named. Refuses when nothing in the scope was converted.
 */
export async function restoreFormulas(options: { run: ExcelRunner; scope: Scope }): Promise<RestoreResult> {
  const { run, scope } = options;
  return run(async (context) => {
    const { all, inScope } = await readStaticCellsInScope(context, scope);
    if (inScope.length === 0) throw new MessageError(message("static.run.nothingToRestore", { scope }));
    const { unchanged: restorable, changed } = await sortByChangeSinceCopy(context, inScope);
    const skipped = changed.map(qualified);
    await restoreCells(context, restorable);
    const left = all.filter((c) => !restorable.includes(c));
    await writeStaticCells(context, left);
    const stillStatic = new Set(left.map((c) => c.sheetName));
    const { records } = await readProvenance(context);
    await writeProvenance(
      context,
      records.map((r) => (r.staticCopyAt && !stillStatic.has(r.sheetName) ? { ...r, staticCopyAt: undefined } : r)),
    );
    return { restored: restorable.length, skipped };
  });
}
