/**
 * The one error tree of the service client. Callers decide on the class (`instanceof`), never on
 * the message: the service's `errors` strings are not a contract and may change, so callers branch on the status only.
 *
 *   ServiceError                      every failure the client reports
 *   ├─ ConfigurationError             the connection settings are unusable (nothing was sent)
 *   ├─ ApiError                       the service answered with a non-2xx status
 *   │  ├─ BadRequestError        400
 *   │  ├─ UnauthorizedError      401
 *   │  ├─ ForbiddenError         403
 *   │  ├─ NotFoundError          404
 *   │  ├─ MethodNotAllowedError  405
 *   │  ├─ ConflictError          409
 *   │  ├─ UnprocessableEntityError 422
 *   │  ├─ RateLimitError         429
 *   │  └─ ServerError            5xx
 *   ├─ InvalidResponseError           2xx whose body is not what the operation returns
 *   ├─ NetworkError                   no HTTP answer (refused, reset, DNS, CORS)
 *   │  └─ CorsRefusedError       reachable, but it does not answer this page's origin (no-answer.ts)
 *   ├─ TimeoutError                   no answer within the time limit
 *   └─ AbortedError                   the caller's AbortSignal fired
 */

/** Base of every error the client throws. `operation` names the client operation (e.g. `portfolios.create`). */
export class ServiceError extends Error {
  /** HTTP status when the service answered; undefined when it did not. */
  readonly status: number | undefined;
  /** The `errors` strings of the response body (may be empty). For display only. */
  readonly errors: readonly string[];
  /** The client operation that failed, e.g. `datasets.summary`. */
  readonly operation: string;

  constructor(
    message: string,
    init: { status?: number; errors?: readonly string[]; operation: string; cause?: unknown },
  ) {
    super(message);
    this.name = new.target.name;
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.operation = init.operation;
    if (init.cause !== undefined) (this as { cause?: unknown }).cause = init.cause;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** Thrown before any request when base URL, key or project cannot be used (e.g. a key over plain http). */
export class ConfigurationError extends ServiceError {}

/** No connection is configured yet (a production build's first run): the pane must be opened. */
export class NotConnectedError extends ConfigurationError {}

/** Thrown when the service answered with a non-2xx status. */
export class ApiError extends ServiceError {
  declare readonly status: number;
  /** Response headers, for callers that need e.g. `Retry-After`. */
  readonly headers: Headers | undefined;
  constructor(
    message: string,
    init: { status: number; errors?: readonly string[]; operation: string; headers?: Headers; cause?: unknown },
  ) {
    super(message, init);
    this.headers = init.headers;
  }
}

/** 400: the request was invalid (e.g. a coordinate out of bounds, `rows` over 250). */
export class BadRequestError extends ApiError {}
/** 401: the API key is missing or not known to the service. */
export class UnauthorizedError extends ApiError {}
/** 403: the key may not act in this project (nonexistent or lacking authorization). */
export class ForbiddenError extends ApiError {}
/** 404: no such portfolio, vector, UDF, sub-project or route. */
export class NotFoundError extends ApiError {}
/** 405: the route exists but not with this method. */
export class MethodNotAllowedError extends ApiError {}
/** 409: conflicts with current state (name exists; risk data still being generated). */
export class ConflictError extends ApiError {}
/** 422: well-formed but unprocessable (bad CSV rows, invalid GeoJSON, a jq program that fails). */
export class UnprocessableEntityError extends ApiError {}
/** 429: too many requests; `retryAfterMs` is the service's hint when it gave one. */
export class RateLimitError extends ApiError {
  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.headers?.get("retry-after") ?? null);
  }
}
/** 5xx: the service failed. */
export class ServerError extends ApiError {}

/** A 2xx answer whose body could not be read as the operation's result (e.g. malformed JSON). */
export class InvalidResponseError extends ServiceError {}
/** No HTTP answer at all: connection refused or reset, DNS failure, blocked by CORS. */
export class NetworkError extends ServiceError {}
/**
 * The service answers (a `no-cors` probe got through) but not to this page's origin: its CORS
 * answer does not list `origin`, so the browser withholds every answer. Found by
 * `explainNoAnswer` (no-answer.ts), never by the transport itself.
 */
export class CorsRefusedError extends NetworkError {
  /** The add-in's own origin, which the service would have to allow. */
  readonly origin: string;

  constructor(message: string, init: { operation: string; origin: string; cause?: unknown }) {
    super(message, init);
    this.origin = init.origin;
  }
}
/** The service did not answer within the time limit. */
export class TimeoutError extends ServiceError {}
/** The caller cancelled the request through its AbortSignal. */
export class AbortedError extends ServiceError {}

type ApiErrorClass = new (message: string, init: ConstructorParameters<typeof ApiError>[1]) => ApiError;

const classByStatus: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** Builds the ApiError subclass for an HTTP status: the single place that maps statuses to classes. */
export function apiErrorFor(
  status: number,
  init: { errors: readonly string[]; operation: string; method: string; url: string; headers?: Headers },
): ApiError {
  const Class = classByStatus[status] ?? (status >= 500 ? ServerError : ApiError);
  const detail = init.errors.length > 0 ? `: ${init.errors.join("; ")}` : "";
  const message = `${init.operation} failed with HTTP ${status} (${init.method} ${init.url})${detail}`;
  return new Class(message, { status, errors: init.errors, operation: init.operation, headers: init.headers });
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
