/**
 * The shapes the emulator accepts and answers, as zod schemas. The route table names them
 * (`RouteDef.request`, `RouteDef.response`) and the OpenAPI documents turn them into JSON Schema
 * components, so every documented body is a real schema rather than `{type: object}`.
 * Field lists follow the service's published records (docs/service.md#records);
 * a schema here is what the emulator serves, and test/contract checks it against the published
 * client's requirements independently.
 */
import { z } from "zod";

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("Date, YYYY-MM-DD.");
const isoTimestamp = z.string().describe("ISO 8601 UTC timestamp.");
const id = z
  .union([z.string(), z.number().int()])
  .describe("Identifier (typed string in the published description; the examples are numbers).");
const geoJson = z.looseObject({ type: z.string() }).describe("A GeoJSON object.");
const binary = z.string().meta({ format: "binary" });

export const Errors = z
  .object({ errors: z.array(z.string()).min(1) })
  .describe("Every failure: one or more human-readable strings.");

// ---- A. Compositions --------------------------------------------------------------------

export const Vector = z.object({
  id,
  name: z.string(),
  createDate: isoDate,
  updateDate: isoDate,
  status: z.enum(["available", "pending"]),
});
export const VectorWithGeoJson = Vector.extend({
  geojson: geoJson.describe("The layer as a GeoJSON FeatureCollection."),
});
export const VectorCreateJson = z.object({
  name: z.string().min(1),
  geojson: geoJson.describe(
    "A Feature or FeatureCollection. A Feature without geometry is located by its `lat`/`lng` properties (numbers or numeric strings), as in the published example.",
  ),
});
export const VectorForm = z.object({
  name: z
    .string()
    .min(1)
    .describe("The layer's name; on update it selects the layer (the project's layer of that name)."),
  geojson: binary.describe("A .geojson file: a Feature or FeatureCollection."),
});
export const UdfEquation = z.object({
  inputLayers: z.array(z.string().min(1)).min(1).describe("Names of the project's vector layers."),
  operation: z.string().min(1).describe("A jq 1.7 program."),
  outputLayer: z.string().optional(),
  scope: z
    .enum(["collection", "feature"])
    .optional()
    .describe('Emulator extension (inferred default: "collection" when the program reads .features).'),
});
export const Udf = z.object({ id, name: z.string(), createDate: isoDate, updateDate: isoDate });
export const UdfWithEquation = Udf.extend({ equation: UdfEquation });
export const UdfUpdated = Udf.extend({ status: z.string() });
export const UdfInput = z.object({
  name: z.string().min(1).describe("The UDF's name; on update it selects the UDF (the one of that name)."),
  equation: UdfEquation,
});
export const ApplyResult = z.object({
  name: z.string(),
  csv: z.string().describe('One row per asset; columns in the README\'s "The apply CSV".'),
});

// ---- B. Projects, portfolios, assets, datasets --------------------------------------------

export const Project = z.object({ project_id: z.string(), project_name: z.string() });
export const Portfolio = z.object({
  portfolio_id: z.string(),
  portfolio_name: z.string(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  status: z.string(),
});
export const PortfolioCreate = z.object({ portfolio_name: z.string() });
export const AssetImportForm = z.object({
  asset: binary.describe("The asset CSV: entity_id,entity_name,lat,lng,label:<key>,..."),
});
/** The published `MessageResponse`: import and delete-portfolio answer it (extra fields are allowed). */
export const Message = z.looseObject({ message: z.string() });
/** Import's answer: the published `{message}`, plus our own fields. */
export const ImportAccepted = z.looseObject({
  message: z.string(),
  portfolio_name: z.string(),
  status: z.string(),
  assets: z.number().int(),
});
/** `datasets/physical/export/json`: the ZIP's tables as JSON (shape inferred: none is published). */
export const PhysicalExportJson = z.looseObject({
  portfolio_name: z.string(),
  version: z.string(),
  tables: z.record(z.string(), z.object({ fields: z.array(z.string()), data: z.array(z.array(z.unknown())) })),
});
export const Asset = z.object({
  portfolio_name: z.string(),
  portfolio_index: z.number().int(),
  entity_id: z.string(),
  entity_name: z.string(),
  labels: z.record(z.string(), z.string()),
  lat: z.number(),
  lng: z.number(),
});
export const SummaryItem = z.object({
  portfolio_name: z.string(),
  portfolio_index: z.number().int(),
  entity_name: z.string(),
  entity_id: z.string(),
  window: z.number().int(),
  window_start_year: z.number().int(),
  scenario: z.string(),
  risk_summaries: z.array(z.object({ hazard: z.string(), risk_class: z.string(), risk_score: z.number() })),
});
export const ExtendedSummaryItem = z.object({
  portfolio_name: z.string(),
  portfolio_index: z.number().int(),
  entity_id: z.string(),
  entity_name: z.string(),
  geometry: geoJson,
  labels: z.record(z.string(), z.string()),
  scenario_analytics: z.record(
    z.string(),
    z.record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.null()]))),
  ),
});
export const PhysicalItem = z.object({
  portfolio_name: z.string(),
  portfolio_index: z.number().int(),
  entity_id: z.string(),
  entity_name: z.string(),
  hazard: z.string(),
  indicator: z.string(),
  scenario: z.string(),
  measure: z.string(),
  risk_exposure: z.record(z.string(), z.number()).describe("YYYY (projections) or YYYY-MM (observed) → value."),
});
export const IndicatorMetadata = z.object({
  hazard: z.string(),
  indicator: z.string(),
  unit: z.string(),
  value_min: z.number(),
  value_max: z.number(),
  value_norm: z.number(),
  spatial_resolution: z.number().describe("Degrees."),
});
export const DatasetMetadata = z.object({
  portfolio_name: z.string(),
  created_at: isoTimestamp.describe("The portfolio's created_at."),
  updated_at: isoTimestamp.describe("The portfolio's updated_at."),
  version: z.string(),
  sha256_digest: z.string(),
  indicators: z.array(IndicatorMetadata),
});

