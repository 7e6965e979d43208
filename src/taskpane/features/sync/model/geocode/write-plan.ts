/**
 * The cells accepting a geocoding preview writes: the coordinates into the row's empty lat and lng
 * cells (or new lat and lng columns right of the range), and beside them the geocoder, the
 * precision, the confidence (only where the geocoder gave one) and the date, as labels the sync
 * sends, so other tables can count coarse locations. Only empty cells are written: every change
 * says the cell holds "" and the writer checks it, so existing coordinates are never overwritten.
 */
import { cellA1, parseA1, qualify, rangeA1 } from "../../../../../shaping/a1";
import { mapHeaders } from "../../../../../shaping/headers";
import type { CellGrid } from "../../../../../shaping/types";
import type { PreviewRow } from "./preview";

/** The label keys the geocoding writes (the sync sends them as `label:<key>`). */
export const GEOCODE_LABELS = {
  geocoder: "geocoder",
  precision: "geocode_precision",
  confidence: "geocode_confidence",
  date: "geocoded_on",
} as const;

/** One cell to write, in the shape the workbook writer takes. */
export interface PlannedCell {
  address: string;
  before: string;
  after: number | string;
}

/** What accepting writes, and the range the sync should read afterwards. */
export interface WritePlan {
  cells: PlannedCell[];
  /** The range grown by the new columns (sheet-qualified). */
  range: string;
  /** Headers of the columns added right of the range. */
  newColumns: string[];
  rows: number;
}

type Column = "lat" | "lng" | keyof typeof GEOCODE_LABELS;
const HEADERS: Record<Column, string> = {
  lat: "lat",
  lng: "lng",
  geocoder: `label:${GEOCODE_LABELS.geocoder}`,
  precision: `label:${GEOCODE_LABELS.precision}`,
  confidence: `label:${GEOCODE_LABELS.confidence}`,
  date: `label:${GEOCODE_LABELS.date}`,
};

function columnsOf(values: CellGrid): { found: Partial<Record<Column, number>>; missing: Column[] } {
  const found: Partial<Record<Column, number>> = {};
  for (const { index, target } of mapHeaders(values[0] ?? [])) {
    if (target.kind === "field" && (target.field === "lat" || target.field === "lng")) found[target.field] ??= index;
    if (target.kind !== "label") continue;
    for (const [column, key] of Object.entries(GEOCODE_LABELS))
      if (target.key === key) found[column as Column] ??= index;
  }
  const missing = (Object.keys(HEADERS) as Column[]).filter((column) => found[column] === undefined);
  return { found, missing };
}

/** The cells to write for `rows` (the accepted preview rows with a place) of the range `address` holding `values`. */
export function writePlan(
  values: CellGrid,
  address: string,
  rows: readonly PreviewRow[],
  host: string,
  date: string,
): WritePlan {
  const origin = parseA1(address);
  const width = values[0]?.length ?? 0;
  const { found, missing } = columnsOf(values);
  missing.forEach((column, i) => (found[column] = width + i));
  const at = (index: number, column: number) => qualify(origin.sheet, cellA1(origin.row + index, origin.col + column));
  const cells: PlannedCell[] = missing.map((column) => ({
    address: at(0, found[column]!),
    before: "",
    after: HEADERS[column],
  }));
  for (const row of rows) {
    const place = row.place;
    if (!place) continue;
    const write = (column: Column, after: number | string) => {
      const before = found[column]! < width ? String(values[row.index]?.[found[column]!] ?? "") : "";
      // Only empty cells: a value the analyst wrote (coordinates above all) is kept as it is.
      if (before.trim() === "") cells.push({ address: at(row.index, found[column]!), before, after });
    };
    write("lat", place.lat);
    write("lng", place.lng);
    write("geocoder", host);
    write("precision", place.precision);
    if (place.confidence !== undefined) write("confidence", Math.round(place.confidence * 1000) / 1000);
    write("date", date);
  }
  const range = qualify(origin.sheet, rangeA1(origin.row, origin.col, values.length, width + missing.length));
  return {
    cells,
    range,
    newColumns: missing.map((column) => HEADERS[column]),
    rows: rows.filter((r) => r.place).length,
  };
}
