import type { RiskClient } from "../../api/client";
import type { UdfRecord, UdfWithEquation, VectorRecord, VectorWithGeoJson } from "../../api/types";
import { parseGeoJsonFile } from "./geojson-file";
import { StepError } from "./types";

/** The project's vector layers and UDFs, for the Compositions lists. */
export interface CompositionsListing {
  vectors: VectorRecord[];
  udfs: UdfRecord[];
}

/** Lists vectors (project-scoped) and UDFs together. */
export async function listCompositions(client: RiskClient, signal?: AbortSignal): Promise<CompositionsListing> {
  const [vectors, udfs] = await Promise.all([client.compositions.listVectors({ signal }), client.compositions.listUdfs({ signal })]);
  return { vectors, udfs };
}

/**
 * Uploads a vector layer from a .geojson file's text (multipart, as the contract specifies). The
 * file is checked first; a name is required.
 */
export async function uploadVectorFile(
  client: RiskClient,
  input: { name: string; fileName: string; text: string },
  signal?: AbortSignal,
): Promise<VectorRecord> {
  const name = input.name.trim();
  if (name === "") throw new Error("Layer name is empty: type a name for the new layer");
  parseGeoJsonFile(input.text, input.fileName, ["Feature", "FeatureCollection"]);
  return client.compositions.uploadVector({ name, geojsonText: input.text, fileName: input.fileName }, { signal });
}

/** Steps of creating a UDF; a failure names one of them. */
export type UdfStep = "create" | "activate";

/** What creating (and activating) a UDF produced. */
export interface CreatedUdf {
  udf: UdfRecord;
  /** The result vector of the activation (its id differs from the UDF's), when activated. */
  vector?: VectorRecord;
}

/**
 * Creates a UDF from a name, input layers and a jq operation, then activates it when asked.
 * A jq program the service cannot compile or run comes back as UnprocessableEntityError (422)
 * wrapped in a StepError that says whether creating or activating failed.
 */
export async function createUdf(
  client: RiskClient,
  input: { name: string; inputLayers: string[]; operation: string; activate: boolean },
  signal?: AbortSignal,
): Promise<CreatedUdf> {
  const name = input.name.trim();
  if (name === "") throw new Error("UDF name is empty: type a name");
  if (input.inputLayers.length === 0) throw new Error("Choose at least one input layer");
  if (input.operation.trim() === "") throw new Error("The jq operation is empty: type a jq program, e.g. .loss_flood_bsln");
  let udf: UdfRecord;
  try {
    udf = await client.compositions.createUdf({ name, equation: { inputLayers: input.inputLayers, operation: input.operation } }, { signal });
  } catch (error) {
    throw new StepError<UdfStep>("create", "Creating the UDF", error);
  }
  if (!input.activate) return { udf };
  return { udf, vector: await activateUdf(client, udf.id, signal) };
}

/** Activates a UDF: the service runs it and stores the result as a new vector. */
export async function activateUdf(client: RiskClient, udfId: string | number, signal?: AbortSignal): Promise<VectorRecord> {
  try {
    return await client.compositions.activateUdf(udfId, { signal });
  } catch (error) {
    throw new StepError<UdfStep>("activate", "Activating the UDF", error);
  }
}

/** One vector with its GeoJSON, for the inspector. */
export function inspectVector(client: RiskClient, id: string | number, signal?: AbortSignal): Promise<VectorWithGeoJson> {
  return client.compositions.getVector(id, { signal });
}

/** One UDF with its equation, for the inspector. */
export function inspectUdf(client: RiskClient, id: string | number, signal?: AbortSignal): Promise<UdfWithEquation> {
  return client.compositions.getUdf(id, { signal });
}

/** Deletes a vector layer. */
export function deleteVector(client: RiskClient, id: string | number): Promise<void> {
  return client.compositions.deleteVector(id);
}

/** Deletes a UDF. */
export function deleteUdf(client: RiskClient, id: string | number): Promise<void> {
  return client.compositions.deleteUdf(id);
}

/** A short text describing a GeoJSON layer for the inspector: feature count and property names. */
export function describeLayer(geojson: { type: string; [key: string]: unknown }): string {
  const features = geojson.type === "FeatureCollection" && Array.isArray(geojson.features) ? (geojson.features as Array<{ properties?: Record<string, unknown> }>) : [geojson as { properties?: Record<string, unknown> }];
  const names = new Set<string>();
  for (const feature of features) for (const key of Object.keys(feature.properties ?? {})) names.add(key);
  const list = [...names].slice(0, 12).join(", ");
  return `${features.length} feature${features.length === 1 ? "" : "s"}${names.size ? `; properties: ${list}${names.size > 12 ? ", …" : ""}` : ""}`;
}
