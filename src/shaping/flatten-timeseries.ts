/**
 * Timeseries items → one table row per item: asset columns, hazard, indicator, scenario,
 * measure, then one column per year (the union of every item's keys, sorted; "YYYY-MM" keys of
 * observed series sort among the years). Numbers stay numbers; a year an item lacks is empty.
 */
import { TIMESERIES_FIXED_COLUMNS as FIXED, exposureCell, fixedCells } from "./tidy-timeseries";
import type { PhysicalItem, SheetTable } from "./types";

/** The timeseries table plus where the year columns start (for charts). */
export interface TimeseriesTable extends SheetTable {
  /** 0-based index of the first year column. */
  firstYearColumn: number;
  /** The year keys in column order. */
  years: string[];
}

/** Flatten items in the order given. */
export function flattenTimeseries(items: readonly PhysicalItem[]): TimeseriesTable {
  const keys = new Set<string>();
  for (const item of items) for (const k of item.risk_exposure.keys) keys.add(k);
  const years = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = items.map((item) => {
    const exposure = item.risk_exposure;
    return [...fixedCells(item), ...years.map((y) => exposureCell(exposure.get(y)))];
  });
  return { header: [...FIXED, ...years], rows, firstYearColumn: FIXED.length, years };
}
