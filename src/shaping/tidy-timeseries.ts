/**
 * Tidy timeseries: projected series (`YYYY` keys) and observed series (`YYYY-MM` keys) go to two
 * tables, so every column of a table is filled for its rows (one table mixing them showed 409
 * columns, half blank on every row). Rows are built page by page (for streaming pastes): the
 * columns of a table are the keys in the order first seen — the service sends each series' keys
 * in ascending order, so that is calendar order — and a key first seen on a later page is
 * appended as a new column.
 */
import type { SeriesValues } from "../api/series-values";
import type { CellValue, PhysicalItem } from "./types";

/** Which table a series belongs to. */
export type SeriesKind = "projected" | "observed";

/** Both kinds, in the order their sheets are written. */
export const SERIES_KINDS: readonly SeriesKind[] = ["projected", "observed"];

/** The asset and series columns before the time columns. */
export const TIMESERIES_FIXED_COLUMNS = [
  "portfolio_index",
  "entity_id",
  "entity_name",
  "hazard",
  "indicator",
  "scenario",
  "measure",
] as const;

/** An item's cells under {@link TIMESERIES_FIXED_COLUMNS}. */
export function fixedCells(item: PhysicalItem): CellValue[] {
  return [
    item.portfolio_index ?? "",
    item.entity_id ?? "",
    item.entity_name ?? "",
    item.hazard ?? "",
    item.indicator ?? "",
    item.scenario ?? "",
    item.measure ?? "",
  ];
}

/** A value of a series as a cell: numbers stay numbers, a missing one is empty. */
export function exposureCell(value: unknown): CellValue {
  return typeof value === "number" && Number.isFinite(value)
    ? value
    : value === null || value === undefined
      ? ""
      : String(value);
}

const MONTH_KEY = /^\d{4}-\d{2}$/;

/** "observed" when the series has `YYYY-MM` keys, else "projected". */
export function seriesKind(exposure: Pick<SeriesValues, "keys"> | null | undefined): SeriesKind {
  return kindOfKeys(exposure?.keys ?? []);
}

/** {@link seriesKind} of a series given its keys in order: by the first. */
function kindOfKeys(keys: readonly string[]): SeriesKind {
  return keys.length > 0 && MONTH_KEY.test(keys[0]!) ? "observed" : "projected";
}

/** Rows of one page split by kind. */
export type RowsByKind = Record<SeriesKind, CellValue[][]>;

/** Builds the rows of the two tables as pages arrive; widths only grow. */
export class TidyTimeseriesBuilder {
  private readonly keys: Record<SeriesKind, string[]> = { projected: [], observed: [] };
  private readonly position: Record<SeriesKind, Map<string, number>> = { projected: new Map(), observed: new Map() };
  private readonly counts: Record<SeriesKind, number> = { projected: 0, observed: 0 };

  /** Each time key's column of the item being added (reused: one array for every item). */
  private readonly columns: number[] = [];

  /** Rows for these items, each as wide as its table is after them (earlier rows may be narrower). */
  add(items: readonly PhysicalItem[]): RowsByKind {
    const out: RowsByKind = { projected: [], observed: [] };
    const columns = this.columns;
    for (const item of items) {
      const exposure = item.risk_exposure;
      // The keys once per item (5,000 items of 121 keys a page of a timeseries paste): its kind,
      // each key's column, then its cells.
      const names = exposure.keys;
      const kind = kindOfKeys(names);
      const keys = this.keys[kind];
      const position = this.position[kind];
      columns.length = names.length;
      for (let k = 0; k < names.length; k++) {
        let column = position.get(names[k]!);
        if (column === undefined) {
          column = keys.length;
          position.set(names[k]!, column);
          keys.push(names[k]!);
        }
        columns[k] = column;
      }
      const row = fixedCells(item);
      const fixed = row.length;
      row.length = fixed + keys.length;
      row.fill("", fixed);
      for (let k = 0; k < names.length; k++) row[fixed + columns[k]!] = exposureCell(exposure.at(k));
      out[kind].push(row);
      this.counts[kind]++;
    }
    return out;
  }

  /** The header of a kind's table so far. */
  header(kind: SeriesKind): string[] {
    return [...TIMESERIES_FIXED_COLUMNS, ...this.keys[kind]];
  }

  /** The time keys of a kind's table so far. */
  timeKeys(kind: SeriesKind): readonly string[] {
    return this.keys[kind];
  }

  /** Rows built so far of a kind. */
  rowCount(kind: SeriesKind): number {
    return this.counts[kind];
  }
}

/** Both tables of these items at once (header and rows padded to full width). */
export function splitTimeseries(
  items: readonly PhysicalItem[],
): Record<SeriesKind, { header: string[]; rows: CellValue[][] }> {
  const builder = new TidyTimeseriesBuilder();
  const rows = builder.add(items);
  const pad = (kind: SeriesKind) => {
    const header = builder.header(kind);
    return {
      header,
      rows: rows[kind].map((r) =>
        r.length < header.length ? [...r, ...new Array<CellValue>(header.length - r.length).fill("")] : r,
      ),
    };
  };
  return { projected: pad("projected"), observed: pad("observed") };
}
