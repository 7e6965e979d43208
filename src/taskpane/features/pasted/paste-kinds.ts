/**
 * One definition per paste kind: its label, whether its data is a portfolio's physical dataset
 * (which has a version and a digest for the provenance), its documented row key, how to fetch and
 * shape its table from the filters a provenance record keeps (or stream it page by page), and the
 * sheet a first paste puts it on. The first paste (first-paste.ts `pasteKinds`, `streamKind`) and
 * the refresh of pasted sheets both read it, so a kind is fetched and shaped the same way by both.
 */
import type { RiskClient } from "../../../api/client";
import type { FollowerFormulas, FollowerSheetNames } from "../../../excel/formula-followers";
import type { RowKeying } from "../../../excel/written-store";
import { parseCsvTable } from "../../../shaping/csv-table";
import { sheetNameForFile, unzipCsvFiles } from "../../../shaping/export-zip";
import { flattenExtendedSummary, flattenSummary } from "../../../shaping/flatten-summary";
import { OPERATION_LABELS, type PasteOperation } from "../../../shaping/paste-provenance";
import {
  COMPARED_SCENARIOS,
  buildRiskMatrix,
  buildScenarioComparison,
  itemsFor,
  labelCountsByHazard,
  labelCountsTable,
} from "../../../shaping/risk-views";
import { ROW_KEYS, exportKeySpec, type AssetFacts, type RowKeySpec } from "../../../shaping/row-keys";
import { SERIES_KINDS, TidyTimeseriesBuilder, type SeriesKind } from "../../../shaping/tidy-timeseries";
import type { PhysicalItem } from "../../../api/types";
import type { ReadAllOptions, RequestSlots, SlotSource } from "../../../api/pagination";
import type { StreamSheetSpec } from "../../../excel/stream-sheets";
import type { ChartSpec } from "../../../excel/table-formats";
import type { CellValue, ColumnFormats, ExtendedSummaryItem, SummaryItem } from "../../../shaping/types";
import {
  SIGNIFICANT_HEADER,
  buildDisclosureData,
  readMethodology,
  significantAssets,
  type DisclosureData,
  type DisclosureLabels,
} from "../../../shaping/disclosure";
import { readTable } from "../../../excel/read-range";
import { formatCount, type ExcelRunner, type LongRunning } from "../../ui/pane-types";
import { fetchFinancialImpact } from "../impact";

/** A table to write: header and rows. */
export interface FetchedTable {
  header: string[];
  rows: CellValue[][];
  /**
   * What the table is of: the service's name for the result (the applied layer's) or, for a risk
   * view, its scenario and window.
   */
  title?: string;
  /** How the paste formats its columns: a refresh that widens the table formats new ones alike. */
  formats?: ColumnFormats;
  /**
   * The formulas of the tables that follow this one (the financial impact's per-asset and roll-up
   * sheets), given their sheets' names at the time of the write: a refresh brings them in line.
   */
  followers?: (names: FollowerSheetNames) => FollowerFormulas;
}

/** What a kind is fetched with: the recorded portfolio and filters (and, at a refresh, the sheet's name). */
export interface PasteSource {
  portfolio?: string;
  filters: Record<string, string | number | boolean>;
  /** The pasted sheet's name at a refresh; absent at the first paste. */
  sheetName?: string;
  /**
   * At a refresh, the rows the sheet's table held when it was last written: how many items its
   * list is likely to hold, so its pages can all be asked for at once (`expectedItems`).
   */
  rows?: number;
}

/**
 * Pages in flight at most over every list one "Refresh pasted sheets" reads (three sheets' reads
 * at once), the sheet written next first: each list may take every slot the others leave free, so
 * the longest (the default summary of every scenario, 180 pages at 5,000 assets) is not read a few
 * pages at a time while the slots of the shorter lists, long finished, stand idle. 8 keeps the wire
 * full at a production latency (300 ms): the weekly refresh's step took 13.6 s against a bound of
 * 11.1 s at 8 at once. At 16 it took 11.3 s, but at 40 ms it took 7.2–8.7 s instead of
 * 5.4–6.3 s: there the step is bound by this thread's parsing and writing, and twice the answers
 * arriving at once doubled its garbage collection. 8 is also a quarter of a service's cap of 32
 * requests at once per key, leaving room for the RISK cells recalculating meanwhile.
 */
