import {
  AbortedError,
  BadRequestError,
  ConfigurationError,
  NotConnectedError,
  ConflictError,
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceError,
  TimeoutError,
  UnauthorizedError,
} from "../api/errors";

/**
 * How RISK.* failures reach the cell. Excel shows the code and, on hover, the message; messages stay
 * short (well under Excel's ~255 characters) and say what to do. The API key is never part of one.
 */

/** The two error values the functions use: `#VALUE!` for a bad argument, `#N/A` for everything else. */
export type FormulaErrorCode = "#VALUE!" | "#N/A";

/** A bad argument (wrong type, out of range, not one of the allowed words): shown as `#VALUE!`. */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
}

/** Something looked up is not there (asset index, hazard, metric, sub-project): shown as `#N/A`. */
export class NotAvailableError extends Error {
  override readonly name = "NotAvailableError";
}

/**
 * The error a formula throws when `CustomFunctions` does not exist (Node: benchmarks, scripts).
 * It has the same `code` and `message` as `CustomFunctions.Error`, so callers read both alike.
 */
export class FormulaError extends Error {
  override readonly name = "FormulaError";
  constructor(
    readonly code: FormulaErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Messages longer than this are cut: Excel shows little more, and a cell is no place for an essay. */
const MAX_MESSAGE = 120;

/**
 * Builds the error value for a cell: a real `CustomFunctions.Error` inside Excel, a FormulaError
 * elsewhere. `CustomFunctions.Error` (CustomFunctionsRuntime 1.2) and its `invalidValue` /
 * `notAvailable` codes (1.3) are declared in manifest.xml, so every host that loads the add-in has
 * them; the check below only tells Excel from Node, where `CustomFunctions` is absent.
 */
export function excelError(code: FormulaErrorCode, message: string): Error {
  const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  const runtime = (globalThis as { CustomFunctions?: typeof CustomFunctions }).CustomFunctions;
  if (runtime?.Error && runtime.ErrorCode) {
    const errorCode = code === "#VALUE!" ? runtime.ErrorCode.invalidValue : runtime.ErrorCode.notAvailable;
    return new runtime.Error(errorCode, text) as unknown as Error;
  }
  return new FormulaError(code, text);
}

/** What a formula says when the service answers 404 for the thing it looked up. */
export interface ErrorContext {
  /** e.g. `Unknown portfolio "north-sea"`. */
  notFound: string;
}

export const CONNECT_HINT = "open the Climate Risk pane to connect";

/**
 * Turns any failure into the error value a cell shows. Decisions follow the error class, never the
 * service's message text (not a contract: it may change).
 */
export function toExcelError(error: unknown, context: ErrorContext): Error {
  if (error instanceof ArgumentError) return excelError("#VALUE!", error.message);
  if (error instanceof NotAvailableError) return excelError("#N/A", error.message);
  if (error instanceof FormulaError) return error;
  if (!(error instanceof ServiceError)) {
    const runtime = (globalThis as { CustomFunctions?: typeof CustomFunctions }).CustomFunctions;
    if (runtime?.Error && error instanceof runtime.Error) return error as unknown as Error;
    const reason = error instanceof Error ? error.message : String(error);
    return excelError("#N/A", `Unexpected error: ${reason}`);
  }
  if (error instanceof NotFoundError) return excelError("#N/A", context.notFound);
  if (error instanceof ConflictError)
    return excelError("#N/A", "Risk data is still being generated; recalculate in a minute");
  if (error instanceof UnauthorizedError)
    return excelError("#N/A", "API key refused: open the Climate Risk pane to check it");
  if (error instanceof ForbiddenError) {
    return excelError("#N/A", "Project not open to this API key: choose another in the Climate Risk pane");
  }
  if (error instanceof NotConnectedError) return excelError("#N/A", "Open the Climate Risk pane to connect");
  if (error instanceof NetworkError || error instanceof ConfigurationError) {
    return excelError("#N/A", `Cannot reach the risk service: ${CONNECT_HINT}`);
  }
  if (error instanceof TimeoutError)
    return excelError("#N/A", "The risk service did not answer in time; recalculate to retry");
  if (error instanceof RateLimitError)
    return excelError("#N/A", "The risk service is busy (rate limit); recalculate shortly");
  if (error instanceof ServerError)
    return excelError("#N/A", `The risk service failed (HTTP ${error.status}); recalculate to retry`);
  if (error instanceof AbortedError) return excelError("#N/A", "Cancelled");
  if (error instanceof InvalidResponseError)
    return excelError("#N/A", "The risk service sent an answer that cannot be read");
  if (error instanceof BadRequestError) {
    // The service's own words are shown (never branched on): they name the offending value.
    const detail = error.errors[0] ?? "invalid request";
    return excelError("#VALUE!", `Rejected by the service: ${detail}`);
  }
  return excelError("#N/A", `The risk service answered HTTP ${error.status ?? "?"}`);
}
