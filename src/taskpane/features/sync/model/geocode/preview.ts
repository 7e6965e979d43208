/**
 * What the preview says about each place found, before anything is written: whether it is
 * ambiguous (another place as likely, elsewhere), of low confidence (only where the geocoder gives
 * one), or coarser than a street; and for which hazards its precision is too coarse, comparing how
 * far such a point may lie from the asset with each hazard's grid cell in the portfolio's dataset
 * metadata (`spatial_resolution`, degrees).
 */
import type { IndicatorMetadata } from "../../../../../api/types";
import { coarserThan, type FoundPlace, type Precision } from "./found-place";
import { message, type Message } from "../../../../../i18n/messages";

/** Below this confidence (Pelias 0 to 1) a match is flagged. */
export const LOW_CONFIDENCE = 0.7;

/** Two places further apart than this are different places (km). */
const SAME_PLACE_KM = 1;

/**
 * How far a point of each precision may lie from the asset, km (typical, not a bound): an address
 * point a few tens of metres, a street's point half a kilometre, a postcode's or city's centre a
 * few to ten kilometres, a region's a hundred.
 */
export const PRECISION_DISTANCE_KM: Record<Precision, number> = {
  address: 0.05,
  street: 0.5,
  postcode: 3,
  city: 10,
  region: 100,
  country: 1000,
};

/** Kilometres a degree of latitude spans. */
const KM_PER_DEGREE = 111.32;

/** Why a row is flagged. */
export type PlaceFlag = "ambiguous" | "low confidence" | "coarser than street";

/** The flags of the best place among `places` (best first). */
export function placeFlags(places: readonly FoundPlace[]): PlaceFlag[] {
  const [best, ...others] = places;
  if (!best) return [];
  const flags: PlaceFlag[] = [];
  const rival = others.find(
    (other) =>
      other.precision === best.precision &&
      distanceKm(best, other) > SAME_PLACE_KM &&
      (best.confidence === undefined || other.confidence === undefined || best.confidence - other.confidence < 0.1),
  );
  if (rival) flags.push("ambiguous");
  if (best.confidence !== undefined && best.confidence < LOW_CONFIDENCE) flags.push("low confidence");
  if (coarserThan(best.precision, "street")) flags.push("coarser than street");
  return flags;
}

/** Great-circle distance, km. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Each hazard's finest grid cell, km, from the portfolio's dataset metadata. */
export function hazardCellsKm(indicators: readonly IndicatorMetadata[]): Map<string, number> {
  const cells = new Map<string, number>();
  for (const indicator of indicators) {
    if (!(indicator.spatial_resolution > 0)) continue;
    const km = indicator.spatial_resolution * KM_PER_DEGREE;
    cells.set(indicator.hazard, Math.min(cells.get(indicator.hazard) ?? Infinity, km));
  }
  return cells;
}

/** The hazards whose grid cell is smaller than how far a point of `precision` may lie from the asset. */
export function hazardsTooCoarseFor(precision: Precision, cellsKm: ReadonlyMap<string, number>): string[] {
  const distance = PRECISION_DISTANCE_KM[precision];
  return [...cellsKm]
    .filter(([, km]) => distance > km)
    .map(([hazard]) => hazard)
    .sort();
}

/** One row of the preview. */
export interface PreviewRow {
  /** 1-based sheet row. */
  sheetRow: number;
  /** 0-based row index inside the range. */
  index: number;
  /** The address as the sheet has it. */
  address: string;
  /** The best place found; undefined when nothing was found or the request failed. */
  place?: FoundPlace;
  flags: PlaceFlag[];
  /** Hazards whose grid is finer than this point's precision. */
  tooCoarseFor: string[];
  /** Why there is no place: "not found", or the failure's message. */
  missing?: Message;
}

/** The preview of what a run found, row by row, with each hazard's cell size when known. */
export function previewRows(
  outcomes: readonly {
    row: { index: number; sheetRow: number; shown: string };
    places?: FoundPlace[];
    failure?: { said: Message };
  }[],
  cellsKm: ReadonlyMap<string, number>,
): PreviewRow[] {
  return outcomes.map(({ row, places, failure }) => {
    const place = places?.[0];
    const base = { sheetRow: row.sheetRow, index: row.index, address: row.shown };
    if (!place)
      return { ...base, flags: [], tooCoarseFor: [], missing: failure?.said ?? message("sync.geocode.error.notFound") };
    return { ...base, place, flags: placeFlags(places!), tooCoarseFor: hazardsTooCoarseFor(place.precision, cellsKm) };
  });
}
