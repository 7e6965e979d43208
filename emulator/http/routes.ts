/**
 * The one route table: the server registers these routes and the OpenAPI documents are
 * generated from them, so the documents cannot drift from what is served.
 */
import type { RequestContext } from "./request-context";
import * as pf from "../handlers/portfolios";
import * as ds from "../handlers/datasets";
import * as cp from "../handlers/compositions";
import { search } from "../handlers/search";
import * as nt from "../handlers/nature";
import type { BodyShape, SchemaName } from "./schemas";
import { HAZARDS, MEASURES, SCENARIOS, WINDOWS } from "../model/catalog";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A documented query parameter. */
export interface QueryParam {
  name: string;
  type: "string" | "integer" | "number" | "boolean";
  required?: boolean;
  description?: string;
  enum?: string[];
  /** Not published: inferred by us (documented with `x-inferred: true`). */
  inferred?: boolean;
}

/** One served operation. */
export interface RouteDef {
  method: Method;
  /** fastify pattern with `:param`; the service's trailing slash is kept where it has one. */
  path: string;
  /** "api" → /swagger.json, "nature" → /nature/openapi.json. */
  area: "api" | "nature";
  /** Project header: required, optional, or not used. */
  project: "required" | "optional" | "none";
  /** API key required (false only for the documents themselves). */
  auth: boolean;
  summary: string;
  /** The OpenAPI operationId, named after the operation's purpose (default: the handler's name). */
  operationId?: string;
  query?: QueryParam[];
  body?: "json" | "multipart" | "json-or-multipart";
  /** Schema of a JSON request body (see ./schemas). */
  json?: BodyShape;
  /** Schema of a multipart request body. */
  form?: SchemaName;
  /** Success status and response media type. */
  success: number;
  produces?: "application/json" | "text/csv" | "application/zip";
  /** Schema of a JSON answer; every JSON route but a 204 has one (test/contract checks it). */
  response?: BodyShape;
  /** Method and path the service does not publish: our inference (`x-inferred`; docs/service.md#what-is-inferred). */
  inferred?: boolean;
  /** Runs the UDF's jq program in the sandbox, whose limits (not published) the documents list. */
  jq?: boolean;
  handler(ctx: RequestContext): Promise<unknown>;
}

const PAGE: QueryParam[] = [
  { name: "page", type: "integer", description: "Page number, from 1." },
  { name: "rows", type: "integer", description: "Rows per page, 1..250, default 50." },
];
const SCEN = [...SCENARIOS];
const HAZ = [...HAZARDS];

const DATE_FORMAT =
  "A date YYYY-MM-DD or a year YYYY; observed monthly series are narrowed to the months in range, projections by year.";
const SUMMARY_FILTERS: QueryParam[] = [
  { name: "scenario", type: "string", enum: SCEN },
  { name: "window", type: "integer", enum: WINDOWS.map(String) },
  { name: "hazard", type: "string", enum: HAZ },
  { name: "entity_id", type: "string" },
  ...PAGE,
];
const ITEMS_FILTERS: QueryParam[] = [
  { name: "hazard", type: "string", enum: HAZ },
  { name: "indicator", type: "string" },
  { name: "measure", type: "string", enum: [...MEASURES] },
  { name: "scenario", type: "string", enum: SCEN },
  { name: "start_date", type: "string", description: `First date (inclusive). ${DATE_FORMAT}` },
  { name: "end_date", type: "string", description: `Last date (inclusive). ${DATE_FORMAT}` },
  { name: "entity_id", type: "string" },
  ...PAGE,
];
/** The downloads' `file_format`: its values are not published (inferred: csv by default, json). */
const FILE_FORMAT: QueryParam = {
  name: "file_format",
  type: "string",
  enum: ["csv", "json"],
  inferred: true,
  description: "csv (default) or json; values inferred.",
};

const P = "/api/portfolios/:portfolio_name";
const C = "/api/compositions";

