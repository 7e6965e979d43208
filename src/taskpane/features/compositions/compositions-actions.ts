import type { RiskClient } from "../../../api/client";
import type { UdfRecord, UdfWithEquation, VectorRecord, VectorWithGeoJson } from "../../../api/types";
import { parseGeoJsonFile } from "../../ui/geojson-file";
import { StepError } from "../../ui/pane-types";
import { message, type Message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";
import { sheetWords } from "../../../excel/sheet-words";

/** The project's vector layers and UDFs, for the Compositions lists. */
export interface CompositionsListing {
  vectors: VectorRecord[];
  udfs: UdfRecord[];
}

/** Lists vectors (project-scoped) and UDFs together. */
export async function listCompositions(client: RiskClient, signal?: AbortSignal): Promise<CompositionsListing> {
  const [vectors, udfs] = await Promise.all([
    client.compositions.listVectors({ signal }),
    client.compositions.listUdfs({ signal }),
  ]);
  return { vectors, udfs };
}

/**
 * Uploads a vector layer from a .geojson file's text (multipart, as the service takes it). The
 * file is checked first; a name is required.
 */
export async function uploadVectorFile(
  client: RiskClient,
  input: { name: string; fileName: string; text: string },
  signal?: AbortSignal,
): Promise<VectorRecord> {
  const name = input.name.trim();
  if (name === "") throw new MessageError(message("compositions.error.noLayerName"));
  parseGeoJsonFile(input.text, input.fileName, ["Feature", "FeatureCollection"]);
  return client.compositions.uploadVector({ name, geojsonText: input.text, fileName: input.fileName }, { signal });
}

/**
 * Replaces the geometry of the layer named `name` with a .geojson file's content (published
 * `PUT /vector`: the service finds the layer by its name; a rename is delete + create). The file
 * is checked before anything is sent.
 */
export async function updateVectorFile(
  client: RiskClient,
  input: { name: string; fileName: string; text: string },
  signal?: AbortSignal,
): Promise<VectorRecord> {
  parseGeoJsonFile(input.text, input.fileName, ["Feature", "FeatureCollection"]);
  return client.compositions.updateVector(
    { name: input.name, geojsonText: input.text, fileName: input.fileName },
    { signal },
  );
}

/**
 * Replaces the equation (input layers and jq operation) of the UDF named `name` (published
 * `PUT /udf`; a rename is delete + create). A program jq cannot compile comes back as 422.
 */
export async function updateUdfEquation(
  client: RiskClient,
  input: { name: string; inputLayers: string[]; operation: string },
  signal?: AbortSignal,
): Promise<UdfRecord> {
  if (input.inputLayers.length === 0) throw new MessageError(message("compositions.error.noInputLayer"));
  if (input.operation.trim() === "") throw new MessageError(message("compositions.error.noOperation"));
  return client.compositions.updateUdf(
    { name: input.name, equation: { inputLayers: input.inputLayers, operation: input.operation } },
    { signal },
  );
}

/** What a UDF's run produced, summarised for the pane. */
export interface LayerPreview {
  /** The resulting layer's name. */
  name: string;
  featureCount: number;
  /** Property names over all features, first-seen order. */
  propertyNames: string[];
  /** The first few features' properties (objects shown as JSON text), in `propertyNames` order. */
  rows: Array<Array<string | number | boolean | null>>;
}

/** Runs a UDF without storing its result and summarises the layer it yields (count, property names, first rows). */
export async function previewUdf(
  client: RiskClient,
  udfId: string | number,
  signal?: AbortSignal,
  rowLimit = 5,
): Promise<LayerPreview> {
  const layer = await client.compositions.runUdf(udfId, { signal });
  return summarizeLayer(layer.name, layer.geojson, rowLimit);
}

/** Feature count, property names and the first `rowLimit` rows of a GeoJSON layer. */
export function summarizeLayer(
  name: string,
  geojson: { type: string; [key: string]: unknown },
  rowLimit = 5,
): LayerPreview {
  const features =
    geojson.type === "FeatureCollection" && Array.isArray(geojson.features)
      ? (geojson.features as Array<{ properties?: Record<string, unknown> | null }>)
      : [geojson as { properties?: Record<string, unknown> }];
  const names: string[] = [];
  const seen = new Set<string>();
  for (const f of features) {
    for (const key of Object.keys(f.properties ?? {})) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  const cell = (v: unknown): string | number | boolean | null =>
    v === undefined || v === null ? null : typeof v === "object" ? JSON.stringify(v) : (v as string | number | boolean);
  const rows = features.slice(0, rowLimit).map((f) => names.map((n) => cell(f.properties?.[n])));
  return { name, featureCount: features.length, propertyNames: names, rows };
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
  if (name === "") throw new MessageError(message("compositions.error.noUdfName"));
  if (input.inputLayers.length === 0) throw new MessageError(message("compositions.error.noInputLayer"));
  if (input.operation.trim() === "") throw new MessageError(message("compositions.error.noOperation"));
  let udf: UdfRecord;
  try {
    udf = await client.compositions.createUdf(
      { name, equation: { inputLayers: input.inputLayers, operation: input.operation } },
      { signal },
    );
  } catch (error) {
    throw new StepError<UdfStep>("create", await stepLabel("compositions.step.create"), error);
  }
  if (!input.activate) return { udf };
  return { udf, vector: await activateUdf(client, udf.id, signal) };
}

/** A failed step's name, in the pane's language (a StepError carries text: worded with the pane's formatter). */
async function stepLabel(id: "compositions.step.create" | "compositions.step.activate"): Promise<string> {
  return (await sheetWords())(message(id));
}

/** Activates a UDF: the service runs it and stores the result as a new vector. */
export async function activateUdf(
  client: RiskClient,
  udfId: string | number,
  signal?: AbortSignal,
): Promise<VectorRecord> {
  try {
    return await client.compositions.activateUdf(udfId, { signal });
  } catch (error) {
    throw new StepError<UdfStep>("activate", await stepLabel("compositions.step.activate"), error);
  }
}

/** One vector with its GeoJSON, for the inspector. */
export function inspectVector(
  client: RiskClient,
  id: string | number,
  signal?: AbortSignal,
): Promise<VectorWithGeoJson> {
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
export function describeLayer(geojson: { type: string; [key: string]: unknown }): Message {
  const features =
    geojson.type === "FeatureCollection" && Array.isArray(geojson.features)
      ? (geojson.features as Array<{ properties?: Record<string, unknown> }>)
      : [geojson as { properties?: Record<string, unknown> }];
  const names = new Set<string>();
  for (const feature of features) for (const key of Object.keys(feature.properties ?? {})) names.add(key);
  const list = [...names].slice(0, 12).join(", ");
  return message("compositions.layer.described", {
    count: features.length,
    properties: names.size ? `${list}${names.size > 12 ? ", …" : ""}` : "none",
  });
}
