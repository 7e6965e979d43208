/**
 * Area B: physical-risk datasets of a portfolio (metadata, summary, items, ZIP export).
 * Nothing is stored: each page is computed from the hazard model by index arithmetic, so a
 * page at position 2,000 costs what page 1 costs.
 */
import { createHash } from "node:crypto";
import Papa from "papaparse";
import { zipSync, strToU8 } from "fflate";
import { badRequest } from "../http/errors";
import { pagination, queryBool, queryEnum, queryString, RequestContext } from "../http/request-context";
import { findPortfolio, requireRiskData } from "./portfolios";
import {
  EXTENDED_KEY,
  Hazard,
  HAZARDS,
  INDICATORS,
  IndicatorSpec,
  Measure,
  MEASURES,
  primaryIndicator,
  Scenario,
  SCENARIOS,
  SPATIAL_RESOLUTION,
  WINDOW_START_YEAR,
  WINDOWS,
} from "../model/catalog";
import { modelValue, pointProfile, PointProfile, seriesFor, YearRange } from "../model/hazard-model";
import { extendedMetrics, riskSummaries } from "../model/scores";
import { StoredAsset, StoredPortfolio } from "../state/types";

/** Dataset version reported by the metadata endpoint. */
const DATASET_VERSION = "emulator-synthetic-1";

/** GET .../datasets/physical: metadata of the indicators. */
export async function physicalMetadata(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const indicators = INDICATORS.map((s) => ({
    hazard: s.hazard,
    indicator: s.indicator,
    unit: s.unit,
    value_min: s.value_min,
    value_max: s.value_max,
    value_norm: s.value_norm,
    spatial_resolution: SPATIAL_RESOLUTION,
  }));
  const sha256_digest = createHash("sha256")
    .update(JSON.stringify({ version: DATASET_VERSION, seed: ctx.emu.options.seed, indicators }))
    .digest("hex");
  // The published client requires portfolio_name, created_at and updated_at (the portfolio's).
  return { portfolio_name: p.portfolio_name, created_at: p.created_at, updated_at: p.updated_at, version: DATASET_VERSION, sha256_digest, indicators };
}

/** Indices of the assets selected by the `entity_id` filter (all when absent). */
function selectAssets(ctx: RequestContext, p: StoredPortfolio): { count: number; at(i: number): number } {
  const entity = queryString(ctx, "entity_id");
  if (entity === undefined) return { count: p.assets.length, at: (i) => i };
  const idx: number[] = [];
  p.assets.forEach((a, i) => {
    if (a.entity_id === entity) idx.push(i);
  });
  return { count: idx.length, at: (i) => idx[i] };
}

function assetHeader(p: StoredPortfolio, a: StoredAsset, index: number) {
  return { portfolio_name: p.portfolio_name, portfolio_index: index, entity_id: a.entity_id, entity_name: a.entity_name };
}

/** GET .../datasets/physical/summary (default or extended form). */
export async function physicalSummary(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const extended = queryBool(ctx, "extended") ?? false;
  const scenario = queryEnum(ctx, "scenario", SCENARIOS);
  const hazard = queryEnum(ctx, "hazard", HAZARDS);
  const windowText = queryString(ctx, "window");
  let window: number | undefined;
  if (windowText !== undefined) {
    window = Number(windowText);
    if (!(WINDOWS as readonly number[]).includes(window)) throw badRequest(`window: "${windowText}" is not one of ${WINDOWS.join(", ")}`);
  }
  const page = pagination(ctx);
  const assets = selectAssets(ctx, p);
  const seed = ctx.emu.options.seed;
  const scenarios = scenario ? [scenario] : [...SCENARIOS];
  const out: unknown[] = [];
  if (extended) {
    const end = Math.min(assets.count, page.offset + page.rows);
    for (let i = page.offset; i < end; i++) {
      const index = assets.at(i);
      const a = p.assets[index];
      const analytics: Record<string, Record<string, Record<string, number | string>>> = {};
      for (const s of scenarios) {
        const byHazard: Record<string, Record<string, number | string>> = {};
        for (const h of hazard ? [hazard] : HAZARDS) byHazard[EXTENDED_KEY[h]] = extendedMetrics(h, a.lat, a.lng, s, seed);
        analytics[s] = byHazard;
      }
      out.push({
        ...assetHeader(p, a, index),
        geometry: { type: "Point", coordinates: [a.lng, a.lat] },
        labels: a.labels,
        scenario_analytics: analytics,
      });
    }
    return out;
  }
  const windows = window ? [window] : [...WINDOWS];
  const perAsset = scenarios.length * windows.length;
  const total = assets.count * perAsset;
  const end = Math.min(total, page.offset + page.rows);
  for (let i = page.offset; i < end; i++) {
    const index = assets.at(Math.floor(i / perAsset));
    const k = i % perAsset;
    const s = scenarios[Math.floor(k / windows.length)];
    const w = windows[k % windows.length];
    const a = p.assets[index];
    out.push({
      ...assetHeader(p, a, index),
      window: w,
      window_start_year: WINDOW_START_YEAR,
      scenario: s,
      risk_summaries: riskSummaries(a.lat, a.lng, s, w, seed, hazard),
    });
  }
  return out;
}

/** Reads a year from start_date/end_date (an integer year, or a date starting with one). */
function yearParam(ctx: RequestContext, name: string): number | undefined {
  const s = queryString(ctx, name);
  if (s === undefined) return undefined;
  const m = /^(\d{4})(-\d{2}(-\d{2})?)?$/.exec(s.trim());
  if (!m) throw badRequest(`${name}: "${s}" is not a year (YYYY)`);
  return Number(m[1]);
}

