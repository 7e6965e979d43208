/**
 * What a sync would change: the portfolio's assets now against the rows about
 * to replace them, keyed on entity_id when every asset on both sides has a distinct one, else on
 * position (portfolio_index ↔ the row's place, as the import numbers them). Each asset is added,
 * removed, or present on both sides; a present one is moved (coordinates changed, with the
 * great-circle distance), relabelled (name or labels changed), both, or unchanged.
 */
import type { Asset } from "../../../../shaping/types";
import type { AssetRow } from "./validate-assets";

/** How the two sides were paired. */
export type DiffKey = "entity_id" | "position";

/** One label or the name that changed: `key` is `entity_name` or the label key. */
export interface FieldChange {
  key: string;
  before: string;
  after: string;
}

/** An asset on both sides, or on one. */
export interface DiffEntry {
  /** entity_id (may be "" when paired by position). */
  entityId: string;
  /** The name after the sync (before, for a removed asset). */
  name: string;
  /** portfolio_index now (absent for an added asset). */
  oldIndex?: number;
  /** portfolio_index after the sync, i.e. the row's place (absent for a removed asset). */
  newIndex?: number;
  /** 1-based sheet row of the new row (absent for a removed asset). */
  sheetRow?: number;
  /** For a moved asset: kilometres between the old and the new coordinates. */
  distanceKm?: number;
  from?: { lat: number; lng: number };
  to?: { lat: number; lng: number };
  /** For a relabelled asset: what changed. */
  changes?: FieldChange[];
}

/** The whole comparison. */
export interface SyncDiff {
  key: DiffKey;
  /** Why position was used, when it was (e.g. "3 rows have no entity_id"). */
  keyReason?: string;
  added: DiffEntry[];
  removed: DiffEntry[];
  /** Coordinates changed (may also be relabelled). */
  moved: DiffEntry[];
  /** Name or labels changed (may also be moved). */
  relabelled: DiffEntry[];
  unchanged: number;
  /**
   * Assets on both sides whose portfolio_index changes (keyed by entity_id): formulas by index would point elsewhere.
   */
  reindexed: number;
}

/** Mean Earth radius in km (IUGG). */
const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function fieldChanges(before: Asset, after: AssetRow): FieldChange[] {
  const changes: FieldChange[] = [];
  if ((before.entity_name ?? "") !== after.entity_name)
    changes.push({ key: "entity_name", before: before.entity_name ?? "", after: after.entity_name });
  const keys = [...new Set([...Object.keys(before.labels ?? {}), ...Object.keys(after.labels)])].sort();
  for (const key of keys) {
    const was = String(before.labels?.[key] ?? "");
    const now = String(after.labels[key] ?? "");
    if (was !== now) changes.push({ key, before: was, after: now });
  }
  return changes;
}

/** Why entity_ids cannot key the comparison, or undefined when they can. */
function idProblem(existing: readonly Asset[], rows: readonly AssetRow[]): string | undefined {
  const check = (ids: string[], side: string): string | undefined => {
    const blank = ids.filter((id) => id === "").length;
    if (blank > 0) return `${blank} ${side} ${blank === 1 ? "has" : "have"} no entity_id`;
    if (new Set(ids).size !== ids.length) return `${side} repeat an entity_id`;
    return undefined;
  };
  return (
    check(
      rows.map((r) => r.entity_id),
      "new rows",
    ) ??
    check(
      existing.map((a) => a.entity_id ?? ""),
      "assets in the portfolio",
    )
  );
}

/** Compares the portfolio's assets (any order) with the rows about to replace them (in order). */
export function diffAssets(existing: readonly Asset[], rows: readonly AssetRow[]): SyncDiff {
  const sorted = [...existing].sort((a, b) => a.portfolio_index - b.portfolio_index);
  const reason = idProblem(sorted, rows);
  const key: DiffKey = reason ? "position" : "entity_id";
  const diff: SyncDiff = {
    key,
    keyReason: reason,
    added: [],
    removed: [],
    moved: [],
    relabelled: [],
    unchanged: 0,
    reindexed: 0,
  };

  const pairs: Array<[Asset | undefined, AssetRow | undefined, number | undefined]> = [];
  if (key === "entity_id") {
    const byId = new Map(sorted.map((a) => [a.entity_id, a]));
    rows.forEach((row, i) => {
      pairs.push([byId.get(row.entity_id), row, i]);
      byId.delete(row.entity_id);
    });
    for (const left of byId.values()) pairs.push([left, undefined, undefined]);
  } else {
    const count = Math.max(sorted.length, rows.length);
    for (let i = 0; i < count; i++) pairs.push([sorted[i], rows[i], i < rows.length ? i : undefined]);
  }

  for (const [before, after, newIndex] of pairs) {
    if (!before && after) {
      diff.added.push({
        entityId: after.entity_id,
        name: after.entity_name,
        newIndex,
        sheetRow: after.sheetRow,
        to: { lat: after.lat, lng: after.lng },
      });
      continue;
    }
    if (before && !after) {
      diff.removed.push({
        entityId: before.entity_id ?? "",
        name: before.entity_name ?? "",
        oldIndex: before.portfolio_index,
        from: { lat: before.lat, lng: before.lng },
      });
      continue;
    }
    if (!before || !after) continue;
    const entry: DiffEntry = {
      entityId: after.entity_id,
      name: after.entity_name,
      oldIndex: before.portfolio_index,
      newIndex,
      sheetRow: after.sheetRow,
    };
    if (before.portfolio_index !== newIndex) diff.reindexed++;
    const moved = !sameNumber(before.lat, after.lat) || !sameNumber(before.lng, after.lng);
    const changes = fieldChanges(before, after);
    if (moved) {
      entry.from = { lat: before.lat, lng: before.lng };
      entry.to = { lat: after.lat, lng: after.lng };
      entry.distanceKm = distanceKm(entry.from, entry.to);
      diff.moved.push(entry);
    }
    if (changes.length > 0) {
      entry.changes = changes;
      diff.relabelled.push(entry);
    }
    if (!moved && changes.length === 0) diff.unchanged++;
  }
  return diff;
}

/** A one-line summary: "2 added, 1 removed, 1 moved, 0 relabelled, 5 unchanged". */
export function describeDiff(diff: SyncDiff): string {
  return `${diff.added.length} added, ${diff.removed.length} removed, ${diff.moved.length} moved, ${diff.relabelled.length} relabelled, ${diff.unchanged} unchanged`;
}