// ---- C. Search ----------------------------------------------------------------------------

const searchScores = z.array(z.object({ hazard: z.string(), score: z.number(), label: z.string() }));
const searchExposure = z.object({ "15yr": searchScores, "30yr": searchScores });
export const SearchResult = z.object({
  type: z.literal("FeatureCollection"),
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      geometry: z.object({ type: z.literal("Point"), coordinates: z.array(z.number()).length(2) }),
      properties: z.looseObject({
        physical_risk_exposure: z.object({ background: searchExposure, local: searchExposure }),
      }),
    }),
  ),
});

// ---- D. Nature ----------------------------------------------------------------------------

export const SubProject = z.object({
  id: z.string(),
  project: z.string(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
});
export const SubProjectCreate = z.object({
  projectName: z.string().min(1),
  geojson: geoJson.describe(
    "A FeatureCollection of (Multi)Polygon features, optionally with a `crs` of type `name` (WGS84).",
  ),
  type: z.string(),
});
export const SubProjectExport = z.object({
  geometry: geoJson,
  metadata: z.record(z.string(), z.unknown()),
  summary: z.record(z.string(), z.number()),
});

/**
 * Every named schema, as it appears in the documents' `components.schemas`. A route refers to
 * one by name; `{ arrayOf }` documents a JSON array of it, `{ oneOf }` one of several.
 */
export const SCHEMAS = {
  Errors,
  Vector,
  VectorWithGeoJson,
  VectorCreateJson,
  VectorForm,
  UdfEquation,
  Udf,
  UdfWithEquation,
  UdfUpdated,
  UdfInput,
  ApplyResult,
  Project,
  Portfolio,
  PortfolioCreate,
  AssetImportForm,
  Message,
  ImportAccepted,
  PhysicalExportJson,
  Asset,
  SummaryItem,
  ExtendedSummaryItem,
  PhysicalItem,
  IndicatorMetadata,
  DatasetMetadata,
  SearchResult,
  SubProject,
  SubProjectCreate,
  SubProjectExport,
  SuperprojectNames: z.array(z.string()),
} satisfies Record<string, z.ZodType>;

/** The name of a component schema. */
export type SchemaName = keyof typeof SCHEMAS;

/** What a route's JSON body (request or answer) is: one schema, an array of one, or one of several. */
export type BodyShape =
  SchemaName | { arrayOf: SchemaName } | { oneOf: SchemaName[] } | { arrayOf: { oneOf: SchemaName[] } };

/** The components of an OpenAPI 3.0 document: every named schema as JSON Schema. */
export function componentSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    // io "input": objects stay open (no additionalProperties: false), as a served record may grow.
    const json = z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    out[name] = json;
  }
  return out;
}

/** A body shape as a JSON Schema fragment referring to the components. */
export function shapeRef(shape: BodyShape): unknown {
  const ref = (n: SchemaName) => ({ $ref: `#/components/schemas/${n}` });
  if (typeof shape === "string") return ref(shape);
  if ("oneOf" in shape) return { oneOf: shape.oneOf.map(ref) };
  const inner = shape.arrayOf;
  return { type: "array", items: typeof inner === "string" ? ref(inner) : { oneOf: inner.oneOf.map(ref) } };
}