export const REFRESH_PAGES_IN_FLIGHT = 8;

/**
 * Lists read once per paste or per "Refresh pasted sheets" and shared by every sheet that needs the
 * same one: the extended summary of a scenario is both a pasted sheet's data and one of the
 * financial impact sheets' inputs (about 8,000 characters per asset), and the risk matrix and its
 * label counts are shaped from one summary read. Keyed by the request; it lives as long as one
 * paste or refresh (dropped when done), so it is not a cache: the next refresh reads everything
 * again. Reads go with the paste's or refresh's own signal, so one sheet giving up on its read (the
 * financial impact stops its other scenarios at the first failure) never cancels another's.
 */
export class SharedReads {
  /**
   * `slots`: pages in flight at most over every list read through these reads (a refresh's);
   * `lists`: the lists read so far, shared with the views `forSheet` makes.
   */
  constructor(
    private readonly client: RiskClient,
    private readonly signal?: AbortSignal,
    private readonly allSlots?: RequestSlots,
    private readonly slots: SlotSource | undefined = allSlots,
    private readonly lists = new Map<string, Promise<readonly unknown[]>>(),
  ) {}

  /**
   * The same reads for the `index`-th sheet a refresh writes: its pages take free slots before
   * those of later sheets, so the sheet written next is read first (a list another sheet already
   * started keeps its place).
   */
  forSheet(index: number): SharedReads {
    return new SharedReads(this.client, this.signal, this.allSlots, this.allSlots?.withPriority(index), this.lists);
  }

  /**
   * How a list of about `expectedItems` items is read: with shared slots and a known length, every
   * page up to the expected end may be in flight (the slots bound the whole; none is asked past
   * the end but the one that shows it); else `readAhead` pages at a time (a list of unknown length
   * reads ahead no further than that past its end).
   */
  reading(readAhead: number, expectedItems?: number): Pick<ReadAllOptions, "readAhead" | "slots" | "expectedItems"> {
    if (!this.slots) return { readAhead, expectedItems };
    const known = expectedItems !== undefined && expectedItems > 0;
    return { readAhead: known ? Math.max(readAhead, this.slots.size) : readAhead, slots: this.slots, expectedItems };
  }

  /**
   * The extended summary of one scenario (or of every scenario when none is given), read once;
   * `assets`: how many the portfolio is expected to have (one item each), when known.
   */
  extendedSummary(
    portfolio: string,
    scenario: string | undefined,
    assets?: number,
  ): Promise<readonly ExtendedSummaryItem[]> {
    return this.once(["extended-summary", portfolio, scenario ?? null], () =>
      this.client.datasets
        .extendedSummary(portfolio, scenario ? { scenario } : {})
        .all({ signal: this.signal, ...this.reading(4, assets) }),
    );
  }

  /** The summary for `query`, read once; `read` reads it with the shared signal and reading. */
  summary(
    portfolio: string,
    query: Record<string, unknown>,
    read: (
      signal: AbortSignal | undefined,
      reading: Pick<ReadAllOptions, "readAhead" | "slots">,
    ) => Promise<SummaryItem[]>,
  ): Promise<readonly SummaryItem[]> {
    return this.once(["summary", portfolio, query], () => read(this.signal, this.reading(4)));
  }

  private once<T>(request: unknown[], read: () => Promise<readonly T[]>): Promise<readonly T[]> {
    const key = JSON.stringify(request);
    let list = this.lists.get(key) as Promise<readonly T[]> | undefined;
    if (!list) {
      list = read();
      // A rejection nobody awaits yet (the sheet that started the read was refused meanwhile) is not unhandled.
      list.catch(() => undefined);
      this.lists.set(key, list);
    }
    return list;
  }
}

