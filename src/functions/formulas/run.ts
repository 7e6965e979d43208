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
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (invocation) invocation.onCanceled = () => controller.abort();
  try {
    return await body(controller.signal);
  } catch (error) {
    throw toExcelError(error, { notFound: notFound() });
  }
}

/** Quotes a user's value for a message, cut short. */
export function quote(value: unknown): string {
  const text = String(value ?? "");
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}
