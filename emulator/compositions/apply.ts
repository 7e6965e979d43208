/**
 * Joins a vector layer's features to a portfolio's assets and renders the result as CSV.
 * An asset takes the first (Multi)Polygon feature that contains it; otherwise the nearest
 * Point/MultiPoint feature (or feature without geometry located by its `lat`/`lng` properties,
 * as in the published add-vector example) within NEAREST_LIMIT_KM; otherwise no feature.
 *
 * CSV columns, in order: portfolio_index, entity_id, entity_name, lat, lng, feature_index,
 * feature_id, match (polygon | nearest | none), distance_km, then the features' properties
 * (first-seen order; see {@link propertyCells}), empty where the feature lacks one or nothing
 * matched.
 */
import Papa from "papaparse";
import { booleanPointInPolygon, distance } from "@turf/turf";
import { propertyPoint } from "../geo/geojson";
import { GeoJsonFeature, GeoJsonFeatureCollection, GeoJsonGeometry, StoredAsset } from "../state/types";
import { TurnClock } from "../http/turns";

/** Nearest point features farther than this are not joined. */
export const NEAREST_LIMIT_KM = 50;

export const APPLY_COLUMNS = [
  "portfolio_index",
  "entity_id",
  "entity_name",
  "lat",
  "lng",
  "feature_index",
  "feature_id",
  "match",
  "distance_km",
];

interface PolygonIndex {
  index: number;
  feature: GeoJsonFeature;
  geometry: GeoJsonGeometry;
  bbox: [number, number, number, number];
}

function bboxOf(coords: unknown, box: [number, number, number, number]): void {
  if (Array.isArray(coords) && typeof coords[0] === "number") {
    const [x, y] = coords as number[];
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  } else if (Array.isArray(coords)) coords.forEach((c) => bboxOf(c, box));
}

function pointsOf(g: GeoJsonGeometry): number[][] {
  if (g.type === "Point") return [g.coordinates as number[]];
  if (g.type === "MultiPoint") return g.coordinates as number[][];
  if (g.type === "GeometryCollection") return (g.geometries ?? []).flatMap(pointsOf);
  return [];
}

function polygonsOf(g: GeoJsonGeometry): GeoJsonGeometry[] {
  if (g.type === "Polygon" || g.type === "MultiPolygon") return [g];
  if (g.type === "GeometryCollection") return (g.geometries ?? []).flatMap(polygonsOf);
  return [];
}

type Cell = string | number | boolean;

/**
 * A feature's properties as named CSV cells: numbers, strings and booleans under their own name;
 * `labels` (an object) as one `label:<key>` column per entry (a key already starting `label:`
 * keeps it); any other object flattened to `<name>.<key>...` columns (so `scenario_analytics`
 * gives `scenario_analytics.ssp585.flood.indicator_2050`, numbers staying numbers); arrays as
 * JSON text; null as empty. A name equal to one of the fixed columns is prefixed `property:`
 * (the published example's `lat`/`lng` become `property:lat`, `property:lng`).
 */
export function propertyCells(properties: Record<string, unknown> | null): [string, Cell][] {
  const out: [string, Cell][] = [];
  const visit = (name: string, v: unknown): void => {
    if (v === null || v === undefined) return;
    if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") out.push([name, v]);
    else if (Array.isArray(v)) out.push([name, JSON.stringify(v)]);
    else if (typeof v === "object") for (const [k, x] of Object.entries(v)) visit(`${name}.${k}`, x);
  };
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (key === "labels" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, x] of Object.entries(value)) visit(k.startsWith("label:") ? k : `label:${k}`, x);
    } else visit(APPLY_COLUMNS.includes(key) ? `property:${key}` : key, value);
  }
  return out;
}

/** Items by 1° band of latitude, each band in the order the items were added. */
class LatitudeBands<T> {
  private readonly bands = new Map<number, T[]>();

  add(item: T, fromLat: number, toLat: number): void {
    for (let band = Math.floor(fromLat); band <= Math.floor(toLat); band++) {
      const list = this.bands.get(band);
      if (list) list.push(item);
      else this.bands.set(band, [item]);
    }
  }

  /** The items of the bands from `fromLat` to `toLat`. */
  *near(fromLat: number, toLat: number): Generator<T> {
    for (let band = Math.floor(fromLat); band <= Math.floor(toLat); band++) yield* this.bands.get(band) ?? [];
  }
}

