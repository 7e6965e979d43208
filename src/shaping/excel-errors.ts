/** Excel's error values, the one list the add-in, the Excel fake and the harness all read. */

/** The error values a cell can show, as `Range.values` reports them (Office.js `Excel.ErrorCellValueType`). */
export const EXCEL_ERROR_VALUES: ReadonlySet<string> = new Set([
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#GETTING_DATA",
  "#SPILL!",
  "#CALC!",
  "#BUSY!",
  "#FIELD!",
  "#BLOCKED!",
  "#CONNECT!",
  "#UNKNOWN!",
]);

/** Whether a cell's value is one of Excel's error values ("#N/A", "#SPILL!", …). */
export function isExcelErrorValue(value: unknown): boolean {
  return typeof value === "string" && EXCEL_ERROR_VALUES.has(value);
}
