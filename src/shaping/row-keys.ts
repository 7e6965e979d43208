/**
 * Row keys of pasted tables: what identifies a row across refreshes, so the analyst's notes, sorting
 * and edits stay with their row when the service's answer changes. Pure: no Excel, no HTTP.
 *
 * An asset is identified by `entity_id` when every asset has a distinct, non-empty one; otherwise
 * by (entity_name, lat, lng) when those are distinct; otherwise the assets that collide are named
 * and no key is given. `portfolio_index` is never a key: it is the row's place in the uploaded CSV,
 * and an import replaces the assets, so it shifts when one is removed. A row's key is its asset's
 * identity (when the kind has assets) followed by the kind's own columns (scenario, window, ...).
 */
import type { CellValue } from "./types";
import { message, type Message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** How assets are identified in a table's keys. */
export type AssetKeyKind = "entity_id" | "name_location";

/** The documented key of a paste kind: whether rows are per asset, and the columns that follow. */
export interface RowKeySpec {
  /** Rows are per asset (the asset's identity leads the key). */
  asset: boolean;
  /** Columns of the table, by header name, that with the asset make a row unique. */
  columns: readonly string[];
}

/** What a table's record keeps of its key: the spec and how assets were identified. */
export interface RecordedRowKey extends RowKeySpec {
  /** Absent when the table has no assets. */
  assetKind?: AssetKeyKind;
}

/** What is known of an asset: from the table's own columns, or from the portfolio's asset list. */
export interface AssetFacts {
  portfolio_index: number;
  entity_id?: string;
  entity_name?: string;
  lat?: number;
  lng?: number;
}

/** Assets that share an identity: the ones to give ids to. */
export interface AssetCollision {
  /** What they share, e.g. `"Depot" at 51.5, -0.12`. */
  shared: string;
  portfolioIndexes: number[];
}

/** The identity of every asset, or the collisions that prevent one. */
export type AssetIdentity =
  | { kind: AssetKeyKind; keyOf: Map<number, string> }
  | { kind: "colliding"; collisions: AssetCollision[]; missingIds: number };

/** Thrown when rows cannot be keyed: says which rows collide and what to do. */
export class RowKeyError extends MessageError {
  constructor(
    said: Message,
    readonly collisions: AssetCollision[] = [],
  ) {
    super(said);
    this.name = "RowKeyError";
  }
}

const text = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());
const number = (v: unknown): string => {
  const n = typeof v === "number" ? v : Number(text(v));
  return text(v) === "" || !Number.isFinite(n) ? "" : String(n);
};

/**
 * The identity of each asset (by portfolio_index): entity_id when every asset has a distinct,
 * non-empty one; else (entity_name, lat, lng) when every asset has coordinates and the triples are
 * distinct; else the collisions (assets sharing an id or a name and place).
 */
export function assetIdentity(assets: readonly AssetFacts[]): AssetIdentity {
  const byIndex = new Map<number, AssetFacts>();
  for (const a of assets) if (!byIndex.has(a.portfolio_index)) byIndex.set(a.portfolio_index, a);
  const list = [...byIndex.values()];
  const ids = list.map((a) => text(a.entity_id));
  const missingIds = ids.filter((id) => id === "").length;
  if (missingIds === 0 && new Set(ids).size === list.length)
    return { kind: "entity_id", keyOf: new Map(list.map((a, i) => [a.portfolio_index, `id:${ids[i]}`])) };
  const places = list.map((a) => {
    const lat = number(a.lat);
    const lng = number(a.lng);
    return lat === "" || lng === "" ? undefined : JSON.stringify([text(a.entity_name), lat, lng]);
  });
  if (places.every((p) => p !== undefined) && new Set(places).size === list.length)
    return {
      kind: "name_location",
      keyOf: new Map(list.map((a, i) => [a.portfolio_index, `at:${places[i]}`])),
    };
  // Collisions: assets sharing a name and place (or, without coordinates, an id).
  const groups = new Map<string, number[]>();
  list.forEach((a, i) => {
    const shared =
      places[i] !== undefined
        ? `"${text(a.entity_name)}" at ${number(a.lat)}, ${number(a.lng)}`
        : `entity_id "${ids[i]}" (no coordinates)`;
    groups.set(shared, [...(groups.get(shared) ?? []), a.portfolio_index]);
  });
  const collisions = [...groups.entries()]
    .filter(([, indexes]) => indexes.length > 1)
    .map(([shared, portfolioIndexes]) => ({ shared, portfolioIndexes }));
  return { kind: "colliding", collisions, missingIds };
}

/** The asset facts of a table's rows, from its own columns (portfolio_index, entity_id, entity_name, lat, lng). */
export function assetsOfRows(header: readonly string[], rows: readonly (readonly CellValue[])[]): AssetFacts[] {
  const at = (name: string) => header.indexOf(name);
  const [pi, id, name, lat, lng] = ["portfolio_index", "entity_id", "entity_name", "lat", "lng"].map(at);
  if (pi < 0) return [];
  const out: AssetFacts[] = [];
  for (const row of rows) {
    const index = Number(row[pi]);
    if (text(row[pi]) === "" || !Number.isInteger(index)) continue;
    out.push({
      portfolio_index: index,
      entity_id: id < 0 ? undefined : text(row[id]),
      entity_name: name < 0 ? undefined : text(row[name]),
      lat: lat < 0 || number(row[lat]) === "" ? undefined : Number(row[lat]),
      lng: lng < 0 || number(row[lng]) === "" ? undefined : Number(row[lng]),
    });
  }
  return out;
}

