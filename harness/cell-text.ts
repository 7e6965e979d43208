/**
 * How the harness grid shows a cell value: Excel's General format, roughly (numbers to 10
 * significant digits, TRUE/FALSE in capitals, text cells as typed).
 */
import type { FakeCellValue } from "../testing/fake-excel";

/** The text a grid cell shows for a value and number format. */
export function cellText(value: FakeCellValue | undefined, numberFormat?: string): string {
  if (value === undefined || value === "") return "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (numberFormat === "@") return String(value);
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
    const short = Number(value.toPrecision(10));
    return Math.abs(short) >= 1e11 || (short !== 0 && Math.abs(short) < 1e-9) ? short.toExponential(4) : String(short);
  }
  return value;
}

/** Split pasted text (tab-separated, one row a line, as spreadsheets copy) into rows of cells. */
export function parseTsv(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => line.split("\t"));
}
