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
  type KindStream,
  type PasteKind,
  type PasteSource,
  type StreamReading,
} from "../pasted";

/** The first words of a timeseries sheet's name, by the series it holds. */
export const TIMESERIES_SHEET_PREFIX: Record<SeriesKind, string> = { projected: "TS", observed: "TS observed" };

const seriesOf = (source: PasteSource): SeriesKind =>
  filterText(source, "series") === "observed" ? "observed" : "projected";

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
    hazard: filterText(source, "hazard"),
    indicator: filterText(source, "indicator"),
    scenario: filterText(source, "scenario"),
    measure: filterText(source, "measure"),
    start_date: filterText(source, "start_date"),
    end_date: filterText(source, "end_date"),
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

/** The timeseries, pasted page by page. */
export const TIMESERIES_KIND: PasteKind = {
  operation: "timeseries",
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
};
