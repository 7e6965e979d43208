import type { RiskClient } from "../../../api/client";
import type { Asset, DownloadedFile, FileFormat, IndicatorMetadata, ItemsQuery } from "../../../api/types";
import type { ChartSpec } from "../../../excel/table-formats";
import { dateFilterProblem, dateKeyInRange, dateRangeReversed } from "./model/date-filter";
import { SERIES_KINDS, TIMESERIES_FIXED_COLUMNS, seriesKind, type SeriesKind } from "../../../shaping/tidy-timeseries";
import { streamKind } from "../pasted";
import { TIMESERIES_KIND, TIMESERIES_SHEET_PREFIX } from "./timeseries-kind";
import { rethrowIfCancelled, type LongRunning, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { MEASURES, SCENARIOS } from "../../../shared/vocabulary";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";
import { sheetWords } from "../../../excel/sheet-words";

/** The filters of a timeseries pull; an absent filter means "all". */
export interface TimeseriesFilters {
  hazard?: string;
  indicator?: string;
  scenario?: string;
  measure?: string;
  /** First year of the series (kept for callers that pick a year; `startDate` wins when both are set). */
  startYear?: number;
  /** First date `YYYY-MM-DD` or a year `YYYY`: monthly series start at its month. */
  startDate?: string;
  /** Last date `YYYY-MM-DD` or a year `YYYY` (inclusive). */
  endDate?: string;
}

/**
 * The service query of the filters (no paging). Throws an Error naming the field when a date
 * filter is malformed or the range is reversed, before anything is sent.
 */
export function timeseriesQuery(filters: TimeseriesFilters): Omit<ItemsQuery, "page" | "rows"> {
  const start = filters.startDate?.trim() || (filters.startYear !== undefined ? String(filters.startYear) : "");
  const end = filters.endDate?.trim() ?? "";
  const problem = dateFilterProblem(start, "from") ?? dateFilterProblem(end, "to");
  if (problem) throw new MessageError(problem);
  if (dateRangeReversed(start, end)) throw new MessageError(message("timeseries.date.reversed", { start }));
  return {
    hazard: filters.hazard || undefined,
    indicator: filters.indicator || undefined,
    scenario: filters.scenario || undefined,
    measure: filters.measure || undefined,
    start_date: start || undefined,
    end_date: end || undefined,
  };
}

/** Measures the service offers (docs/service.md#hazards-and-their-three-spellings). */
export const MEASURE_CHOICES = MEASURES;

/** More rows than this in one paste are refused before fetching: narrow the filters instead. */
export const MAX_TIMESERIES_ROWS = 100_000;

/** What the filter lists offer for one portfolio: its assets and the indicators per hazard. */
export interface TimeseriesCatalog {
  assets: Asset[];
  indicators: IndicatorMetadata[];
  /**
   * Per "hazard/indicator": whether its series are projected (YYYY keys) or observed (YYYY-MM) and
   * their keys, from one sample series each (for the estimate of each table's size).
   */
  shapes?: Record<string, { kind: SeriesKind; keys: string[] }>;
}

/**
 * Loads the lists of the timeseries form: the portfolio's assets (for the chart), its indicators,
 * and one sample series of each indicator (one small request each) to learn its kind and columns.
 */
export async function loadTimeseriesCatalog(
  client: RiskClient,
  portfolio: string,
  signal?: AbortSignal,
): Promise<TimeseriesCatalog> {
  const [assets, metadata] = await Promise.all([
    client.portfolios.assets(portfolio).all({ signal }),
    client.datasets.metadata(portfolio, { signal }),
  ]);
  const shapes: NonNullable<TimeseriesCatalog["shapes"]> = {};
  if (assets.length > 0) {
    await Promise.all(
      metadata.indicators.map(async (i) => {
        for await (const page of client.datasets
          .items(portfolio, {
            hazard: i.hazard,
            indicator: i.indicator,
            entity_id: assets[0].entity_id || undefined,
            rows: 1,
          })
          .pages({ rows: 1, signal })) {
          const exposure = page[0]?.risk_exposure;
          shapes[`${i.hazard}/${i.indicator}`] = { kind: seriesKind(exposure), keys: [...(exposure?.keys ?? [])] };
          break;
        }
      }),
    );
  }
  return { assets, indicators: metadata.indicators, shapes };
}

/** Rows and columns of one table of a timeseries paste. */
export interface TableEstimate {
  rows: number;
  columns: number;
}

/**
 * How big each table of the paste will be: projected and observed series separately, rows ×
 * columns (asset and series columns plus one per year or month from the start year on).
 */
export function estimateTimeseriesTables(
  catalog: TimeseriesCatalog,
  filters: TimeseriesFilters,
): Record<SeriesKind, TableEstimate> {
  const perIndicator =
    catalog.assets.length * (filters.scenario ? 1 : SCENARIOS.length) * (filters.measure ? 1 : MEASURE_CHOICES.length);
  const out: Record<SeriesKind, TableEstimate> = {
    projected: { rows: 0, columns: 0 },
    observed: { rows: 0, columns: 0 },
  };
  const keys: Record<SeriesKind, Set<string>> = { projected: new Set(), observed: new Set() };
  // As typed: the estimate shows while the form is edited, so a date not yet valid does not narrow.
  const start = filters.startDate?.trim() || (filters.startYear !== undefined ? String(filters.startYear) : "");
  const end = filters.endDate?.trim() ?? "";
  for (const i of catalog.indicators) {
    if ((filters.hazard && i.hazard !== filters.hazard) || (filters.indicator && i.indicator !== filters.indicator))
      continue;
    const shape = catalog.shapes?.[`${i.hazard}/${i.indicator}`] ?? { kind: "projected" as const, keys: [] };
    out[shape.kind].rows += perIndicator;
    for (const k of shape.keys) if (dateKeyInRange(k, start, end)) keys[shape.kind].add(k);
  }
  for (const kind of SERIES_KINDS)
    if (out[kind].rows > 0) out[kind].columns = TIMESERIES_FIXED_COLUMNS.length + keys[kind].size;
  return out;
}

/**
 * One line about an indicator from the dataset metadata, for the form: unit, value range and grid
 * resolution (a number of degrees in the published metadata), e.g.
 * "annual probability · 0 to 0.05 · 0.25° grid".
 */
export function describeIndicator(indicator: IndicatorMetadata): string {
  const parts = [indicator.unit, `${indicator.value_min} to ${indicator.value_max}`];
  if (typeof indicator.spatial_resolution === "number" && Number.isFinite(indicator.spatial_resolution))
    parts.push(`${indicator.spatial_resolution}° grid`);
  return parts.join(" · ");
}

/** About how many items (rows) the filters select: assets × indicators × scenarios × measures. */
export function estimateTimeseriesRows(catalog: TimeseriesCatalog, filters: TimeseriesFilters): number {
  const indicators = catalog.indicators.filter(
    (i) =>
      (!filters.hazard || i.hazard === filters.hazard) && (!filters.indicator || i.indicator === filters.indicator),
  ).length;
  const scenarios = filters.scenario ? 1 : SCENARIOS.length;
  const measures = filters.measure ? 1 : MEASURE_CHOICES.length;
  return catalog.assets.length * indicators * scenarios * measures;
}

/** Options of {@link pasteTimeseries}. */
export interface TimeseriesPasteOptions extends PasteOptions {
  portfolio: string;
  filters: TimeseriesFilters;
  /** When known, drives the progress bar and the size check before anything is fetched. */
  catalog?: TimeseriesCatalog;
  /** portfolio_index of the assets to draw in a native line chart (none: no chart). */
  chartAssets?: number[];
  /** Pages in flight at once (default 4). */
  readAhead?: number;
  /** Page size (default 250, the service's maximum). */
  rows?: number;
  /** Budget per workbook request (default 4 MB); smaller in tests to see streaming. */
  maxRequestBytes?: number;
}

/** One sheet of a timeseries paste. */
export interface TimeseriesSheet extends PastedSheet {
  kind: SeriesKind;
  /** Year (projected) or month (observed) columns. */
  timeColumns: number;
}

/** What a timeseries paste wrote: one sheet per kind of series that matched. */
export interface TimeseriesPasted extends PastedSheet {
  /** Year columns of the projected sheet (month columns when only observed series matched). */
  years: number;
  chart: boolean;
  sheets: TimeseriesSheet[];
}

/**
 * Streams the portfolio's timeseries into new sheets through the timeseries paste kind's stream
 * (features/pasted/paste-kinds.ts, the one its refresh reads): projected series (YYYY keys) in
 * one, observed series (YYYY-MM keys) in another, so every column of a table is filled. Pages are
 * read ahead concurrently and each is written as it arrives (a chunk is synced while the next
 * pages are in flight); the sheets stay hidden under temporary names until everything is written,
 * then are renamed into place. A failure or Cancel deletes them: no half table is ever left. An
 * optional line chart draws the chosen assets' series (on each sheet that has them).
 */
export async function pasteTimeseries(options: TimeseriesPasteOptions): Promise<TimeseriesPasted> {
  const { portfolio, filters, catalog, onProgress } = options;
  const expected = catalog ? estimateTimeseriesRows(catalog, filters) : undefined;
  if (expected !== undefined && expected > MAX_TIMESERIES_ROWS) {
    throw new MessageError(message("timeseries.run.tooManyExpected", { expected, max: MAX_TIMESERIES_ROWS }));
  }
  const query = timeseriesQuery(filters);
  onProgress?.({ message: message("timeseries.run.reading"), fraction: 0 });
  const wanted = new Set(options.chartAssets ?? []);
  // The chart's title is a reader's words in the workbook (docs/i18n.md): the sheets' language.
  const chartTitle = wanted.size > 0 ? (await sheetWords())(message("timeseries.sheet.chartTitle", { portfolio })) : "";
  const chartRows: Array<Array<{ row: number; name: string }>> = SERIES_KINDS.map(() => []);
  let itemsRead = 0;
  let tooMany = false;
  const written = await streamKind(
    {
      ...options,
      // The catalog's estimate: the pages it spans are asked for at once, not page 1 alone first.
      expectedItems: expected,
      onItemsRead: (read) => {
        if (read > MAX_TIMESERIES_ROWS && !tooMany) {
          tooMany = true;
          throw new Error("too many"); // the reader stops at its first failure
        }
      },
      onRows: (sheet, rows, before) =>
        rows.forEach((row, i) => {
          if (wanted.has(Number(row[0])) && chartRows[sheet].length < 20)
            chartRows[sheet].push({
              row: before + i,
              name: [row[2], row[3], row[4], row[5], row[6]].filter((x) => x !== "").join(" "),
            });
        }),
      onPage: (items, writtenRows) => {
        itemsRead += items;
        const fraction = expected ? Math.min(0.99, itemsRead / expected) : undefined;
        onProgress?.({
          message: message("timeseries.run.progress", {
            read: itemsRead,
            expected: expected ?? 0,
            written: writtenRows,
          }),
          fraction,
        });
      },
      charts: () =>
        chartRows.map((rows): ChartSpec | undefined =>
          rows.length === 0
            ? undefined
            : {
                type: "Line",
                dataRows: rows.map((r) => r.row),
                seriesNames: rows.map((r) => r.name),
                firstValueColumn: TIMESERIES_FIXED_COLUMNS.length,
                title: chartTitle,
              },
        ),
      stopReason: () =>
        tooMany ? new MessageError(message("timeseries.run.tooMany", { max: MAX_TIMESERIES_ROWS })) : undefined,
    },
    { kind: TIMESERIES_KIND, portfolio, filters: query },
  );
  if (written.length === 0) throw new MessageError(message("timeseries.run.none", { portfolio }));
  const sheets: TimeseriesSheet[] = written.map((w) => {
    const kind = w.sheetName.startsWith(TIMESERIES_SHEET_PREFIX.observed) ? "observed" : "projected";
    return {
      kind,
      sheetName: w.sheetName,
      rowCount: w.rowCount,
      columnCount: w.columnCount,
      timeColumns: w.columnCount - TIMESERIES_FIXED_COLUMNS.length,
    };
  });
  return {
    sheetName: sheets[0].sheetName,
    rowCount: sheets.reduce((n, s) => n + s.rowCount, 0),
    columnCount: sheets[0].columnCount,
    years: sheets[0].timeColumns,
    chart: chartRows.some((rows) => rows.length > 0),
    sheets,
  };
}

/**
 * Downloads the timeseries the filters select as one file (the service's items export): for
 * tables too big for a sheet. Nothing is written to the workbook.
 */
export async function downloadTimeseries(
  options: LongRunning & { client: RiskClient; portfolio: string; filters: TimeseriesFilters; format?: FileFormat },
): Promise<DownloadedFile> {
  const { client, portfolio, filters, signal, onProgress } = options;
  onProgress?.({ message: message("timeseries.run.downloading", { portfolio }) });
  return client.datasets
    .itemsExport(
      portfolio,
      { ...timeseriesQuery(filters), file_format: options.format ?? "csv" },
      { signal, timeoutMs: 300_000 },
    )
    .catch(rethrowIfCancelled(signal));
}
