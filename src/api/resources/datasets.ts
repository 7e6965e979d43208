import { segment, type CallOptions, type Transport } from "../http";
import { PagedList } from "../pagination";
import type {
  DatasetMetadata,
  DownloadedFile,
  ExtendedSummaryItem,
  FileFormat,
  ItemsQuery,
  PhysicalItem,
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
    return this.transport.send(
      {
        operation: "datasets.metadata",
        method: "GET",
        area: "base",
        path: `${root(portfolio)}`,
        project: true,
        responseType: "json",
      },
      call,
    );
  }

  /** Default summary: per asset × scenario × window, a score and class per hazard. */
  summary(portfolio: string, query: Omit<SummaryQuery, "page"> = {}, call?: CallOptions): PagedList<SummaryItem> {
    return this.pagedSummary<SummaryItem>("datasets.summary", portfolio, { ...query, extended: false }, call);
  }

  /** Extended summary: per asset, metrics per scenario and hazard (flood is `flood` here). */
  extendedSummary(
    portfolio: string,
    query: Omit<SummaryQuery, "page" | "window"> = {},
    call?: CallOptions,
  ): PagedList<ExtendedSummaryItem> {
    return this.pagedSummary<ExtendedSummaryItem>(
      "datasets.extendedSummary",
      portfolio,
      { ...query, extended: true },
      call,
    );
  }

  /** Timeseries items, one per asset × hazard × indicator × scenario × measure matching the filters. */
  items(portfolio: string, query: Omit<ItemsQuery, "page"> = {}, call?: CallOptions): PagedList<PhysicalItem> {
    const { rows, ...filters } = query;
    return new PagedList<PhysicalItem>(
      (page, pageRows, pageCall) =>
        this.transport.send(
          {
            operation: "datasets.items",
            method: "GET",
            area: "base",
            path: `${root(portfolio)}/items`,
            project: true,
            query: { ...filters, page, rows: pageRows },
            responseType: "json",
          },
          pageCall,
        ),
      { rows, ...call },
    );
  }

  /** The ZIP archive of CSV files. */
  export(portfolio: string, call?: CallOptions): Promise<Uint8Array> {
    return this.transport.send(
      {
        operation: "datasets.export",
        method: "GET",
        area: "base",
        path: `${root(portfolio)}/export`,
        project: true,
        responseType: "bytes",
      },
      call,
    );
  }

  /**
   * The export as one JSON file (`.../export/json`; its shape is not published). Answers the file
   * as sent, for saving or for reading with `JSON.parse` on its text.
   */
  exportJson(portfolio: string, call?: CallOptions): Promise<DownloadedFile> {
    return this.transport.send(
      {
        operation: "datasets.exportJson",
        method: "GET",
        area: "base",
        path: `${root(portfolio)}/export/json`,
        project: true,
        responseType: "file",
      },
      call,
    );
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
    return this.transport.send(
      {
        operation: "datasets.itemsExport",
        method: "GET",
        area: "base",
        path: `${root(portfolio)}/items/export`,
        project: true,
        query: { ...query },
        responseType: "file",
      },
      call,
    );
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
    return this.transport.send(
      {
        operation: "datasets.summaryExport",
        method: "GET",
        area: "base",
        path: `${root(portfolio)}/summary/export`,
        project: true,
        query: { ...query },
        responseType: "file",
      },
      call,
    );
  }

  private pagedSummary<T>(
    operation: string,
    portfolio: string,
    query: Omit<SummaryQuery, "page"> & { extended: boolean },
    call?: CallOptions,
  ): PagedList<T> {
    const { rows, extended, ...filters } = query;
    return new PagedList<T>(
      (page, pageRows, pageCall) =>
        this.transport.send(
          {
            operation,
            method: "GET",
            area: "base",
            path: `${root(portfolio)}/summary`,
            project: true,
            query: { ...filters, extended: extended ? "true" : undefined, page, rows: pageRows },
            responseType: "json",
          },
          pageCall,
        ),
      { rows, ...call },
    );
  }
}

function root(portfolio: string): string {
  return `/portfolios/${segment(portfolio)}/datasets/physical`;
}