/** Every route: compositions, portfolios, search and nature. */
export const ROUTES: readonly RouteDef[] = [
  // A. Compositions. Updates carry no id: the record is the one with the body's name.
  {
    method: "POST",
    path: `${C}/vector`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Add a vector layer (multipart as published, or JSON)",
    operationId: "addVector",
    body: "json-or-multipart",
    json: "VectorCreateJson",
    form: "VectorForm",
    success: 201,
    response: "Vector",
    handler: cp.createVector,
  },
  {
    method: "GET",
    path: `${C}/vector`,
    area: "api",
    project: "required",
    auth: true,
    summary: "List vector layers",
    operationId: "listVectors",
    success: 200,
    response: { arrayOf: "Vector" },
    handler: cp.listVectors,
  },
  {
    method: "PUT",
    path: `${C}/vector`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Update the vector layer named `name` with a new GeoJSON file",
    operationId: "updateVector",
    body: "multipart",
    form: "VectorForm",
    success: 200,
    response: "Vector",
    handler: cp.updateVector,
  },
  {
    method: "GET",
    path: `${C}/vector/:id`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Find a vector layer by id (with geojson)",
    operationId: "findVectorById",
    success: 200,
    response: "VectorWithGeoJson",
    handler: cp.getVector,
  },
  {
    method: "DELETE",
    path: `${C}/vector/:id`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Delete a vector layer",
    operationId: "deleteVector",
    success: 204,
    handler: cp.deleteVector,
  },
  {
    method: "GET",
    path: `${C}/vector/:id/apply`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Apply a vector layer to a portfolio's assets ({name, csv})",
    operationId: "applyVector",
    query: [{ name: "portfolio", type: "string", required: true, description: "Portfolio name." }],
    success: 200,
    response: "ApplyResult",
    handler: cp.applyVector,
  },
  {
    method: "POST",
    path: `${C}/udf`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Add a UDF",
    operationId: "addUdf",
    jq: true,
    body: "json",
    json: "UdfInput",
    success: 201,
    response: "Udf",
    handler: cp.createUdf,
  },
  {
    method: "GET",
    path: `${C}/udf`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "List UDFs",
    operationId: "listUdfs",
    success: 200,
    response: { arrayOf: "Udf" },
    handler: cp.listUdfs,
  },
  {
    method: "PUT",
    path: `${C}/udf`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Update the UDF named `name` with a new equation",
    operationId: "updateUdf",
    jq: true,
    body: "json",
    json: "UdfInput",
    success: 200,
    response: "UdfUpdated",
    handler: cp.updateUdf,
  },
  {
    method: "GET",
    path: `${C}/udf/:id`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Find a UDF by id (with equation)",
    operationId: "findUdfById",
    success: 200,
    response: "UdfWithEquation",
    handler: cp.getUdf,
  },
  {
    method: "DELETE",
    path: `${C}/udf/:id`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Delete a UDF",
    operationId: "deleteUdf",
    success: 204,
    handler: cp.deleteUdf,
  },
  {
    method: "GET",
    path: `${C}/udf/:id/activate`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Activate a UDF: store its result as a new vector named after the UDF",
    operationId: "activateUdf",
    jq: true,
    success: 200,
    response: "Vector",
    handler: cp.activateUdf,
  },
  {
    method: "GET",
    path: `${C}/udf/:id/run`,
    area: "api",
    project: "optional",
    auth: true,
    summary: "Run a UDF and return the resulting layer without storing it (path inferred: none is published)",
    operationId: "runUdf",
    jq: true,
    inferred: true,
    success: 200,
    response: "VectorWithGeoJson",
    handler: cp.runUdf,
  },
  // B. Projects, portfolios, assets, datasets
  {
    method: "GET",
    path: "/api/projects/",
    area: "api",
    project: "none",
    auth: true,
    summary: "List the key's projects",
    operationId: "listProjects",
    success: 200,
    response: { arrayOf: "Project" },
    handler: pf.listProjects,
  },
  {
    method: "GET",
    path: "/api/portfolios/",
    area: "api",
    project: "required",
    auth: true,
    summary: "List portfolios (all, not paginated)",
    operationId: "listPortfolios",
    success: 200,
    response: { arrayOf: "Portfolio" },
    handler: pf.listPortfolios,
  },
  {
    method: "POST",
    path: "/api/portfolios/",
    area: "api",
    project: "required",
    auth: true,
    summary: "Create a portfolio",
    operationId: "createPortfolio",
    body: "json",
    json: "PortfolioCreate",
    success: 201,
    response: "Portfolio",
    handler: pf.createPortfolio,
  },
  {
    method: "GET",
    path: `${P}/`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Get one portfolio",
    operationId: "getPortfolio",
    success: 200,
    response: "Portfolio",
    handler: pf.getPortfolio,
  },
  {
    method: "DELETE",
    path: `${P}/`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Delete a portfolio (answers {message})",
    operationId: "deletePortfolio",
    success: 200,
    response: "Message",
    handler: pf.deletePortfolio,
  },
  {
    method: "GET",
    path: `${P}/assets`,
    area: "api",
    project: "required",
    auth: true,
    summary: "List assets",
    operationId: "listAssets",
    query: [...PAGE, { name: "entity_id", type: "string" }],
    success: 200,
    response: { arrayOf: "Asset" },
    handler: pf.listAssets,
  },
  {
    method: "POST",
    path: `${P}/assets/import/`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Import assets from CSV (file field `asset`); replaces the assets",
    operationId: "importAssets",
    body: "multipart",
    form: "AssetImportForm",
    success: 202,
    response: "ImportAccepted",
    handler: pf.importAssets,
  },
  {
    method: "GET",
    path: `${P}/assets/export`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Export assets as the uploaded CSV",
    operationId: "exportAssets",
    success: 200,
    produces: "text/csv",
    handler: pf.exportAssets,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Physical dataset metadata",
    operationId: "getPhysicalDatasetMetadata",
    success: 200,
    response: "DatasetMetadata",
    handler: ds.physicalMetadata,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/summary`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Physical risk summary (default or extended)",
    operationId: "getPhysicalSummary",
    query: [{ name: "extended", type: "boolean" }, ...SUMMARY_FILTERS],
    success: 200,
    response: { arrayOf: { oneOf: ["SummaryItem", "ExtendedSummaryItem"] } },
    handler: ds.physicalSummary,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/summary/export`,
    area: "api",
    project: "required",
    auth: true,
    summary:
      "Download the default summary (its list's filters; every page unless page/rows are given) as a CSV or JSON file",
    operationId: "downloadPhysicalSummary",
    query: [...SUMMARY_FILTERS, FILE_FORMAT],
    success: 200,
    produces: "text/csv",
    handler: ds.physicalSummaryExport,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/items`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Physical risk timeseries items",
    operationId: "getPhysicalItems",
    query: ITEMS_FILTERS,
    success: 200,
    response: { arrayOf: "PhysicalItem" },
    handler: ds.physicalItems,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/items/export`,
    area: "api",
    project: "required",
    auth: true,
    summary:
      "Download the timeseries items (their list's filters; every page unless page/rows are given) as a CSV or JSON file",
    operationId: "downloadPhysicalItems",
    query: [...ITEMS_FILTERS, FILE_FORMAT],
    success: 200,
    produces: "text/csv",
    handler: ds.physicalItemsExport,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/export`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Physical risk export (ZIP of CSV files)",
    operationId: "exportPhysicalDataset",
    success: 200,
    produces: "application/zip",
    handler: ds.physicalExport,
  },
  {
    method: "GET",
    path: `${P}/datasets/physical/export/json`,
    area: "api",
    project: "required",
    auth: true,
    summary: "Physical risk export as one JSON file ({portfolio_name, version, tables}; shape inferred)",
    operationId: "exportPhysicalDatasetJson",
    success: 200,
    response: "PhysicalExportJson",
    handler: ds.physicalExportJson,
  },
  // C. Search
  {
    method: "GET",
    path: "/api/search",
    area: "api",
    project: "required",
    auth: true,
    summary: "Point search",
    operationId: "searchPoint",
    query: [
      { name: "lat", type: "number", required: true },
      { name: "lng", type: "number", required: true },
    ],
    success: 200,
    response: "SearchResult",
    handler: search,
  },
  // D. Nature
  {
    method: "GET",
    path: "/nature/superprojects",
    area: "nature",
    project: "none",
    auth: true,
    summary: "List top-level projects",
    operationId: "listSuperprojects",
    success: 200,
    response: "SuperprojectNames",
    handler: nt.listSuperprojects,
  },
  {
    method: "GET",
    path: "/nature/projects",
    area: "nature",
    project: "required",
    auth: true,
    summary: "List sub-projects of the superproject in X-Service-Project",
    operationId: "listSubProjects",
    success: 200,
    response: { arrayOf: "SubProject" },
    handler: nt.listSubProjects,
  },
  {
    method: "POST",
    path: "/nature/projects",
    area: "nature",
    project: "optional",
    auth: true,
    summary: "Create a sub-project",
    operationId: "createSubProject",
    body: "json",
    json: "SubProjectCreate",
    success: 201,
    response: "SubProject",
    handler: nt.createSubProject,
  },
  {
    method: "GET",
    path: "/nature/projects/:id/export",
    area: "nature",
    project: "optional",
    auth: true,
    summary: "Export a sub-project summary",
    operationId: "exportSubProjectSummary",
    success: 200,
    response: "SubProjectExport",
    handler: nt.exportSubProject,
  },
];

/**
 * Method + path pairs production does not have but a drifting client might call (our first
 * client did): answered 404 "no route", like any unknown route, rather than 405, so such a
 * client fails in our own tests as it would in production.
 */
export const ABSENT_ROUTES: readonly { method: Method; path: string }[] = [
  { method: "PUT", path: `${C}/vector/:id` },
  { method: "PUT", path: `${C}/udf/:id` },
];

/** Regular expression matching concrete URLs of a route pattern (trailing slash optional). */
export function patternRegex(path: string): RegExp {
  const body = path.replace(/\/$/, "").replace(/:[A-Za-z_]+/g, "[^/]+");
  return new RegExp(`^${body}/?$`);
}
