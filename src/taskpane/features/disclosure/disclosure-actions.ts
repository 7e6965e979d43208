import { readProvenance } from "../../../excel/provenance-sheets";
import { listSheetNames, listTables } from "../../../excel/read-range";
import type { NewSheetSpec } from "../../../excel/write-sheets";
import {
  METHODOLOGY_HEADER,
  SIGNIFICANT_HEADER,
  readMethodology,
  significantAssets,
  type DisclosureLabels,
} from "./model/disclosure";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { uniqueSheetName, uniqueTableName } from "../../../shaping/sheet-names";
import { unlessCancelled, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import {
  provenanceOf,
  refreshPastedSheets,
  rowKeysFor,
  sortPastedSheetAgain,
  type PastedRefreshResult,
  type RefreshChoices,
} from "../pasted";
import { buildDisclosureSheets } from "./model/disclosure-tables";
import { DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND, readDisclosureData } from "./disclosure-kinds";

/** Options of {@link pasteDisclosureTables}. */
export interface DisclosureOptions extends PasteOptions {
  portfolio: string;
  /** The asset labels of the value, its currency, revenue, adaptation and location (model/disclosure.ts). */
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
    readDisclosureData(client, portfolio, options.labels ?? {}, { signal, onProgress }),
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
  };
  const tableNames = {
    methodology: table(`Methodology_${portfolio}`),
    e19: table(`E1_9_${portfolio}`),
    ifrs: table(`IFRS_S2_29c_${portfolio}`),
    tcfd: table(`TCFD_${portfolio}`),
  };
  const built = buildDisclosureSheets({
    portfolio,
    dataSheet: names.data.sheet,
    dataHeader: data.header,
    dataRows: data.rows.length,
    currencies: data.currencies,
    sheetNames,
    tableNames,
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
  ];
  const written = await writeNewSheets(run, specs, { signal, onProgress });
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
  /** Data sheets whose number of rows changed: their formula sheets cover the rows they were made with. */
  resized: string[];
}

/**
 * "Refresh disclosure tables": the data sheets by key (the analyst's edits kept, src/excel/keyed-replace.ts),
 * then the significant-assets lists recomputed from the data and Methodology cells as they are
 * now, through the same refresh as every paste. The Methodology, E1-9, IFRS S2 and TCFD sheets are
 * not written: they are formulas and input cells, and follow.
 */
export async function refreshDisclosureTables(
  options: PasteOptions & RefreshChoices & { portfolio?: string },
): Promise<DisclosureRefreshResult> {
  const { run } = options;
  const before = (await run((context) => readProvenance(context))).records.filter(
    (r) =>
      (r.operation === "disclosure-data" || r.operation === "disclosure-significant") &&
      (!options.portfolio || r.portfolio === options.portfolio),
  );
  if (before.length === 0)
    throw new Error(
      `This workbook has no disclosure tables${options.portfolio ? ` for ${options.portfolio}` : ""} on record: make them first.`,
    );
  // Records in the order written: each data sheet before the list computed from it.
  const result = await refreshPastedSheets({
    ...options,
    kinds: [DISCLOSURE_DATA_KIND, DISCLOSURE_SIGNIFICANT_KIND],
    sheetIds: before.map((r) => r.sheetId),
  });
  // The significant assets stay sorted by value: rows a refresh added at the end are sorted in.
  for (const record of before)
    if (
      record.operation === "disclosure-significant" &&
      result.outcomes.some((o) => o.sheetId === record.sheetId && o.ok)
    )
      await sortPastedSheetAgain(run, record.sheetId);
  const rowsNow = new Map(result.outcomes.map((o) => [o.sheetId, o.rows]));
  const resized = before
    .filter(
      (r) =>
        r.operation === "disclosure-data" && rowsNow.get(r.sheetId) !== undefined && rowsNow.get(r.sheetId) !== r.rows,
    )
    .map((r) => r.sheetName);
  return { ...result, resized };
}
