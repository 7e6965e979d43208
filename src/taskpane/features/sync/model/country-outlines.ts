/**
 * Where a point lies relative to a country: inside its outline, within a tolerance of it (near a
 * border or a coast, where a 1:50m outline is too coarse to tell), or outside, and whether a
 * swapped or sign-flipped point would lie well inside instead.
 *
 * The outlines are Natural Earth's 1:50m countries (world-atlas `countries-50m`, 756 KB of
 * TopoJSON): the map's 1:110m ones lack small countries (Singapore, Malta, Monaco...) and cut coasts
 * (Miami Beach, Mumbai fall outside). They and the geometry (Turf) are in this module, which the
 * pane imports dynamically, so they load only when a range with a country is checked.
 *
 * Inside or not is Turf's point in polygon, planar in longitude and latitude as Natural Earth draws
 * its edges (the 49th parallel is a straight line there, not a great circle). The distance to the
 * edge is Turf's point-to-segment distance on the sphere, over only the edges near the point, found
 * in an R-tree of the country's edges (rbush): a coastal portfolio has many points just off a
 * coarse coastline, and measuring each against all of a large country's thousands of edges would
 * take tens of milliseconds a point. Beyond the tolerance no distance is measured.
 */
import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import { pointToLineDistance } from "@turf/point-to-line-distance";
import type { MultiPolygon, Polygon, Position } from "geojson";
import RBush from "rbush";
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

/** One edge of an outline, with its bounding box for the R-tree. */
interface Edge {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  from: Position;
  to: Position;
}

/**
 * One country's outline: its polygons (islands, exclaves), each with its bounding box, which Turf's
 * point in polygon reads first, so a point is tested against the vertices of the polygons around it
 * only; and its edges in an R-tree, built the first time a distance is needed.
 */
interface Outline {
  polygons: Polygon[];
  edges?: RBush<Edge>;
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
    [...polygons].map(([code, parts]) => [code, { polygons: parts.map((coordinates) => withBox(coordinates)) }]),
  );
  return outlines;
}

/** A polygon with its bounding box (west, south, east, north), from its outer ring. */
function withBox(coordinates: Position[][]): Polygon {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of coordinates[0] ?? []) {
    box[0] = Math.min(box[0], lng!);
    box[1] = Math.min(box[1], lat!);
    box[2] = Math.max(box[2], lng!);
    box[3] = Math.max(box[3], lat!);
  }
  return { type: "Polygon", coordinates, bbox: box };
}

/** Whether the point lies inside one of the outline's polygons. */
function insideOutline(outline: Outline, lat: number, lng: number): boolean {
  return outline.polygons.some((polygon) => {
    // Turf reads the box too, but only after unwrapping the point: checked here first, it is one
    // comparison per island instead of a call (Indonesia has hundreds).
    const [west, south, east, north] = polygon.bbox!;
    return lng >= west! && lng <= east! && lat >= south! && lat <= north! && booleanPointInPolygon([lng, lat], polygon);
  });
}

/** The outline's edges (every ring's, holes too) in an R-tree, built once. */
function edgesOf(outline: Outline): RBush<Edge> {
  if (outline.edges) return outline.edges;
  const edges: Edge[] = [];
  for (const ring of outline.polygons.flatMap((polygon) => polygon.coordinates)) {
    for (let i = 1; i < ring.length; i++) {
      const [from, to] = [ring[i - 1]!, ring[i]!];
      edges.push({
        minX: Math.min(from[0]!, to[0]!),
        minY: Math.min(from[1]!, to[1]!),
        maxX: Math.max(from[0]!, to[0]!),
        maxY: Math.max(from[1]!, to[1]!),
        from,
        to,
      });
    }
  }
  outline.edges = new RBush<Edge>().load(edges);
  return outline.edges;
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
   * Farther than the tolerance from the outline. `fix` is the one correction that lies well
   * inside, when exactly one does; `nearFixes` are corrections that land inside or near but not
   * well inside, or several that do (named, never offered).
   */
  | { kind: "outside"; fix?: CoordinateFix; nearFixes: CoordinateFix[] }
  | { kind: "no-outline" };

/** The distance in km from the point to the outline's nearest edge, when it is at most `limitKm`. */
function edgeDistanceWithin(outline: Outline, lat: number, lng: number, limitKm: number): number | undefined {
  // A box surely holding every point within limitKm: a degree of latitude is at least 110.5 km,
  // a degree of longitude that times the cosine of the box's most poleward latitude.
  const latMargin = limitKm / 110;
  const poleward = Math.min(Math.abs(lat) + latMargin, 89.9);
  const lngMargin = latMargin / Math.cos((poleward * Math.PI) / 180);
  const near = edgesOf(outline).search({
    minX: lng - lngMargin,
    minY: lat - latMargin,
    maxX: lng + lngMargin,
    maxY: lat + latMargin,
  });
  // Turf's distance on the sphere costs tens of microseconds an edge: the edges are ranked in the
  // plane tangent at the point (exact enough at these distances to rank them), and the nearest few measured.
  const ranked = near.map((edge) => ({ edge, rough: roughSquared(lat, lng, edge) })).sort((a, b) => a.rough - b.rough);
  let nearest = Infinity;
  for (const { edge } of ranked.slice(0, 3)) {
    const line = { type: "LineString" as const, coordinates: [edge.from, edge.to] };
    nearest = Math.min(nearest, pointToLineDistance([lng, lat], line, { units: "kilometers" }));
  }
  return nearest <= limitKm ? nearest : undefined;
}

/** The squared distance from the point to the edge in degrees, longitude scaled by the cosine of the latitude. */
function roughSquared(lat: number, lng: number, edge: Edge): number {
  const k = Math.cos((lat * Math.PI) / 180);
  const [ax, ay] = [(edge.from[0]! - lng) * k, edge.from[1]! - lat];
  const [dx, dy] = [(edge.to[0]! - lng) * k - ax, edge.to[1]! - lat - ay];
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length));
  return (ax + t * dx) ** 2 + (ay + t * dy) ** 2;
}

/** Inside, or how far outside when within the tolerance (undefined beyond it). */
function placeOf(outline: Outline, lat: number, lng: number): { inside: boolean; distanceKm?: number } {
  if (insideOutline(outline, lat, lng)) return { inside: true };
  return { inside: false, distanceKm: edgeDistanceWithin(outline, lat, lng, COUNTRY_TOLERANCE_KM) };
}

/** Inside, and farther than the tolerance from every edge. */
function wellInside(outline: Outline, lat: number, lng: number): boolean {
  return insideOutline(outline, lat, lng) && edgeDistanceWithin(outline, lat, lng, COUNTRY_TOLERANCE_KM) === undefined;
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
  if (place.distanceKm !== undefined) return { kind: "near-edge", distanceKm: place.distanceKm };
  const good: CoordinateFix[] = [];
  const nearFixes: CoordinateFix[] = [];
  for (const fix of candidateFixes(lat, lng)) {
    if (wellInside(outline, fix.lat, fix.lng)) good.push(fix);
    else {
      const there = placeOf(outline, fix.lat, fix.lng);
      if (there.inside || there.distanceKm !== undefined) nearFixes.push(fix);
    }
  }
  return {
    kind: "outside",
    ...(good.length === 1 ? { fix: good[0] } : {}),
    nearFixes: good.length > 1 ? good : nearFixes,
  };
}
