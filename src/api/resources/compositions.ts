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

const ROOT = "/compositions";

/** The multipart form of a layer upload or update: `name` and a `geojson` file part. */
function layerForm(input: { name: string; geojsonText: string; fileName?: string }): FormData {
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
    return this.transport.send(
      {
        operation: "compositions.listVectors",
        method: "GET",
        area: "base",
        path: `${ROOT}/vector`,
        project: true,
        responseType: "json",
      },
      call,
    );
  }

  getVector(vectorId: string | number, call?: CallOptions): Promise<VectorWithGeoJson> {
    return this.transport.send(
      {
        operation: "compositions.getVector",
        method: "GET",
        area: "base",
        path: `${ROOT}/vector/${segment(vectorId)}`,
        project: true,
        responseType: "json",
      },
      call,
    );
  }

  /** Adds a vector layer from a GeoJSON Feature or FeatureCollection, sent as JSON. */
  createVector(input: { name: string; geojson: GeoJson }, call?: CallOptions): Promise<VectorRecord> {
    return this.transport.send(
      {
        operation: "compositions.createVector",
        method: "POST",
        area: "base",
        path: `${ROOT}/vector`,
        project: true,
        json: input,
        responseType: "json",
      },
      call,
    );
  }

  /** Adds a vector layer as the service's multipart form: `name` and a `geojson` file (e.g. an uploaded .geojson). */
  uploadVector(
    input: { name: string; geojsonText: string; fileName?: string },
    call?: CallOptions,
  ): Promise<VectorRecord> {
    const form = layerForm(input);
    return this.transport.send(
      {
        operation: "compositions.uploadVector",
        method: "POST",
        area: "base",
        path: `${ROOT}/vector`,
        project: true,
        body: form,
        responseType: "json",
      },
      call,
    );
  }

  /**
   * Replaces the geometry of the project's layer named `name` (published shape: `PUT /vector`,
   * multipart `name` + `geojson` file part). NotFoundError (404) when no layer has that name.
   */
  updateVector(
    input: { name: string; geojsonText: string; fileName?: string },
    call?: CallOptions,
  ): Promise<VectorRecord> {
    const form = layerForm(input);
    return this.transport.send(
      {
        operation: "compositions.updateVector",
        method: "PUT",
        area: "base",
        path: `${ROOT}/vector`,
        project: true,
        body: form,
        responseType: "json",
      },
      call,
    );
  }

  deleteVector(vectorId: string | number, call?: CallOptions): Promise<void> {
    return this.transport.send(
      {
        operation: "compositions.deleteVector",
        method: "DELETE",
        area: "base",
        path: `${ROOT}/vector/${segment(vectorId)}`,
        project: true,
        responseType: "none",
      },
      call,
    );
  }

  /** Joins the layer to the portfolio's assets; the CSV holds one row per asset. */
  applyVector(vectorId: string | number, portfolioName: string, call?: CallOptions): Promise<ApplyResult> {
    return this.transport.send(
      {
        operation: "compositions.applyVector",
        method: "GET",
        area: "base",
        path: `${ROOT}/vector/${segment(vectorId)}/apply`,
        project: true,
        query: { portfolio: portfolioName },
        responseType: "json",
      },
      call,
    );
  }

  listUdfs(call?: CallOptions): Promise<UdfRecord[]> {
    return this.transport.send(
      { operation: "compositions.listUdfs", method: "GET", area: "base", path: `${ROOT}/udf`, responseType: "json" },
      call,
    );
  }

  getUdf(udfId: string | number, call?: CallOptions): Promise<UdfWithEquation> {
    return this.transport.send(
      {
        operation: "compositions.getUdf",
        method: "GET",
        area: "base",
        path: `${ROOT}/udf/${segment(udfId)}`,
        responseType: "json",
      },
      call,
    );
  }

  createUdf(input: { name: string; equation: UdfEquation }, call?: CallOptions): Promise<UdfRecord> {
    return this.transport.send(
      {
        operation: "compositions.createUdf",
        method: "POST",
        area: "base",
        path: `${ROOT}/udf`,
        json: input,
        responseType: "json",
      },
      call,
    );
  }

  /**
   * Replaces the equation of the UDF named `name` (published shape: `PUT /udf`, JSON
   * `{name, equation}`). NotFoundError (404) when no UDF has that name.
   */
  updateUdf(input: { name: string; equation: UdfEquation }, call?: CallOptions): Promise<UdfRecord> {
    return this.transport.send(
      {
        operation: "compositions.updateUdf",
        method: "PUT",
        area: "base",
        path: `${ROOT}/udf`,
        json: input,
        responseType: "json",
      },
      call,
    );
  }

  deleteUdf(udfId: string | number, call?: CallOptions): Promise<void> {
    return this.transport.send(
      {
        operation: "compositions.deleteUdf",
        method: "DELETE",
        area: "base",
        path: `${ROOT}/udf/${segment(udfId)}`,
        responseType: "none",
      },
      call,
    );
  }

  /**
   * Runs the UDF and stores its result as a new vector (status `available`), whose id differs from
   * the UDF's. A GET that creates something, so it is never retried.
   */
  activateUdf(udfId: string | number, call?: CallOptions): Promise<VectorRecord> {
    return this.transport.send(
      {
        operation: "compositions.activateUdf",
        method: "GET",
        area: "base",
        path: `${ROOT}/udf/${segment(udfId)}/activate`,
        project: true,
        idempotent: false,
        responseType: "json",
      },
      call,
    );
  }

  /** Runs the UDF and returns the resulting layer without storing it (path inferred: none is published). */
  runUdf(udfId: string | number, call?: CallOptions): Promise<VectorWithGeoJson> {
    return this.transport.send(
      {
        operation: "compositions.runUdf",
        method: "GET",
        area: "base",
        path: `${ROOT}/udf/${segment(udfId)}/run`,
        project: true,
        responseType: "json",
      },
      call,
    );
  }
}