/** The keys of a table's rows, and how assets were identified. */
export interface KeyedRows {
  assetKind?: AssetKeyKind;
  /** One per row, in row order; unique. */
  keys: string[];
}

/**
 * Keys the rows of a table by `spec`. Assets are identified from the table's own columns, with
 * `assets` (the portfolio's asset list) filling in what the table lacks (a summary has no lat/lng);
 * when entity_id decides, the list is not needed. Throws RowKeyError naming the colliding assets
 * or the rows that repeat a key.
 */
export function keyRows(
  spec: RowKeySpec,
  header: readonly string[],
  rows: readonly (readonly CellValue[])[],
  assets?: readonly AssetFacts[],
): KeyedRows {
  const columns = spec.columns.map((name) => {
    const i = header.indexOf(name);
    if (i < 0) throw new RowKeyError(message("excel.rowKey.noColumn", { column: name }));
    return i;
  });
  let assetKind: AssetKeyKind | undefined;
  let keyOf: Map<number, string> | undefined;
  const pi = header.indexOf("portfolio_index");
  if (spec.asset) {
    if (pi < 0) throw new RowKeyError(message("excel.rowKey.noPortfolioIndex"));
    const own = assetsOfRows(header, rows);
    let identity = assetIdentity(own);
    if (identity.kind === "colliding" && assets) {
      // The asset list has what the table lacks (coordinates): merge by portfolio_index.
      const listed = new Map(assets.map((a) => [a.portfolio_index, a]));
      identity = assetIdentity(
        own.map((a) => ({ ...listed.get(a.portfolio_index), ...definedOnly(a), portfolio_index: a.portfolio_index })),
      );
    }
    if (identity.kind === "colliding") throw collisionError(identity.collisions, identity.missingIds);
    assetKind = identity.kind;
    keyOf = identity.keyOf;
  }
  const seen = new Map<string, number>();
  const keys = rows.map((row, r) => {
    const parts: string[] = [];
    if (keyOf) parts.push(keyOf.get(Number(row[pi])) ?? `index:${text(row[pi])}`);
    for (const c of columns) parts.push(text(row[c]));
    const key = JSON.stringify(parts);
    const first = seen.get(key);
    if (first !== undefined)
      throw new RowKeyError(
        message("excel.rowKey.duplicate", { first: first + 1, second: r + 1, key: describeKey(key) }),
      );
    seen.set(key, r);
    return key;
  });
  return { assetKind, keys };
}

function definedOnly(a: AssetFacts): Partial<AssetFacts> {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined && v !== "")) as Partial<AssetFacts>;
}

function collisionError(collisions: AssetCollision[], missingIds: number): RowKeyError {
  const named = collisions
    .slice(0, 5)
    .map((c) => `${c.shared}: portfolio_index ${c.portfolioIndexes.join(", ")}`)
    .join("; ");
  return new RowKeyError(
    message("excel.rowKey.collision", { missingIds, shared: named, more: Math.max(0, collisions.length - 5) }),
    collisions,
  );
}

/** A key as the pane shows it: `id:P-7 · ssp585 · 30`. */
export function describeKey(key: string): string {
  try {
    const parts = JSON.parse(key) as string[];
    return parts
      .map((p) => {
        if (!p.startsWith("at:")) return p;
        const [name, lat, lng] = JSON.parse(p.slice(3)) as string[];
        return `${name} (${lat}, ${lng})`;
      })
      .join(" · ");
  } catch {
    return key;
  }
}

/**
 * The documented row key of every paste kind. Asset kinds lead with the asset; the columns follow.
 * Applied layer: one row per asset. Export files: the asset and whichever of scenario, window,
 * hazard, indicator and measure the file has (see {@link exportKeySpec}). Nature summaries: the
 * metric (one row each). Financial impact data: one row per asset. Disclosure data: as the summary;
 * the significant-assets list: the asset.
 */
export const ROW_KEYS = {
  summary: { asset: true, columns: ["scenario", "window"] },
  "extended-summary": { asset: true, columns: ["scenario"] },
  timeseries: { asset: true, columns: ["hazard", "indicator", "scenario", "measure"] },
  "label-counts": { asset: false, columns: ["label"] },
  "risk-matrix": { asset: true, columns: [] },
  "scenario-comparison": { asset: true, columns: [] },
  "applied-layer": { asset: true, columns: [] },
  "nature-summary": { asset: false, columns: ["metric"] },
  "financial-impact": { asset: true, columns: [] },
  "disclosure-data": { asset: true, columns: ["scenario", "window"] },
  "disclosure-significant": { asset: true, columns: [] },
} as const satisfies Record<string, RowKeySpec>;

const EXPORT_KEY_COLUMNS = ["hazard", "indicator", "scenario", "window", "measure"];

/**
 * The key of an export file, from its header: the asset (when it has portfolio_index) and the
 * columns among hazard, indicator, scenario, window and measure it has; a file without assets is
 * keyed by its first column.
 */
export function exportKeySpec(header: readonly string[]): RowKeySpec {
  const columns = EXPORT_KEY_COLUMNS.filter((c) => header.includes(c));
  if (header.includes("portfolio_index")) return { asset: true, columns };
  return { asset: false, columns: columns.length > 0 ? columns : header.slice(0, 1) };
}

/** The change of key kind between a paste and a refresh (the message says it), or undefined when none. */
export function keyKindChange(
  recorded: RecordedRowKey | undefined,
  now: AssetKeyKind | undefined,
): { before: AssetKeyKind; now: AssetKeyKind | undefined } | undefined {
  if (!recorded?.asset || recorded.assetKind === undefined || recorded.assetKind === now) return undefined;
  return { before: recorded.assetKind, now };
}
