/**
 * What every refresh of the disclosure's pasted sheets does after writing them, whichever path
 * started it ("Refresh disclosure tables", "Refresh pasted sheets", the ribbon, a refresh of one
 * sheet): the disclosure kinds' `afterRefresh` steps (disclosure-kinds.ts). After the data sheets,
 * the by-country rows are rewritten for the countries the data holds now and tables made before
 * the formulas named the data table are marked stale on their sheet and reported; after the 66(c)
 * lists, each is sorted again and its check cell written from the data it was computed from.
 */
import { readProvenance } from "../../../excel/provenance-sheets";
import { readTable } from "../../../excel/read-range";
import {
  findFixedRangeTables,
  markFixedRangeTables,
  upgradeFixedRangeTables,
} from "../../../excel/fixed-range-formulas";
import { readTablesWithHeader, rewriteTableBody, writeOwnFormula } from "../../../excel/cells-by-address";
import { columnLetters, parseA1 } from "../../../shaping/a1";
import type { ProvenanceRecord } from "../../../shaping/paste-provenance";
import { countryCode } from "../../../shaping/countries";
import type { CellValue } from "../../../shaping/types";
import type { ExcelRunner } from "../../ui/pane-types";
import { sheetWords } from "../../../excel/sheet-words";
import { message, type Message } from "../../../i18n/messages";
import {
  filterText,
  sortPastedSheetAgain,
  type AfterRefreshReads,
  type RefreshFollowUp,
  type RefreshedSheet,
} from "../pasted";
import { SIGNIFICANT_HEADER, significantCheckFormula } from "./model/disclosure";
import { COUNTRY_HEADER, countryRowsAgain, tableColumn } from "./model/disclosure-tables";

/** Formula tables made before the tables named the data table's columns, by data sheet. */
export interface OutdatedDisclosure {
  dataSheet: string;
  /** The sheets of the tables still reading fixed ranges of it, each marked stale in a cell. */
  sheets: string[];
  /** The sheets whose figures are computed from those (IFRS S2, TCFD, by country), marked stale too. */
  following: string[];
  /** The last data row their ranges cover. */
  lastRow: number;
}

/** What the data sheets' steps report: the tables still reading fixed ranges, and the upgrade offered. */
export interface DisclosureFollowUp extends RefreshFollowUp {
  outdated: OutdatedDisclosure[];
}

/**
 * Where the 66(c) sheet says whether its list is current: right of the table, one column between,
 * beside its header (a refresh by key keeps a cell beside the header where it is).
 */
export const SIGNIFICANT_CHECK_CELL = `${columnLetters(SIGNIFICANT_HEADER.length + 1)}1`;

/**
 * The countries of the data's location column: ISO 3166-1 alpha-2 code → the texts naming it
 * (src/shaping/countries.ts reads codes and English, German and French names). A text naming no
 * country is left out: its assets count in the "unlisted or unknown country" row.
 */
export function countriesOf(header: readonly string[], rows: readonly (readonly CellValue[])[]): Map<string, string[]> {
  const column = header.indexOf("location");
  const byCode = new Map<string, Set<string>>();
  for (const row of rows) {
    const text = row[column];
    const code = typeof text === "string" ? countryCode(text) : undefined;
    if (code && typeof text === "string") byCode.set(code, (byCode.get(code) ?? new Set()).add(text));
  }
  return new Map([...byCode].map(([code, texts]) => [code, [...texts].sort()]));
}

/** A data table's values as they are now, read once per refresh for every step that needs it. */
const dataTableOf = (run: ExcelRunner, reads: AfterRefreshReads) => (name: string) =>
  reads.once(`disclosure data table ${name}`, () =>
    run(async (context) => (await readTable(context, name, { maxRows: 1_000_000 })).values),
  );

/** Sheet names as a message quotes them: "A", "B" (names, the same in every language). */
const quoted = (sheets: readonly string[]) => sheets.map((s) => `"${s}"`).join(", ");

/** The sentence saying which tables read only the rows they were made with (the caller says where to upgrade). */
export function outdatedSentence(o: OutdatedDisclosure): Message {
  return message("disclosure.outdated", {
    sheets: quoted(o.sheets),
    lastRow: o.lastRow,
    dataSheet: o.dataSheet,
    following: o.following.length === 0 ? "none" : quoted(o.following),
  });
}

/**
 * After the data sheets' refresh: the by-country rows of each data sheet refreshed, and the tables
 * of every data sheet taken up that still read fixed ranges, marked stale and reported with the
 * upgrade offered.
 */
