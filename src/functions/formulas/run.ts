import type { CancelSignal } from "../engine/engine";
import { toExcelError } from "../errors";

/** What Excel hands a cancelable function: it sets `onCanceled` when the cell no longer needs a result. */
export interface Invocation {
  onCanceled?: () => void;
  address?: string;
}

/**
 * Runs one formula evaluation: wires Excel's cancellation to an AbortSignal, and turns any failure
 * into the error value the cell shows. `notFound` is the message for a 404 from the service.
 */
export async function evaluate<T>(
  invocation: Invocation | undefined,
  notFound: () => string,
  body: (signal: CancelSignal) => Promise<T>,
): Promise<T> {
  const cancellation = new CellCancellation();
  if (invocation) invocation.onCanceled = () => cancellation.abort();
  try {
    return await body(cancellation);
  } catch (error) {
    throw toExcelError(error, { notFound: notFound() });
  }
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
  private listeners: (() => void)[] | undefined;

  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    listeners?.forEach((listener) => listener());
  }
}
