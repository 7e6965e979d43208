/**
 * Whether a portfolio already holds exactly the assets about to be imported, so a sync can skip
 * an upload that would only replace the assets with themselves (and regenerate risk data).
 */
import type { Asset } from "../../../../shaping/types";
import type { AssetRow } from "./validate-assets";

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const filled = (o: Record<string, string> | undefined): Array<[string, string]> =>
    Object.entries(o ?? {})
      .filter(([, v]) => v !== "" && v !== undefined && v !== null)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const fa = filled(a);
  const fb = filled(b);
  return fa.length === fb.length && fa.every(([k, v], i) => fb[i][0] === k && String(fb[i][1]) === String(v));
}

/**
 * True when `existing` (as listed by the service, any order) equals `rows` in order, ids, names,
 * coordinates and non-empty labels. Order matters: portfolio_index is the row's CSV position.
 */
export function portfolioHoldsExactly(existing: readonly Asset[], rows: readonly AssetRow[]): boolean {
  if (existing.length !== rows.length) return false;
  const sorted = [...existing].sort((a, b) => a.portfolio_index - b.portfolio_index);
  return sorted.every((asset, i) => {
    const row = rows[i];
    return (
      (asset.entity_id ?? "") === row.entity_id &&
      (asset.entity_name ?? "") === row.entity_name &&
      sameNumber(asset.lat, row.lat) &&
      sameNumber(asset.lng, row.lng) &&
      sameLabels(asset.labels, row.labels)
    );
  });
}
