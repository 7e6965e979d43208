/**
 * The emulator's user-writable state: exactly what is persisted with --data-dir.
 * Computed data (series, summaries) is never stored; it comes from the model on demand.
 */

/** An access project (of the /api routes). */
export interface ProjectRecord {
  project_id: string;
  project_name: string;
}

/** An API key and what it may use. */
export interface KeyRecord {
  key: string;
  /** Project names this key may use; the first is its default. */
  projects: string[];
  /** Nature superproject names this key may use. */
  superprojects: string[];
}

/** One asset as stored (CSV row already validated). */
export interface StoredAsset {
  entity_id: string;
  entity_name: string;
  lat: number;
  lng: number;
  labels: Record<string, string>;
  /**
   * How many times the emulator's control route changed this asset's risk data (absent: never).
   * Each change gives the asset's model values another seed (emulator/handlers/data-changes.ts).
   */
  data_revision?: number;
}

/** A portfolio with its assets and the CSV they came from. */
export interface StoredPortfolio {
  portfolio_id: string;
  portfolio_name: string;
  project: string;
  created_at: string;
  updated_at: string;
  /** Epoch ms at which generated risk data becomes available; null = never imported. */
  ready_at: number | null;
  csv: string;
  assets: StoredAsset[];
  /** How many times its risk data was changed by the control route: part of its dataset version (absent: 0). */
  data_revision?: number;
}

/** A vector layer. */
export interface StoredVector {
  id: number;
  name: string;
  project: string;
  createDate: string;
  updateDate: string;
  status: string;
  geojson: GeoJsonFeatureCollection;
}

/** A user-defined function. */
export interface StoredUdf {
  id: number;
  name: string;
  project: string;
  createDate: string;
  updateDate: string;
  equation: { inputLayers: string[]; operation: string; outputLayer?: string; scope?: "collection" | "feature" };
}

/** A nature sub-project. */
export interface StoredSubProject {
  id: string;
  project: string;
  name: string;
  type: string;
  created_at: string;
  ready_at: number;
  geojson: GeoJsonFeatureCollection;
}

/** Minimal GeoJSON shapes used by the emulator (validated on input). */
export interface GeoJsonGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: GeoJsonGeometry[];
}
export interface GeoJsonFeature {
  type: "Feature";
  id?: string | number;
  geometry: GeoJsonGeometry | null;
  properties: Record<string, unknown> | null;
}
export interface GeoJsonFeatureCollection {
  type: "FeatureCollection";
  features: GeoJsonFeature[];
  crs?: unknown;
}

/** Everything the emulator persists. */
export interface EmulatorState {
  version: 1;
  nextId: number;
  portfolios: StoredPortfolio[];
  vectors: StoredVector[];
  udfs: StoredUdf[];
  subprojects: StoredSubProject[];
}
