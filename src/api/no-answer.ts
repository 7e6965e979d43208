/**
 * Why a request got no answer, as far as a browser lets a page tell: the ONE place that probes it,
 * used by "Check the add-in" (src/commands/health-check.ts) and the pane's connection test.
 *
 * A browser reports a CORS refusal, a DNS failure, a refused connection and an untrusted
 * certificate alike ("Failed to fetch"). A second request in `no-cors` mode separates the first
 * from the rest: it needs no CORS answer (its response is opaque: no status, no body), so it
 * resolves whenever the server answered anything at all, and rejects only when nothing answered.
 * It carries no key (a `no-cors` request cannot carry custom headers) and reads nothing.
 */
import { pageOrigin } from "./config";
import { CorsRefusedError, NetworkError, TimeoutError } from "./errors";

/**
 * The URLs a request that got no answer is probed at, one per service: the routes the connection
 * test reads (the risk service's project list, the nature service's superprojects), which any key
 * may read. The pane's connection test, "Check the add-in" and the functions' probe all use these.
 */
export function probeUrls(connection: { baseUrl: string; natureUrl: string }): { risk: string; nature: string } {
  return { risk: `${connection.baseUrl}/api/projects/`, nature: `${connection.natureUrl}/superprojects` };
}

/** What the second probe found. */
export type NoAnswerCause =
  /** Something answers at the URL, but not to this origin: the service's CORS answer lacks it. */
  | { kind: "cors"; origin: string }
  /** Nothing answered, even without CORS: name, network, firewall, proxy or certificate. */
  | { kind: "unreachable"; detail?: string }
  /** Nothing answered within the time limit. */
  | { kind: "timeout"; timeoutMs: number };

/** Options of {@link diagnoseNoAnswer}. */
export interface NoAnswerOptions {
  fetch?: typeof fetch;
  /** The add-in page's origin; default `location.origin` (the add-in's own). */
  origin?: string;
  /** Time limit of the probe (default 10 s). */
  timeoutMs?: number;
}

/**
 * Probes `url` once in `no-cors` mode, after a request to it got no answer: `cors` when something
 * answered (so the browser withheld the answer for CORS), else `unreachable` or `timeout`. A URL on
 * the page's own origin cannot be refused for CORS, so it is `unreachable` without a probe.
 */
export async function diagnoseNoAnswer(url: string, options: NoAnswerOptions = {}): Promise<NoAnswerCause> {
  const origin = options.origin ?? pageOrigin() ?? "this add-in's origin";
  const timeoutMs = options.timeoutMs ?? 10_000;
  let target: URL;
  try {
    target = new URL(url, pageOrigin());
  } catch {
    return { kind: "unreachable", detail: `"${url}" is not a URL` };
  }
  if (target.origin === origin) return { kind: "unreachable" };
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetchImpl(target.toString(), {
      mode: "no-cors",
      credentials: "omit",
      cache: "no-store",
      signal: controller.signal,
    });
    await response.body?.cancel().catch(() => undefined);
    return { kind: "cors", origin };
  } catch (error) {
    if (timedOut) return { kind: "timeout", timeoutMs };
    return { kind: "unreachable", detail: systemReason(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** What a user reads for a cause: what happened and what to do. */
export function describeNoAnswer(cause: NoAnswerCause, url: string): string {
  const host = hostOf(url);
  switch (cause.kind) {
    case "cors":
      return (
        `the service at ${host} is reachable but does not answer this add-in's origin, ${cause.origin} (CORS): ` +
        `use a same-origin path or ask the provider to allow ${cause.origin}`
      );
    case "timeout":
      return `cannot reach the service at ${host}: no answer within ${Math.round(cause.timeoutMs / 1000)} s (time limit)`;
    case "unreachable":
      return (
        `cannot reach the service at ${host}: its name does not resolve, the network or a proxy blocks it, ` +
        `or its certificate is not trusted (the browser does not say which)${cause.detail ? `; ${cause.detail}` : ""}`
      );
  }
}

/**
 * Turns a NetworkError (no answer) into what {@link diagnoseNoAnswer} found: a CorsRefusedError,
 * a TimeoutError, or a NetworkError saying "cannot reach the service"; `url` is the request's. Any
 * other error (an HTTP answer, a timeout, a cancellation) is returned unchanged.
 */
export async function explainNoAnswer(error: unknown, url: string, options: NoAnswerOptions = {}): Promise<unknown> {
  if (!(error instanceof NetworkError) || error instanceof CorsRefusedError) return error;
  const cause = await diagnoseNoAnswer(url, options);
  const message = describeNoAnswer(cause, url);
  const init = { operation: error.operation, cause: error };
  if (cause.kind === "cors") return new CorsRefusedError(message, { ...init, origin: cause.origin });
  if (cause.kind === "timeout") return new TimeoutError(message, init);
  return new NetworkError(message, init);
}

/** `service.example.com` (or the URL as given when it is not one). */
function hostOf(url: string): string {
  try {
    return new URL(url, pageOrigin()).host;
  } catch {
    return url;
  }
}

/** The system's reason where the runtime gives one (Node's fetch: ENOTFOUND, ECONNREFUSED, CERT_…). */
function systemReason(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}
