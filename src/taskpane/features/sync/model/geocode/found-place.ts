/**
 * What finding coordinates for an address gives, whichever way they were found (a Pelias- or
 * Nominatim-compatible geocoder, or the offline city lookup): the point, what it is a point of,
 * and how precise it is. The preview shows it per row and the sync writes it beside the row; the
 * precision is also synced as a label, so other tables can count coarse locations.
 */

/**
 * How precisely a point locates the address, finest first: the address's own point, somewhere on
 * its street, the centre of its postcode area, of its city, of its region, of its country.
 */
export const PRECISIONS = ["address", "street", "postcode", "city", "region", "country"] as const;
/** One of {@link PRECISIONS}. */
export type Precision = (typeof PRECISIONS)[number];

/** One place a geocoder (or the offline lookup) found for an address. */
export interface FoundPlace {
  lat: number;
  lng: number;
  /** The place as the source names it ("10 Downing Street, London, UK"): text from outside, shown guarded. */
  label: string;
  precision: Precision;
  /**
   * The source's own confidence in the match, 0 to 1, only where it gives one (Pelias
   * `confidence`). Nominatim's `importance` is a place's prominence, not a confidence: never here.
   */
  confidence?: number;
  /** ISO 3166-1 alpha-2 code of the place's country, where the source says it. */
  country?: string;
  /** Who found it: the geocoder's host, or "offline city lookup". */
  source: string;
}

/** Whether `a` is coarser than `b` ("city" is coarser than "street"). */
export function coarserThan(a: Precision, b: Precision): boolean {
  return PRECISIONS.indexOf(a) > PRECISIONS.indexOf(b);
}
