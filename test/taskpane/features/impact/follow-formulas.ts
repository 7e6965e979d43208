/**
 * Reading the per-asset losses sheet in the Excel fake, which does not calculate Excel's own
 * functions: a test follows each formula the way Excel computes it, on the cells it reads.
 *  - `INDEX('Impact data'!$E:$E,$AZ7)` with `$AZ7` holding `=MATCH($A7,'Impact data'!$A:$A,0)`:
 *    the first row of the data sheet whose column A equals A7 (an exact MATCH), column E; no
 *    such row is #N/A (MATCH's answer when nothing matches).
 *  - `=ref`, `=ref&""`, `=IF(COUNT(v)=1,v,NA())` and `=IF(COUNT(v,d)=2,v*d,NA())` on those cells.
 * LibreOffice calculates the same formulas for real (impact-libreoffice.test.ts).
 */
import { parseA1 } from "../../../../src/shaping/a1";
import type { FakeExcel } from "../../../../testing/fake-excel";

const SHEET = String.raw`('(?:[^']|'')+'|[A-Za-z_][\w.]*)!`;
const INDEX = new RegExp(String.raw`INDEX\(${SHEET}\$([A-Z]+):\$[A-Z]+,\$([A-Z]+)(\d+)\)`, "g");
const MATCH = new RegExp(String.raw`^=MATCH\(\$([A-Z]+)(\d+),${SHEET}\$([A-Z]+):\$[A-Z]+,0\)$`);
/** How far down a looked-up column is searched (the tests' sheets are small). */
const SEARCHED_ROWS = 500;

/** The 1-based row of `sheet` that `address` (holding a MATCH formula) finds, or undefined (#N/A). */
export function matchedRow(fake: FakeExcel, sheet: string, address: string): number | undefined {
  const formula = String(fake.read(sheet, address, "formulas")[0]![0]);
  const match = MATCH.exec(formula);
  if (!match) throw new Error(`${sheet}!${address} is not a MATCH of a whole column: ${formula}`);
  const [, keyColumn, keyRow, where, column] = match;
  const key = fake.read(sheet, `${keyColumn}${keyRow}`)[0]![0];
  const searched = parseA1(`${where}!A1`).sheet!;
  const found = fake.read(searched, `${column}1:${column}${SEARCHED_ROWS}`).findIndex(([v]) => v === key && v !== "");
  return found < 0 ? undefined : found + 1;
}

/** The formula with each `INDEX(column, row found by MATCH)` replaced by the cell it reads (`NA()` when none). */
export function resolveLookups(fake: FakeExcel, sheet: string, formula: string): string {
  return formula.replace(INDEX, (_, where: string, column: string, matchColumn: string, matchRow: string) => {
    const row = matchedRow(fake, sheet, `${matchColumn}${matchRow}`);
    return row === undefined ? "NA()" : `${where}!$${column}${row}`;
  });
}

/** The value a cell of the losses sheet shows, following its lookups and references. */
export function evaluate(fake: FakeExcel, sheet: string, address: string): unknown {
  const written = String(fake.read(sheet, address, "formulas")[0]![0]);
  if (!written.startsWith("=")) return fake.read(sheet, address)[0]![0];
  const formula = resolveLookups(fake, sheet, written);
  if (/^=NA\(\)(&"")?$/.test(formula) || /^=IF\(COUNT\([^)]*NA\(\)/.test(formula)) return "#N/A";
  const refs = [...formula.matchAll(new RegExp(String.raw`${SHEET}\$?([A-Z]+)\$?(\d+)`, "g"))].map((m) => ({
    sheet: parseA1(`${m[1]}!A1`).sheet!,
    cell: `${m[2]}${m[3]}`,
  }));
  const read = (i: number) => evaluate(fake, refs[i]!.sheet, refs[i]!.cell);
  if (/^=[^=(]+!\$?[A-Z]+\$?\d+$/.test(formula)) return read(0);
  if (/^=[^=(]+!\$?[A-Z]+\$?\d+&""$/.test(formula)) return String(read(0));
  const loss = /^=IF\(COUNT\(([^,]+),([^)]+)\)=2,\1\*\2,NA\(\)\)$/.exec(formula);
  if (loss) {
    const [v, d] = [read(0), read(1)];
    return typeof v === "number" && typeof d === "number" ? v * d : "#N/A";
  }
  const single = /^=IF\(COUNT\(([^)]+)\)=1,\1,NA\(\)\)$/.exec(formula);
  if (single) return typeof read(0) === "number" ? read(0) : "#N/A";
  throw new Error(`unexpected formula ${written}`);
}