/** What a fetch is given beyond its source (the first paste's progress, reads shared by its kinds). */
export interface FetchExtras {
  /** Items read so far by this fetch (the pane sums them over the kinds of one paste). */
  onItemsRead?: (itemsRead: number) => void;
  /**
   * Reads shared by the kinds of one paste or by the sheets of one refresh: the risk matrix and its
   * label counts are shaped from one summary read; a scenario's extended summary pasted on its own
   * sheet is also a financial impact input.
   */
  shared?: SharedReads;
}

/**
 * Where and how a first paste puts a kind's table (a refresh keeps the sheet as it is): the
 * writer's name, title line, colours and number formats of a sheet, with a chart and the filters
 * learned from the answer.
 */
export interface SheetLayout extends Pick<
  StreamSheetSpec,
  "sheetName" | "tableName" | "title" | "labelColumns" | "scoreColumns" | "numberFormats"
> {
  /** A native chart of the table. */
  chart?: ChartSpec;
  /** Filters learned from the answer that the provenance records too (the applied layer's name). */
  filters?: Record<string, string>;
}

/** A kind pasted page by page: one read fills one or more sheets as its pages arrive. */
export interface KindStream<T> {
  /** One source per sheet the read fills, in order (the timeseries: projected, then observed). */
  sheets: PasteSource[];
  /** Reads every page in order, calling `onPage` with each; stops when `signal` fires. */
  read(onPage: (items: T[]) => void, signal?: AbortSignal): Promise<unknown>;
  /** A page's rows, per sheet. */
  shape(items: T[]): CellValue[][][];
  /** Each sheet's header, once every page is shaped. */
  headers(): string[][];
}

/** How a stream reads: pages in flight (and slots shared with other reads), page size, and the items read so far. */
export interface StreamReading {
  readAhead?: number;
  slots?: SlotSource;
  rows?: number;
  onItemsRead?: (itemsRead: number) => void;
}

/** One paste kind. */
export interface PasteKind {
  label: string;
  /** Its data is the portfolio's physical dataset (version and digest go into the provenance). */
  dataset: boolean;
  /** The documented row key, from the table's header (export files differ by file). */
  rowKey(header: readonly string[]): RowKeySpec;
  /**
   * Runs the kind's request again and shapes the result as the paste did (the same flatteners).
   * `run` reaches the workbook, for kinds whose input lives there (the financial impact's value
   * column) or that are computed from other sheets (the disclosure's significant assets).
   */
  fetch(
    client: RiskClient,
    source: PasteSource,
    signal?: AbortSignal,
    run?: ExcelRunner,
    extras?: FetchExtras,
  ): Promise<FetchedTable>;
  /**
   * Kinds pasted page by page (the timeseries): the read whose pages are written as they arrive.
   * Its `fetch` reads the same stream whole, so both shape alike.
   */
  stream?(client: RiskClient, source: PasteSource, reading?: StreamReading): KindStream<PhysicalItem>;
  /**
   * The sheet a first paste from `source` writes `table` to (an empty table for a streamed kind).
   * Absent for the kinds whose panels write several related sheets of their own (the financial
   * impact, the disclosure).
   */
  sheet?(source: PasteSource, table: FetchedTable): SheetLayout;
}

const text = (source: PasteSource, name: string): string | undefined =>
  source.filters[name] === undefined ? undefined : String(source.filters[name]);

/** A list read's progress callback that reports its items to `onItemsRead`, when there is one. */
const reportingItems = (onItemsRead?: (itemsRead: number) => void) =>
  onItemsRead && (({ itemsRead }: { itemsRead: number }) => onItemsRead(itemsRead));

/** The summary of a portfolio for `query`, read once per paste or refresh when its kinds share `extras.shared`. */
function summaryItems(
  client: RiskClient,
  source: PasteSource,
  query: Record<string, string | number | undefined>,
  signal?: AbortSignal,
  extras?: FetchExtras,
): Promise<readonly SummaryItem[]> {
  const portfolio = source.portfolio ?? "";
  const read = (readSignal: AbortSignal | undefined, reading: Pick<ReadAllOptions, "readAhead" | "slots">) =>
    client.datasets
      .summary(portfolio, query)
      .all({ signal: readSignal, ...reading, onProgress: reportingItems(extras?.onItemsRead) });
  return extras?.shared ? extras.shared.summary(portfolio, query, read) : read(signal, { readAhead: 4 });
}

