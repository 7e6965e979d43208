/**
 * How text from the service reaches a sheet unchanged. Excel interprets a string written to
 * `values`: "=..." (and, as typed in the grid, "+...", "-...", "@...") becomes a formula, "007"
 * becomes 7, "TRUE" a boolean, "1/2" a date. One mechanism is used everywhere: every string
 * cell is written with the text number format "@", set before the value in the same request.
 * Numbers and booleans are written as they are, so numbers stay numbers.
 */
import type { CellValue } from "./types";

/** Excel's text number format. */
export const TEXT_FORMAT = "@";

/** Strings Excel (or another spreadsheet opening the file) could run as a formula. */
export function looksLikeFormula(value: string): boolean {
  return /^[=+\-@\t\r]/.test(value);
}

/** Whether a cell must be written as text: every non-empty string. */
export function needsTextFormat(value: CellValue | null | undefined): boolean {
  return typeof value === "string" && value !== "";
}

/** How a column is formatted: all text, no text, or a per-cell mix. */
export type ColumnTextKind = "text" | "none" | "mixed";

/** Classify each column of `rows` (header excluded) for the text-format mechanism. */
export function columnTextKinds(rows: readonly (readonly CellValue[])[], columnCount: number): ColumnTextKind[] {
  const hasText = new Array<boolean>(columnCount).fill(false);
  const hasOther = new Array<boolean>(columnCount).fill(false);
  for (const row of rows) {
    for (let c = 0; c < columnCount; c++) {
      const v = row[c];
      if (v === "" || v === undefined || v === null) continue;
      if (typeof v === "string") hasText[c] = true;
      else hasOther[c] = true;
    }
  }
  return hasText.map((t, c) => (t && hasOther[c] ? "mixed" : t ? "text" : "none"));
}
