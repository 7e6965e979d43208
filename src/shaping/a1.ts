/**
 * A1 addresses for problem reports and workbook code: column letters, the top-left of an
 * address like "'Site list'!B3:F40", and the address of a cell inside it.
 */

/** 0-based column index to Excel letters: 0 → "A", 26 → "AA". */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Excel letters to a 0-based column index: "A" → 0, "AA" → 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** A parsed A1 range: optional sheet, 0-based top-left, size. */
export interface A1Range {
  sheet?: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/** Quote a sheet name for use in an address when it needs quotes (spaces, punctuation...). */
export function quoteSheetName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name)) return name;
  return `'${name.replace(/'/g, "''")}'`;
}

/**
 * Parse "Sheet1!B3:D9", "'My sheet'!B3", "B3" or "B:D" (whole columns start at row 1).
 * Throws an Error naming the address when it is not an A1 reference.
 */
export function parseA1(address: string): A1Range {
  const range = readA1(address);
  if (!range) throw new Error(`"${address}" is not an A1 cell or range address.`);
  return range;
}

/**
 * parseA1 without the throw: undefined when `address` is not an A1 reference. For callers that
 * test many texts (every argument of thousands of formulas): an Error and its stack for each
 * non-reference cost seconds over a workbook.
 */
export function readA1(address: string): A1Range | undefined {
  const text = address.trim();
  const bang = text.lastIndexOf("!");
  let sheet: string | undefined;
  let local = text;
  if (bang >= 0) {
    sheet = text.slice(0, bang);
    if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
    local = text.slice(bang + 1);
  }
  const cells = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(local);
  if (cells) {
    const c1 = columnIndex(cells[1]);
    const r1 = Number(cells[2]) - 1;
    const c2 = cells[3] ? columnIndex(cells[3]) : c1;
    const r2 = cells[4] ? Number(cells[4]) - 1 : r1;
    return {
      sheet,
      row: Math.min(r1, r2),
      col: Math.min(c1, c2),
      rows: Math.abs(r2 - r1) + 1,
      cols: Math.abs(c2 - c1) + 1,
    };
  }
  const cols = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(local);
  if (cols) {
    const c1 = columnIndex(cols[1]);
    const c2 = columnIndex(cols[2]);
    return { sheet, row: 0, col: Math.min(c1, c2), rows: 1_048_576, cols: Math.abs(c2 - c1) + 1 };
  }
  return undefined;
}

/** Whether `text` is one cell's A1 reference: A12, $B$3, Sheet1!C2, 'My sheet'!C2 (not a range). */
export function isCellReference(text: string): boolean {
  return !text.includes(":") && readA1(text) !== undefined;
}

/** Local A1 text of a cell ("B3") from 0-based indexes. */
export function cellA1(row: number, col: number): string {
  return `${columnLetters(col)}${row + 1}`;
}

/** Local A1 text of a range ("B3:D9", or "B3" for one cell). */
export function rangeA1(row: number, col: number, rows: number, cols: number): string {
  const first = cellA1(row, col);
  return rows === 1 && cols === 1 ? first : `${first}:${cellA1(row + rows - 1, col + cols - 1)}`;
}

/** "Sheet!B3" when a sheet is known, else "B3". */
export function qualify(sheet: string | undefined, local: string): string {
  return sheet === undefined ? local : `${quoteSheetName(sheet)}!${local}`;
}

/**
 * Split a list of addresses such as RangeAreas.address ("Sheet1!A1:B2,'a,b'!C3") on the commas
 * that separate areas, not on commas inside quoted sheet names.
 */
export function splitAreas(addresses: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of addresses) {
    if (ch === "'") quoted = !quoted;
    if (ch === "," && !quoted) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
