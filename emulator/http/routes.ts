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
  /** fastify pattern with `:param`; the contract's trailing slash is kept where it has one. */
  path: string;
  /** "api" → /swagger.json, "nature" → /nature/openapi.json. */
  area: "api" | "nature";
  /** Project header: required, optional, or not used. */
  project: "required" | "optional" | "none";
  /** API key required (false only for the documents themselves). */
  auth: boolean;
  summary: string;
  query?: QueryParam[];
  body?: "json" | "multipart" | "json-or-multipart";
  /** Success status and response media type. */
  success: number;
  produces?: "application/json" | "text/csv" | "application/zip";
  handler(ctx: RequestContext): Promise<unknown>;
}

const PAGE: QueryParam[] = [
  { name: "page", type: "integer", description: "Page number, from 1." },
  { name: "rows", type: "integer", description: "Rows per page, 1..250, default 50." },
];
const SCEN = ["ssp126", "ssp245", "ssp585"];
const HAZ = ["cyclone", "flood_potential", "heatwave", "sea_level_rise", "water_stress", "wildfire"];

const DATE_FORMAT = "A date YYYY-MM-DD or a year YYYY; observed monthly series are narrowed to the months in range, projections by year.";
const SUMMARY_FILTERS: QueryParam[] = [
  { name: "scenario", type: "string", enum: SCEN },
  { name: "window", type: "integer", enum: ["5", "15", "30"] },
  { name: "hazard", type: "string", enum: HAZ },
  { name: "entity_id", type: "string" },
  ...PAGE,
];
const ITEMS_FILTERS: QueryParam[] = [
  { name: "hazard", type: "string", enum: HAZ },
  { name: "indicator", type: "string" },
  { name: "measure", type: "string", enum: ["lb", "mid", "ub"] },
  { name: "scenario", type: "string", enum: SCEN },
  { name: "start_date", type: "string", description: `First date (inclusive). ${DATE_FORMAT}` },
  { name: "end_date", type: "string", description: `Last date (inclusive). ${DATE_FORMAT}` },
  { name: "entity_id", type: "string" },
  ...PAGE,
];
/** The downloads' `file_format`: its values are not published (inferred: csv by default, json). */
const FILE_FORMAT: QueryParam = { name: "file_format", type: "string", enum: ["csv", "json"], inferred: true, description: "csv (default) or json; values inferred." };

const P = "/api/portfolios/:portfolio_name";
const C = "/api/compositions";

