/**
 * The RISK functions typed for calls from tests. Their declared parameter types are `any[][]` (what
 * Excel passes to a matrix parameter); code outside Excel may pass plain values too, as columns.ts
 * reads both, and these tests mostly do.
 */
type Loose<F> = F extends (...args: infer A) => infer R ? (...args: { [I in keyof A]: unknown }) => R : never;

export function asExcelCalls<T extends Record<string, unknown>>(functions: T): { [K in keyof T]: Loose<T[K]> } {
  return functions as never;
}

/** The one value of a 1×1 result (the single-cell form of a column function). */
export function only<T>(result: T[][]): T {
  if (result.length !== 1 || result[0]!.length !== 1)
    throw new Error(`expected a 1×1 result, got ${JSON.stringify(result).slice(0, 100)}`);
  return result[0]![0]!;
}
