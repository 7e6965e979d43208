/**
 * The synthetic hazard model: a pure, deterministic function of
 * (lat, lng, hazard, indicator, scenario, measure, year[, month], seed).
 * It is demo data with plausible shape (geography and trends), not climate science.
 * Every endpoint derives its numbers from here, so they agree by construction.
 */
import { bump, clamp, field, field01, smoothstep } from "./noise";
import {
  effectiveScenario,
  findIndicator,
  Hazard,
  IndicatorSpec,
  Measure,
  OBSERVED_FIRST_YEAR,
  OBSERVED_LAST_YEAR,
  PROJECTION_FIRST_YEAR,
  PROJECTION_LAST_YEAR,
  Scenario,
} from "./catalog";

/** Per-point quantities that do not depend on time; computed once per series. */
export interface PointProfile {
  lat: number;
  lng: number;
  /** Hazard intensity in [0, 1]. */
  base: number;
  /** A second independent noise in [0, 1] for secondary indicators. */
  alt: number;
  /** Phase of the year-to-year wobble (smooth in space). */
  phase: number;
}

/** 1 on land, 0 at sea, smooth across an approximate coastline. */
export function landness(lat: number, lng: number, seed: number): number {
  return smoothstep(landField(lat, lng, seed), -0.08, 0.08);
}

/** The signed land/sea field: > 0 land, < 0 sea. The zero contour is the synthetic coastline. */
export function landField(lat: number, lng: number, seed: number): number {
  return field("land", lat, lng, seed) + 0.15;
}

/** 1 at the synthetic coastline, falling to 0 inland and offshore. */
export function coastalness(lat: number, lng: number, seed: number): number {
  const l = landField(lat, lng, seed) / 0.12;
  return Math.exp(-l * l);
}

/** Hazard intensity in [0, 1] at a point: where the geography puts each hazard. */
export function hazardBase(hazard: Hazard, lat: number, lng: number, seed: number): number {
  const n = field01(hazard, lat, lng, seed);
  const absLat = Math.abs(lat);
  switch (hazard) {
    case "cyclone": {
      // Tropical cyclone belts, 5-30° from the equator, nothing on the equator itself.
      const belt = bump(absLat, 17, 8) * smoothstep(absLat, 3, 7);
      return clamp(belt * (0.4 + 0.6 * n), 0, 1);
    }
    case "heatwave": {
      const c = Math.cos((lat * Math.PI) / 180);
      return clamp(c * c * (0.55 + 0.45 * n), 0, 1);
    }
    case "sea_level_rise": {
      const c = coastalness(lat, lng, seed);
      return c < 0.15 ? 0 : clamp(((c - 0.15) / 0.85) * (0.6 + 0.4 * n), 0, 1);
    }
    case "water_stress": {
      // Subtropical dry belts around 20-35°.
      const belt = bump(absLat, 27, 10);
      return clamp(0.08 + 0.85 * belt * (0.45 + 0.55 * n) + 0.07 * n, 0, 1);
    }
    case "wildfire": {
      const dry = bump(absLat, 35, 14) + 0.5 * bump(absLat, 15, 8);
      return clamp((0.1 + 0.9 * n * (0.35 + 0.65 * Math.min(1, dry))) * (0.25 + 0.75 * landness(lat, lng, seed)), 0, 1);
    }
    case "flood_potential": {
      const wet = 0.5 + 0.5 * bump(absLat, 8, 20);
      return clamp(n * wet * (0.7 + 0.3 * coastalness(lat, lng, seed)), 0, 1);
    }
  }
}

/** Computes the time-independent profile of a point for a hazard. */
export function pointProfile(hazard: Hazard, lat: number, lng: number, seed: number): PointProfile {
  return {
    lat,
    lng,
    base: hazardBase(hazard, lat, lng, seed),
    alt: field01(`${hazard}-alt`, lat, lng, seed),
    phase: Math.PI * field(`${hazard}-phase`, lat, lng, seed),
  };
}

