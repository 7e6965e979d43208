/**
 * Where a point lies relative to a country: inside its outline, within a tolerance of it (near a
 * border or a coast, where a 1:50m outline is too coarse to tell), or outside, and whether a
 * swapped or sign-flipped point would lie well inside instead.
 *
 * The outlines are Natural Earth's 1:50m countries (world-atlas `countries-50m`, 756 KB of
 * TopoJSON): the map's 1:110m ones lack small countries (Singapore, Malta, Monaco...) and cut coasts
 * (Miami Beach, Mumbai fall outside). They and the geometry (Turf) are in this module, which the
 * pane imports dynamically, so they load only when a range with a country is checked. The test is
 * planar in longitude and latitude, as Natural Earth draws its edges (the 49th parallel is a
 * straight line there, not a great circle); distances near the tolerance are taken on the sphere.
 */
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import { pointToPolygonDistance } from "@turf/point-to-polygon-distance";
import type { MultiPolygon, Polygon, Position } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countries50m from "world-atlas/countries-50m.json";
import { countryCode } from "../../../../shaping/countries";

/** A point closer than this to its country's outline is "near a border or coast, not checked". */
export const COUNTRY_TOLERANCE_KM = 25;

/**
 * Outlines without an ISO numeric id in world-atlas, by their Natural Earth name: each belongs to
 * the countries listed (Kosovo has the user-assigned code XK; Somaliland and Northern Cyprus lie
 * within Somalia and Cyprus as ISO 3166 counts them; the Indian Ocean Territories are Christmas
 * Island and the Cocos Islands, Australian; the Siachen Glacier is administered by India).
 */
const UNNUMBERED_OUTLINES: Record<string, string[]> = {
  Kosovo: ["XK"],
  Somaliland: ["SO"],
  "N. Cyprus": ["CY"],
  "Indian Ocean Ter.": ["CX", "CC", "AU"],
  "Siachen Glacier": ["IN"],
};

/** One country's outline with its bounding box (west, south, east, north), to skip far points fast. */
interface Outline {
  geometry: MultiPolygon;
  bbox: [number, number, number, number];
}

let outlines: Map<string, Outline> | undefined;

/** Every country's outline by ISO alpha-2 code, decoded from the TopoJSON on first use. */
function outlineIndex(): Map<string, Outline> {
  if (outlines) return outlines;
  const topology = countries50m as unknown as Topology;
  const world = feature(topology, topology.objects.countries as GeometryCollection);
  const polygons = new Map<string, Position[][][]>();
  for (const country of world.features) {
    const geometry = country.geometry as Polygon | MultiPolygon | null;
    if (!geometry) continue;
    const name = String((country.properties as { name?: string } | null)?.name ?? "");
    const codes = country.id === undefined ? (UNNUMBERED_OUTLINES[name] ?? []) : [countryCode(String(country.id))];
    const parts = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
    for (const code of codes) if (code) polygons.set(code, [...(polygons.get(code) ?? []), ...parts]);
  }
  outlines = new Map(
    [...polygons].map(([code, parts]) => [code, { geometry: multiPolygon(parts), bbox: bboxOf(parts) }]),
  );
  return outlines;
}

function multiPolygon(coordinates: Position[][][]): MultiPolygon {
  return { type: "MultiPolygon", coordinates };
}

function bboxOf(parts: Position[][][]): [number, number, number, number] {
  const box: [number, number, number, number] = [180, 90, -180, -90];
  for (const polygon of parts) {
    for (const [lng, lat] of polygon[0] ?? []) {
      box[0] = Math.min(box[0], lng!);
      box[1] = Math.min(box[1], lat!);
      box[2] = Math.max(box[2], lng!);
      box[3] = Math.max(box[3], lat!);
    }
  }
  return box;
}

/** Whether the country (ISO alpha-2) has an outline to check against. */
export function hasOutline(country: string): boolean {
  return outlineIndex().has(country);
}

/** How a swapped or sign-flipped point was made from the one in the cells. */
export type FixKind = "swap" | "lat-sign" | "lng-sign" | "both-signs";

/** A corrected point. */
export interface CoordinateFix {
  kind: FixKind;
  lat: number;
  lng: number;
}

