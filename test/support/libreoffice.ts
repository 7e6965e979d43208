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
import { parseA1 } from "../../src/shaping/a1";

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

/** The fake's workbook as an .xlsx file: values as they are, formulas without their cached results. */
export async function snapshotToXlsx(snapshot: WorkbookSnapshot): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const sheet of snapshot.sheets) {
    const target = book.addWorksheet(sheet.name);
    for (const [address, value, formula] of sheet.cells) {
      const cell = target.getCell(address.replace(/^.*!/, "").replace(/\$/g, ""));
      if (formula !== undefined && formula.startsWith("=")) cell.value = { formula: formula.slice(1) };
      else if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") cell.value = value;
    }
  }
  return Buffer.from(await book.xlsx.writeBuffer());
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
