import type { RiskClient } from "../../api/client";
import type { Asset, IndicatorMetadata, ItemsQuery } from "../../api/types";
import { writeTableToNewSheet, type ChartSpec } from "../../excel/writeSheets";
import { flattenTimeseries } from "../../shaping/flattenTimeseries";
import { CancelledError, formatCount, throwIfCancelled, type ExcelRunner, type LongRunning, type PastedSheet } from "./types";
import { AbortedError } from "../../api/errors";
import { provenanceOf } from "./pasted-sheets";

/** The filters of a timeseries pull; an absent filter means "all". */
export interface TimeseriesFilters {
  hazard?: string;
  indicator?: string;
  scenario?: string;
  measure?: string;
  /** First year of the series. */
  startYear?: number;
}

/** Scenarios and measures the service offers (contract; field notes). */
export const SCENARIO_CHOICES = ["ssp126", "ssp245", "ssp585"] as const;
export const MEASURE_CHOICES = ["lb", "mid", "ub"] as const;

/** More rows than this in one paste are refused before fetching: narrow the filters instead. */
export const MAX_TIMESERIES_ROWS = 100_000;

/** What the filter lists offer for one portfolio: its assets and the indicators per hazard. */
export interface TimeseriesCatalog {
  assets: Asset[];
  indicators: IndicatorMetadata[];
}

/** Loads the lists of the timeseries form: the portfolio's assets (for the chart) and its indicators. */
export async function loadTimeseriesCatalog(client: RiskClient, portfolio: string, signal?: AbortSignal): Promise<TimeseriesCatalog> {
  const [assets, metadata] = await Promise.all([client.portfolios.assets(portfolio).all({ signal }), client.datasets.metadata(portfolio, { signal })]);
  return { assets, indicators: metadata.indicators };
}

/** About how many items (rows) the filters select: assets × indicators × scenarios × measures. */
export function estimateTimeseriesRows(catalog: TimeseriesCatalog, filters: TimeseriesFilters): number {
  const indicators = catalog.indicators.filter((i) => (!filters.hazard || i.hazard === filters.hazard) && (!filters.indicator || i.indicator === filters.indicator)).length;
  const scenarios = filters.scenario ? 1 : SCENARIO_CHOICES.length;
  const measures = filters.measure ? 1 : MEASURE_CHOICES.length;
  return catalog.assets.length * indicators * scenarios * measures;
}

/** Options of {@link pasteTimeseries}. */
export interface TimeseriesPasteOptions extends LongRunning {
  client: RiskClient;
  run: ExcelRunner;
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
}

/** What a timeseries paste wrote. */
export interface TimeseriesPasted extends PastedSheet {
  years: number;
  chart: boolean;
}

/**
 * Reads every page of the portfolio's timeseries (read ahead concurrently, with progress and
 * Cancel), flattens them to one row per item (asset columns, hazard, indicator, scenario, measure,
 * one column per year; numbers stay numbers) and writes them as a table in a new sheet, with an
 * optional line chart of the chosen assets. Nothing is written until every page has arrived; a
 * failed or cancelled write deletes its sheet, so no half table is ever left.
 */
export async function pasteTimeseries(options: TimeseriesPasteOptions): Promise<TimeseriesPasted> {
  const { client, run, portfolio, filters, catalog, signal, onProgress } = options;
  const expected = catalog ? estimateTimeseriesRows(catalog, filters) : undefined;
  if (expected !== undefined && expected > MAX_TIMESERIES_ROWS) {
    throw new Error(`These filters select about ${formatCount(expected)} series, more than ${formatCount(MAX_TIMESERIES_ROWS)} rows for one sheet: choose a hazard, scenario or measure.`);
  }
  const query: Omit<ItemsQuery, "page"> = {
    hazard: filters.hazard || undefined,
    indicator: filters.indicator || undefined,
    scenario: filters.scenario || undefined,
    measure: filters.measure || undefined,
    start_date: filters.startYear,
    rows: options.rows,
  };
  onProgress?.({ message: "Reading timeseries…", fraction: 0 });
  // The reader gets its own controller so a too-large result can stop it, as Cancel does.
  const reading = new AbortController();
  const onCancel = () => reading.abort();
  signal?.addEventListener("abort", onCancel, { once: true });
  let tooMany = false;
  let items;
  try {
    items = await client.datasets.items(portfolio, query).all({
      signal: reading.signal,
      readAhead: options.readAhead ?? 4,
      onProgress: ({ itemsRead }) => {
        if (itemsRead > MAX_TIMESERIES_ROWS) {
          tooMany = true;
          reading.abort();
        }
        const fraction = expected ? Math.min(0.95, (itemsRead / expected) * 0.8) : undefined;
        onProgress?.({ message: `Read ${formatCount(itemsRead)}${expected ? ` of about ${formatCount(expected)}` : ""} series`, fraction });
      },
    });
  } catch (error) {
    if (tooMany) throw new Error(`More than ${formatCount(MAX_TIMESERIES_ROWS)} series match: narrow the filters (hazard, scenario, measure).`);
    if (error instanceof AbortedError || signal?.aborted) throw new CancelledError();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onCancel);
  }
  throwIfCancelled(signal);
  if (items.length === 0) throw new Error(`No timeseries match these filters in ${portfolio}.`);

  const table = flattenTimeseries(items);
  const chart = chartFor(table.rows, options.chartAssets, table.firstYearColumn, portfolio);
  const provenance = await provenanceOf(client, "timeseries", portfolio, { hazard: query.hazard, indicator: query.indicator, scenario: query.scenario, measure: query.measure, start_date: query.start_date }, signal);
  const written = await run((context) =>
    writeTableToNewSheet(
      context,
      { sheetName: `TS ${portfolio}`, tableName: `TS_${portfolio}`, header: table.header, rows: table.rows, chart, provenance },
      {
        signal,
        onProgress: (p) => onProgress?.({ message: `Writing row ${formatCount(p.rowsWritten)} of ${formatCount(p.totalRows)}`, fraction: 0.8 + 0.2 * p.fraction }),
      },
    ),
  ).catch((error: unknown) => {
    if (signal?.aborted) throw new CancelledError();
    throw error;
  });
  return { sheetName: written.sheetName, rowCount: written.rowCount, columnCount: written.columnCount, years: table.years.length, chart: chart !== undefined };
}

/** The chart of the chosen assets' rows (column 0 is portfolio_index), or undefined. */
function chartFor(rows: unknown[][], assets: number[] | undefined, firstValueColumn: number, portfolio: string): ChartSpec | undefined {
  if (!assets || assets.length === 0) return undefined;
  const wanted = new Set(assets);
  const dataRows = rows.flatMap((row, index) => (wanted.has(Number(row[0])) ? [index] : []));
  if (dataRows.length === 0) return undefined;
  // Series named by entity_name, hazard, indicator, scenario, measure (columns 2..6).
  return { dataRows, firstValueColumn, seriesNameColumns: [2, 3, 4, 5, 6], title: `Timeseries · ${portfolio}` };
}
