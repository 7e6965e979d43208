/**
 * Shapes shared by the task pane's actions: the plain TypeScript modules that orchestrate the
 * service client and the workbook, so they run the same in Excel, in the browser harness and in
 * jest (against the in-memory Excel fake), with no React involved.
 */

import type { RiskClient } from "../../api/client";
import type { ExcelRunner } from "../../excel/runner";
import { message, type Message } from "../../i18n/messages";
import { inEnglish, MessageError } from "../../i18n/message-error";

/** Runs a batch against the workbook (defined in `src/excel`, where all workbook access lives). */
export type { ExcelRunner };

/** What a long operation reports while it runs; `fraction` is 0..1 when the total is known. */
export interface Progress {
  /**
   * A short sentence for the status line, e.g. "Read 1,250 of 6,000 series": a catalog message,
   * worded by the pane (a string is shown as it is, for actions whose words are not in the catalogs yet).
   */
  message: Message | string;
  fraction?: number;
}

/** Callback for progress reports. */
export type ProgressListener = (progress: Progress) => void;

/** Options common to the actions that can run long: cancellation and progress. */
export interface LongRunning {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/**
 * What an action that reads the service and writes the workbook is given (a paste, a refresh of
 * pasted sheets): the pane's client and workbook, as the TaskButton hands them, with cancellation
 * and progress.
 */
export interface PasteOptions extends LongRunning {
  client: RiskClient;
  run: ExcelRunner;
}

/** Result of an action that pasted data into one new sheet. */
export interface PastedSheet {
  /** The new sheet's name (unique, valid). */
  sheetName: string;
  /** Data rows written (header excluded). */
  rowCount: number;
  columnCount: number;
}

/**
 * Thrown when the user's signal fired: the action undid its work before rethrowing.
 *
 * Three names for cancellation, one per layer, so each says who stopped what:
 * - `AbortedError` (src/api/errors): the client's HTTP call or page walk was aborted by the
 *   caller's AbortSignal; actions turn it into CancelledError.
 * - `CancelledError` (here): a task-pane action stopped at the user's request and left the
 *   workbook as it was; the UI shows its message as a status, not a failure.
 * - `CellCancellation` (src/functions/formulas/run.ts): not an error but the per-cell cancel signal
 *   (a cheap AbortSignal stand-in) a custom-function cell carries when Excel cancels it.
 */
export class CancelledError extends MessageError {
  constructor(said: Message = message("error.cancelled")) {
    super(said);
    this.name = "CancelledError";
  }
}

/** Throws CancelledError when the signal has fired. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * The catch every action writes around a client call or workbook write: a failure after the
 * user cancelled is reported as CancelledError; any other failure passes through unchanged.
 * Use as `.catch(rethrowIfCancelled(signal))`.
 */
export function rethrowIfCancelled(signal: AbortSignal | undefined): (error: unknown) => never {
  return (error: unknown): never => {
    throwIfCancelled(signal);
    throw error;
  };
}

/**
 * Awaits the reading step of an action (a client call, a page walk, a workbook read) and checks
 * the signal after it: a failure after the user cancelled, or a Cancel while it ran, ends the
 * action with CancelledError before anything is written; any other failure passes through.
 */
export async function unlessCancelled<T>(reading: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  const result = await reading.catch(rethrowIfCancelled(signal));
  throwIfCancelled(signal);
  return result;
}

/**
 * The first `shown` items joined with "; ", and how many more there are ("a; b; and 3 more"): a
 * message the pane words, the count in the language's words (the items are keys and names, quoted
 * as they are).
 */
export function listSome(items: readonly string[], shown: number): Message {
  return message("ui.listSome", {
    items: items.slice(0, shown).join("; "),
    more: Math.max(0, items.length - shown),
  });
}

/** Formats a count for a status line: 12,345. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * A multi-step action failed at `step`: the UI names the step ("creating the portfolio failed")
 * and shows the cause underneath. Steps before it completed; none after it ran.
 */
export class StepError<Step extends string = string> extends Error {
  constructor(
    readonly step: Step,
    /** The step's name: a catalog message the pane words (a string for steps not in the catalogs yet). */
    readonly stepLabel: Message | string,
    override readonly cause: unknown,
  ) {
    super();
    // In English on demand, as MessageError's (the formatter may load after the error is made).
    Object.defineProperty(this, "message", {
      get: () =>
        `${typeof stepLabel === "string" ? stepLabel : inEnglish(stepLabel)} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      configurable: true,
      enumerable: false,
    });
    this.name = "StepError";
  }
}