/** Growth coefficients per scenario: ssp585 ≥ ssp245 ≥ ssp126 by construction. */
const GROWTH: Record<Scenario, number> = { ssp126: 0.1, ssp245: 0.3, ssp585: 0.7 };
const HEAT_GROWTH: Record<Scenario, number> = { ssp126: 0.3, ssp245: 0.8, ssp585: 1.6 };
const SLR_SLOPE: Record<Scenario, number> = { ssp126: 0.4, ssp245: 0.6, ssp585: 1.1 };

/** The multiplicative trend: slight historical drift, identical scenarios until 2015, diverging after. */
function growth(hazard: Hazard, scenario: Scenario, year: number): number {
  if (year < 2015) return 1 + (0.1 * (year - 2015)) / 35;
  const k = hazard === "heatwave" ? HEAT_GROWTH[scenario] : GROWTH[scenario];
  return 1 + (k * (year - 2015)) / 85;
}

/** Year-to-year variability shared by all scenarios, so it never breaks their ordering. */
function wobble(p: PointProfile, year: number): number {
  return 1 + 0.06 * Math.sin(0.9 * year + p.phase);
}

/** Seasonal cycle of observed monthly series, peaking in the local summer. */
function seasonal(p: PointProfile, month: number): number {
  const peak = p.lat >= 0 ? 7 : 1;
  return 1 + 0.3 * Math.cos((2 * Math.PI * (month - peak)) / 12);
}

/** Powers of ten 10^0..10^22: exactly representable, so m / 10^k is the double nearest m·10^-k. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Rounds to 6 significant digits, so JSON and CSV carry identical, short numbers. Arithmetic, not
 * `toPrecision`: this runs for every value of every series and was the emulator's hottest function
 * (a page of 250 timeseries is 30,000 values).
 */
export function round6(v: number): number {
  const a = Math.abs(v);
  if (a < 1e-7 || !Number.isFinite(v)) return a < 1e-7 ? 0 : v;
  const decimals = 5 - Math.floor(Math.log10(a));
  if (decimals >= 0 && decimals <= 22) {
    const scale = POW10[decimals];
    return Math.round(v * scale) / scale;
  }
  if (decimals < 0 && decimals >= -22) {
    const scale = POW10[-decimals];
    return Math.round(v / scale) * scale;
  }
  return Number(v.toPrecision(6));
}

const LOWER = 0.75;
const UPPER = 1.3;

/** A measure (lb, mid, ub) of a mid value, clamped to the indicator's range and rounded: what modelValue answers. */
export function applyMeasure(spec: IndicatorSpec, mid: number, measure: Measure): number {
  const v = measure === "mid" ? mid : measure === "lb" ? mid * LOWER : mid * UPPER;
  return round6(clamp(v, spec.value_min, spec.value_max));
}

/** The mid value of a projection indicator for a scenario already substituted. */
function projectionMid(spec: IndicatorSpec, p: PointProfile, scenario: Scenario, year: number): number {
  const g = growth(spec.hazard, scenario, year);
  const w = wobble(p, year);
  const b = p.base;
  switch (spec.hazard) {
    case "wildfire":
      return 0.015 * b * g * w;
    case "flood_potential":
      return 0.08 * Math.pow(b, 1.5) * g * w;
    case "cyclone":
      return 0.12 * b * g * w;
    case "heatwave":
      return (2 + 45 * b) * g * w;
    case "sea_level_rise": {
      const t =
        year < 2005 ? Math.max(0, 1 + (year - 2005) / 50) * 0.05 : 0.05 + (SLR_SLOPE[scenario] * (year - 2005)) / 95;
      return b * t;
    }
    case "water_stress":
      if (spec.indicator === "score") return (0.85 * b + 0.15 * p.alt) * g * w;
      if (spec.indicator === "spei_norm") return (0.3 + 0.6 * b) * Math.sqrt(g) * w;
      return b * g * w;
  }
}

