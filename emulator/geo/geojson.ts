/**
 * GeoJSON validation for uploaded vector layers and nature sub-projects. Errors name the path
 * of the offending member (e.g. `geojson.features[3].geometry.coordinates[0]`), so a user can
 * find the problem in their file.
 */
import { TurnClock } from "../http/turns";
import { GeoJsonFeature, GeoJsonFeatureCollection, GeoJsonGeometry } from "../state/types";

const GEOMETRY_TYPES = [
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
  "GeometryCollection",
];
const MAX_ERRORS = 20;

class Collector {
  errors: string[] = [];
  add(msg: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(msg);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkPosition(v: unknown, where: string, c: Collector): void {
  if (
    !Array.isArray(v) ||
    v.length < 2 ||
    v.length > 3 ||
    !v.every((n) => typeof n === "number" && Number.isFinite(n))
  ) {
    c.add(`${where}: a position must be [longitude, latitude] numbers`);
    return;
  }
  const [lng, lat] = v as number[];
  if (lng < -180 || lng > 180) c.add(`${where}: longitude ${lng} is out of bounds [-180, 180]`);
  if (lat < -90 || lat > 90) c.add(`${where}: latitude ${lat} is out of bounds [-90, 90]`);
}

function checkPositions(v: unknown, where: string, min: number, c: Collector): void {
  if (!Array.isArray(v)) return c.add(`${where}: expected an array of positions`);
  if (v.length < min) c.add(`${where}: needs at least ${min} positions, has ${v.length}`);
  v.forEach((p, i) => checkPosition(p, `${where}[${i}]`, c));
}

function checkRing(v: unknown, where: string, c: Collector): void {
  checkPositions(v, where, 4, c);
  if (Array.isArray(v) && v.length >= 4) {
    const a = v[0] as number[];
    const b = v[v.length - 1] as number[];
    if (!Array.isArray(a) || !Array.isArray(b) || a[0] !== b[0] || a[1] !== b[1])
      c.add(`${where}: linear ring is not closed (first and last positions differ)`);
  }
}

function checkPolygon(v: unknown, where: string, c: Collector): void {
  if (!Array.isArray(v) || v.length === 0) return c.add(`${where}: a polygon needs at least one linear ring`);
  v.forEach((ring, i) => checkRing(ring, `${where}[${i}]`, c));
}

/** Validates a geometry object (not null). */
export function checkGeometry(g: unknown, where: string, c: Collector, allowed = GEOMETRY_TYPES): void {
  if (!isObject(g)) return c.add(`${where}: expected a geometry object`);
  const type = g.type;
  if (typeof type !== "string" || !GEOMETRY_TYPES.includes(type))
    return c.add(`${where}.type: "${String(type)}" is not a GeoJSON geometry type`);
  if (!allowed.includes(type))
    return c.add(`${where}.type: ${type} is not allowed here (expected ${allowed.join(" or ")})`);
  const coords = g.coordinates;
  const cw = `${where}.coordinates`;
  switch (type) {
    case "Point":
      return checkPosition(coords, cw, c);
    case "MultiPoint":
      return checkPositions(coords, cw, 1, c);
    case "LineString":
      return checkPositions(coords, cw, 2, c);
    case "MultiLineString":
      if (!Array.isArray(coords)) return c.add(`${cw}: expected an array of line strings`);
      return coords.forEach((l, i) => checkPositions(l, `${cw}[${i}]`, 2, c));
    case "Polygon":
      return checkPolygon(coords, cw, c);
    case "MultiPolygon":
      if (!Array.isArray(coords) || coords.length === 0) return c.add(`${cw}: expected an array of polygons`);
      return coords.forEach((p, i) => checkPolygon(p, `${cw}[${i}]`, c));
    case "GeometryCollection":
      if (!Array.isArray(g.geometries)) return c.add(`${where}.geometries: expected an array`);
      return g.geometries.forEach((x, i) => checkGeometry(x, `${where}.geometries[${i}]`, c, allowed));
  }
}

/**
 * The point a feature's `lat`/`lng` properties give (numbers or numeric strings, as in the
 * published add-vector example), as [lng, lat]; undefined when either is absent or not a finite
 * number. Bounds are checked by validation, not here.
 */
export function propertyPoint(properties: Record<string, unknown> | null | undefined): [number, number] | undefined {
  const lat = coordinate(properties?.lat);
  const lng = coordinate(properties?.lng);
  return lat === undefined || lng === undefined ? undefined : [lng, lat];
}

function coordinate(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A feature located by its properties (the published example): checks lat/lng are numbers in bounds. */
function checkPropertyLocation(props: Record<string, unknown>, where: string, c: Collector): void {
  for (const [key, limit] of [
    ["lat", 90],
    ["lng", 180],
  ] as const) {
    const n = coordinate(props[key]);
    if (n === undefined)
      c.add(
        `${where}.properties.${key}: ${JSON.stringify(props[key] ?? null)} is not a number (a feature without geometry is located by its lat and lng properties)`,
      );
    else if (Math.abs(n) > limit) c.add(`${where}.properties.${key}: ${n} is out of bounds [-${limit}, ${limit}]`);
  }
}

function checkFeature(
  f: unknown,
  where: string,
  c: Collector,
  allowed: string[],
  nullGeometry: boolean,
  locatedByProperties = false,
): void {
  if (!isObject(f) || f.type !== "Feature") return c.add(`${where}: expected a GeoJSON Feature`);
  const props = isObject(f.properties) ? f.properties : {};
  // The published add-vector example: no `geometry` member, located by `lat`/`lng` properties.
  if (locatedByProperties && (f.geometry === undefined || f.geometry === null) && ("lat" in props || "lng" in props)) {
    checkPropertyLocation(props, where, c);
  }
  // RFC 7946: a Feature always has a `geometry` member; it may be null only where nulls are allowed.
  else if (!("geometry" in f)) {
    c.add(
      `${where}.geometry: is missing (a Feature needs a geometry member, null if unlocated${locatedByProperties ? ", or lat and lng properties that locate it" : ""})`,
    );
  } else if (f.geometry === null) {
    if (!nullGeometry) c.add(`${where}.geometry: is null; a located geometry is needed here`);
  } else checkGeometry(f.geometry, `${where}.geometry`, c, allowed);
  if (f.properties !== undefined && f.properties !== null && !isObject(f.properties))
    c.add(`${where}.properties: expected an object or null`);
}

/** Result of validation: a normalised FeatureCollection or the error list. */
export type GeoJsonResult = { ok: true; value: GeoJsonFeatureCollection } | { ok: false; errors: string[] };

/**
 * Validates a vector layer: a Feature or a FeatureCollection with valid geometries; a feature
 * without geometry may be located by `lat`/`lng` properties (published example). A lone Feature
 * is wrapped into a FeatureCollection.
 */
export function validateLayer(input: unknown, where = "geojson"): GeoJsonResult {
  const steps = layerChecks(input, where);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * validateLayer between turns of the event loop: an upload of 70,000 features takes 40 ms or more
 * to check in one piece (the server's thread; the jq worker checks results with validateLayer).
 */
export async function validateLayerPaced(input: unknown, where = "geojson"): Promise<GeoJsonResult> {
  const clock = new TurnClock();
  const steps = layerChecks(input, where);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await clock.pace();
  }
}

/** The checks of validateLayer, pausing (`yield`) after each feature. */
function* layerChecks(input: unknown, where: string): Generator<void, GeoJsonResult> {
  const c = new Collector();
  if (!isObject(input))
    return { ok: false, errors: [`${where}: expected a GeoJSON Feature or FeatureCollection object`] };
  if (input.type === "Feature") {
    checkFeature(input, where, c, GEOMETRY_TYPES, true, true);
    if (c.errors.length) return { ok: false, errors: c.errors };
    return {
      ok: true,
      value: { type: "FeatureCollection", features: [normaliseFeature(input as unknown as GeoJsonFeature)] },
    };
  }
  if (input.type !== "FeatureCollection")
    return {
      ok: false,
      errors: [`${where}.type: expected "Feature" or "FeatureCollection", got ${JSON.stringify(input.type ?? null)}`],
    };
  if (!Array.isArray(input.features)) return { ok: false, errors: [`${where}.features: expected an array`] };
  const features: unknown[] = input.features;
  for (let i = 0; i < features.length; i++) {
    checkFeature(features[i], `${where}.features[${i}]`, c, GEOMETRY_TYPES, true, true);
    yield;
  }
  if (c.errors.length) return { ok: false, errors: c.errors };
  return {
    ok: true,
    value: { type: "FeatureCollection", features: (features as GeoJsonFeature[]).map(normaliseFeature) },
  };
}

function normaliseFeature(f: GeoJsonFeature): GeoJsonFeature {
  const out: GeoJsonFeature = { type: "Feature", geometry: f.geometry ?? null, properties: f.properties ?? {} };
  if (f.id !== undefined) out.id = f.id;
  return out;
}

const WGS84_NAMES = ["urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:EPSG::4326", "EPSG:4326", "CRS84"];

/**
 * Validates a nature sub-project: a FeatureCollection of Polygon/MultiPolygon features, an
 * optional `crs` member of type `name` naming WGS84, and an `Entity Name` on every feature.
 */
export async function validateSubProject(input: unknown, where = "geojson"): Promise<GeoJsonResult> {
  const c = new Collector();
  if (!isObject(input) || input.type !== "FeatureCollection")
    return { ok: false, errors: [`${where}: expected a GeoJSON FeatureCollection`] };
  if (input.crs !== undefined) {
    const crs = input.crs;
    if (!isObject(crs) || crs.type !== "name" || !isObject(crs.properties) || typeof crs.properties.name !== "string") {
      c.add(`${where}.crs: expected {"type": "name", "properties": {"name": <CRS name>}}`);
    } else if (!WGS84_NAMES.includes(crs.properties.name)) {
      c.add(
        `${where}.crs.properties.name: "${crs.properties.name}" is not supported (coordinates must be WGS84, e.g. urn:ogc:def:crs:OGC:1.3:CRS84)`,
      );
    }
  }
  if (!Array.isArray(input.features) || input.features.length === 0) {
    c.add(`${where}.features: expected a non-empty array of features`);
    return { ok: false, errors: c.errors };
  }
  // A 10 MB sub-project is some 50,000 polygons: checked between turns of the event loop.
  const clock = new TurnClock();
  for (let i = 0; i < input.features.length; i++) {
    const f: unknown = input.features[i];
    await clock.pace();
    const w = `${where}.features[${i}]`;
    checkFeature(f, w, c, ["Polygon", "MultiPolygon"], false);
    const props = isObject(f) && isObject(f.properties) ? f.properties : {};
    const name = props["Entity Name"];
    if (typeof name !== "string" || name.trim() === "")
      c.add(`${w}.properties["Entity Name"]: is required (a non-empty string)`);
    const area = props["label:poly_area"];
    if (area !== undefined && (typeof area !== "number" || !Number.isFinite(area)))
      c.add(`${w}.properties["label:poly_area"]: must be a number`);
  }
  if (c.errors.length) return { ok: false, errors: c.errors };
  return { ok: true, value: input as unknown as GeoJsonFeatureCollection };
}

/** All polygons of a collection's geometries as MultiPolygon coordinates. */
export function collectPolygons(fc: GeoJsonFeatureCollection): number[][][][] {
  const out: number[][][][] = [];
  const visit = (g: GeoJsonGeometry | null) => {
    if (!g) return;
    if (g.type === "Polygon") out.push(g.coordinates as number[][][]);
    else if (g.type === "MultiPolygon") out.push(...(g.coordinates as number[][][][]));
    else if (g.type === "GeometryCollection") g.geometries?.forEach(visit);
  };
  fc.features.forEach((f) => visit(f.geometry));
  return out;
}
