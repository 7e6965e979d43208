/**
 * Joins a vector layer's features to a portfolio's assets and renders the result as CSV.
 * An asset takes the first (Multi)Polygon feature that contains it; otherwise the nearest
 * Point/MultiPoint feature within NEAREST_LIMIT_KM; otherwise no feature.
 *
 * CSV columns, in order: portfolio_index, entity_id, entity_name, lat, lng, feature_index,
 * feature_id, match (polygon | nearest | none), distance_km, then every numeric property found
 * on any feature (first-seen order), empty where the feature lacks it or nothing matched.
 */
import Papa from "papaparse";
import { booleanPointInPolygon, distance } from "@turf/turf";
import { GeoJsonFeature, GeoJsonFeatureCollection, GeoJsonGeometry, StoredAsset } from "../state/types";

/** Nearest point features farther than this are not joined. */
export const NEAREST_LIMIT_KM = 50;

export const APPLY_COLUMNS = ["portfolio_index", "entity_id", "entity_name", "lat", "lng", "feature_index", "feature_id", "match", "distance_km"];

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

/** The apply result's CSV for a layer and assets (in portfolio_index order). */
export function applyCsv(layer: GeoJsonFeatureCollection, assets: StoredAsset[]): string {
  const polygons: PolygonIndex[] = [];
  const points: { index: number; feature: GeoJsonFeature; at: number[] }[] = [];
  const numericKeys: string[] = [];
  const seen = new Set<string>();
  layer.features.forEach((feature, index) => {
    for (const [k, v] of Object.entries(feature.properties ?? {})) {
      if (typeof v === "number" && !seen.has(k)) {
        seen.add(k);
        numericKeys.push(k);
      }
    }
    if (!feature.geometry) return;
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
        a.lng >= p.bbox[0] && a.lng <= p.bbox[2] && a.lat >= p.bbox[1] && a.lat <= p.bbox[3] &&
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
    const props = hit?.feature.properties ?? {};
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
      ...numericKeys.map((k) => (hit && typeof props[k] === "number" ? props[k] : "")),
    ];
  });
  return Papa.unparse({ fields: [...APPLY_COLUMNS, ...numericKeys], data: rows }, { newline: "\n" });
}
