import ky, { HTTPError, TimeoutError as KyTimeoutError, type KyInstance } from "ky";
import { checkConnection, type ConnectionConfig } from "./config";
import {
  AbortedError,
  ConfigurationError,
  InvalidResponseError,
  NetworkError,
  ServiceError,
  TimeoutError,
  apiErrorFor,
} from "./errors";
import type { DownloadedFile } from "./types";

/** Tuning of the transport; every field has a default in {@link DEFAULT_TRANSPORT_OPTIONS}. */
export interface TransportOptions {
  /** Time limit of one attempt, until the whole body is read (default 20 s). */
  timeoutMs?: number;
  /** Retries after the first attempt, for idempotent requests only (default 3). */
  maxRetries?: number;
  /**
   * Further retries allowed for 429 answers that carry `Retry-After` (default 6): the service says
   * when to come back, so throttling alone should not turn cells into errors.
   */
  maxRateLimitRetries?: number;
  /** Upper bound of one back-off delay, including a `Retry-After` wait (default 5 s). */
  maxRetryDelayMs?: number;
  /** First back-off delay; doubles each retry (default 300 ms). */
  baseRetryDelayMs?: number;
  /** A fetch implementation (tests, proxies); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Called before each retry: for counters in drills and benchmarks. */
  onRetry?: (event: RetryEvent) => void;
  /** Called once per HTTP attempt sent: for counters in benchmarks. */
  onRequest?: (event: { operation: string; method: string; url: string }) => void;
}

export interface RetryEvent {
  operation: string;
  method: string;
  url: string;
  /** 1 for the first retry. */
  retryCount: number;
  error: unknown;
}

/** Per-call options every client method accepts. */
export interface CallOptions {
  /** Cancels the call; the promise then rejects with AbortedError. */
  signal?: AbortSignal;
  /** Overrides the transport's per-attempt time limit for this call. */
  timeoutMs?: number;
}

export type QueryValue = string | number | boolean | undefined | null;

/** One operation of the service, described for the transport. */
export interface RequestSpec {
  /** Client operation name used in errors, e.g. `portfolios.create`. */
  operation: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** `base` for compositions, portfolios and search (`${baseUrl}/api`), `nature` for nature sub-projects. */
  area: "base" | "nature";
  /** Path below the area root, starting with `/`. Path segments must already be encoded. */
  path: string;
  /** `true`: the configured project; a string: that project; absent: no project header. */
  project?: true | string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  body?: FormData;
  /**
   * Whether repeating the request is harmless. Defaults to true for GET/PUT/DELETE and false for
   * POST; set false for a GET with side effects (UDF activation creates a vector).
   */
  idempotent?: boolean;
  /**
   * `optional-json`: JSON, or undefined for an empty body (answers that moved from 204 to a JSON
   * message). `file`: a download with its file name and media type ({@link DownloadedFile}).
   */
  responseType: "json" | "optional-json" | "text" | "bytes" | "file" | "none";
}

/**
 * What a resource method says of its request beyond the operation, method and path. Unsaid, a
 * request goes to the `base` area with the configured project's header and decodes a JSON answer;
 * `project: false` sends no project header.
 */
export type RequestOptions = Partial<Omit<RequestSpec, "operation" | "method" | "path" | "project">> & {
  project?: RequestSpec["project"] | false;
};

/**
 * The one table of transport defaults, for the task pane's client and the functions engine alike
 * (the engine's settings take theirs from here). Cells make most requests, and a cell's load gives
 * up 60 s after it started (the engine's `deadlineMs`): 20 s attempts and waits of at most 5 s leave
 * the retries room within it, where 30 s attempts and 20 s waits would end cells on the deadline
 * rather than on the service's answer. Long downloads pass their own `timeoutMs`.
 */
export const DEFAULT_TRANSPORT_OPTIONS: Readonly<
  Required<
    Pick<TransportOptions, "timeoutMs" | "maxRetries" | "maxRateLimitRetries" | "maxRetryDelayMs" | "baseRetryDelayMs">
  >
> = Object.freeze({
  timeoutMs: 20_000,
  maxRetries: 3,
  maxRateLimitRetries: 6,
  maxRetryDelayMs: 5_000,
  baseRetryDelayMs: 300,
});

const RETRY_STATUSES = [429, 502, 503, 504];

/**
 * The HTTP layer every resource uses: builds URLs and headers, runs ky with retries, time limits
 * and cancellation, and turns every failure into a ServiceError subclass.
 */
export class Transport {
  readonly connection: ConnectionConfig;
  private readonly options: Required<Omit<TransportOptions, "fetch" | "onRetry" | "onRequest">> &
    Pick<TransportOptions, "onRetry" | "onRequest">;
  private readonly ky: KyInstance;

