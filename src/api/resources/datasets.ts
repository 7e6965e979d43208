import { segment, type CallOptions, type QueryValue, type Transport } from "../http";
import { PagedList } from "../pagination";
import { SeriesShapes, SeriesValues } from "../series-values";
import type {
  DatasetMetadata,
  DownloadedFile,
  ExtendedSummaryItem,
  FileFormat,
  ItemsQuery,
  PhysicalItem,
  PhysicalItemRecord,
  SummaryItem,
  SummaryQuery,
} from "../types";

/**
 * A portfolio's physical-risk datasets. While risk data is being generated these answer
 * ConflictError (409; docs/service.md#status-codes-and-errors).
 */
export class Datasets {
  constructor(private readonly transport: Transport) {}

  /** Version, digest and the indicators with their units and ranges. */
  metadata(portfolio: string, call?: CallOptions): Promise<DatasetMetadata> {
    return this.transport.get("datasets.metadata", root(portfolio), call);
  }

  /** Default summary: per asset × scenario × window, a score and class per hazard. */
  summary(portfolio: string, query: Omit<SummaryQuery, "page"> = {}, call?: CallOptions): PagedList<SummaryItem> {
    return this.paged<SummaryItem>("datasets.summary", `${root(portfolio)}/summary`, query, call);
  }

  /** Extended summary: per asset, metrics per scenario and hazard (flood is `flood` here). */
  extendedSummary(
    portfolio: string,
    query: Omit<SummaryQuery, "page" | "window"> = {},
    call?: CallOptions,
  ): PagedList<ExtendedSummaryItem> {
    const path = `${root(portfolio)}/summary`;
    return this.paged<ExtendedSummaryItem>("datasets.extendedSummary", path, { ...query, extended: "true" }, call);
  }

  /** Timeseries items, one per asset × hazard × indicator × scenario × measure matching the filters. */
  items(portfolio: string, query: Omit<ItemsQuery, "page"> = {}, call?: CallOptions): PagedList<PhysicalItem> {
    // Each page's values are made compact as soon as it is parsed, before it waits its turn
    // (series-values.ts): one SeriesShapes per list, so its series share their key arrays.
    const shapes = new SeriesShapes();
    return this.paged<PhysicalItemRecord, PhysicalItem>(
      "datasets.items",
      `${root(portfolio)}/items`,
      query,
      call,
      (records) => {
        const items = records as unknown as PhysicalItem[];
        for (let i = 0; i < records.length; i++) {
          items[i]!.risk_exposure = SeriesValues.from(records[i]!.risk_exposure, shapes);
        }
        return items;
      },
    );
  }

  /** The ZIP archive of CSV files. */
  export(portfolio: string, call?: CallOptions): Promise<Uint8Array> {
    return this.transport.get("datasets.export", `${root(portfolio)}/export`, call, { responseType: "bytes" });
  }

  /**
   * The export as one JSON file (`.../export/json`; its shape is not published). Answers the file
   * as sent, for saving or for reading with `JSON.parse` on its text.
   */
  exportJson(portfolio: string, call?: CallOptions): Promise<DownloadedFile> {
    return this.transport.get("datasets.exportJson", `${root(portfolio)}/export/json`, call, { responseType: "file" });
  }

  /**
   * The timeseries items as one file (`.../items/export`): the items' filters plus `file_format`
   * (`csv` by default, or `json`; values inferred). Every matching item unless `page`/`rows` are given.
   */
  itemsExport(
    portfolio: string,
    query: ItemsQuery & { file_format?: FileFormat } = {},
    call?: CallOptions,
  ): Promise<DownloadedFile> {
    const path = `${root(portfolio)}/items/export`;
    return this.transport.get("datasets.itemsExport", path, call, { query: { ...query }, responseType: "file" });
  }

  /**
   * The default summary as one file (`.../summary/export`): the summary's filters plus
   * `file_format` (`csv` by default, or `json`; values inferred).
   */
  summaryExport(
    portfolio: string,
    query: SummaryQuery & { file_format?: FileFormat } = {},
    call?: CallOptions,
  ): Promise<DownloadedFile> {
    const path = `${root(portfolio)}/summary/export`;
    return this.transport.get("datasets.summaryExport", path, call, { query: { ...query }, responseType: "file" });
  }

  /**
   * A paged GET: the filters of `query` on every page, with `rows` per page (the list's own paging).
   * `held` turns a page of records as sent into the items the list answers.
   */
  private paged<T, Held = T>(
    operation: string,
    path: string,
    query: { rows?: number } & Record<string, QueryValue>,
    call?: CallOptions,
    held: (records: T[]) => Held[] = (records) => records as unknown as Held[],
  ): PagedList<Held> {
    const { rows, ...filters } = query;
    return new PagedList<Held>(
      async (page, pageRows, pageCall) =>
        held(await this.transport.get<T[]>(operation, path, pageCall, { query: { ...filters, page, rows: pageRows } })),
      { rows, ...call },
    );
  }
}

function root(portfolio: string): string {
  return `/portfolios/${segment(portfolio)}/datasets/physical`;
}
