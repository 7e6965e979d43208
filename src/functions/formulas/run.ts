import { readColumnCall, spillColumnCall, type ElementArguments, type GridArgument } from "../columns";
import type { CancelSignal, RiskEngine } from "../engine/engine";
import { parameterNames, type FunctionSpec } from "../specs";
import { toExcelError } from "../formula-errors";
import { cellLanguageReady } from "../cell-language";
import type { CellMessage } from "../../i18n/cell-catalogs";

/** What Excel hands a cancelable function: it sets `onCanceled` when the cell no longer needs a result. */
export interface Invocation {
  onCanceled?: () => void;
  address?: string;
}

/**
 * Runs one formula evaluation: wires Excel's cancellation to an AbortSignal, and turns any failure
 * into the error value the cell shows. `notFound` is the message for a 404 from the service. A
 * failure waits for the cells' language to be ready (it loads once, at start-up) before it is worded.
 */
export async function evaluate<T>(
  invocation: Invocation | undefined,
  notFound: () => CellMessage,
  body: (signal: CancelSignal) => Promise<T>,
): Promise<T> {
  const cancellation = new CellCancellation(invocation?.address);
  if (invocation) invocation.onCanceled = () => cancellation.abort();
  try {
    return await body(cancellation);
  } catch (error) {
    await cellLanguageReady();
    throw toExcelError(error, { notFound: notFound() });
  }
}

/** One argument per parameter of a function's spec, in the spec's order (each may be a range). */
export type GridArguments<Parameters extends readonly unknown[]> = { -readonly [K in keyof Parameters]: GridArgument };

/**
 * A RISK function whose parameters are declared as matrices, as the formulas export it: the engine,
 * one argument per parameter of its spec, and Excel's invocation last. Made by {@link columnFormula}.
 */
export type ColumnFormula<S extends FunctionSpec> = (
  engine: RiskEngine,
  ...call: [...GridArguments<S["parameters"]>, Invocation?]
) => Promise<unknown[][]>;

/**
 * Makes a RISK function over columns from its spec, the message of a 404 from the service and what
 * one element computes: the function hands the spec's parameters and the invocation to
 * {@link evaluateColumns}, so each formula writes only its own reading and loading.
 */
export function columnFormula<S extends FunctionSpec>(
  spec: S,
  notFound: (args: ElementArguments) => CellMessage,
  element: (engine: RiskEngine, args: ElementArguments, signal: CancelSignal, single: boolean) => Promise<unknown>,
): ColumnFormula<S> {
  const names = parameterNames(spec);
  return (engine, ...call) =>
    evaluateColumns(
      call[names.length] as Invocation | undefined,
      names,
      call.slice(0, names.length),
      notFound,
      (args, signal, single) => element(engine, args, signal, single),
    );
}

/**
 * Runs a formula whose parameters are declared as matrices (see ../columns.ts). With one value per
 * parameter it is the single-cell function exactly: a 1×1 array, or the error in the cell. With
 * ranges it spills one element per row (and column), each distinct argument tuple evaluated once,
 * a failing element shown as its own error value, a blank row as "". Shapes that cannot pair make
 * the whole cell `#VALUE!`.
 */
export async function evaluateColumns<T>(
  invocation: Invocation | undefined,
  names: readonly string[],
  values: readonly unknown[],
  notFound: (args: ElementArguments) => CellMessage,
  element: (args: ElementArguments, signal: CancelSignal, single: boolean) => Promise<T>,
): Promise<unknown[][]> {
  const cancellation = new CellCancellation(invocation?.address);
  if (invocation) invocation.onCanceled = () => cancellation.abort();
  let call;
  try {
    call = readColumnCall(names, values);
  } catch (error) {
    await cellLanguageReady();
    throw toExcelError(error, { notFound: undefined });
  }
  if (call.single) {
    const args = [...call.groups.values()][0]!.args;
    try {
      const value = await element(args, cancellation, true);
      return Array.isArray(value) ? value : [[value]]; // RISK.SEARCH's all-hazards table spills as it is
    } catch (error) {
      await cellLanguageReady();
      throw toExcelError(error, { notFound: notFound(args) });
    }
  }
  await cellLanguageReady(); // spilled elements' errors are worded as they fail
  return spillColumnCall(
    call,
    (args) => element(args, cancellation, false),
    (error, args) => toExcelError(error, { notFound: notFound(args) }),
  );
}

/** Quotes a user's value for a message, cut short. */
export function quote(value: unknown): string {
  const text = String(value ?? "");
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/**
 * The cancellation of one cell. Not an AbortController: creating one costs more than the rest of a
 * call in Node and browsers, and a recalculation makes thousands of calls, few ever cancelled.
 */
class CellCancellation implements CancelSignal {
  aborted = false;
  /** A Set: one spilled column adds and removes a listener per distinct row. */
  private listeners: Set<() => void> | undefined;

  /** The calling cell's address, when Excel gives one (for the task pane's list of stale cells). */
  constructor(readonly cell?: string) {}

  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    (this.listeners ??= new Set()).add(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    this.listeners?.delete(listener);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    listeners?.forEach((listener) => listener());
  }
}
