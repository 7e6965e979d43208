/**
 * The service's record types (docs/service.md#records), as the published client reads them: the fields it
 * requires, with their types.
 * Written from the documents, independently of the emulator's own schemas (emulator/http/schemas.ts),
 * so that the emulator's answers and its OpenAPI documents are checked against the service's records, not
 * against themselves. Objects are open (extra fields are fine: production may add some); a required
 * field missing or of another type fails.
 */
import { z } from "zod";

const int = z.number().int();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a YYYY-MM-DD date");
const isoTimestamp = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), "an ISO 8601 timestamp");
const geoJson = z.looseObject({ type: z.string() });
const labels = z.record(z.string(), z.string());

export const Project = z.looseObject({ project_id: z.string(), project_name: z.string() });

export const Portfolio = z.looseObject({
  portfolio_id: z.string(),
  portfolio_name: z.string(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  status: z.string(),
});

export const Asset = z.looseObject({
  portfolio_name: z.string(),
  portfolio_index: int,
  entity_id: z.string(),
  entity_name: z.string(),
  labels,
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  geometry: geoJson.optional(),
});

export const SummaryItem = z.looseObject({
  portfolio_name: z.string(),
  portfolio_index: int,
  entity_name: z.string(),
  entity_id: z.string(),
  window: int,
  window_start_year: int,
  scenario: z.string(),
  risk_summaries: z.array(z.looseObject({ hazard: z.string(), risk_class: z.string(), risk_score: z.number() })),
});

const metrics = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));
export const ExtendedSummaryItem = z.looseObject({
  portfolio_name: z.string(),
  portfolio_index: int,
  entity_id: z.string(),
  entity_name: z.string(),
  geometry: geoJson,
  labels,
  scenario_analytics: z.record(z.string(), z.record(z.string(), metrics)),
});

export const PhysicalItem = z.looseObject({
  portfolio_name: z.string(),
  portfolio_index: int,
  entity_id: z.string(),
  entity_name: z.string(),
  hazard: z.string(),
  indicator: z.string(),
  scenario: z.string(),
  measure: z.string(),
  risk_exposure: z.record(z.string(), z.number()),
});

/** Field notes, "Physical risk datasets": the published client requires all but sha256_digest and value_norm. */
export const DatasetMetadata = z.looseObject({
  portfolio_name: z.string(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  version: z.string(),
  sha256_digest: z.string().optional(),
  indicators: z.array(
    z.looseObject({
      hazard: z.string(),
      indicator: z.string(),
      unit: z.string(),
      value_min: z.number(),
      value_max: z.number(),
      value_norm: z.number().optional(),
      spatial_resolution: z.number(),
    }),
  ),
});

const searchScores = z.array(z.looseObject({ hazard: z.string(), score: z.number(), label: z.string() }));
const searchExposure = z.looseObject({ "15yr": searchScores, "30yr": searchScores });
export const SearchResult = z.looseObject({
  type: z.literal("FeatureCollection"),
  features: z.array(
    z.looseObject({
      type: z.literal("Feature"),
      geometry: z.looseObject({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) }),
      properties: z.looseObject({
        physical_risk_exposure: z.looseObject({ background: searchExposure, local: searchExposure }),
      }),
    }),
  ),
});

const id = z.union([z.string(), int]);
export const Vector = z.looseObject({
  id,
  name: z.string(),
  createDate: isoDate,
  updateDate: isoDate,
  status: z.enum(["available", "pending"]),
});
export const VectorWithGeoJson = Vector.extend({ geojson: geoJson });
export const Udf = z.looseObject({ id, name: z.string(), createDate: isoDate, updateDate: isoDate });
export const UdfWithEquation = Udf.extend({
  equation: z.looseObject({
    inputLayers: z.array(z.string()),
    operation: z.string(),
    outputLayer: z.string().optional(),
  }),
});
/** Contract: update UDF answers a record with `id`, `name`, `createDate`, `updateDate`, `status`. */
export const UdfUpdated = Udf.extend({ status: z.string() });
export const ApplyResult = z.looseObject({ name: z.string(), csv: z.string() });

export const SubProject = z.looseObject({
  id: z.uuid(),
  project: z.string(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
});
export const SubProjectExport = z.looseObject({
  geometry: geoJson,
  metadata: z.record(z.string(), z.unknown()),
  summary: z.record(z.string(), z.number()),
});

/** Every record type, by the name the tests report. */
export const PUBLISHED = {
  Project,
  Portfolio,
  Asset,
  SummaryItem,
  ExtendedSummaryItem,
  PhysicalItem,
  DatasetMetadata,
  SearchResult,
  Vector,
  VectorWithGeoJson,
  Udf,
  UdfWithEquation,
  UdfUpdated,
  ApplyResult,
  SubProject,
  SubProjectExport,
} as const;
export type RecordName = keyof typeof PUBLISHED;
