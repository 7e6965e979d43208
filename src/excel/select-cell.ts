/** Selecting the cell a problem points at, so a click in the problem list shows it. */
import { parseA1, rangeA1 } from "../shaping/a1";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/**
 * Activate the address's sheet (or the active sheet when unqualified) and select the range.
 * Rejects with a clear message when the sheet no longer exists.
 */
export async function selectCell(context: Excel.RequestContext, address: string): Promise<void> {
  const a = parseA1(address);
  const sheets = context.workbook.worksheets;
  let sheet: Excel.Worksheet;
  if (a.sheet !== undefined) {
    sheet = sheets.getItemOrNullObject(a.sheet);
    await context.sync();
    if (sheet.isNullObject) throw new MessageError(message("excel.run.sheetGone", { sheet: a.sheet }));
  } else sheet = sheets.getActiveWorksheet();
  sheet.activate();
  sheet.getRange(rangeA1(a.row, a.col, Math.min(a.rows, 1_048_576 - a.row), a.cols)).select();
  await context.sync();
}
