import {
  AbortedError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  CorsRefusedError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
} from "../../api/errors";
import { ExcelNotAnsweringError } from "../../excel/sync-watchdog";
import { CancelledError } from "./pane-types";

/** An error as the task pane shows it: a headline that says what to do, and the service's own words. */
export interface ErrorDescription {
  /** One sentence, chosen by the error's class (never by the service's text). */
  title: string;
  /** The service's `errors` strings or the error's message, shown as plain text. */
  details: string[];
  /** True when the user cancelled: shown as information, not as a failure. */
  cancelled: boolean;
}

/**
 * Turns any thrown value into what the user reads. The headline is picked by class (the service's
 * strings are not a contract); the strings themselves are shown verbatim underneath. Never includes
 * the API key: the client's messages carry the URL and operation only.
 */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof CancelledError || error instanceof ExcelNotAnsweringError)
    return { title: error.message, details: [], cancelled: true };
  if (error instanceof AbortedError) {
    return { title: "Cancelled: nothing was changed.", details: [], cancelled: true };
  }
  if (error instanceof CorsRefusedError) {
    // Its message is the whole story (host, origin, what to do), worded as "Check the add-in" words it.
    return {
      title: `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`,
      details: [],
      cancelled: false,
    };
  }
  if (error instanceof ServiceError) {
    const details = error.errors.length > 0 ? [...error.errors] : [error.message];
    return { title: headlineFor(error), details, cancelled: false };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: message, details: [], cancelled: false };
}

function headlineFor(error: ServiceError): string {
  if (error instanceof ConfigurationError)
    return "The connection settings cannot be used. Check them under Connection.";
  if (error instanceof UnauthorizedError) return "The service refused the API key. Check it under Connection.";
  if (error instanceof ForbiddenError)
    return "This key may not use the chosen project. Pick another project under Connection.";
  if (error instanceof NotFoundError) return "Not found: it may have been deleted. Reload the list and try again.";
  if (error instanceof ConflictError)
    return "The service is busy with this item (for example, risk data is still being generated). Try again shortly.";
  if (error instanceof UnprocessableEntityError) return "The service could not process the input:";
  if (error instanceof BadRequestError) return "The service rejected the request:";
  if (error instanceof RateLimitError) return "Too many requests: wait a moment and try again.";
  if (error instanceof ServerError) return "The service failed. Try again later.";
  if (error instanceof TimeoutError) return "The service did not answer in time. Try again.";
  if (error instanceof NetworkError)
    return "Cannot reach the service. Check the URL under Connection and your network.";
  return "The request failed.";
}
