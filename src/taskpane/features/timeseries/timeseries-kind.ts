/**
 * The timeseries paste kind: read page by page (its stream), projected and observed series on
 * sheets of their own; a refresh reads the same stream whole.
 */
import type { RiskClient } from "../../../api/client";
import type { PhysicalItem } from "../../../api/types";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { SERIES_KINDS, TidyTimeseriesBuilder, type SeriesKind } from "../../../shaping/tidy-timeseries";
import type { CellValue } from "../../../shaping/types";
import {
  filterText,
  reportingItems,
  type FetchedTable,
  type KindStream,
  type PasteKind,
  type PasteSource,
  type StreamReading,
} from "../pasted";

/** The first words of a timeseries sheet's name, by the series it holds. */
export const TIMESERIES_SHEET_PREFIX: Record<SeriesKind, string> = { projected: "TS", observed: "TS observed" };

const seriesOf = (source: PasteSource): SeriesKind =>
  filterText(source, "series") === "observed" ? "observed" : "projected";

/** The service query of a timeseries paste's recorded filters (its `series` is the sheet's, not the service's). */
const queryOf = (source: PasteSource, rows?: number) => ({
  hazard: filterText(source, "hazard"),
  indicator: filterText(source, "indicator"),
  scenario: filterText(source, "scenario"),
  measure: filterText(source, "measure"),
  start_date: filterText(source, "start_date"),
  end_date: filterText(source, "end_date"),
  rows,
});

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
  const query = queryOf(source, reading.rows);
  return {
    sheets: SERIES_KINDS.map((series) => ({ ...source, filters: { ...source.filters, series } })),
    read: (onPage, signal) =>
      client.datasets.items(source.portfolio ?? "", query).all({
        signal,
        readAhead: reading.readAhead ?? 4,
        expectedItems: reading.expectedItems,
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
 * The stream read whole: the table of each sheet the first paste fills from it (projected, then
 * observed), each row as wide as its header.
 */
async function readWhole(
  client: RiskClient,
  source: PasteSource,
  signal: AbortSignal | undefined,
  reading?: StreamReading,
): Promise<FetchedTable[]> {
  const stream = timeseriesStream(client, source, reading);
  const rows: CellValue[][][] = SERIES_KINDS.map(() => []);
  await stream.read((items) => {
    for (const [k, sheetRows] of stream.shape(items).entries()) for (const row of sheetRows) rows[k].push(row);
  }, signal);
  return stream.headers().map((header, k) => ({
    header,
    rows: rows[k].map((row) =>
      row.length < header.length ? [...row, ...new Array<CellValue>(header.length - row.length).fill("")] : row,
    ),
  }));
}

/** The timeseries, pasted page by page. */
export const TIMESERIES_KIND: PasteKind = {
  operation: "timeseries",
  label: OPERATION_LABELS.timeseries,
  dataset: true,
  rowKey: () => ROW_KEYS.timeseries,
  stream: timeseriesStream,
  // The paste's stream read whole, keeping the sheet's own series (the paste puts projected and
  // observed series on sheets of their own). At a refresh both sheets take their part of one read,
  // as the first paste filled both from one stream.
  async fetch(client, source, signal, _run, extras) {
    const shared = extras?.shared;
    const tables = shared
      ? await shared.once(["timeseries", source.portfolio ?? "", queryOf(source)], (sharedSignal) =>
          readWhole(client, source, sharedSignal, shared.reading(4)),
        )
      : await readWhole(client, source, signal);
    return tables[SERIES_KINDS.indexOf(seriesOf(source))];
  },
  sheet(source) {
    const prefix = TIMESERIES_SHEET_PREFIX[seriesOf(source)];
    return {
      sheetName: `${prefix} ${source.portfolio}`,
      tableName: `${prefix.replace(" ", "_")}_${source.portfolio}`,
    };
  },
};
