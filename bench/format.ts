/** Number formatting shared by the scenarios and the report. */

/** 12,345. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** A duration or ratio with `digits` decimals (0 by default). */
export function fmt(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `value` rounded to `digits` decimals (1 by default), for the JSON. */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The difference of two CPU readings, or null when either is unknown. */
export function cpuDelta(before: number | null, after: number | null): number | null {
  return before === null || after === null ? null : Math.round(after - before);
}
