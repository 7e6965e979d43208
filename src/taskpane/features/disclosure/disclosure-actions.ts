import { readProvenance } from "../../../excel/provenance-sheets";
import { listSheetNames, listTables, readTable } from "../../../excel/read-range";
import {
  findFixedRangeTables,
  markFixedRangeTables,
  upgradeFixedRangeTables,
} from "../../../excel/fixed-range-formulas";
import type { NewSheetSpec } from "../../../excel/write-sheets";
import {
  METHODOLOGY_HEADER,
  SIGNIFICANT_HEADER,
  readMethodology,
  significantAssets,
  significantCheckFormula,
  type DisclosureLabels,
} from "./model/disclosure";
import { readTablesWithHeader, rewriteTableBody, writeOwnFormula } from "../../../excel/cells-by-address";
import { columnLetters, parseA1 } from "../../../shaping/a1";
import type { ProvenanceRecord } from "../../../shaping/paste-provenance";
import { countryCode } from "../../../shaping/countries";
import type { CellValue } from "../../../shaping/types";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { uniqueSheetName, uniqueTableName } from "../../../shaping/sheet-names";
import { unlessCancelled, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import {
  filterText,
  provenanceOf,
  refreshPastedSheets,
  rowKeysFor,
  sortPastedSheetAgain,
  type PastedRefreshResult,
  type RefreshChoices,
} from "../pasted";
import { COUNTRY_HEADER, buildDisclosureSheets, countryRowsAgain, tableColumn } from "./model/disclosure-tables";
import { DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND, readDisclosureData } from "./disclosure-kinds";

/** Options of {@link pasteDisclosureTables}. */
export interface DisclosureOptions extends PasteOptions {
  portfolio: string;
  /**
   * The asset labels of the value, its currency, revenue, adaptation and location, or the columns
   * of the synced range holding the first four (model/disclosure.ts DisclosureLabels).
   */
  labels?: DisclosureLabels;
}

/** What was written. */
export interface DisclosureResult {
  sheets: PastedSheet[];
  assets: number;
  /** The currencies of the values: each but the reporting one needs an FX rate on the Methodology sheet. */
  currencies: string[];
  /** Values and revenues that are not amounts, by asset. */
  problems: string[];
  significant: number;
}

/**
 * "Disclosure tables → new sheets": reads the default summary (every scenario and window) and the
 * asset list, and writes, all or none: the data sheet (keyed by asset, scenario and window, with
 * provenance, refreshed in place by "Refresh pasted sheets" or here), the Methodology sheet of
 * input cells, the E1-9, IFRS S2 29(c) and TCFD sheets of formulas over both, and the sorted list
 * of significant assets at material risk (E1-9 66(c)), keyed by asset and refreshed from the
 * workbook as it is then (model/disclosure-tables.ts, model/disclosure.ts).
 */
export async function pasteDisclosureTables(options: DisclosureOptions): Promise<DisclosureResult> {
  const { client, run, portfolio, signal, onProgress } = options;
  onProgress?.({ message: "Reading the summary and the assets…" });
  const { data, assetCount } = await unlessCancelled(
    readDisclosureData(client, portfolio, options.labels ?? {}, { signal, onProgress, run }),
    signal,
  );
  const provenance = await provenanceOf(client, DISCLOSURE_DATA_KIND, portfolio, { ...data.labels }, signal);
  const rowKeys = await rowKeysFor(client, DISCLOSURE_DATA_KIND, portfolio, data, signal);

  const [sheetsTaken, tablesTaken] = await run(async (context) => [
    await listSheetNames(context),
    (await listTables(context)).map((t) => t.name),
  ]);
  const sheet = (desired: string) => {
    const name = uniqueSheetName(desired, sheetsTaken);
    sheetsTaken.push(name);
    return name;
  };
  const table = (desired: string) => {
    const name = uniqueTableName(desired, tablesTaken);
    tablesTaken.push(name);
    return name;
  };
  const names = {
    data: { sheet: sheet(`Disclosure data ${portfolio}`), table: table(`Disclosure_data_${portfolio}`) },
    significant: { sheet: sheet(`E1-9 66(c) ${portfolio}`), table: table(`E1_9_significant_${portfolio}`) },
  };
  const sheetNames = {
    methodology: sheet(`Methodology ${portfolio}`),
    e19: sheet(`E1-9 ${portfolio}`),
    ifrs: sheet(`IFRS S2 29(c) ${portfolio}`),
    tcfd: sheet(`TCFD ${portfolio}`),
    country: sheet(`By country ${portfolio}`),
  };
  const tableNames = {
    methodology: table(`Methodology_${portfolio}`),
    e19: table(`E1_9_${portfolio}`),
    ifrs: table(`IFRS_S2_29c_${portfolio}`),
    tcfd: table(`TCFD_${portfolio}`),
    country: table(`By_country_${portfolio}`),
  };
  const built = buildDisclosureSheets({
    portfolio,
    dataSheet: names.data.sheet,
    dataHeader: data.header,
    dataTable: names.data.table,
    currencies: data.currencies,
    sheetNames,
    tableNames,
    countries: countriesOf(data.header, data.rows),
  });
  // The list as the Methodology's defaults make it; a refresh recomputes it from the cells.
  const significant = significantAssets(
    data.header,
    data.rows,
    readMethodology([METHODOLOGY_HEADER, ...built.methodology.rows]),
  );
  const specs: NewSheetSpec[] = [
    {
      sheetName: names.data.sheet,
      tableName: names.data.table,
      header: data.header,
      rows: data.rows,
      numberFormats: { [data.header.indexOf("value")]: "#,##0", [data.header.indexOf("revenue")]: "#,##0" },
      provenance,
      rowKeys,
    },
    built.methodology,
    built.e19,
    {
      sheetName: names.significant.sheet,
      tableName: names.significant.table,
      header: [...SIGNIFICANT_HEADER],
      rows: significant,
      numberFormats: { 6: "#,##0" },
      sort: { column: SIGNIFICANT_HEADER.indexOf("value (reporting currency)"), ascending: false },
      provenance: {
        ...provenance,
        operation: "disclosure-significant",
        dataset: undefined,
        filters: { data_table: names.data.table, methodology_table: tableNames.methodology },
      },
      rowKeys: { spec: ROW_KEYS["disclosure-significant"] },
    },
    built.ifrs,
    built.tcfd,
    built.country,
  ];
  const written = await writeNewSheets(run, specs, { signal, onProgress });
  const check = significantCheckFormula(
    {
      methodology: {
        sheet: sheetNames.methodology,
        row: 0,
        col: 0,
        values: [METHODOLOGY_HEADER, ...built.methodology.rows],
      },
      dataTable: names.data.table,
      dataHeader: data.header,
      dataRows: data.rows,
      computedAt: new Date(),
    },
    tableColumn,
  );
  await run((context) => writeOwnFormula(context, written[3]!.sheetName, SIGNIFICANT_CHECK_CELL, check));
  return {
    sheets: written.map(pastedSheet),
    assets: assetCount,
    currencies: data.currencies,
    problems: data.problems,
    significant: significant.length,
  };
}

/** Formula tables made before the tables named the data table's columns, by data sheet. */
export interface OutdatedDisclosure {
  dataSheet: string;
  /** The sheets of the tables still reading fixed ranges of it, each marked stale in a cell. */
  sheets: string[];
  /** The last data row their ranges cover. */
  lastRow: number;
}

/**
 * The countries of the data's location column: ISO 3166-1 alpha-2 code → the texts naming it
 * (src/shaping/countries.ts reads codes and English, German and French names). A text naming no
 * country is left out: its assets count in the "unlisted or unknown country" row.
 */
function countriesOf(header: readonly string[], rows: readonly (readonly CellValue[])[]): Map<string, string[]> {
  const column = header.indexOf("location");
  const byCode = new Map<string, Set<string>>();
  for (const row of rows) {
    const text = row[column];
    const code = typeof text === "string" ? countryCode(text) : undefined;
    if (code && typeof text === "string") byCode.set(code, (byCode.get(code) ?? new Set()).add(text));
  }
  return new Map([...byCode].map(([code, texts]) => [code, [...texts].sort()]));
}

/** What "Refresh disclosure tables" did. */
export interface DisclosureRefreshResult extends PastedRefreshResult {
  /** Disclosure tables made before this version: their fixed ranges do not follow the data; upgrade them. */
  outdated: OutdatedDisclosure[];
}

/** The disclosure data sheets on record (for one portfolio, or all). */
async function disclosureRecords(run: PasteOptions["run"], portfolio?: string) {
  return (await run((context) => readProvenance(context))).records.filter(
    (r) =>
      (r.operation === "disclosure-data" || r.operation === "disclosure-significant") &&
      (!portfolio || r.portfolio === portfolio),
  );
}

/**
 * "Refresh disclosure tables": the data sheets by key (the analyst's edits kept, src/excel/keyed-replace.ts),
 * then the significant-assets lists recomputed from the data and Methodology cells as they are
 * now, through the same refresh as every paste. The Methodology, E1-9, IFRS S2 and TCFD sheets are
 * not written: they are formulas over the data table's columns and follow it. Tables made before
 * they named the data table (fixed A1 ranges) are found, and each of their sheets says in a cell
 * that it is stale until {@link upgradeDisclosureTables} rewrites them.
 */
export async function refreshDisclosureTables(
  options: PasteOptions & RefreshChoices & { portfolio?: string },
): Promise<DisclosureRefreshResult> {
  const { run } = options;
  const before = await disclosureRecords(run, options.portfolio);
  if (before.length === 0)
    throw new Error(
      `This workbook has no disclosure tables${options.portfolio ? ` for ${options.portfolio}` : ""} on record: make them first.`,
    );
  // The data sheets first, then the lists computed from them: a refresh reads the next sheets
  // while it writes one, so one pass would compute a list from the data as it was before.
  const pass = async (operation: string): Promise<PastedRefreshResult> => {
    const sheetIds = before.filter((r) => r.operation === operation).map((r) => r.sheetId);
    if (sheetIds.length === 0) return { outcomes: [], refreshed: 0, refused: 0 };
    return refreshPastedSheets({ ...options, kinds: [DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND], sheetIds });
  };
  const data = await pass("disclosure-data");
  // Each data table read once after its refresh, for the by-country rows and the lists' checks.
  const tables = new Map<string, Promise<CellValue[][]>>();
  const dataTable = (name: string) => {
    if (!tables.has(name))
      tables.set(
        name,
        run(async (context) => (await readTable(context, name, { maxRows: 1_000_000 })).values),
      );
    return tables.get(name)!;
  };
  for (const record of before)
    if (record.operation === "disclosure-data" && data.outcomes.some((o) => o.sheetId === record.sheetId && o.ok))
      await rewriteCountryRows(run, record.tableName, dataTable);
  const lists = await pass("disclosure-significant");
  const result: PastedRefreshResult = {
    ...data,
    // Unusable records are reported by each pass: once is enough.
    outcomes: [...data.outcomes, ...lists.outcomes.filter((o) => o.sheetId !== undefined)],
    refreshed: data.refreshed + lists.refreshed,
    refused: data.refused + lists.refused,
  };
  for (const record of before)
    if (
      record.operation === "disclosure-significant" &&
      result.outcomes.some((o) => o.sheetId === record.sheetId && o.ok)
    ) {
      // The significant assets stay sorted by value: rows a refresh added at the end are sorted in.
      await sortPastedSheetAgain(run, record.sheetId);
      await writeSignificantCheck(run, record, dataTable);
    }
  const outdated: OutdatedDisclosure[] = [];
  for (const record of await disclosureRecords(run, options.portfolio)) {
    if (record.operation !== "disclosure-data") continue;
    const found = await run(async (context) => {
      const tables = await findFixedRangeTables(context, record.sheetName, record.tableName);
      if (tables.length > 0)
        await markFixedRangeTables(context, tables, record.tableName, record.sheetName, tableColumn);
      return tables;
    });
    if (found.length > 0)
      outdated.push({
        dataSheet: record.sheetName,
        sheets: found.map((t) => t.sheet),
        lastRow: Math.max(...found.map((t) => t.lastRow)),
      });
  }
  return { ...result, outdated };
}

/**
 * Where the 66(c) sheet says whether its list is current: right of the table, one column between,
 * beside its header (a refresh by key keeps a cell beside the header where it is).
 */
const SIGNIFICANT_CHECK_CELL = `${columnLetters(SIGNIFICANT_HEADER.length + 1)}1`;

/**
 * Writes the 66(c) list's check from the data and Methodology tables as they are now (the list was
 * just computed from them).
 */
async function writeSignificantCheck(
  run: PasteOptions["run"],
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
  run: PasteOptions["run"],
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

/**
 * "Upgrade disclosure tables": the E1-9, IFRS S2 and TCFD tables made before the formulas named
 * the data table's columns get each fixed range of a data column replaced by the structured
 * reference to that column (everything else in the formula as it was, the analyst's inputs kept),
 * and the stale notice beside them cleared. Answers the sheets upgraded.
 */
export async function upgradeDisclosureTables(
  options: Pick<PasteOptions, "run"> & { portfolio?: string },
): Promise<string[]> {
  const upgraded: string[] = [];
  for (const record of await disclosureRecords(options.run, options.portfolio)) {
    if (record.operation !== "disclosure-data") continue;
    await options.run(async (context) => {
      const found = await findFixedRangeTables(context, record.sheetName, record.tableName);
      if (found.length === 0) return;
      await upgradeFixedRangeTables(context, found, record.sheetName, record.tableName, tableColumn);
      upgraded.push(...found.map((t) => t.sheet));
    });
  }
  return upgraded;
}
