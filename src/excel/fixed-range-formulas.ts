/**
 * Tables of formulas that read a pasted table's columns through fixed A1 ranges
 * (`'Disclosure data p'!$D$2:$D$100`), as the disclosure tables were made before they named the
 * data table's columns (`Disclosure_data_p[scenario]`). A fixed range covers the rows there were
 * when it was written: Excel does not widen it when a refresh appends rows beyond its end, so such
 * a figure silently leaves out new assets. These helpers find such tables, say so on their sheet in
 * a cell until they are upgraded, and upgrade them: each fixed range over a column of the data
 * table becomes the structured reference to that column, the rest of the formula untouched.
 */
import { columnLetters, parseA1, quoteSheetName } from "../shaping/a1";
import { listTables } from "./read-range";
import { sheetWords } from "./sheet-words";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** Excel's limit on a formula's length (learn.microsoft.com: "Excel specifications and limits"). */
const MAX_FORMULA_LENGTH = 8192;

/** A table of formulas over fixed ranges of the data sheet. */
export interface FixedRangeTable {
  table: string;
  sheet: string;
  /** The last sheet row the fixed ranges cover (the largest where they differ). */
  lastRow: number;
  /** Where the sheet says the table is stale until upgraded (row 1, one column right of the table). */
  notice: string;
  /**
   * For a table reading no fixed range itself but figures of a stale table's sheet (IFRS S2 and
   * TCFD read E1-9's cells, the by-country rows its totals): that sheet. Its figures are as stale.
   */
  via?: string;
}

/**
 * Whether a cell's formula is a notice of ours, in whatever language it was written: a text formula
 * (`="…"&ROWS(…)&"…"`) putting in the data table's row count. The words are the reader's, so the
 * upgrade recognises the notice by its shape, not by them.
 */
function isNotice(formula: string): boolean {
  return formula.startsWith('="') && formula.includes('"&ROWS(');
}

/** Stands for the row count in the notice's sentence, which the formula puts in (no catalog text holds it). */
const ROWS_MARK = "\u0001";

/** A structured reference to a table column, as the disclosure formulas write it. */
export type ColumnReference = (table: string, column: string) => string;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `'Sheet'!$D$2:$D$100` over one column of `dataSheet`: the column letters, first and last row. */
function fixedRangePattern(dataSheet: string): RegExp {
  return new RegExp(`${escapeRegExp(quoteSheetName(dataSheet))}!\\$([A-Z]{1,3})\\$(\\d+):\\$\\1\\$(\\d+)`, "g");
}

/** A table larger than this is not searched for references to a stale sheet (the disclosure tables are far smaller). */
const DEPENDENT_SCAN_ROWS = 2_000;

/** Whether a formula names `sheet` (quoted or bare, as Excel writes either) before a `!`. */
function namesSheet(formula: string, sheet: string): boolean {
  return formula.includes(`${quoteSheetName(sheet)}!`) || formula.includes(`'${sheet.replace(/'/g, "''")}'!`);
}

/**
 * The tables (other than the data table) whose first body row has a formula over a fixed range of
 * a column of `dataSheet`, then those whose formulas read a found table's sheet (any depth, `via`
 * that sheet): a figure computed from a stale one is stale too. Two syncs; the second only when
 * the first found a table.
 */
export async function findFixedRangeTables(
  context: Excel.RequestContext,
  dataSheet: string,
  dataTable: string,
): Promise<FixedRangeTable[]> {
  const tables = (await listTables(context)).filter((t) => t.name !== dataTable);
  const reads = tables.map((t) => {
    const range = context.workbook.tables.getItem(t.name).getRange();
    range.load("address,columnIndex,columnCount,rowCount");
    const first = range.getRow(1);
    first.load("formulas");
    return { info: t, range, first };
  });
  await context.sync();
  const found: FixedRangeTable[] = [];
  const noticeOf = (range: Excel.Range) => `${columnLetters(range.columnIndex + range.columnCount + 1)}1`;
  for (const { info, range, first } of reads) {
    const text = first.formulas.flat().filter((f): f is string => typeof f === "string" && f.startsWith("="));
    const ends = text.flatMap((f) => [...f.matchAll(fixedRangePattern(dataSheet))].map((m) => Number(m[3])));
    if (ends.length === 0) continue;
    found.push({ table: info.name, sheet: info.sheetName, lastRow: Math.max(...ends), notice: noticeOf(range) });
  }
  if (found.length === 0) return found;
  const others = reads
    .filter((r) => !found.some((f) => f.table === r.info.name) && r.range.rowCount <= DEPENDENT_SCAN_ROWS)
    .map((r) => {
      const body = context.workbook.tables.getItem(r.info.name).getDataBodyRange();
      body.load("formulas");
      return { ...r, body };
    });
  await context.sync();
  let more = true;
  while (more) {
    more = false;
    for (const { info, range, body } of others) {
      if (found.some((f) => f.table === info.name)) continue;
      const formulas = body.formulas.flat().filter((f): f is string => typeof f === "string" && f.startsWith("="));
      const source = found.find((f) => f.sheet !== info.sheetName && formulas.some((x) => namesSheet(x, f.sheet)));
      if (!source) continue;
      found.push({
        table: info.name,
        sheet: info.sheetName,
        lastRow: source.lastRow,
        notice: noticeOf(range),
        via: source.via ?? source.sheet,
      });
      more = true;
    }
  }
  return found;
}