/** The mid value of an observed indicator for a month (scenario-independent). */
function observedMid(spec: IndicatorSpec, p: PointProfile, year: number, month: number): number {
  const s = seasonal(p, month);
  const w = wobble(p, year + month / 12);
  const b = p.base;
  switch (spec.hazard) {
    case "cyclone":
      return 0.3 * b * s * w;
    case "heatwave":
      return ((2 + 45 * b) / 12) * s * w;
    case "sea_level_rise":
      return b * 0.05 * (1 + (year - OBSERVED_FIRST_YEAR + month / 12) / 10);
    default:
      return b * s * w;
  }
}

/**
 * The mid value of the model before its measure is applied (unclamped, unrounded): the lb, mid and
 * ub of a year are all `applyMeasure` of it, so a caller needing several measures computes it once.
 */
export function modelMid(spec: IndicatorSpec, p: PointProfile, scenario: Scenario, year: number, month = 1): number {
  return spec.kind === "projection"
    ? projectionMid(spec, p, effectiveScenario(spec.hazard, scenario), year)
    : observedMid(spec, p, year, month);
}

/** One value of the model. `month` (1..12) is used by observed indicators only. */
export function modelValue(
  spec: IndicatorSpec,
  p: PointProfile,
  scenario: Scenario,
  measure: Measure,
  year: number,
  month = 1,
): number {
  return applyMeasure(spec, modelMid(spec, p, scenario, year, month), measure);
}

/** Convenience form of the model taking every input explicitly (pure). */
export function valueAt(
  lat: number,
  lng: number,
  hazard: Hazard,
  indicator: string,
  scenario: Scenario,
  measure: Measure,
  year: number,
  seed: number,
  month = 1,
): number {
  const spec = findIndicator(hazard, indicator);
  if (!spec) throw new Error(`unknown indicator ${hazard}/${indicator}`);
  return modelValue(spec, pointProfile(hazard, lat, lng, seed), scenario, measure, year, month);
}

/** Optional year range of a series (inclusive), from start_date/end_date filters. */
export interface YearRange {
  from: number;
  to: number;
  /** First month (1-12) of `from` for observed monthly series; 1 when absent. */
  fromMonth?: number;
  /** Last month (1-12) of `to` for observed monthly series; 12 when absent. */
  toMonth?: number;
}

/** The projection years as strings, made once: a page of series uses each of them thousands of times. */
const YEAR_KEYS = Array.from({ length: PROJECTION_LAST_YEAR - PROJECTION_FIRST_YEAR + 1 }, (_, i) =>
  String(PROJECTION_FIRST_YEAR + i),
);

/** A whole series: "YYYY" keys for projections, "YYYY-MM" keys for observed indicators. */
export function seriesFor(
  spec: IndicatorSpec,
  p: PointProfile,
  scenario: Scenario,
  measure: Measure,
  range?: YearRange,
): Record<string, number> {
  const out: Record<string, number> = {};
  if (spec.kind === "projection") {
    const from = Math.max(PROJECTION_FIRST_YEAR, range?.from ?? PROJECTION_FIRST_YEAR);
    const to = Math.min(PROJECTION_LAST_YEAR, range?.to ?? PROJECTION_LAST_YEAR);
    for (let y = from; y <= to; y++)
      out[YEAR_KEYS[y - PROJECTION_FIRST_YEAR]] = modelValue(spec, p, scenario, measure, y);
  } else {
    const from = Math.max(OBSERVED_FIRST_YEAR, range?.from ?? OBSERVED_FIRST_YEAR);
    const to = Math.min(OBSERVED_LAST_YEAR, range?.to ?? OBSERVED_LAST_YEAR);
    // Observed series are narrowed to the months in range (docs/service.md#records), projections by year.
    const first = range ? range.from * 12 + (range.fromMonth ?? 1) : -Infinity;
    const last = range ? range.to * 12 + (range.toMonth ?? 12) : Infinity;
    for (let y = from; y <= to; y++) {
      for (let m = 1; m <= 12; m++) {
        const at = y * 12 + m;
        if (at < first || at > last) continue;
        out[`${y}-${m < 10 ? "0" : ""}${m}`] = modelValue(spec, p, scenario, measure, y, m);
      }
    }
  }
  return out;
}