  constructor(connection: ConnectionConfig, options: TransportOptions = {}) {
    this.connection = checkConnection(connection);
    this.options = {
      timeoutMs: options.timeoutMs ?? DEFAULT_TRANSPORT_OPTIONS.timeoutMs,
      maxRetries: options.maxRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRetries,
      maxRateLimitRetries: options.maxRateLimitRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRateLimitRetries,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_TRANSPORT_OPTIONS.maxRetryDelayMs,
      baseRetryDelayMs: options.baseRetryDelayMs ?? DEFAULT_TRANSPORT_OPTIONS.baseRetryDelayMs,
      onRetry: options.onRetry,
      onRequest: options.onRequest,
    };
    const fetchImpl = options.fetch;
    this.ky = ky.create({
      // Bind so browsers do not throw "Illegal invocation" on an unbound window.fetch.
      fetch: fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
      throwHttpErrors: true,
    });
  }

  /** Sends one operation and returns its decoded body. */
  async send<T>(spec: RequestSpec, call: CallOptions = {}): Promise<T> {
    const url = this.urlFor(spec);
    const idempotent = spec.idempotent ?? spec.method !== "POST";
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    if (call.signal?.aborted) throw aborted(spec);

    // One controller per call: the caller's signal and the body-read deadline both end it.
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener("abort", onCallerAbort, { once: true });
    let timedOut = false;
    let failureRetries = 0; // retries for failures other than a 429 with Retry-After
    let bodyTimer: ReturnType<typeof setTimeout> | undefined;
    try {
      const response = await this.ky(url, {
        method: spec.method,
        headers: this.headersFor(spec),
        searchParams: searchParamsOf(spec.query),
        json: spec.json,
        body: spec.body,
        signal: controller.signal,
        timeout: timeoutMs,
        retry: {
          limit: idempotent ? this.options.maxRetries + this.options.maxRateLimitRetries : 0,
          shouldRetry: ({ error }) => {
            if (isRateLimitWithHint(error)) return undefined; // bounded by `limit` alone
            failureRetries += 1;
            return failureRetries > this.options.maxRetries ? false : undefined;
          },
          methods: ["get", "put", "delete", "head", "post"],
          statusCodes: RETRY_STATUSES,
          afterStatusCodes: [429, 503],
          maxRetryAfter: this.options.maxRetryDelayMs,
          backoffLimit: this.options.maxRetryDelayMs,
          delay: (attempt) => this.options.baseRetryDelayMs * 2 ** (attempt - 1),
          jitter: (delay) => delay * (0.8 + Math.random() * 0.4),
          retryOnTimeout: false,
        },
        hooks: {
          beforeRequest: [
            () => {
              this.options.onRequest?.({ operation: spec.operation, method: spec.method, url });
            },
          ],
          beforeRetry: [
            ({ error, retryCount }) => {
              this.options.onRetry?.({ operation: spec.operation, method: spec.method, url, retryCount, error });
            },
          ],
        },
      });
      // ky's timeout ends at the response headers; a body that stalls must not hang a cell.
      bodyTimer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      return await decodeBody<T>(response, spec, url);
    } catch (error) {
      throw await this.toServiceError(error, spec, url, {
        timedOut,
        callerAborted: call.signal?.aborted === true,
        timeoutMs,
      });
    } finally {
      if (bodyTimer !== undefined) clearTimeout(bodyTimer);
      call.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  /** GET `path` as `operation` (see {@link RequestOptions} for what is sent unless said otherwise). */
  get<T>(operation: string, path: string, call?: CallOptions, options?: RequestOptions): Promise<T> {
    return this.sendAs<T>("GET", operation, path, call, options);
  }

  /** POST `path` as `operation`; never retried unless `options.idempotent` says so. */
  post<T>(operation: string, path: string, call?: CallOptions, options?: RequestOptions): Promise<T> {
    return this.sendAs<T>("POST", operation, path, call, options);
  }

  /** PUT `path` as `operation`. */
  put<T>(operation: string, path: string, call?: CallOptions, options?: RequestOptions): Promise<T> {
    return this.sendAs<T>("PUT", operation, path, call, options);
  }

  /** DELETE `path` as `operation`. */
  delete<T>(operation: string, path: string, call?: CallOptions, options?: RequestOptions): Promise<T> {
    return this.sendAs<T>("DELETE", operation, path, call, options);
  }

  private sendAs<T>(
    method: RequestSpec["method"],
    operation: string,
    path: string,
    call: CallOptions | undefined,
    options: RequestOptions = {},
  ): Promise<T> {
    const { project = true, area = "base", responseType = "json", ...rest } = options;
    const spec: RequestSpec = { operation, method, area, path, responseType, ...rest };
    if (project !== false) spec.project = project;
    return this.send<T>(spec, call);
  }

  private urlFor(spec: RequestSpec): string {
    const root = spec.area === "base" ? `${this.connection.baseUrl}/api` : this.connection.natureUrl;
    return root + spec.path;
  }

  private headersFor(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = {
      "X-Service-APIKey": this.connection.apiKey,
      Accept: "application/json, */*",
    };
    if (spec.project !== undefined) {
      const project = spec.project === true ? this.connection.project : spec.project;
      if (!project) {
        throw new ConfigurationError(`${spec.operation} needs a project: choose one in the connection settings`, {
          operation: spec.operation,
        });
      }
      headers["X-Service-Project"] = project;
    }
    return headers;
  }

  private async toServiceError(
    error: unknown,
    spec: RequestSpec,
    url: string,
    state: { timedOut: boolean; callerAborted: boolean; timeoutMs: number },
  ): Promise<ServiceError> {
    if (error instanceof ServiceError) return error;
    if (state.callerAborted) return aborted(spec, error);
    if (error instanceof HTTPError) {
      const errors = await errorStrings(error.response);
      return apiErrorFor(error.response.status, {
        errors,
        operation: spec.operation,
        method: spec.method,
        url,
        headers: error.response.headers,
      });
    }
    if (error instanceof KyTimeoutError || state.timedOut) {
      return new TimeoutError(`${spec.operation} got no answer within ${state.timeoutMs} ms (${spec.method} ${url})`, {
        operation: spec.operation,
        cause: error,
      });
    }
    if (isAbortError(error)) return aborted(spec, error);
    const reason = error instanceof Error ? error.message : String(error);
    return new NetworkError(`${spec.operation} could not reach the service (${spec.method} ${url}): ${reason}`, {
      operation: spec.operation,
      cause: error,
    });
  }
}

/** A 429 that says when to come back. */
function isRateLimitWithHint(error: unknown): boolean {
  return error instanceof HTTPError && error.response.status === 429 && error.response.headers.has("retry-after");
}

function aborted(spec: RequestSpec, cause?: unknown): AbortedError {
  return new AbortedError(`${spec.operation} was cancelled`, { operation: spec.operation, cause });
}

function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: string }).name === "AbortError";
}

