/**
 * Summaries → one row per asset × scenario (× window for the default summary), with column names
 * that say what they hold ("wildfire_risk_class", "flood_summary_label_30yr"), and the indexes
 * of the LOW/MEDIUM/HIGH columns so they can be coloured.
 */
import type { CellValue, ExtendedSummaryItem, SheetTable, SummaryItem } from "./types";
import {
  EXTENDED_HAZARDS_ALPHABETICAL,
  PERIODS,
  PORTFOLIO_HAZARDS_ALPHABETICAL,
  SCENARIOS,
} from "../shared/vocabulary";

/** A flattened summary and its label columns (0-based). */
export interface SummaryTable extends SheetTable {
  labelColumns: number[];
}

const DEFAULT_HAZARDS = PORTFOLIO_HAZARDS_ALPHABETICAL;
const FAMILIES = ["business_interruption", "indicator", "structural_damage"];
const SUMMARY_METRICS = ["summary_label_15yr", "summary_score_15yr", "summary_label_30yr", "summary_score_30yr"];

/** Known names first in their given order, unknown ones after, sorted. */
function ordered(found: Iterable<string>, known: readonly string[]): string[] {
  const set = new Set(found);
  const extra = [...set].filter((x) => !known.includes(x)).sort();
  return [...known.filter((k) => set.has(k)), ...extra];
}

function cell(v: unknown): CellValue {
  if (typeof v === "number") return Number.isFinite(v) ? v : "";
  if (typeof v === "string" || typeof v === "boolean") return v;
  return "";
}

/** Default summary: one row per item (asset × scenario × window), class and score per hazard. */
export function flattenSummary(items: readonly SummaryItem[]): SummaryTable {
  const hazards = ordered(
    items.flatMap((i) => (i.risk_summaries ?? []).map((s) => s.hazard)),
    DEFAULT_HAZARDS,
  );
  const header = ["portfolio_index", "entity_id", "entity_name", "scenario", "window", "window_start_year"];
  const labelColumns: number[] = [];
  for (const h of hazards) {
    labelColumns.push(header.length);
    header.push(`${h}_risk_class`, `${h}_risk_score`);
  }
  const rows = items.map((item) => {
    const summaries = item.risk_summaries ?? [];
    const row: CellValue[] = [
      cell(item.portfolio_index),
      cell(item.entity_id),
      cell(item.entity_name),
      cell(item.scenario),
      cell(item.window),
      cell(item.window_start_year),
    ];
    // A hazard's summary by a scan of the item's few (the last one when two name it): a Map a row
    // was 68 MB of garbage over a 45,000-row summary.
    for (const h of hazards) {
      let s: (typeof summaries)[number] | undefined;
      for (let k = 0; k < summaries.length; k++) if (summaries[k]!.hazard === h) s = summaries[k];
      row.push(cell(s?.risk_class), cell(s?.risk_score));
    }
    return row;
  });
  return { header, rows, labelColumns };
}

function metricOrder(found: Iterable<string>): string[] {
  const known: string[] = [...SUMMARY_METRICS];
  for (const f of FAMILIES) for (const p of PERIODS) known.push(`${f}_${p}`, `${f}_${p}_lbd`, `${f}_${p}_ubd`);
  return ordered(found, known);
}

/**
 * Extended summary: one row per asset × scenario; asset columns (with lat/lng of a Point
 * geometry and every label as label:<key>), then `<hazard>_<metric>` for every metric present.
 */
export function flattenExtendedSummary(items: readonly ExtendedSummaryItem[]): SummaryTable {
  // Every label, scenario, hazard and metric any item has. With for-in, not Object.keys/entries:
  // the keys of 5,000 items × 3 scenarios × 6 hazards × 40 metrics as arrays and pairs were about
  // 45 MB of garbage at each refresh of a 5,000-asset extended summary (an allocation profile).
  const labelSet = new Set<string>();
  const scenarioSet = new Set<string>();
  const hazardSet = new Set<string>();
  const metricsByHazard = new Map<string, Set<string>>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    for (const key in item.labels ?? {}) labelSet.add(key);
    const analytics = item.scenario_analytics ?? {};
    for (const scenario in analytics) {
      scenarioSet.add(scenario);
      const byHazard = analytics[scenario] ?? {};
      for (const hazard in byHazard) {
        hazardSet.add(hazard);
        let set = metricsByHazard.get(hazard);
        if (!set) metricsByHazard.set(hazard, (set = new Set<string>()));
        for (const m in byHazard[hazard] ?? {}) set.add(m);
      }
    }
  }
  const labelKeys = [...labelSet].sort();
  const scenarios = ordered(scenarioSet, SCENARIOS);
  const hazards = ordered(hazardSet, EXTENDED_HAZARDS_ALPHABETICAL);
  const header = [
    "portfolio_index",
    "entity_id",
    "entity_name",
    "lat",
    "lng",
    ...labelKeys.map((k) => `label:${k}`),
    "scenario",
  ];
  const labelColumns: number[] = [];
  // Each metric column as its hazard's place and its metric's name: a row finds each hazard's
  // metrics once, not once per cell (5,000 × 240 cells).
  const hazardOfColumn: number[] = [];
  const metricOfColumn: string[] = [];
  hazards.forEach((h, at) => {
    for (const m of metricOrder(metricsByHazard.get(h) ?? [])) {
      if (m.startsWith("summary_label")) labelColumns.push(header.length);
      header.push(`${h}_${m}`);
      hazardOfColumn.push(at);
      metricOfColumn.push(m);
    }
  });
  const hazardMetrics = new Array<Record<string, unknown> | undefined>(hazards.length);
  const rows: CellValue[][] = [];
  for (const item of items) {
    const [lng, lat] = pointCoordinates(item.geometry);
    const head: CellValue[] = [
      cell(item.portfolio_index),
      cell(item.entity_id),
      cell(item.entity_name),
      lat,
      lng,
      ...labelKeys.map((k) => cell(item.labels?.[k])),
    ];
    for (const scenario of scenarios) {
      const analytics = item.scenario_analytics?.[scenario];
      if (!analytics) continue;
      // Built in place: a spread of a mapped copy, and a destructured pair a cell, were about
      // 100 MB of garbage over 5,000 assets' 240 metrics.
      // Sized once: pushed to 254 cells, a row's store grew (and was copied) about ten times.
      const row = new Array<CellValue>(head.length + 1 + metricOfColumn.length);
      for (let k = 0; k < head.length; k++) row[k] = head[k]!;
      row[head.length] = scenario;
      for (let h = 0; h < hazards.length; h++) hazardMetrics[h] = analytics[hazards[h]!];
      for (let k = 0, at = head.length + 1; k < metricOfColumn.length; k++, at++) {
        row[at] = cell(hazardMetrics[hazardOfColumn[k]!]?.[metricOfColumn[k]!]);
      }
      rows.push(row);
    }
  }
  return { header, rows, labelColumns };
}

function pointCoordinates(geometry: ExtendedSummaryItem["geometry"]): [CellValue, CellValue] {
  if (geometry && geometry.type === "Point" && Array.isArray(geometry.coordinates)) {
    const [x, y] = geometry.coordinates as unknown[];
    return [cell(x), cell(y)];
  }
  return ["", ""];
}
