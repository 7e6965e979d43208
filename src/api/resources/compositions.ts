import { segment, type CallOptions, type Transport } from "../http";
import type {
  ApplyResult,
  GeoJson,
  UdfEquation,
  UdfRecord,
  UdfWithEquation,
  VectorRecord,
  VectorWithGeoJson,
} from "../types";

const VECTORS = "/compositions/vector";
const UDFS = "/compositions/udf";
/** UDF operations list no project header (activating and running one do). */
const NO_PROJECT = { project: false } as const;

/** A layer as a file: its name, the GeoJSON text and, optionally, the file name to send. */
type LayerFile = { name: string; geojsonText: string; fileName?: string };

/** The multipart form of a layer upload or update: `name` and a `geojson` file part. */
function layerForm(input: LayerFile): FormData {
  const form = new FormData();
  form.append("name", input.name);
  form.append(
    "geojson",
    new Blob([input.geojsonText], { type: "application/geo+json" }),
    input.fileName ?? `${input.name}.geojson`,
  );
  return form;
}

/**
 * Compositions: vector layers, jq UDFs and applying a layer to a portfolio. Vector operations carry
 * the project header; UDF operations list none. Updates carry no id, the record updated is the one
 * with the body's `name` (so a rename is delete + create). Run UDF has no published path: ours
 * (`GET /udf/{id}/run`) is inferred (docs/service.md#routes).
 */
export class Compositions {
  constructor(private readonly transport: Transport) {}

  listVectors(call?: CallOptions): Promise<VectorRecord[]> {
    return this.transport.get("compositions.listVectors", VECTORS, call);
  }

  getVector(vectorId: string | number, call?: CallOptions): Promise<VectorWithGeoJson> {
    return this.transport.get("compositions.getVector", `${VECTORS}/${segment(vectorId)}`, call);
  }

  /** Adds a vector layer from a GeoJSON Feature or FeatureCollection, sent as JSON. */
  createVector(input: { name: string; geojson: GeoJson }, call?: CallOptions): Promise<VectorRecord> {
    return this.transport.post("compositions.createVector", VECTORS, call, { json: input });
  }

  /** Adds a vector layer as the service's multipart form: `name` and a `geojson` file (e.g. an uploaded .geojson). */
  uploadVector(input: LayerFile, call?: CallOptions): Promise<VectorRecord> {
    return this.transport.post("compositions.uploadVector", VECTORS, call, { body: layerForm(input) });
  }

  /**
   * Replaces the geometry of the project's layer named `name` (published shape: `PUT /vector`,
   * multipart `name` + `geojson` file part). NotFoundError (404) when no layer has that name.
   */
  updateVector(input: LayerFile, call?: CallOptions): Promise<VectorRecord> {
    return this.transport.put("compositions.updateVector", VECTORS, call, { body: layerForm(input) });
  }

  deleteVector(vectorId: string | number, call?: CallOptions): Promise<void> {
    const path = `${VECTORS}/${segment(vectorId)}`;
    return this.transport.delete("compositions.deleteVector", path, call, { responseType: "none" });
  }

  /** Joins the layer to the portfolio's assets; the CSV holds one row per asset. */
  applyVector(vectorId: string | number, portfolioName: string, call?: CallOptions): Promise<ApplyResult> {
    const path = `${VECTORS}/${segment(vectorId)}/apply`;
    return this.transport.get("compositions.applyVector", path, call, { query: { portfolio: portfolioName } });
  }

  listUdfs(call?: CallOptions): Promise<UdfRecord[]> {
    return this.transport.get("compositions.listUdfs", UDFS, call, NO_PROJECT);
  }

  getUdf(udfId: string | number, call?: CallOptions): Promise<UdfWithEquation> {
    return this.transport.get("compositions.getUdf", `${UDFS}/${segment(udfId)}`, call, NO_PROJECT);
  }

  createUdf(input: { name: string; equation: UdfEquation }, call?: CallOptions): Promise<UdfRecord> {
    return this.transport.post("compositions.createUdf", UDFS, call, { ...NO_PROJECT, json: input });
  }

  /**
   * Replaces the equation of the UDF named `name` (published shape: `PUT /udf`, JSON
   * `{name, equation}`). NotFoundError (404) when no UDF has that name.
   */
  updateUdf(input: { name: string; equation: UdfEquation }, call?: CallOptions): Promise<UdfRecord> {
    return this.transport.put("compositions.updateUdf", UDFS, call, { ...NO_PROJECT, json: input });
  }

  deleteUdf(udfId: string | number, call?: CallOptions): Promise<void> {
    const path = `${UDFS}/${segment(udfId)}`;
    return this.transport.delete("compositions.deleteUdf", path, call, { ...NO_PROJECT, responseType: "none" });
  }

  /**
   * Runs the UDF and stores its result as a new vector (status `available`), whose id differs from
   * the UDF's. A GET that creates something, so it is never retried.
   */
  activateUdf(udfId: string | number, call?: CallOptions): Promise<VectorRecord> {
    const path = `${UDFS}/${segment(udfId)}/activate`;
    return this.transport.get("compositions.activateUdf", path, call, { idempotent: false });
  }

  /** Runs the UDF and returns the resulting layer without storing it (path inferred: none is published). */
  runUdf(udfId: string | number, call?: CallOptions): Promise<VectorWithGeoJson> {
    return this.transport.get("compositions.runUdf", `${UDFS}/${segment(udfId)}/run`, call);
  }
}
