/**
 * What a paste kind is: its operation, label, whether its data is a portfolio's physical dataset
 * (which has a version and a digest for the provenance), its documented row key, how to fetch and
 * shape its table from the filters a provenance record keeps (or stream it page by page), and the
 * sheet a first paste puts it on. Each feature defines its own kinds in its folder
 * (`<feature>/*-kind(s).ts`), listed once in features/paste-kinds.ts beside the list of features;
 * the first paste (first-paste.ts) is given the kind by the feature that pastes it, and the refresh
 * of pasted sheets is handed the list, so this machinery imports no feature.
 */
import type { RiskClient } from "../../../api/client";
import type { ReadAllOptions, SlotSource } from "../../../api/pagination";
import type { SharedReads } from "../../../api/shared-reads";
import type { PhysicalItem } from "../../../api/types";
import type { FollowerFormulas, FollowerSheetNames } from "../../../excel/formula-followers";
import type { StreamSheetSpec } from "../../../excel/stream-sheets";
import type { ChartSpec } from "../../../excel/table-formats";
import type { RowKeying } from "../../../excel/written-store";
import type { PasteOperation, ProvenanceRecord } from "../../../shaping/paste-provenance";
import type { AssetFacts, RowKeySpec } from "../../../shaping/row-keys";
import type { CellValue, ColumnFormats, SummaryItem } from "../../../shaping/types";
import type { ExcelRunner } from "../../ui/pane-types";
import type { Message } from "../../../i18n/messages";

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
  /**
   * Reads every page in order, calling `onPage` with each; stops when `signal` fires. When `onPage`
   * returns a promise, reading keeps pace with it (api/pagination.ts pagesAheadOfConsumer).
   */
  read(onPage: (items: T[]) => void | Promise<unknown>, signal?: AbortSignal): Promise<unknown>;
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
  /** About how many items the read holds, when known: its first pages are then asked for at once. */
  expectedItems?: number;
  onItemsRead?: (itemsRead: number) => void;
}

/** A sheet of a kind that a refresh of pasted sheets took up, and whether it was refreshed. */
export interface RefreshedSheet {
  record: ProvenanceRecord;
  ok: boolean;
}

/** What a kind's steps after a refresh need besides the workbook: one read of a table, shared by every kind's steps. */
export interface AfterRefreshReads {
  /** `read` once per refresh for `key`, however many kinds' steps ask for it. */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/**
 * What a kind's steps after a refresh tell the analyst: tables that need them (made by an older
 * version, say), or steps that failed. Shown wherever the refresh was started: the pane's section
 * and the ribbon's outcome line.
 */
export interface RefreshFollowUp {
  /** The kind whose steps said it (set by the refresh). */
  operation?: PasteOperation;
  /**
   * One sentence each, naming the sheets and what to do: catalog messages the pane words (a string
   * is shown as it is, for kinds whose words are not in the catalogs yet).
   */
  messages: Array<Message | string>;
  /** Work offered to the analyst as a button: its label, and the work (answering one sentence). */
  offer?: { label: string; work(run: ExcelRunner): Promise<string> };
}

/** One paste kind. */
export interface PasteKind {
  /** The operation its provenance records, by which a refresh finds the kind in the list it is handed. */
  operation: PasteOperation;
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
  /**
   * When a refresh writes this kind's sheets: every sheet of a lower phase is written before a
   * sheet of a higher one is read (a list computed from a data sheet reads it after its refresh).
   * Default 0.
   */
  refreshPhase?: number;
  /**
   * Steps a refresh runs once after writing every sheet, given this kind's sheets it took up (in
   * phase order, whichever path started the refresh: the pane's sections, the ribbon, a refresh of
   * one sheet): tables that follow these sheets but are not pasted sheets themselves, brought in
   * line. Answers what the analyst must be told, if anything.
   */
  afterRefresh?(
    sheets: readonly RefreshedSheet[],
    run: ExcelRunner,
    reads: AfterRefreshReads,
  ): Promise<RefreshFollowUp | undefined>;
}

/** A filter a provenance records, as text; undefined when it records none. */
export const filterText = (source: PasteSource, name: string): string | undefined =>
  source.filters[name] === undefined ? undefined : String(source.filters[name]);

/** A list read's progress callback that reports its items to `onItemsRead`, when there is one. */
export const reportingItems = (onItemsRead?: (itemsRead: number) => void) =>
  onItemsRead && (({ itemsRead }: { itemsRead: number }) => onItemsRead(itemsRead));

/** The summary of a portfolio for `query`, read once per paste or refresh when its kinds share `extras.shared`. */
export function summaryItems(
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

/**
 * The kind of an operation in `kinds` (the list the refresh is handed), or an error naming the
 * sheet whose record holds an unknown one.
 */
export function pasteKind(kinds: readonly PasteKind[], operation: string, sheetName: string): PasteKind {
  const kind = kinds.find((k) => k.operation === operation);
  if (!kind) throw new Error(`Unknown operation "${operation}" in the provenance of "${sheetName}".`);
  return kind;
}

/**
 * How a paste of `kind` keys its rows: the kind's row key, and the portfolio's assets when
 * the table alone cannot tell them apart (entity_ids missing or repeated and no coordinates in
 * the table: a summary). The asset list is read only then, as `reading` says (a refresh's shared
 * slots: its pages within the refresh's requests in flight).
 */
export async function rowKeysFor(
  client: RiskClient,
  kind: Pick<PasteKind, "rowKey">,
  portfolio: string | undefined,
  table: FetchedTable,
  signal?: AbortSignal,
  reading: Pick<ReadAllOptions, "readAhead" | "slots"> = { readAhead: 4 },
): Promise<RowKeying> {
  const spec = kind.rowKey(table.header);
  if (!spec.asset || !portfolio || !needsAssetList(table)) return { spec };
  const assets = await client.portfolios.assets(portfolio).all({ signal, ...reading });
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
