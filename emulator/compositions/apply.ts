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

/** The apply result's CSV for a layer and assets (in portfolio_index order). */
export function applyCsv(layer: GeoJsonFeatureCollection, assets: StoredAsset[]): string {
  const polygons: PolygonIndex[] = [];
  const points: { index: number; feature: GeoJsonFeature; at: number[] }[] = [];
  const propertyKeys: string[] = [];
  const seen = new Set<string>();
  const cellsOf: Map<string, Cell>[] = [];
  layer.features.forEach((feature, index) => {
    const cells = new Map(propertyCells(feature.properties));
    cellsOf[index] = cells;
    for (const k of cells.keys()) {
      if (!seen.has(k)) {
        seen.add(k);
        propertyKeys.push(k);
      }
    }
    if (!feature.geometry) {
      const at = propertyPoint(feature.properties);
      if (at) points.push({ index, feature, at });
      return;
    }
    for (const geometry of polygonsOf(feature.geometry)) {
      const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      bboxOf(geometry.coordinates, bbox);
      polygons.push({ index, feature, geometry, bbox });
    }
    for (const at of pointsOf(feature.geometry)) points.push({ index, feature, at });
  });
  const rows = assets.map((a, i) => {
    let match: "polygon" | "nearest" | "none" = "none";
    let hit: { index: number; feature: GeoJsonFeature } | undefined;
    let km = 0;
    const poly = polygons.find(
      (p) =>
        a.lng >= p.bbox[0] &&
        a.lng <= p.bbox[2] &&
        a.lat >= p.bbox[1] &&
        a.lat <= p.bbox[3] &&
        booleanPointInPolygon([a.lng, a.lat], p.geometry as Parameters<typeof booleanPointInPolygon>[1]),
    );
    if (poly) {
      match = "polygon";
      hit = poly;
    } else {
      let best = Infinity;
      for (const p of points) {
        // Cheap reject: 1° of latitude is ~111 km.
        if (Math.abs(p.at[1] - a.lat) > NEAREST_LIMIT_KM / 100) continue;
        const d = distance([a.lng, a.lat], p.at, { units: "kilometers" });
        if (d < best) {
          best = d;
          hit = p;
        }
      }
      if (hit && best <= NEAREST_LIMIT_KM) {
        match = "nearest";
        km = Math.round(best * 1000) / 1000;
      } else hit = undefined;
    }
    const cells = hit ? cellsOf[hit.index] : undefined;
    return [
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
    ];
  });
  return Papa.unparse({ fields: [...APPLY_COLUMNS, ...propertyKeys], data: rows }, { newline: "\n" });
}
