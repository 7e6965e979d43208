import {
  AbortedError,
  BadRequestError,
  ConfigurationError,
  NotConnectedError,
  ConflictError,
  CorsRefusedError,
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
import type { CellMessage } from "../i18n/cell-catalogs";
import { message } from "../i18n/messages";
import { cellText } from "./cell-language";

/**
 * How RISK.* failures reach the cell. Excel shows the code and, on hover, the message; messages stay
 * short (well under Excel's ~255 characters) and say what to do. The API key is never part of one.
 * Every message is a catalog `Message` (`cell.*`), worded in the display language (./cell-language.ts);
 * what a message quotes (parameter names, the user's own values, service identifiers) is not translated.
 */

/** The two error values the functions use: `#VALUE!` for a bad argument, `#N/A` for everything else. */
export type FormulaErrorCode = "#VALUE!" | "#N/A";

/** A failure that says itself as a catalog message (its `message` is that text in the cells' language). */
abstract class CellMessageError extends Error {
  constructor(readonly said: CellMessage) {
    super(cellText(said));
  }
}

/** A bad argument (wrong type, out of range, not one of the allowed words): shown as `#VALUE!`. */
export class ArgumentError extends CellMessageError {
  override readonly name = "ArgumentError";
}

/** Something looked up is not there (asset index, hazard, metric, sub-project): shown as `#N/A`. */
export class NotAvailableError extends CellMessageError {
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
export const MAX_MESSAGE = 120;

/**
 * Builds the error value for a cell: a real `CustomFunctions.Error` inside Excel, a FormulaError
 * elsewhere. `CustomFunctions.Error` (CustomFunctionsRuntime 1.2) and its `invalidValue` /
 * `notAvailable` codes (1.3) are declared in manifest.xml, so every host that loads the add-in has
 * them; the check below only tells Excel from Node, where `CustomFunctions` is absent.
 */
export function excelError(code: FormulaErrorCode, said: CellMessage): Error {
  const message = cellText(said);
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
  /** e.g. `cell.na.unknownPortfolio` with `{portfolio: '"north-sea"'}`; undefined where no lookup can 404. */
  notFound: CellMessage | undefined;
}

/**
 * Turns any failure into the error value a cell shows. Decisions follow the error class, never the
 * service's message text (not a contract: it may change).
 */
export function toExcelError(error: unknown, context: ErrorContext): Error {
  if (error instanceof ArgumentError) return excelError("#VALUE!", error.said);
  if (error instanceof NotAvailableError) return excelError("#N/A", error.said);
  if (error instanceof FormulaError) return error;
  if (!(error instanceof ServiceError)) {
    const runtime = (globalThis as { CustomFunctions?: typeof CustomFunctions }).CustomFunctions;
    if (runtime?.Error && error instanceof runtime.Error) return error as unknown as Error;
    const reason = error instanceof Error ? error.message : String(error);
    return excelError("#N/A", message("cell.error.unexpected", { reason }));
  }
  if (error instanceof NotFoundError)
    return excelError("#N/A", context.notFound ?? message("cell.error.status", { status: "404" }));
  if (error instanceof ConflictError) return excelError("#N/A", message("cell.error.generating"));
  if (error instanceof UnauthorizedError) return excelError("#N/A", message("cell.error.unauthorized"));
  if (error instanceof ForbiddenError) return excelError("#N/A", message("cell.error.forbidden"));
  if (error instanceof NotConnectedError) return excelError("#N/A", message("cell.error.notConnected"));
  // Found by the engine's probe (engine/no-answer-probe.ts): the fix is the service's CORS answer, not the pane.
  if (error instanceof CorsRefusedError)
    return excelError("#N/A", message("cell.error.corsRefused", { origin: error.origin }));
  if (error instanceof NetworkError || error instanceof ConfigurationError) {
    return excelError("#N/A", message("cell.error.unreachable"));
  }
  if (error instanceof TimeoutError) return excelError("#N/A", message("cell.error.timeout"));
  if (error instanceof RateLimitError) return excelError("#N/A", message("cell.error.rateLimit"));
  // Status codes are passed as text: a number would take the language's group separator.
  if (error instanceof ServerError)
    return excelError("#N/A", message("cell.error.server", { status: String(error.status) }));
  if (error instanceof AbortedError) return excelError("#N/A", message("cell.error.cancelled"));
  if (error instanceof InvalidResponseError) return excelError("#N/A", message("cell.error.invalidResponse"));
  if (error instanceof BadRequestError) {
    // The service's own words are shown (never branched on): they name the offending value.
    const detail = error.errors[0] ?? "invalid request";
    return excelError("#VALUE!", message("cell.error.rejected", { detail }));
  }
  return excelError("#N/A", message("cell.error.status", { status: String(error.status ?? "?") }));
}