export async function afterDataRefresh(
  sheets: readonly RefreshedSheet[],
  run: ExcelRunner,
  reads: AfterRefreshReads,
): Promise<DisclosureFollowUp | undefined> {
  const dataTable = dataTableOf(run, reads);
  for (const { record, ok } of sheets) if (ok) await rewriteCountryRows(run, record.tableName, dataTable);
  const records = sheets.map((s) => s.record);
  const outdated: OutdatedDisclosure[] = [];
  for (const record of records) {
    const found = await run(async (context) => {
      const tables = await findFixedRangeTables(context, record.sheetName, record.tableName);
      if (tables.length > 0)
        await markFixedRangeTables(context, tables, record.tableName, record.sheetName, tableColumn);
      return tables;
    });
    if (found.length > 0)
      outdated.push({
        dataSheet: record.sheetName,
        sheets: found.filter((t) => !t.via).map((t) => t.sheet),
        following: found
          .filter((t) => t.via)
          .map((t) => t.sheet)
          .sort(),
        lastRow: Math.max(...found.map((t) => t.lastRow)),
      });
  }
  if (outdated.length === 0) return undefined;
  // A refresh's follow-up lines are text (../pasted): worded here with the pane's formatter.
  const words = await sheetWords();
  // The upgrade is offered under the Disclosure tables section's button's own words.
  const upgradeLabel = words(message("disclosure.upgrade"));
  return {
    outdated,
    messages: outdated.map(
      (o) => `${words(outdatedSentence(o))} ${words(message("disclosure.outdated.upgrade", { label: upgradeLabel }))}`,
    ),
    offer: {
      label: upgradeLabel,
      work: async (runner) => words(upgradedSentence(await upgradeFixedRanges(runner, records))),
    },
  };
}

/** After the 66(c) lists' refresh: each list refreshed sorted by value again, and its check cell written. */
export async function afterSignificantRefresh(
  sheets: readonly RefreshedSheet[],
  run: ExcelRunner,
  reads: AfterRefreshReads,
): Promise<undefined> {
  const dataTable = dataTableOf(run, reads);
  for (const { record, ok } of sheets) {
    if (!ok) continue;
    // The significant assets stay sorted by value: rows a refresh added at the end are sorted in.
    await sortPastedSheetAgain(run, record.sheetId);
    await writeSignificantCheck(run, record, dataTable);
  }
  return undefined;
}

/**
 * Writes the 66(c) list's check from the data and Methodology tables as they are now (the list was
 * just computed from them).
 */
async function writeSignificantCheck(
  run: ExcelRunner,
  record: ProvenanceRecord,
  readData: (table: string) => Promise<CellValue[][]>,
): Promise<void> {
  const dataTable = filterText(record, "data_table") ?? "";
  const [header = [], ...rows] = await readData(dataTable);
  await run(async (context) => {
    const methodology = await readTable(context, filterText(record, "methodology_table") ?? "");
    const at = parseA1(methodology.address.replace(/^.*!/, ""));
    const formula = significantCheckFormula(
      {
        methodology: { sheet: methodology.sheetName, row: at.row, col: at.col, values: methodology.values },
        dataTable,
        dataHeader: header.map(String),
        dataRows: rows,
        computedAt: new Date(),
      },
      tableColumn,
    );
    await writeOwnFormula(context, record.sheetName, SIGNIFICANT_CHECK_CELL, formula);
  });
}

/**
 * The by-country tables over `dataTable` get a row for each country of the data as it is now
 * (model/disclosure-tables.ts countryRowsAgain); a table made without any country row is left as
 * it is (its last row, E1-9 less nothing, still reconciles).
 */
async function rewriteCountryRows(
  run: ExcelRunner,
  dataTable: string,
  readData: (table: string) => Promise<CellValue[][]>,
): Promise<void> {
  const ours = await run((context) => readTablesWithHeader(context, COUNTRY_HEADER));
  if (ours.length === 0) return;
  const [header = [], ...rows] = await readData(dataTable);
  await run(async (context) => {
    const countries = countriesOf(header.map(String), rows);
    for (const t of ours) {
      if (!t.formulas.some((row) => String(row[4]).includes(tableColumn(dataTable, "location")))) continue;
      const again = countryRowsAgain(t.formulas, countries);
      if (again) await rewriteTableBody(context, t.name, again);
    }
  });
}

/** The disclosure data sheets on record (for one portfolio, or all). */
export async function disclosureDataRecords(run: ExcelRunner, portfolio?: string): Promise<ProvenanceRecord[]> {
  return (await run((context) => readProvenance(context))).records.filter(
    (r) => r.operation === "disclosure-data" && (!portfolio || r.portfolio === portfolio),
  );
}

/**
 * The E1-9, IFRS S2 and TCFD tables over `dataRecords` made before the formulas named the data
 * table's columns get each fixed range of a data column replaced by the structured reference to
 * that column (everything else in the formula as it was, the analyst's inputs kept), and the stale
 * notice beside them cleared. Answers the sheets upgraded.
 */
export async function upgradeFixedRanges(
  run: ExcelRunner,
  dataRecords: readonly ProvenanceRecord[],
): Promise<string[]> {
  const upgraded: string[] = [];
  for (const record of dataRecords)
    await run(async (context) => {
      const found = await findFixedRangeTables(context, record.sheetName, record.tableName);
      if (found.length === 0) return;
      await upgradeFixedRangeTables(context, found, record.sheetName, record.tableName, tableColumn);
      upgraded.push(...found.filter((t) => !t.via).map((t) => t.sheet));
    });
  return upgraded;
}

/** What an upgrade did, in one sentence. */
export function upgradedSentence(sheets: readonly string[]): Message {
  return message("disclosure.upgraded", { count: sheets.length, sheets: quoted(sheets) });
}