/** The first words of a timeseries sheet's name, by the series it holds. */
export const TIMESERIES_SHEET_PREFIX: Record<SeriesKind, string> = { projected: "TS", observed: "TS observed" };

const seriesOf = (source: PasteSource): SeriesKind =>
  text(source, "series") === "observed" ? "observed" : "projected";

/**
 * The timeseries read page by page: projected series (YYYY keys) for one sheet, observed (YYYY-MM)
 * for another, so every column of a table is filled.
 */
function timeseriesStream(
  client: RiskClient,
  source: PasteSource,
  reading: StreamReading = {},
): KindStream<PhysicalItem> {
  const builder = new TidyTimeseriesBuilder();
  const query = {
    hazard: text(source, "hazard"),
    indicator: text(source, "indicator"),
    scenario: text(source, "scenario"),
    measure: text(source, "measure"),
    start_date: text(source, "start_date"),
    end_date: text(source, "end_date"),
    rows: reading.rows,
  };
  return {
    sheets: SERIES_KINDS.map((series) => ({ ...source, filters: { ...source.filters, series } })),
    read: (onPage, signal) =>
      client.datasets.items(source.portfolio ?? "", query).all({
        signal,
        readAhead: reading.readAhead ?? 4,
        slots: reading.slots,
        onPage,
        onProgress: reportingItems(reading.onItemsRead),
      }),
    shape: (items) => {
      const rows = builder.add(items);
      return SERIES_KINDS.map((kind) => rows[kind]);
    },
    headers: () => SERIES_KINDS.map((kind) => builder.header(kind)),
  };
}

/**
 * Pages in flight when a first paste reads the default summary of every scenario: assets × 3
 * scenarios × 3 windows rows, 180 pages of 250 at 5,000 assets, ten times the other lists. At 4
 * pages at a time it was 45 round trips in a row (14 s at 300 ms); 8 halves that. (A refresh reads
 * it within the slots of all its reads, REFRESH_PAGES_IN_FLIGHT.)
 */
export const SUMMARY_READ_AHEAD = 8;

