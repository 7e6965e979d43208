/**
 * OpenAPI 3 documents generated from the route table: /swagger.json for the /api routes and
 * /nature/openapi.json for nature's. Paths are relative to the base URL and the nature URL.
 */
import { MAX_JSON_DEPTH } from "./json-limits";
import { JQ_DEFAULT_LIMITS } from "../jq/sandbox";
import { RouteDef, ROUTES } from "./routes";
import { componentSchemas, shapeRef, type BodyShape, type SchemaName } from "./schemas";

/** Components are built once: the schemas are constants. */
let components: Record<string, unknown> | undefined;

/** The schema names a body shape refers to. */
function namesOf(shape: BodyShape | undefined): SchemaName[] {
  if (shape === undefined) return [];
  if (typeof shape === "string") return [shape];
  if ("oneOf" in shape) return shape.oneOf;
  return typeof shape.arrayOf === "string" ? [shape.arrayOf] : shape.arrayOf.oneOf;
}

/** The components one area's document needs: Errors and every schema its routes name. */
function areaComponents(routes: readonly RouteDef[]): Record<string, unknown> {
  const all = (components ??= componentSchemas());
  const used = new Set<string>([
    "Errors",
    ...routes.flatMap((r) => [...namesOf(r.json), ...namesOf(r.form), ...namesOf(r.response)]),
  ]);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

const ERROR_STATUSES: Record<string, string> = {
  "400": "Invalid request",
  "401": "Missing or unknown API key",
  "403": "Project nonexistent or lacking authorization",
  "404": "Not found",
  "405": "Method not allowed",
  "409": "Conflict (exists, or data still being generated)",
  "422": "Content cannot be processed",
  "429": "Rate limited (emulator --rate-limit or --concurrency-limit)",
  "503": "Unavailable (emulator --fail-rate), or the change could not be stored and was rolled back",
};

/**
 * The emulator's own limits (its hardening): every operation may answer them, in the same
 * `{errors}` shape. The service publishes no such limits, so they are marked inferred; 413 only where
 * the operation takes a body.
 */
const LIMIT_STATUSES: Record<string, string> = {
  "408": "The request took too long to arrive",
  "413": "Request body larger than the limit (the operation's x-input-limits: body)",
  "414": "A path segment longer than the limit",
  "431": "Request headers (URL included) larger than the limit",
};

/**
 * The jq sandbox's limits, on every operation that compiles or runs a UDF's program. The contract
 * shows none, so they are marked inferred; each refusal is a 422 `{errors}` naming
 * `equation.operation`. Defaults: the emulator's `--jq-timeout` and `--jq-workers` change them.
 */
const JQ_SANDBOX = {
  "x-inferred": true,
  description:
    "The emulator's own limits of one jq evaluation (compiling at create/update, running at run/activate): " +
    "past any of them the answer is 422 naming equation.operation. Tenants (API keys) share the jq workers " +
    "round-robin, and one key holds at most all workers but one.",
  timeLimitMs: JQ_DEFAULT_LIMITS.timeoutMs,
  memoryLimitMb: JQ_DEFAULT_LIMITS.maxWasmMb,
  maxOutputCharacters: JQ_DEFAULT_LIMITS.maxOutputChars,
  maxOutputDepth: MAX_JSON_DEPTH + 2,
  maxResultLayerCharacters: JQ_DEFAULT_LIMITS.maxResultChars,
  maxResultLayerDepth: MAX_JSON_DEPTH,
  workers: JQ_DEFAULT_LIMITS.workers,
};

/** The document path of a route, relative to its area's base (`:x` → `{x}`). */
export function documentedPath(r: RouteDef): string {
  const rel = r.area === "nature" ? r.path.replace(/^\/nature/, "") : r.path;
  return rel.replace(/:([A-Za-z_]+)/g, "{$1}");
}

/** The operation's purpose-named id: the route's own, else its handler's function name. */
export function operationIdOf(r: RouteDef): string {
  return r.operationId ?? r.handler.name;
}

function operation(r: RouteDef) {
  const parameters: unknown[] = [];
  for (const m of r.path.matchAll(/:([A-Za-z_]+)/g))
    parameters.push({ name: m[1], in: "path", required: true, schema: { type: "string" } });
  if (r.project !== "none") {
    parameters.push({
      name: "X-Service-Project",
      in: "header",
      required: r.project === "required",
      schema: { type: "string" },
      description:
        r.area === "nature" ? "Superproject name." : "Project name or id (also accepted as query parameter `project`).",
    });
  }
  for (const q of r.query ?? []) {
    parameters.push({
      name: q.name,
      in: "query",
      required: q.required ?? false,
      description: q.description,
      schema: { type: q.type, ...(q.enum ? { enum: q.enum } : {}) },
      ...(q.inferred ? { "x-inferred": true } : {}),
    });
  }
  const responses: Record<string, unknown> = {};
  const media = r.produces ?? "application/json";
  const answer =
    media === "application/json" ? (r.response ? shapeRef(r.response) : {}) : { type: "string", format: "binary" };
  responses[String(r.success)] =
    r.success === 204
      ? { description: "Deleted" }
      : { description: "Success", content: { [media]: { schema: answer } } };
  const errors = { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } };
  for (const [code, description] of Object.entries(ERROR_STATUSES)) responses[code] = { description, content: errors };
  for (const [code, description] of Object.entries(LIMIT_STATUSES)) {
    if (code === "413" && !r.body) continue;
    responses[code] = { description, content: errors, "x-inferred": true };
  }
  const op: Record<string, unknown> = {
    summary: r.summary,
    operationId: operationIdOf(r),
    parameters,
    responses,
    security: r.auth ? [{ apiKey: [] }] : [],
  };
  if (r.inferred) op["x-inferred"] = true;
  if (r.jq) op["x-jq-sandbox"] = JQ_SANDBOX;
  // The largest input the operation accepts; past any bound, a 4xx naming it. Bounds the contract
  // does not state are the emulator's, marked inferred.
  op["x-input-limits"] = r.largestInput.map((l) => ({
    name: l.name,
    value: l.value,
    unit: l.unit,
    ...(l.published ? {} : { "x-inferred": true }),
  }));
  if (r.body) {
    const content: Record<string, unknown> = {};
    if (r.body !== "multipart") content["application/json"] = { schema: r.json ? shapeRef(r.json) : {} };
    if (r.body !== "json") content["multipart/form-data"] = { schema: r.form ? shapeRef(r.form) : {} };
    op.requestBody = { required: true, content };
  }
  return op;
}

/** Builds the OpenAPI document of one area. */
export function openApiDocument(area: "api" | "nature", serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES.filter((x) => x.area === area)) {
    const p = documentedPath(r);
    (paths[p] ??= {})[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: "3.0.3",
    info: {
      title:
        area === "api"
          ? "Geospatial risk data service (local emulator): compositions, portfolios, search"
          : "Nature projects (local emulator)",
      version: "emulator-1",
      description: "Served by the local emulator with synthetic demo data.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-Service-APIKey" } },
      schemas: areaComponents(ROUTES.filter((x) => x.area === area)),
    },
    paths,
  };
}