/** Where a point lies relative to its country. */
export type PointPlace =
  | { kind: "inside" }
  /** Outside the outline, but within the tolerance (distance in km): not checked. */
  | { kind: "near-edge"; distanceKm: number }
  /**
   * Beyond the tolerance (distance in km when it was worth measuring: the point is near the
   * country's bounding box). `fix` is the one correction that lies well inside, when exactly one
   * does; `nearFixes` are corrections that land inside or near but not well inside (named, never offered).
   */
  | { kind: "outside"; distanceKm?: number; fix?: CoordinateFix; nearFixes: CoordinateFix[] }
  | { kind: "no-outline" };

/** Signed distance in km from the outline's edge, negative inside. */
function signedDistanceKm(outline: Outline, lat: number, lng: number): number {
  const planar = pointToPolygonDistance([lng, lat], outline.geometry, { method: "planar", units: "kilometers" });
  // The planar distance runs long at high latitudes; near the tolerance it is taken on the sphere.
  if (Math.abs(planar) > 4 * COUNTRY_TOLERANCE_KM) return planar;
  return pointToPolygonDistance([lng, lat], outline.geometry, { method: "geodesic", units: "kilometers" });
}

/** Whether the point is surely more than the tolerance from the outline's bounding box. */
function farFromBox(outline: Outline, lat: number, lng: number): boolean {
  const [west, south, east, north] = outline.bbox;
  const latMargin = COUNTRY_TOLERANCE_KM / 110;
  if (lat < south - latMargin || lat > north + latMargin) return true;
  const widest = Math.max(Math.abs(south), Math.abs(north), Math.abs(lat));
  const lngMargin = latMargin / Math.max(Math.cos((Math.min(widest, 89) * Math.PI) / 180), 0.01);
  return lng < west - lngMargin || lng > east + lngMargin;
}

/** Where the point is: inside, within the tolerance, or beyond (with no distance when far). */
function placeOf(outline: Outline, lat: number, lng: number): { inside: boolean; distanceKm?: number } {
  if (booleanPointInPolygon([lng, lat], outline.geometry)) return { inside: true };
  if (farFromBox(outline, lat, lng)) return { inside: false };
  return { inside: false, distanceKm: signedDistanceKm(outline, lat, lng) };
}

/** The corrections worth trying: lat and lng swapped (when the longitude can be a latitude), each sign flipped. */
function candidateFixes(lat: number, lng: number): CoordinateFix[] {
  const fixes: CoordinateFix[] = [];
  if (Math.abs(lng) <= 90 && lat !== lng) fixes.push({ kind: "swap", lat: lng, lng: lat });
  if (lat !== 0) fixes.push({ kind: "lat-sign", lat: -lat, lng });
  if (lng !== 0) fixes.push({ kind: "lng-sign", lat, lng: -lng });
  if (lat !== 0 && lng !== 0) fixes.push({ kind: "both-signs", lat: -lat, lng: -lng });
  return fixes;
}

/**
 * Where the point (decimal degrees) lies relative to the country (ISO alpha-2); for a point beyond
 * the tolerance, which swap or sign fix would put it well inside (inside, and farther than the
 * tolerance from the edge, so that a fix never rests on the outline's coarseness).
 */
export function placeInCountry(country: string, lat: number, lng: number): PointPlace {
  const outline = outlineIndex().get(country);
  if (!outline) return { kind: "no-outline" };
  const place = placeOf(outline, lat, lng);
  if (place.inside) return { kind: "inside" };
  if (place.distanceKm !== undefined && place.distanceKm <= COUNTRY_TOLERANCE_KM)
    return { kind: "near-edge", distanceKm: place.distanceKm };
  const wellInside: CoordinateFix[] = [];
  const nearFixes: CoordinateFix[] = [];
  for (const fix of candidateFixes(lat, lng)) {
    const there = placeOf(outline, fix.lat, fix.lng);
    if (there.inside && -signedDistanceKm(outline, fix.lat, fix.lng) > COUNTRY_TOLERANCE_KM) wellInside.push(fix);
    else if (there.inside || (there.distanceKm !== undefined && there.distanceKm <= COUNTRY_TOLERANCE_KM))
      nearFixes.push(fix);
  }
  return {
    kind: "outside",
    ...(place.distanceKm === undefined ? {} : { distanceKm: place.distanceKm }),
    ...(wellInside.length === 1 ? { fix: wellInside[0] } : {}),
    nearFixes: wellInside.length > 1 ? wellInside : nearFixes,
  };
}
