import type { GeoJson } from "../../api/types";

/**
 * Reads a GeoJSON file's text before it is sent, so a broken file gets an error that names the
 * file and the problem instead of a round trip. Accepts what the service accepts.
 */
export function parseGeoJsonFile(
  text: string,
  fileName: string,
  accept: ReadonlyArray<"Feature" | "FeatureCollection">,
): GeoJson {
  if (text.trim() === "") throw new Error(`${fileName} is empty`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${fileName} is not valid JSON (${reason})`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${fileName} must hold a GeoJSON object, not ${Array.isArray(value) ? "an array" : typeof value}`);
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !accept.includes(type as "Feature")) {
    throw new Error(
      `${fileName} must be a GeoJSON ${accept.join(" or ")} (its "type" is ${JSON.stringify(type ?? null)})`,
    );
  }
  if (type === "FeatureCollection" && !Array.isArray((value as { features?: unknown }).features)) {
    throw new Error(`${fileName}: a FeatureCollection needs a "features" array`);
  }
  return value as GeoJson;
}

/** A layer name proposed from a file name: "Flood zones (v2).geojson" → "Flood_zones_v2". */
export function nameFromFileName(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, "");
  const cleaned = base.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return cleaned || "layer";
}