/** GET .../datasets/physical/items: timeseries, one per asset × indicator × scenario × measure. */
export async function physicalItems(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const hazard = queryEnum(ctx, "hazard", HAZARDS);
  const indicator = queryString(ctx, "indicator");
  const scenario = queryEnum(ctx, "scenario", SCENARIOS);
  const measure = queryEnum(ctx, "measure", MEASURES);
  const from = yearParam(ctx, "start_date");
  const to = yearParam(ctx, "end_date");
  if (from !== undefined && to !== undefined && from > to) throw badRequest(`start_date: ${from} is after end_date ${to}`);
  const range: YearRange | undefined = from !== undefined || to !== undefined ? { from: from ?? 0, to: to ?? 9999 } : undefined;
  const specs = INDICATORS.filter((s) => (!hazard || s.hazard === hazard) && (!indicator || s.indicator === indicator));
  if (indicator && specs.length === 0) {
    const valid = INDICATORS.filter((s) => !hazard || s.hazard === hazard).map((s) => s.indicator);
    throw badRequest(`indicator: "${indicator}" is not an indicator${hazard ? ` of hazard ${hazard}` : ""} (expected one of ${[...new Set(valid)].join(", ")})`);
  }
  const combos: { spec: IndicatorSpec; scenario: Scenario; measure: Measure }[] = [];
  for (const spec of specs)
    for (const s of scenario ? [scenario] : SCENARIOS)
      for (const m of measure ? [measure] : MEASURES) combos.push({ spec, scenario: s, measure: m });
  const page = pagination(ctx);
  const assets = selectAssets(ctx, p);
  const seed = ctx.emu.options.seed;
  const total = assets.count * combos.length;
  const end = Math.min(total, page.offset + page.rows);
  const profiles = new Map<string, PointProfile>();
  const out: unknown[] = [];
  for (let i = page.offset; i < end; i++) {
    const index = assets.at(Math.floor(i / combos.length));
    const c = combos[i % combos.length];
    const a = p.assets[index];
    const key = `${index}|${c.spec.hazard}`;
    let prof = profiles.get(key);
    if (!prof) profiles.set(key, (prof = pointProfile(c.spec.hazard, a.lat, a.lng, seed)));
    out.push({
      ...assetHeader(p, a, index),
      hazard: c.spec.hazard,
      indicator: c.spec.indicator,
      scenario: c.scenario,
      measure: c.measure,
      risk_exposure: seriesFor(c.spec, prof, c.scenario, c.measure, range),
    });
  }
  return out;
}

/** Years of the ZIP's exposure tables: 2020 to 2100 in steps of 5 (keeps a 5,000-asset export small). */
export const EXPORT_YEARS = Array.from({ length: 17 }, (_, i) => 2020 + 5 * i);

/** Builds the export ZIP's files (name → CSV text). Exported for tests. */
export function exportFiles(p: StoredPortfolio, seed: number): Record<string, string> {
  const files: Record<string, string> = {};
  const idCols = ["portfolio_index", "entity_id", "entity_name", "lat", "lng"];
  for (const scenario of SCENARIOS) {
    const mid: unknown[][] = [];
    const bounds: unknown[][] = [];
    const summary: unknown[][] = [];
    p.assets.forEach((a, i) => {
      const id = [i, a.entity_id, a.entity_name, a.lat, a.lng];
      for (const hazard of HAZARDS as readonly Hazard[]) {
        const spec = primaryIndicator(hazard);
        const prof = pointProfile(hazard, a.lat, a.lng, seed);
        mid.push([...id, hazard, spec.indicator, ...EXPORT_YEARS.map((y) => modelValue(spec, prof, scenario, "mid", y))]);
        for (const m of ["lb", "ub"] as const) bounds.push([...id, hazard, spec.indicator, m, ...EXPORT_YEARS.map((y) => modelValue(spec, prof, scenario, m, y))]);
      }
      for (const w of WINDOWS) {
        for (const r of riskSummaries(a.lat, a.lng, scenario, w, seed)) summary.push([...id, w, WINDOW_START_YEAR, r.hazard, r.risk_score, r.risk_class]);
      }
    });
    const years = EXPORT_YEARS.map(String);
    files[`exposure_${scenario}.csv`] = Papa.unparse({ fields: [...idCols, "hazard", "indicator", ...years], data: mid }, { newline: "\n" });
    files[`exposure_bounds_${scenario}.csv`] = Papa.unparse({ fields: [...idCols, "hazard", "indicator", "measure", ...years], data: bounds }, { newline: "\n" });
    files[`summary_${scenario}.csv`] = Papa.unparse(
      { fields: [...idCols, "window", "window_start_year", "hazard", "risk_score", "risk_class"], data: summary },
      { newline: "\n" },
    );
  }
  files["README.txt"] =
    "Synthetic demo data generated by the local service emulator.\n" +
    "exposure_<scenario>.csv: mid value of each hazard's primary indicator per asset, one column per year (2020-2100, every 5 years).\n" +
    "exposure_bounds_<scenario>.csv: the same with lower (lb) and upper (ub) bounds.\n" +
    "summary_<scenario>.csv: risk score (maximum of the mid series over the window) and class per asset, window and hazard.\n";
  return files;
}

/** GET .../datasets/physical/export: ZIP of CSV files per scenario. */
export async function physicalExport(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const files = exportFiles(p, ctx.emu.options.seed);
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), { level: 6 });
  ctx.reply
    .header("Content-Type", "application/zip")
    .header("Content-Disposition", `attachment; filename="${p.portfolio_name}-physical.zip"`);
  return Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
}
