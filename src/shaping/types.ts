/**
 * The few service shapes the shaping code needs, mirrored from the contract
 * (service-interface.md) so this folder does not depend on src/api.
 */

/** A value as Excel's `range.values` holds it; "" is an empty cell. */
export type CellValue = string | number | boolean;

/** A 2-D block of cell values, row-major. */
export type CellGrid = CellValue[][];

/** An asset as the service returns it. */
export interface Asset {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  labels: Record<string, string>;
  lat: number;
  lng: number;
}

/** One hazard entry of a default summary item. */
export interface RiskSummary {
  hazard: string;
  risk_class: string;
  risk_score: number;
}

/** A default physical summary item: one asset × scenario × window. */
export interface SummaryItem {
  portfolio_name: string;
  portfolio_index: number;
  entity_name: string;
  entity_id: string;
  window: number;
  window_start_year: number;
  scenario: string;
  risk_summaries: RiskSummary[];
}

/** Metrics of one hazard in an extended summary: numbers, and the summary labels as strings. */
export type HazardMetrics = Record<string, number | string | null>;

/** An extended physical summary item (`extended=true`): one asset, every scenario. */
export interface ExtendedSummaryItem {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  geometry?: { type: string; coordinates?: unknown } | null;
  labels?: Record<string, string>;
  scenario_analytics: Record<string, Record<string, HazardMetrics>>;
}

/** A physical timeseries item. Keys of risk_exposure are "YYYY" or "YYYY-MM". */
export interface PhysicalItem {
  portfolio_name: string;
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  hazard: string;
  indicator: string;
  scenario: string;
  measure: string;
  risk_exposure: Record<string, number | null>;
}

/** A flattened table ready for a sheet: header texts and rows of equal length. */
export interface SheetTable {
  header: string[];
  rows: CellGrid;
}