/**
 * The apply result's CSV for a layer and assets (in portfolio_index order). Features are found by
 * band of latitude (a layer of 70,000 points over 5,000 assets was 350 million distance checks) and
 * the work gives the event loop back between slices, so a large apply holds up no other request.
 */
export async function applyCsv(layer: GeoJsonFeatureCollection, assets: StoredAsset[]): Promise<string> {
  const clock = new TurnClock();
  const polygons = new LatitudeBands<PolygonIndex & { order: number }>();
  const points = new LatitudeBands<{ index: number; feature: GeoJsonFeature; at: number[]; order: number }>();
  let polygonCount = 0;
  let pointCount = 0;
  const propertyKeys: string[] = [];
  const seen = new Set<string>();
  const cellsOf: Map<string, Cell>[] = [];
  for (let index = 0; index < layer.features.length; index++) {
    const feature = layer.features[index];
    const cells = new Map(propertyCells(feature.properties));
    cellsOf[index] = cells;
    for (const k of cells.keys()) {
      if (!seen.has(k)) {
        seen.add(k);
        propertyKeys.push(k);
      }
    }
    await clock.pace();
    if (!feature.geometry) {
      const at = propertyPoint(feature.properties);
      if (at) points.add({ index, feature, at, order: pointCount++ }, at[1], at[1]);
      continue;
    }
    for (const geometry of polygonsOf(feature.geometry)) {
      const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      bboxOf(geometry.coordinates, bbox);
      polygons.add({ index, feature, geometry, bbox, order: polygonCount++ }, bbox[1], bbox[3]);
    }
    for (const at of pointsOf(feature.geometry)) points.add({ index, feature, at, order: pointCount++ }, at[1], at[1]);
  }
  // Cheap reject for nearest points: 1° of latitude is ~111 km.
  const reach = NEAREST_LIMIT_KM / 100;
  const rows: unknown[][] = [];
  for (let i = 0; i < assets.length; i++) {
    const a = assets[i];
    let match: "polygon" | "nearest" | "none" = "none";
    let hit: { index: number; feature: GeoJsonFeature } | undefined;
    let km = 0;
    // The first polygon of the layer's order that holds the asset.
    let poly: (PolygonIndex & { order: number }) | undefined;
    for (const p of polygons.near(a.lat, a.lat)) {
      if (poly && p.order >= poly.order) continue;
      if (
        a.lng >= p.bbox[0] &&
        a.lng <= p.bbox[2] &&
        a.lat >= p.bbox[1] &&
        a.lat <= p.bbox[3] &&
        booleanPointInPolygon([a.lng, a.lat], p.geometry as Parameters<typeof booleanPointInPolygon>[1])
      )
        poly = p;
    }
    if (poly) {
      match = "polygon";
      hit = poly;
    } else {
      let best = Infinity;
      let bestOrder = Infinity;
      for (const p of points.near(a.lat - reach, a.lat + reach)) {
        if (Math.abs(p.at[1] - a.lat) > reach) continue;
        const d = distance([a.lng, a.lat], p.at, { units: "kilometers" });
        // Ties go to the layer's earlier point, whichever band it lies in.
        if (d < best || (d === best && p.order < bestOrder)) {
          best = d;
          bestOrder = p.order;
          hit = p;
        }
      }
      if (hit && best <= NEAREST_LIMIT_KM) {
        match = "nearest";
        km = Math.round(best * 1000) / 1000;
      } else hit = undefined;
    }
    const cells = hit ? cellsOf[hit.index] : undefined;
    rows.push([
      i,
      a.entity_id,
      a.entity_name,
      a.lat,
      a.lng,
      hit ? hit.index : "",
      hit?.feature.id ?? "",
      match,
      hit ? km : "",
      ...propertyKeys.map((k) => cells?.get(k) ?? ""),
    ]);
    await clock.pace();
  }
  const parts = [Papa.unparse([[...APPLY_COLUMNS, ...propertyKeys]], { newline: "\n" })];
  for (let at = 0; at < rows.length; at += 200) {
    parts.push(Papa.unparse(rows.slice(at, at + 200), { newline: "\n" }));
    await clock.pace();
  }
  return parts.join("\n");
}