/**
 * Writes, beside each table, a cell saying its figures cover only the data rows it was made with
 * and how many the data table has now (a formula: it follows the data table), until upgraded; a
 * cell there holding anything else is left alone (the pane's report still names the sheet).
 */
export async function markFixedRangeTables(
  context: Excel.RequestContext,
  found: readonly FixedRangeTable[],
  dataTable: string,
  dataSheet: string,
  reference: ColumnReference,
): Promise<void> {
  // The rows of its first column: a bare table name or `[#Data]` reads differently elsewhere.
  const header = context.workbook.tables.getItem(dataTable).getHeaderRowRange();
  header.load("values");
  const notices = found.map((t) => {
    const cell = context.workbook.worksheets.getItem(t.sheet).getRange(t.notice);
    cell.load("formulas");
    return cell;
  });
  await context.sync();
  const rows = `ROWS(${reference(dataTable, String(header.values[0]![0]))})`;
  const words = await sheetWords();
  for (const [i, t] of found.entries()) {
    // The cell beside a table may be the analyst's: only an empty cell or our own notice is written.
    const there = String(notices[i]!.formulas[0]?.[0] ?? "");
    if (there !== "" && !isNotice(there)) continue;
    const said = message("sheet.fixedRanges.notice", {
      via: t.via ?? "none",
      lastRow: String(t.lastRow),
      dataSheet,
      rows: ROWS_MARK,
    });
    const [before, after] = words(said)
      .split(ROWS_MARK)
      .map((text) => `"${text.replace(/"/g, '""')}"`);
    context.workbook.worksheets.getItem(t.sheet).getRange(t.notice).formulas = [[`=${before}&${rows}&${after}`]];
  }
  await context.sync();
}

/**
 * Rewrites each found table's formulas: every fixed range over a column of the data sheet becomes
 * `reference(dataTable, header)` of that column, and the notice beside the table is cleared.
 * Throws, before writing anything, when a range's column is outside the data table or a rewritten
 * formula would pass Excel's 8,192 characters.
 */
export async function upgradeFixedRangeTables(
  context: Excel.RequestContext,
  found: readonly FixedRangeTable[],
  dataSheet: string,
  dataTable: string,
  reference: ColumnReference,
): Promise<number> {
  const header = context.workbook.tables.getItem(dataTable).getHeaderRowRange();
  header.load("values,address");
  const bodies = found.map((t) => {
    const body = context.workbook.tables.getItem(t.table).getDataBodyRange();
    body.load("formulas");
    const notice = context.workbook.worksheets.getItem(t.sheet).getRange(t.notice);
    notice.load("formulas");
    return { t, body, notice };
  });
  await context.sync();
  const firstColumn = parseA1(header.address.replace(/^.*!/, "")).col;
  const names = header.values[0]!.map(String);
  const rewrite = (formula: unknown) => {
    if (typeof formula !== "string" || !formula.startsWith("=")) return formula;
    const next = formula.replace(fixedRangePattern(dataSheet), (whole, letters: string) => {
      const name = names[parseA1(`${letters}1`).col - firstColumn];
      if (name === undefined)
        throw new MessageError(message("excel.fixedRanges.outsideTable", { reference: whole, table: dataTable }));
      return reference(dataTable, name);
    });
    if (next.length > MAX_FORMULA_LENGTH)
      throw new MessageError(message("excel.fixedRanges.tooLong", { max: MAX_FORMULA_LENGTH }));
    return next;
  };
  const rewritten = bodies.map(({ body }) => body.formulas.map((row) => row.map(rewrite)));
  bodies.forEach(({ body, notice }, i) => {
    body.formulas = rewritten[i]! as string[][];
    if (isNotice(String(notice.formulas[0]?.[0] ?? ""))) notice.clear("Contents");
  });
  await context.sync();
  return found.length;
}