function searchParamsOf(query: RequestSpec["query"]): Record<string, string> | undefined {
  if (!query) return undefined;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params[name] = String(value);
  }
  return params;
}

/**
 * Decodes JSON answers (UTF-8, a leading BOM dropped, as `Response.text()` does). In Chromium, the
 * engine of Excel's WebView2, `text()` took about 11 ms a MB of an answer and this decoder 3.5
 * (headless Chromium, 2026-11-29): a 5,000-asset refresh reads some 160 MB. Node decodes both
 * ways alike.
 */
const JSON_TEXT = new TextDecoder("utf-8");

async function decodeBody<T>(response: Response, spec: RequestSpec, url: string): Promise<T> {
  switch (spec.responseType) {
    case "none":
      await response.body?.cancel().catch(() => undefined);
      return undefined as T;
    case "text":
      return (await response.text()) as T;
    case "bytes":
      return new Uint8Array(await response.arrayBuffer()) as T;
    case "file": {
      const bytes = new Uint8Array(await response.arrayBuffer());
      const file: DownloadedFile = {
        fileName: fileNameOf(response.headers.get("content-disposition")) ?? fallbackFileName(spec.path),
        contentType: (response.headers.get("content-type") ?? "application/octet-stream").split(";")[0].trim(),
        bytes,
      };
      return file as T;
    }
    case "optional-json":
    case "json": {
      const text = JSON_TEXT.decode(await response.arrayBuffer());
      if (spec.responseType === "optional-json" && text.trim() === "") return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new InvalidResponseError(
          `${spec.operation} received a response that is not valid JSON (${spec.method} ${url}): ${text.slice(0, 80)}`,
          { status: response.status, operation: spec.operation },
        );
      }
    }
  }
}

/** The `errors` strings of an error body; falls back to the raw text when the body is not the documented JSON. */
async function errorStrings(response: Response): Promise<string[]> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return [];
  }
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(body.errors))
      return body.errors.map((entry) => (typeof entry === "string" ? entry : JSON.stringify(entry)));
  } catch {
    // Not JSON: keep a short excerpt of the text below.
  }
  const excerpt = text.trim().slice(0, 200);
  return excerpt ? [excerpt] : [];
}

/**
 * The file name of a `Content-Disposition` header (`filename*=UTF-8''…` preferred, then
 * `filename="…"`), reduced to its last path part; undefined when there is none.
 */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(disposition)?.[1];
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : undefined;
}

/** A file name from the request path when the service names none: `<portfolio>-<last segment>`. */
function fallbackFileName(path: string): string {
  const parts = path
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  return parts.slice(-3).join("-") || "download";
}

/** Encodes one path segment (portfolio names, ids). */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}
