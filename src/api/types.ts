/**
 * Request and response shapes of the service, as docs/service.md#records describes them.
 */

import type { SeriesValues } from "./series-values";

/** A GeoJSON object; kept loose on purpose: the client passes it through unchanged. */
export type GeoJson = { type: string; [key: string]: unknown };

// ---- A. Compositions ----------------------------------------------------------------------

export interface VectorRecord {
  id: string | number;
  name: string;
  createDate: string;
  updateDate: string;
  /** `available` once usable, or `pending`. */
  status: string;
}
export interface VectorWithGeoJson extends VectorRecord {
  geojson: GeoJson;
}
export interface UdfEquation {
  inputLayers: string[];
  /** A jq 1.7 program evaluated over the input layers. */
  operation: string;
  outputLayer?: string;
  [key: string]: unknown;
}
export interface UdfRecord {
  id: string | number;
  name: string;
  createDate: string;
  updateDate: string;
  status?: string;
}
export interface UdfWithEquation extends UdfRecord {
  equation: UdfEquation;
}
export interface ApplyResult {
  name: string;
  /** CSV text, one row per asset. */
  csv: string;
}

// ---- B. Projects, portfolios, assets, datasets --------------------------------------------

export interface Project {
  project_id: string;
  project_name: string;
}
export interface Portfolio {
  portfolio_id: string;
  portfolio_name: string;
  created_at: string;
  updated_at: string;
  /** `Risk data available` once risk data has been generated. */
  status: string;
}
/** The status a portfolio reaches when its risk data exists. */
export const RISK_DATA_AVAILABLE = "Risk data available";

export interface Asset {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  labels: Record<string, string>;
  lat: number;
  lng: number;
}

export type Scenario = "ssp126" | "ssp245" | "ssp585" | (string & {});
/** Hazard names of the portfolio endpoints' default summary. */
export type SummaryHazard = "cyclone" | "flood_potential" | "heatwave" | "sea_level_rise" | "water_stress" | "wildfire";
/** Hazard keys of the extended summary (flood is `flood` there). */
export type ExtendedHazard = "heatwave" | "flood" | "cyclone" | "sea_level_rise" | "water_stress" | "wildfire";
export type RiskLabel = "LOW" | "MEDIUM" | "HIGH" | (string & {});

export interface RiskSummaryEntry {
  hazard: SummaryHazard | (string & {});
  risk_class: RiskLabel;
  risk_score: number;
}
export interface SummaryItem {
  portfolio_name: string;
  portfolio_index: number;
  entity_name: string;
  entity_id: string;
  window: number;
  window_start_year: number;
  scenario: Scenario;
  risk_summaries: RiskSummaryEntry[];
}
/** metrics such as `structural_damage_2050_ubd` (number) or `summary_label_30yr` (string). */
export type HazardMetrics = Record<string, number | string | null>;
export interface ExtendedSummaryItem {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  geometry: GeoJson;
  labels: Record<string, string>;
  scenario_analytics: Record<string, Record<string, HazardMetrics>>;
}
/** A timeseries item as the service sends it (the published shape). */
export interface PhysicalItemRecord {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  hazard: string;
  indicator: string;
  scenario: string;
  measure: string;
  /** Year (`YYYY`, or `YYYY-MM` for observed series) → value. */
  risk_exposure: Record<string, number>;
}
/**
 * A timeseries item as the client answers it: the record, with its values held compactly
 * (series-values.ts says why).
 */
export interface PhysicalItem extends Omit<PhysicalItemRecord, "risk_exposure"> {
  /** Year (`YYYY`, or `YYYY-MM` for observed series) → value, in the order the service sent them. */
  risk_exposure: SeriesValues;
}
/** One indicator of a portfolio's dataset (the published client's required fields, and `value_norm`). */
export interface IndicatorMetadata {
  hazard: string;
  indicator: string;
  unit: string;
  value_min: number;
  value_max: number;
  value_norm?: number;
  /** Grid resolution in degrees (a number in the published client). */
  spatial_resolution: number;
}
/** `GET /portfolios/{name}/datasets/physical`: the published client requires all but `sha256_digest`. */
export interface DatasetMetadata {
  portfolio_name: string;
  /** The portfolio's, ISO 8601. */
  created_at: string;
  updated_at: string;
  version: string;
  sha256_digest?: string;
  indicators: IndicatorMetadata[];
}

export interface PageQuery {
  /** 1-based page number. */
  page?: number;
  /** Page size, 1..250 (default 50 at the service). */
  rows?: number;
}
export interface SummaryQuery extends PageQuery {
  scenario?: string;
  /** 5, 15 or 30 years. */
  window?: number;
  hazard?: string;
  entity_id?: string;
}
export interface ItemsQuery extends PageQuery {
  hazard?: string;
  indicator?: string;
  measure?: string;
  scenario?: string;
  /**
   * First date, `YYYY-MM-DD` (the published form) or a year `YYYY` (number or text). Observed
   * monthly series are narrowed to the months in range, projections by year.
   */
  start_date?: string | number;
  /** Last date (inclusive), as `start_date`. */
  end_date?: string | number;
  entity_id?: string;
}
/** `file_format` of the item and summary downloads (values not published; inferred). */
export type FileFormat = "csv" | "json";
/** The answer of import and delete-portfolio (the published `MessageResponse`); extra fields are allowed. */
export interface MessageResponse {
  message: string;
  [key: string]: unknown;
}
/** A file the service sent as a download. */
export interface DownloadedFile {
  /** From `Content-Disposition` when the service names it, else a name made from the request. */
  fileName: string;
  /** The `Content-Type` the service sent (without parameters), e.g. `text/csv`. */
  contentType: string;
  bytes: Uint8Array;
}
export interface AssetsQuery extends PageQuery {
  entity_id?: string;
}

// ---- C. Search -----------------------------------------------------------------------------

export type SearchHazard = "floods" | "cyclones" | "drought" | "heatwaves" | "sea_level_rise" | "wildfire";
export interface SearchScore {
  hazard: SearchHazard | (string & {});
  score: number;
  label: RiskLabel;
}
export interface SearchExposure {
  "15yr": SearchScore[];
  "30yr": SearchScore[];
}
export interface SearchFeature {
  type: "Feature";
  geometry: { type: "Point"; coordinates: [number, number] };
  properties: { physical_risk_exposure: { background: SearchExposure; local: SearchExposure }; [key: string]: unknown };
}
export interface SearchResult {
  type: "FeatureCollection";
  features: SearchFeature[];
}

// ---- D. Nature -----------------------------------------------------------------------------

export interface SubProject {
  id: string;
  project: string;
  name: string;
  /** `Processing Completed` once summary data exists. */
  status: string;
  type: string;
}
export const PROCESSING_COMPLETED = "Processing Completed";
export interface CreateSubProjectInput {
  /** The superproject (top-level project name, from `/superprojects`): sent as the project header. */
  superproject: string;
  /** The new sub-project's name (published guide); unique within its superproject. */
  projectName: string;
  /** A FeatureCollection, optionally with a `crs` member of type `name`. */
  geojson: GeoJson;
  /** `NCS` is the value in use. */
  type: string;
}
export interface SubProjectExport {
  geometry: GeoJson;
  metadata: Record<string, unknown>;
  summary: Record<string, number>;
}
