/**
 * A real spreadsheet for the formulas the add-in writes. The Excel fake stores formulas without
 * calculating them (the harness computes only RISK.*), so a test saves the fake's workbook as
 * .xlsx (exceljs: formulas without cached values, which a spreadsheet recalculates on load), has
 * LibreOffice Calc open it headless and export every sheet as CSV, and reads the numbers back.
 *
 * Without `soffice` the tests are skipped with a message, as the browser tests are without
 * chromium; `.ci/run` installs Debian's `libreoffice-calc-nogui`. Each conversion runs with a
 * fresh profile directory (a shared one locks, and a first start in it is slower but clean).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import type { WorkbookSnapshot } from "../../testing/fake-excel";
import { columnLetters, parseA1 } from "../../src/shaping/a1";

/** Where Debian installs LibreOffice's launcher; `SOFFICE_PATH` overrides it. */
export const SOFFICE_PATH = process.env.SOFFICE_PATH ?? "/usr/bin/soffice";

/** `describe` when soffice is installed, otherwise `describe.skip` after a warning naming the file. */
export function describeWithLibreOffice(testFile: string): jest.Describe {
  if (existsSync(SOFFICE_PATH)) return describe;
  console.warn(
    `SKIPPED LibreOffice tests (${path.basename(testFile)}): no soffice at ${SOFFICE_PATH}. ` +
      "Install Debian's libreoffice-calc-nogui (apt-get install -y libreoffice-calc-nogui; .ci/run does this) or set SOFFICE_PATH.",
  );
  return describe.skip;
}

/** Every sheet as LibreOffice calculated it: cell texts by address ("B7" → "1234.5", "#N/A", "Paris"). */
export interface Recalculated {
  /** The cell's text as exported: full precision numbers, error codes as Excel spells them, "" when empty. */
  text(sheet: string, address: string): string;
  /** The cell as a number; throws naming the cell when it is not one. */
  number(sheet: string, address: string): number;
  /** The whole sheet as exported, row by row. */
  rows(sheet: string): string[][];
}

/**
 * Functions Excel added after Excel 2007: Excel's own files store them with the `_xlfn.` prefix
 * ([MS-XLSX] 2.2.2 "Formulas": "future functions"), and LibreOffice reads them as such only so
 * prefixed; a formula the add-in writes through Office.js names them bare, as the user types them.
 */
export const FUTURE_FUNCTIONS = [
  "AGGREGATE",
  "BITAND",
  "BITOR",
  "BITXOR",
  "CEILING.MATH",
  "CONCAT",
  "DAYS",
  "FILTER",
  "FLOOR.MATH",
  "FORMULATEXT",
  "IFNA",
  "IFS",
  "ISFORMULA",
  "LET",
  "MAXIFS",
  "MINIFS",
  "NUMBERVALUE",
  "PERCENTILE.INC",
  "PERCENTILE.EXC",
  "QUARTILE.INC",
  "RANK.EQ",
  "SEQUENCE",
  "SHEET",
  "SHEETS",
  "SORT",
  "SORTBY",
  "STDEV.S",
  "STDEV.P",
  "SWITCH",
  "TEXTJOIN",
  "UNIQUE",
  "XLOOKUP",
  "XMATCH",
  "XOR",
];

const FUTURE = new RegExp(`(?<![\\w.])(${FUTURE_FUNCTIONS.map((f) => f.replace(".", "\\.")).join("|")})\\(`, "gi");

/** A formula as Excel stores it in a file: future functions prefixed, string literals untouched. */
export function asStoredFormula(formula: string): string {
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(FUTURE, (_, name: string) => `_xlfn.${name.toUpperCase()}(`)))
    .join("");
}

type ExcelCell = ExcelJS.CellValue;

/**
 * The fake's workbook as an .xlsx file: values as they are, formulas without their cached results,
 * and every table of the fake a real table of the file (exceljs `addTable`, its header and body
 * from the fake's cells), so that formulas naming a table's columns (`Data_x[value]`) are read by
 * the spreadsheet as Excel reads them: no test rewrites them into A1 ranges.
 */