/** Every route of areas A-D. */
export const ROUTES: readonly RouteDef[] = [
  // A. Compositions
  { method: "POST", path: `${C}/vector`, area: "api", project: "required", auth: true, summary: "Add a vector layer", body: "json-or-multipart", success: 201, handler: cp.createVector },
  { method: "GET", path: `${C}/vector`, area: "api", project: "required", auth: true, summary: "List vector layers", success: 200, handler: cp.listVectors },
  { method: "PUT", path: `${C}/vector`, area: "api", project: "required", auth: true, summary: "Update a vector layer (id in the body)", body: "json-or-multipart", success: 200, handler: cp.updateVector },
  { method: "GET", path: `${C}/vector/:id`, area: "api", project: "required", auth: true, summary: "Find a vector layer by id (with geojson)", success: 200, handler: cp.getVector },
  { method: "PUT", path: `${C}/vector/:id`, area: "api", project: "required", auth: true, summary: "Update a vector layer", body: "json-or-multipart", success: 200, handler: cp.updateVector },
  { method: "DELETE", path: `${C}/vector/:id`, area: "api", project: "required", auth: true, summary: "Delete a vector layer", success: 204, handler: cp.deleteVector },
  {
    method: "GET", path: `${C}/vector/:id/apply`, area: "api", project: "required", auth: true, summary: "Apply a vector layer to a portfolio's assets ({name, csv})",
    query: [{ name: "portfolio", type: "string", required: true, description: "Portfolio name." }], success: 200, handler: cp.applyVector,
  },
  { method: "POST", path: `${C}/udf`, area: "api", project: "optional", auth: true, summary: "Add a UDF", body: "json", success: 201, handler: cp.createUdf },
  { method: "GET", path: `${C}/udf`, area: "api", project: "optional", auth: true, summary: "List UDFs", success: 200, handler: cp.listUdfs },
  { method: "PUT", path: `${C}/udf`, area: "api", project: "optional", auth: true, summary: "Update a UDF (id in the body)", body: "json", success: 200, handler: cp.updateUdf },
  { method: "GET", path: `${C}/udf/:id`, area: "api", project: "optional", auth: true, summary: "Find a UDF by id (with equation)", success: 200, handler: cp.getUdf },
  { method: "PUT", path: `${C}/udf/:id`, area: "api", project: "optional", auth: true, summary: "Update a UDF", body: "json", success: 200, handler: cp.updateUdf },
  { method: "DELETE", path: `${C}/udf/:id`, area: "api", project: "optional", auth: true, summary: "Delete a UDF", success: 204, handler: cp.deleteUdf },
  { method: "GET", path: `${C}/udf/:id/activate`, area: "api", project: "optional", auth: true, summary: "Activate a UDF: store its result as a new vector", success: 200, handler: cp.activateUdf },
  { method: "GET", path: `${C}/udf/:id/run`, area: "api", project: "optional", auth: true, summary: "Run a UDF and return the resulting layer without storing it", success: 200, handler: cp.runUdf },
  // B. Projects, portfolios, assets, datasets
  { method: "GET", path: "/api/projects/", area: "api", project: "none", auth: true, summary: "List the key's projects", success: 200, handler: pf.listProjects },
  { method: "GET", path: "/api/portfolios/", area: "api", project: "required", auth: true, summary: "List portfolios (all, not paginated)", success: 200, handler: pf.listPortfolios },
  { method: "POST", path: "/api/portfolios/", area: "api", project: "required", auth: true, summary: "Create a portfolio", body: "json", success: 201, handler: pf.createPortfolio },
  { method: "GET", path: `${P}/`, area: "api", project: "required", auth: true, summary: "Get one portfolio", success: 200, handler: pf.getPortfolio },
  { method: "DELETE", path: `${P}/`, area: "api", project: "required", auth: true, summary: "Delete a portfolio (answers {message})", success: 200, handler: pf.deletePortfolio },
  {
    method: "GET", path: `${P}/assets`, area: "api", project: "required", auth: true, summary: "List assets",
    query: [...PAGE, { name: "entity_id", type: "string" }], success: 200, handler: pf.listAssets,
  },
  { method: "POST", path: `${P}/assets/import/`, area: "api", project: "required", auth: true, summary: "Import assets from CSV (file field `asset`); replaces the assets", body: "multipart", success: 202, handler: pf.importAssets },
  { method: "GET", path: `${P}/assets/export`, area: "api", project: "required", auth: true, summary: "Export assets as the uploaded CSV", success: 200, produces: "text/csv", handler: pf.exportAssets },
  { method: "GET", path: `${P}/datasets/physical`, area: "api", project: "required", auth: true, summary: "Physical dataset metadata", success: 200, handler: ds.physicalMetadata },
  {
    method: "GET", path: `${P}/datasets/physical/summary`, area: "api", project: "required", auth: true, summary: "Physical risk summary (default or extended)",
    query: [{ name: "extended", type: "boolean" }, ...SUMMARY_FILTERS],
    success: 200, handler: ds.physicalSummary,
  },
  {
    method: "GET", path: `${P}/datasets/physical/summary/export`, area: "api", project: "required", auth: true,
    summary: "Download the default summary (its list's filters; every page unless page/rows are given) as a CSV or JSON file",
    query: [...SUMMARY_FILTERS, FILE_FORMAT], success: 200, produces: "text/csv", handler: ds.physicalSummaryExport,
  },
  {
    method: "GET", path: `${P}/datasets/physical/items`, area: "api", project: "required", auth: true, summary: "Physical risk timeseries items",
    query: ITEMS_FILTERS,
    success: 200, handler: ds.physicalItems,
  },
  {
    method: "GET", path: `${P}/datasets/physical/items/export`, area: "api", project: "required", auth: true,
    summary: "Download the timeseries items (their list's filters; every page unless page/rows are given) as a CSV or JSON file",
    query: [...ITEMS_FILTERS, FILE_FORMAT], success: 200, produces: "text/csv", handler: ds.physicalItemsExport,
  },
  { method: "GET", path: `${P}/datasets/physical/export`, area: "api", project: "required", auth: true, summary: "Physical risk export (ZIP of CSV files)", success: 200, produces: "application/zip", handler: ds.physicalExport },
  { method: "GET", path: `${P}/datasets/physical/export/json`, area: "api", project: "required", auth: true, summary: "Physical risk export as one JSON file ({portfolio_name, version, tables}; shape inferred)", success: 200, handler: ds.physicalExportJson },
  // C. Search
  {
    method: "GET", path: "/api/search", area: "api", project: "required", auth: true, summary: "Point search",
    query: [
      { name: "lat", type: "number", required: true },
      { name: "lng", type: "number", required: true },
    ],
    success: 200, handler: search,
  },
  // D. Nature
  { method: "GET", path: "/nature/superprojects", area: "nature", project: "none", auth: true, summary: "List top-level projects", success: 200, handler: nt.listSuperprojects },
  { method: "GET", path: "/nature/projects", area: "nature", project: "required", auth: true, summary: "List sub-projects of the superproject in X-Service-Project", success: 200, handler: nt.listSubProjects },
  { method: "POST", path: "/nature/projects", area: "nature", project: "optional", auth: true, summary: "Create a sub-project", body: "json", success: 201, handler: nt.createSubProject },
  { method: "GET", path: "/nature/projects/:id/export", area: "nature", project: "optional", auth: true, summary: "Export a sub-project summary", success: 200, handler: nt.exportSubProject },
];

/** Regular expression matching concrete URLs of a route pattern (trailing slash optional). */
export function patternRegex(path: string): RegExp {
  const body = path.replace(/\/$/, "").replace(/:[A-Za-z_]+/g, "[^/]+");
  return new RegExp(`^${body}/?$`);
}