/** Every paste kind, by the operation its provenance records. */
export const PASTE_KINDS: Record<PasteOperation, PasteKind> = {
  timeseries: {
    label: OPERATION_LABELS.timeseries,
    dataset: true,
    rowKey: () => ROW_KEYS.timeseries,
    stream: timeseriesStream,
    // The paste's stream read whole, keeping the sheet's own series (the paste puts projected and
    // observed series on sheets of their own).
    async fetch(client, source, signal, _run, extras) {
      const stream = timeseriesStream(client, source, extras?.shared?.reading(4));
      const at = SERIES_KINDS.indexOf(seriesOf(source));
      const rows: CellValue[][] = [];
      await stream.read((items) => {
        for (const row of stream.shape(items)[at]) rows.push(row);
      }, signal);
      const header = stream.headers()[at];
      return {
        header,
        rows: rows.map((row) =>
          row.length < header.length ? [...row, ...new Array<CellValue>(header.length - row.length).fill("")] : row,
        ),
      };
    },
    sheet(source) {
      const prefix = TIMESERIES_SHEET_PREFIX[seriesOf(source)];
      return {
        sheetName: `${prefix} ${source.portfolio}`,
        tableName: `${prefix.replace(" ", "_")}_${source.portfolio}`,
      };
    },
  },
  summary: {
    label: OPERATION_LABELS.summary,
    dataset: true,
    rowKey: () => ROW_KEYS.summary,
    async fetch(client, source, signal, _run, extras) {
      const scenario = text(source, "scenario");
      // At a refresh, with the refresh's slots and the rows the sheet held: one item a row.
      const reading = extras?.shared?.reading(SUMMARY_READ_AHEAD, source.rows) ?? { readAhead: SUMMARY_READ_AHEAD };
      const items = await client.datasets
        .summary(source.portfolio ?? "", scenario ? { scenario } : {})
        .all({ signal, ...reading, onProgress: reportingItems(extras?.onItemsRead) });
      const flat = flattenSummary(items);
      return { header: flat.header, rows: flat.rows, formats: { labelColumns: flat.labelColumns } };
    },
    sheet: (source, table) => ({
      sheetName: `Summary ${source.portfolio}`,
      tableName: `Summary_${source.portfolio}`,
      ...table.formats,
    }),
  },
  "extended-summary": {
    label: OPERATION_LABELS["extended-summary"],
    dataset: true,
    rowKey: () => ROW_KEYS["extended-summary"],
    async fetch(client, source, signal, _run, extras) {
      const scenario = text(source, "scenario");
      const portfolio = source.portfolio ?? "";
      const items = extras?.shared
        ? await extras.shared.extendedSummary(portfolio, scenario, source.rows) // one item a row
        : await client.datasets
            .extendedSummary(portfolio, scenario ? { scenario } : {})
            .all({ signal, onProgress: reportingItems(extras?.onItemsRead) });
      const flat = flattenExtendedSummary(items);
      return { header: flat.header, rows: flat.rows, formats: { labelColumns: flat.labelColumns } };
    },
    sheet: (source, table) => ({
      sheetName: `Extended ${text(source, "scenario")} ${source.portfolio}`,
      tableName: `Extended_${text(source, "scenario")}_${source.portfolio}`,
      ...table.formats,
    }),
  },
  "applied-layer": {
    label: OPERATION_LABELS["applied-layer"],
    dataset: false,
    rowKey: () => ROW_KEYS["applied-layer"],
    // papaparse: numeric columns become numbers, ids stay text.
    async fetch(client, source, signal) {
      const portfolio = source.portfolio ?? "";
      const result = await client.compositions.applyVector(text(source, "vector_id") ?? "", portfolio, { signal });
      return { ...parseCsvTable(result.csv, `the layer applied to ${portfolio}`), title: result.name };
    },
    // Named by the name the pane gave the layer, else the one the service answered with.
    sheet(source, table) {
      const name = text(source, "vector_name") ?? table.title ?? text(source, "vector_id") ?? "";
      return { sheetName: `${name} ${source.portfolio}`, tableName: `Layer_${name}`, filters: { vector_name: name } };
    },
  },
  export: {
    label: OPERATION_LABELS.export,
    dataset: true,
    rowKey: exportKeySpec,
    async fetch(client, source, signal) {
      const portfolio = source.portfolio ?? "";
      const bytes = await client.datasets.export(portfolio, { signal });
      const file = unzipCsvFiles(bytes).find((x) => x.fileName === text(source, "file"));
      if (!file) throw new Error(`The export of ${portfolio} no longer holds the file ${text(source, "file")}.`);
      return { header: file.header, rows: file.rows };
    },
    sheet: (source) => ({ sheetName: sheetNameForFile(text(source, "file") ?? "") }),
  },
  "risk-matrix": {
    label: OPERATION_LABELS["risk-matrix"],
    dataset: true,
    rowKey: () => ROW_KEYS["risk-matrix"],
    async fetch(client, source, signal, _run, extras) {
      const scenario = text(source, "scenario") ?? "";
      const window = Number(source.filters.window);
      const items = await summaryItems(client, source, { scenario, window }, signal, extras);
      const cells = text(source, "cells") === "score" ? "score" : "label";
      const matrix = buildRiskMatrix(items, scenario, window, cells);
      return { header: matrix.header, rows: matrix.rows, title: matrix.title, formats: matrix.formats };
    },
    // Labels or scores coloured by conditional formats, so colours follow edits.
    sheet: (source, table) => ({
      sheetName: `Matrix ${source.portfolio}`,
      tableName: `Matrix_${source.portfolio}`,
      title: `${source.portfolio} · ${table.title}`,
      ...table.formats,
    }),
  },
  "label-counts": {
    label: OPERATION_LABELS["label-counts"],
    dataset: true,
    rowKey: () => ROW_KEYS["label-counts"],
    async fetch(client, source, signal, _run, extras) {
      const scenario = text(source, "scenario") ?? "";
      const window = Number(source.filters.window);
      const items = await summaryItems(client, source, { scenario, window }, signal, extras);
      return labelCountsTable(labelCountsByHazard(itemsFor(items, scenario, window)));
    },
    // With a native stacked column chart of the counts.
    sheet(source, table) {
      const scope = `scenario ${text(source, "scenario")} · ${text(source, "window")}-year window`;
      return {
        sheetName: `Counts ${source.portfolio}`,
        tableName: `Counts_${source.portfolio}`,
        title: `${source.portfolio} · assets per label and hazard · ${scope}`,
        chart: {
          type: "ColumnStacked",
          dataRows: [0, 1, 2],
          firstValueColumn: 1,
          seriesNames: table.rows.map((r) => String(r[0])),
          title: `Assets per label · ${text(source, "scenario")} · ${text(source, "window")}-year window`,
        },
      };
    },
  },
  "scenario-comparison": {
    label: OPERATION_LABELS["scenario-comparison"],
    dataset: true,
    rowKey: () => ROW_KEYS["scenario-comparison"],
    async fetch(client, source, signal, _run, extras) {
      const hazard = text(source, "hazard") ?? "";
      const window = Number(source.filters.window);
      const items = await summaryItems(client, source, { window, hazard }, signal, extras);
      const comparison = buildScenarioComparison(items, hazard, window);
      const { header, rows, title, labelColumns } = comparison;
      return { header, rows, title, formats: { labelColumns } };
    },
    sheet: (source, table) => ({
      sheetName: `Compare ${text(source, "hazard")} ${source.portfolio}`,
      tableName: `Compare_${text(source, "hazard")}_${source.portfolio}`,
      title: `${source.portfolio} · ${table.title} (${COMPARED_SCENARIOS.join(", ")})`,
      ...table.formats,
    }),
  },
  "disclosure-data": {
    label: OPERATION_LABELS["disclosure-data"],
    dataset: true,
    rowKey: () => ROW_KEYS["disclosure-data"],
    async fetch(client, source, signal) {
      const labels: DisclosureLabels = {
        value_label: text(source, "value_label"),
        currency: text(source, "currency"),
        revenue_label: text(source, "revenue_label"),
        adaptation_label: text(source, "adaptation_label"),
        location_label: text(source, "location_label"),
      };
      const { data } = await readDisclosureData(client, source.portfolio ?? "", labels, { signal });
      return { header: data.header, rows: data.rows };
    },
  },
  "disclosure-significant": {
    label: OPERATION_LABELS["disclosure-significant"],
    dataset: false,
    rowKey: () => ROW_KEYS["disclosure-significant"],
    // Computed from the workbook as it is now: the data table (the analyst's edits included) and
    // the Methodology table's thresholds, long-term window, scenarios, FX rates and significance.
    async fetch(_client, source, _signal, run) {
      if (!run) throw new Error(`"${source.sheetName}" is computed from the workbook: refresh it from the pane.`);
      const data = text(source, "data_table") ?? "";
      const methodology = text(source, "methodology_table") ?? "";
      const [table, settings] = await run(async (context) => [
        await readTable(context, data, { maxRows: 1_000_000 }),
        await readTable(context, methodology),
      ]);
      const [header = [], ...rows] = table.values;
      const computed = significantAssets(header.map(String), rows, readMethodology(settings.values));
      if (computed.length === 0)
        throw new Error(
          `No asset is at material risk and significant by the thresholds of "${methodology}": the list was left as it was.`,
        );
      return { header: [...SIGNIFICANT_HEADER], rows: computed };
    },
  },
  "nature-summary": {
    label: OPERATION_LABELS["nature-summary"],
    dataset: false,
    rowKey: () => ROW_KEYS["nature-summary"],
    async fetch(client, source, signal) {
      const exported = await client.nature.exportSubproject(text(source, "subproject_id") ?? "", { signal });
      return { header: ["metric", "value"], rows: natureRows(exported) };
    },
    sheet: (source) => ({
      sheetName: `Nature ${text(source, "subproject_name")}`,
      tableName: `Nature_${text(source, "subproject_name")}`,
    }),
  },
  "financial-impact": {
    label: OPERATION_LABELS["financial-impact"],
    dataset: true,
    rowKey: () => ROW_KEYS["financial-impact"],
    // The impact feature builds its sheets; called, not referenced, at load (the features import each other).
    fetch: (client, source, signal, run, extras) => fetchFinancialImpact(client, source, signal, run, extras?.shared),
  },
};