export async function snapshotToXlsx(snapshot: WorkbookSnapshot): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const contentOf = (value: WorkbookSnapshot["sheets"][number]["cells"][number][1], formula: string | undefined) =>
    formula !== undefined && formula.startsWith("=")
      ? ({ formula: asStoredFormula(formula.slice(1)) } as ExcelCell)
      : typeof value === "number" || typeof value === "string" || typeof value === "boolean"
        ? value
        : null;
  for (const sheet of snapshot.sheets) {
    const target = book.addWorksheet(sheet.name);
    const cells = new Map(
      sheet.cells.map(([address, value, formula]) => [address.replace(/^.*!|\$/g, ""), contentOf(value, formula)]),
    );
    const inTables = new Set<string>();
    for (const table of snapshot.tables.filter((t) => splitSheetOf(t.address) === sheet.name)) {
      const local = table.address.replace(/^.*!|\$/g, "");
      const [from, to = from] = local.split(":");
      const start = parseA1(from!);
      const end = parseA1(to);
      const at = (row: number, col: number) => `${columnLetters(col)}${row + 1}`;
      const columns: Array<{ name: string }> = [];
      for (let c = start.col; c <= end.col; c++) {
        columns.push({ name: String(cells.get(at(start.row, c)) ?? `Column${c - start.col + 1}`) });
        inTables.add(at(start.row, c));
      }
      const rows: ExcelCell[][] = [];
      for (let r = start.row + 1; r <= end.row; r++) {
        const row: ExcelCell[] = [];
        for (let c = start.col; c <= end.col; c++) {
          row.push(cells.get(at(r, c)) ?? null);
          inTables.add(at(r, c));
        }
        rows.push(row);
      }
      target.addTable({ name: table.name, ref: at(start.row, start.col), headerRow: true, columns, rows });
    }
    for (const [address, content] of cells)
      if (!inTables.has(address) && content !== null) target.getCell(address).value = content;
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The sheet of a sheet-qualified address ("'My sheet'!A1:B2" → "My sheet"). */
function splitSheetOf(address: string): string {
  const sheet = address.slice(0, address.lastIndexOf("!"));
  return sheet.startsWith("'") ? sheet.slice(1, -1).replace(/''/g, "'") : sheet;
}

function run(file: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: timeoutMs }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${path.basename(file)} failed: ${error.message}\n${stderr}`)) : resolve(),
    ),
  );
}

/**
 * Saves the workbook as .xlsx, lets LibreOffice recalculate it headless (one soffice run for all
 * sheets) and returns what every cell computed to.
 */
export async function recalculateInLibreOffice(snapshot: WorkbookSnapshot): Promise<Recalculated> {
  const dir = mkdtempSync(path.join(tmpdir(), "risk-lo-"));
  try {
    const book = path.join(dir, "book.xlsx");
    writeFileSync(book, await snapshotToXlsx(snapshot));
    // The CSV filter's options: comma, double quotes, UTF-8, from line 1, cell contents as stored
    // (not as formatted, so numbers keep full precision), and -1: every sheet to book-<sheet>.csv.
    const filter = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1";
    await run(
      SOFFICE_PATH,
      [
        "--headless",
        "--norestore",
        `-env:UserInstallation=file://${dir}/profile`,
        "--convert-to",
        filter,
        "--outdir",
        path.join(dir, "out"),
        book,
      ],
      120_000,
    );
    const sheets = new Map<string, string[][]>();
    for (const sheet of snapshot.sheets) {
      const file = path.join(dir, "out", `book-${sheet.name}.csv`);
      if (!existsSync(file)) throw new Error(`LibreOffice wrote no CSV for sheet "${sheet.name}"`);
      sheets.set(sheet.name, Papa.parse<string[]>(readFileSync(file, "utf8"), { skipEmptyLines: false }).data);
    }
    const rows = (sheet: string): string[][] => {
      const grid = sheets.get(sheet);
      if (!grid) throw new Error(`no sheet "${sheet}" in the recalculated workbook`);
      return grid;
    };
    const text = (sheet: string, address: string): string => {
      const { row, col } = parseA1(address);
      return rows(sheet)[row]?.[col] ?? "";
    };
    return {
      text,
      rows,
      number(sheet, address) {
        const cell = text(sheet, address);
        const value = Number(cell);
        if (cell.trim() === "" || !Number.isFinite(value))
          throw new Error(`${sheet}!${address} is "${cell}" in LibreOffice, not a number`);
        return value;
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
