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
import { BODY_LIMIT, MAX_INPUT_LAYERS, MAX_JSON_DEPTH } from "./json-limits";
import { MAX_ASSETS } from "../assets/asset-csv";
import { MAX_ROWS } from "./request-context";
import { NAME_MAX_LENGTH } from "../handlers/portfolios";

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

/**
 * One bound on what a route accepts. Past it the route answers a 4xx `{errors}` naming the bound;
 * within it, the work the input causes never holds the server's thread for long (the limits
 * drill, test/drills/input-limits.test.ts, sends each route its largest input and one past it).
 */
export interface InputLimit {
  /** What is bounded: `body`, `equation.inputLayers`, `rows`, `path segment`, `headers`, ... */
  name: string;
  value: number;
  unit: "bytes" | "characters" | "names" | "rows" | "levels" | "assets";
  /** Production states this bound (docs/service.md); otherwise it is the emulator's, inferred. */
  published?: boolean;
}

/** Longest path segment (portfolio name, id) routed; longer ones answer 414 (inferred). */
export const MAX_PATH_SEGMENT = 200;
/** Largest request head, URL included (Node's default `maxHeaderSize`); past it 431 (inferred). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Largest JSON body of the routes whose input is a few names and a program, not a layer (inferred). */
export const SMALL_BODY_LIMIT = 64 * 1024;

const HEADERS: InputLimit = { name: "headers", value: MAX_HEADER_BYTES, unit: "bytes" };
const SEGMENT: InputLimit = { name: "path segment", value: MAX_PATH_SEGMENT, unit: "characters" };
const ROWS: InputLimit = { name: "rows", value: MAX_ROWS, unit: "rows", published: true };
const DEPTH: InputLimit = { name: "JSON nesting", value: MAX_JSON_DEPTH, unit: "levels" };
const body = (value = BODY_LIMIT): InputLimit => ({ name: "body", value, unit: "bytes" });
/** A route whose only input is its URL and headers. */
const URL_ONLY: InputLimit[] = [HEADERS];
/** A route addressing one record by a path segment. */
const ONE_SEGMENT: InputLimit[] = [HEADERS, SEGMENT];
/** A route reading a portfolio (at most 5,000 assets, as production states). */
const PORTFOLIO: InputLimit[] = [
  ...ONE_SEGMENT,
  { name: "assets", value: MAX_ASSETS, unit: "assets", published: true },
];
/** A GeoJSON layer in a body (vector, sub-project). */
const GEOJSON_BODY: InputLimit[] = [HEADERS, body(), DEPTH];
/** A UDF's `{name, equation}`. */
const UDF_BODY: InputLimit[] = [
  HEADERS,
  body(SMALL_BODY_LIMIT),
  { name: "equation.inputLayers", value: MAX_INPUT_LAYERS, unit: "names" },
  { name: "equation.operation", value: 20_000, unit: "characters" },
  { name: "name", value: 200, unit: "characters" },
];

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
  /**
   * The bounds of the largest input the route accepts (required: a route without them fails the
   * limits drill). A `body` bound is the route's body limit.
   */
  largestInput: readonly InputLimit[];
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
    largestInput: GEOJSON_BODY,
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
    largestInput: URL_ONLY,
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
    largestInput: GEOJSON_BODY,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: PORTFOLIO,
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
    largestInput: UDF_BODY,
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
    largestInput: URL_ONLY,
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
    largestInput: UDF_BODY,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: [...ONE_SEGMENT, UDF_BODY[2]],
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
    largestInput: [...ONE_SEGMENT, UDF_BODY[2]],
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
    largestInput: URL_ONLY,
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
    largestInput: URL_ONLY,
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
    largestInput: [
      HEADERS,
      body(SMALL_BODY_LIMIT),
      { name: "portfolio_name", value: NAME_MAX_LENGTH, unit: "characters", published: true },
    ],
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
    largestInput: ONE_SEGMENT,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: [...PORTFOLIO, ROWS],
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
    largestInput: [...PORTFOLIO, body()],
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
    largestInput: PORTFOLIO,
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
    largestInput: ONE_SEGMENT,
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
    largestInput: [...PORTFOLIO, ROWS],
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
    largestInput: PORTFOLIO,
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
    largestInput: [...PORTFOLIO, ROWS],
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
    largestInput: PORTFOLIO,
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
    largestInput: PORTFOLIO,
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
    largestInput: PORTFOLIO,
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
    largestInput: URL_ONLY,
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
    largestInput: URL_ONLY,
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
    largestInput: URL_ONLY,
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
    largestInput: GEOJSON_BODY,
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
    largestInput: ONE_SEGMENT,
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

/** The route's body limit: its `body` bound, else the emulator's (a route without a body is refused one anyway). */
export function routeBodyLimit(r: RouteDef): number {
  return r.largestInput.find((l) => l.name === "body")?.value ?? BODY_LIMIT;
}

/** Regular expression matching concrete URLs of a route pattern (trailing slash optional). */
export function patternRegex(path: string): RegExp {
  const body = path.replace(/\/$/, "").replace(/:[A-Za-z_]+/g, "[^/]+");
  return new RegExp(`^${body}/?$`);
}
