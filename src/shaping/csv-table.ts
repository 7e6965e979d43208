/**
 * CSV text from the service (applied layers, export ZIP files) → a table for a sheet, parsed with
 * papaparse. A column becomes numbers only when every non-empty value in it is a plain number;
 * id columns and values with leading zeros ("007") stay text, so nothing is silently changed.
 */
import Papa from "papaparse";
import type { CellValue, SheetTable } from "./types";

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const LEADING_ZERO = /^[+-]?0\d/;

/** Headers whose columns are identifiers: kept as text even when they look numeric. */
export function isIdColumn(header: string): boolean {
  return /(^|[_\s.-])id$/i.test(header.trim()) || /^id$/i.test(header.trim());
}

/** Thrown when CSV text cannot be read; says which line. */
export class CsvParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvParseError";
  }
}

/** Parse CSV text whose first row is the header. Rows are padded to the widest row. */
export function parseCsvTable(csv: string, source = "CSV"): SheetTable {
  const text = csv.charCodeAt(0) === 0xfeff ? csv.slice(1) : csv;
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: "greedy", header: false, dynamicTyping: false });
  const fatal = parsed.errors.find(
    (e) => e.type === "Quotes" || e.code === "InvalidQuotes" || e.code === "MissingQuotes",
  );
  if (fatal) {
    const line = (fatal.row ?? 0) + 1;
    throw new CsvParseError(`${source}: ${fatal.message} (record ${line}).`, line);
  }
  const records = parsed.data;
  if (records.length === 0) return { header: [], rows: [] };
  const width = Math.max(...records.map((r) => r.length));
  const header = Array.from({ length: width }, (_, i) => {
    const h = (records[0][i] ?? "").trim();
    return h === "" ? `column_${i + 1}` : h;
  });
  const body = records.slice(1).map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
  const numeric = header.map((h, c) => {
    if (isIdColumn(h)) return false;
    let any = false;
    for (const row of body) {
      const v = row[c].trim();
      if (v === "") continue;
      if (!NUMBER_TEXT.test(v) || LEADING_ZERO.test(v)) return false;
      any = true;
    }
    return any;
  });
  const rows: CellValue[][] = body.map((r) => r.map((v, c) => (numeric[c] && v.trim() !== "" ? Number(v.trim()) : v)));
  return { header, rows };
}
