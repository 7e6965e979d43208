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
import { englishTranslator, type Translator } from "../../i18n/translator";
import type { MessageId } from "../../i18n/messages";
import { MessageError } from "../../i18n/message-error";

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
 * the API key: the client's messages carry the URL and operation only. The headline is in `i18n`'s
 * language; the service's strings stay as they are; errors the code throws with a catalog message
 * ({@link MessageError}) are worded in `i18n`'s language too.
 */
export function describeError(error: unknown, i18n: Translator = englishTranslator): ErrorDescription {
  if (error instanceof CancelledError) return { title: i18n.format(error.said), details: [], cancelled: true };
  if (error instanceof ExcelNotAnsweringError) return { title: error.message, details: [], cancelled: true };
  if (error instanceof AbortedError) {
    return { title: i18n.t("error.cancelled"), details: [], cancelled: true };
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
    return { title: i18n.t(headlineFor(error)), details, cancelled: false };
  }
  // An error whose words are a catalog message, in the pane's language; any other by its message.
  if (error instanceof MessageError) return { title: i18n.format(error.said), details: [], cancelled: false };
  const message = error instanceof Error ? error.message : String(error);
  // Excel's refusal to change a protected sheet or workbook (OfficeExtension.Error's code), which
  // Excel words as "You cannot perform the requested operation": said with what to do.
  if ((error as { code?: unknown } | null)?.code === "AccessDenied")
    return { title: i18n.t("error.excelProtected"), details: [message], cancelled: false };
  return { title: message, details: [], cancelled: false };
}

/** The catalog id of the headline for a service error's class. */
function headlineFor(error: ServiceError): MessageId {
  if (error instanceof ConfigurationError) return "error.configuration";
  if (error instanceof UnauthorizedError) return "error.unauthorized";
  if (error instanceof ForbiddenError) return "error.forbidden";
  if (error instanceof NotFoundError) return "error.notFound";
  if (error instanceof ConflictError) return "error.conflict";
  if (error instanceof UnprocessableEntityError) return "error.unprocessable";
  if (error instanceof BadRequestError) return "error.badRequest";
  if (error instanceof RateLimitError) return "error.rateLimit";
  if (error instanceof ServerError) return "error.server";
  if (error instanceof TimeoutError) return "error.timeout";
  if (error instanceof NetworkError) return "error.network";
  return "error.other";
}