/**
 * The disclosure data sheet's table, read as the first paste and every refresh read it: the
 * default summary (every scenario and window) and the asset list, together, joined by
 * buildDisclosureData (src/shaping/disclosure.ts). Also answers how many assets were read.
 */
export async function readDisclosureData(
  client: RiskClient,
  portfolio: string,
  labels: DisclosureLabels,
  { signal, onProgress }: LongRunning = {},
): Promise<{ data: DisclosureData; assetCount: number }> {
  const [summary, assets] = await Promise.all([
    client.datasets.summary(portfolio, {}).all({
      signal,
      readAhead: 4,
      onProgress: ({ itemsRead }) => onProgress?.({ message: `Read ${formatCount(itemsRead)} summary rows…` }),
    }),
    client.portfolios.assets(portfolio).all({ signal, readAhead: 4 }),
  ]);
  return { data: buildDisclosureData(summary, assets, labels, portfolio), assetCount: assets.length };
}

/** The kind of an operation, or an error naming the sheet whose record holds an unknown one. */
export function pasteKind(operation: string, sheetName: string): PasteKind {
  const kind = (PASTE_KINDS as Record<string, PasteKind | undefined>)[operation];
  if (!kind) throw new Error(`Unknown operation "${operation}" in the provenance of "${sheetName}".`);
  return kind;
}

