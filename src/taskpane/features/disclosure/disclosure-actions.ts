import { readProvenance } from "../../../excel/provenance-sheets";
import { listSheetNames, listTables } from "../../../excel/read-range";
import type { NewSheetSpec } from "../../../excel/write-sheets";
import {
  METHODOLOGY_HEADER,
  SIGNIFICANT_HEADER,
  readMethodology,
  significantAssets,
  significantCheckFormula,
  type DisclosureLabels,
} from "./model/disclosure";
import { writeOwnFormula } from "../../../excel/cells-by-address";
import { sheetWords } from "../../../excel/sheet-words";
import { message, type Message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { uniqueSheetName, uniqueTableName } from "../../../shaping/sheet-names";
import { unlessCancelled, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import {
  provenanceOf,
  refreshPastedSheets,
  rowKeysFor,
  type PastedRefreshResult,
  type RefreshChoices,
} from "../pasted";
import { buildDisclosureSheets, tableColumn } from "./model/disclosure-tables";
import { DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND, readDisclosureData } from "./disclosure-kinds";
import {
  SIGNIFICANT_CHECK_CELL,
  countriesOf,
  disclosureDataRecords,
  upgradeFixedRanges,
  type DisclosureFollowUp,
  type OutdatedDisclosure,
} from "./disclosure-after-refresh";

export type { OutdatedDisclosure } from "./disclosure-after-refresh";

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
  problems: Message[];
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
  onProgress?.({ message: (await sheetWords())(message("disclosure.progress.reading")) });
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
    words: await sheetWords(),
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

/** What "Refresh disclosure tables" did. */
export interface DisclosureRefreshResult extends PastedRefreshResult {
  /** Disclosure tables made before this version: their fixed ranges do not follow the data; upgrade them. */
  outdated: OutdatedDisclosure[];
}

/**
 * "Refresh disclosure tables": the shared refresh of pasted sheets (../pasted), scoped to the
 * disclosure's sheets (of one portfolio, or all), which runs the same steps whichever path starts it
 * (the disclosure kinds' `afterRefresh`, disclosure-after-refresh.ts): the data sheets by key (the
 * analyst's edits kept, src/excel/keyed-replace.ts) and the by-country rows after them, then the
 * significant-assets lists recomputed from the data and Methodology cells as they are now, sorted
 * and checked. The Methodology, E1-9, IFRS S2 and TCFD sheets are not written: they are formulas
 * over the data table's columns and follow it. Tables made before they named the data table (fixed
 * A1 ranges) are found, and each of their sheets says in a cell that it is stale until
 * {@link upgradeDisclosureTables} rewrites them.
 */
export async function refreshDisclosureTables(
  options: PasteOptions & RefreshChoices & { portfolio?: string },
): Promise<DisclosureRefreshResult> {
  const kinds = [DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND];
  const records = (await options.run((context) => readProvenance(context))).records.filter(
    (r) => kinds.some((k) => k.operation === r.operation) && (!options.portfolio || r.portfolio === options.portfolio),
  );
  if (records.length === 0)
    throw new MessageError(message("disclosure.error.noTables", { portfolio: options.portfolio || "none" }));
  const result = await refreshPastedSheets({ ...options, kinds, sheetIds: records.map((r) => r.sheetId) });
  return {
    ...result,
    outdated: result.followUps.flatMap((f) => (f as Partial<DisclosureFollowUp>).outdated ?? []),
  };
}

/**
 * "Upgrade disclosure tables": the E1-9, IFRS S2 and TCFD tables made before the formulas named
 * the data table's columns, of one portfolio or all, get each fixed range of a data column replaced
 * by the structured reference to that column (disclosure-after-refresh.ts upgradeFixedRanges).
 * Answers the sheets upgraded.
 */
export async function upgradeDisclosureTables(
  options: Pick<PasteOptions, "run"> & { portfolio?: string },
): Promise<string[]> {
  return upgradeFixedRanges(options.run, await disclosureDataRecords(options.run, options.portfolio));
}