/**
 * How a paste of `operation` keys its rows: the kind's row key, and the portfolio's assets when
 * the table alone cannot tell them apart (entity_ids missing or repeated and no coordinates in
 * the table: a summary). The asset list is read only then.
 */
export async function rowKeysFor(
  client: RiskClient,
  operation: PasteOperation,
  portfolio: string | undefined,
  table: FetchedTable,
  signal?: AbortSignal,
): Promise<RowKeying> {
  const spec = PASTE_KINDS[operation].rowKey(table.header);
  if (!spec.asset || !portfolio || !needsAssetList(table)) return { spec };
  const assets = await client.portfolios.assets(portfolio).all({ signal, readAhead: 4 });
  return { spec, assets: assets.map((a): AssetFacts => ({ ...a })) };
}

/** Whether ids do not tell the table's assets apart and the table has no coordinates. */
function needsAssetList(table: FetchedTable): boolean {
  if (table.header.includes("lat") && table.header.includes("lng")) return false;
  const pi = table.header.indexOf("portfolio_index");
  const id = table.header.indexOf("entity_id");
  if (pi < 0 || id < 0) return true;
  const idOf = new Map<string, string>();
  for (const row of table.rows) idOf.set(String(row[pi]), String(row[id] ?? "").trim());
  const ids = [...idOf.values()];
  return ids.some((x) => x === "") || new Set(ids).size < ids.length;
}

/** The rows of a nature sub-project's export: summary numbers, then `metadata:<name>` fields. */
function natureRows(exported: {
  summary?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const [name, value] of Object.entries(exported.summary ?? {}))
    rows.push([name, typeof value === "number" && Number.isFinite(value) ? value : String(value ?? "")]);
  for (const [name, value] of Object.entries(exported.metadata ?? {})) rows.push([`metadata:${name}`, cellOf(value)]);
  return rows;
}

function cellOf(value: unknown): CellValue {
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value);
}
