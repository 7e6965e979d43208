/**
 * Asking a geocoder about many addresses, at an honest pace: requests start no faster than the
 * endpoint's rate and no more than its concurrency at once; a 429 pauses every request for its
 * `Retry-After` where the browser lets it be read, else backs off exponentially; a cancel stops at
 * once and keeps what was found (in the cache too, so the next run resumes). Failures are named:
 * a refused key (401/403), rate limiting that does not end (429), the geocoder's own error (5xx),
 * a timeout, and "could not reach the geocoder, or it refuses this add-in's origin" where the
 * browser cannot tell a CORS refusal from a network failure.
 *
 * Its own small ky instance, not src/api's transport: that one carries the risk service's key,
 * error tree and retry policy; a geocoder is another party, which must never receive the service's
 * headers, and whose pace is set here. The geocoder key travels in a header, never in a URL, and
 * no message here ever holds it.
 */
import ky, { TimeoutError as KyTimeoutError } from "ky";
import { message, type Message } from "../../../i18n/messages";
import { MessageError, saidBy } from "../../../i18n/message-error";
import type { GeocoderSettings } from "../../../shared/geocoder-connection";
import type { AddressRow } from "./model/geocode/address-rows";
import { readNominatimAnswer, readPeliasAnswer } from "./model/geocode/answers";
import type { FoundPlace } from "./model/geocode/found-place";
import { retryDelayMs } from "./model/geocode/pace";
import { searchUrl } from "./model/geocode/search-url";
import { GeocodeCache, geocodeCacheKey } from "./geocode-cache";

/** Why a request, or the whole run, failed. */
export type GeocoderFailureKind =
  "unauthorized" | "rate-limited" | "server" | "timeout" | "unreachable" | "answer" | "refused";

/** A named geocoder failure, worded where it is shown; its message never holds the key. */
export class GeocoderFailure extends MessageError {
  constructor(
    readonly kind: GeocoderFailureKind,
    said: Message,
    readonly status?: number,
  ) {
    super(said);
    this.name = "GeocoderFailure";
  }
}

/** What one row gave. */
export interface RowOutcome {
  row: AddressRow;
  /** Places found, best first (empty: the geocoder found nothing). */
  places?: FoundPlace[];
  /** Why this row has no answer. */
  failure?: GeocoderFailure;
  /** Answered from the cache, no request. */
  cached?: boolean;
}

/** Options of {@link geocodeRows}. */
export interface GeocodeRunOptions {
  settings: GeocoderSettings;
  rows: readonly AddressRow[];
  cache?: GeocodeCache;
  signal?: AbortSignal;
  /** Called after each row, with the rows done (cached or asked) and the answer's latency. */
  onRow?: (outcome: RowOutcome, done: number, latencyMs?: number) => void;
  /** One request's limit (default 15 s). */
  timeoutMs?: number;
  /** 429s (or unreadable failures after answers came) retried per address before the run stops (default 6). */
  maxRetries?: number;
}

/** What a run found: an outcome per row asked (in row order), and why it stopped early, if it did. */
export interface GeocodeRun {
  outcomes: RowOutcome[];
  /** The failure that stopped the run (every further request would fail too), or "cancelled". */
  stopped?: GeocoderFailure | "cancelled";
  /** Median latency of the answers, ms (for the next estimate). */
  latencyMs?: number;
}

const geocoderHttp = ky.create({ retry: 0, throwHttpErrors: false, timeout: false });

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Starts requests no faster than `perSecond`; a pause holds every later start. */
class Pacer {
  private next = 0;
  constructor(private readonly intervalMs: number) {}
  async slot(signal?: AbortSignal): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + this.intervalMs;
    await sleep(at - now, signal);
  }
  pause(ms: number): void {
    this.next = Math.max(this.next, performance.now() + ms);
  }
}

/** Asks the geocoder about one address: its places, or a GeocoderFailure (with `retryAfter` for a 429). */
async function askOnce(
  settings: GeocoderSettings,
  row: AddressRow,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<FoundPlace[]> {
  const host = new URL(settings.url).host;
  let response: Response;
  try {
    response = await geocoderHttp.get(searchUrl(settings, row.query), {
      signal,
      timeout: timeoutMs,
      headers: {
        Accept: "application/json",
        ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
      },
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof KyTimeoutError)
      throw new GeocoderFailure(
        "timeout",
        message("sync.geocode.error.timeout", { host, seconds: Math.round(timeoutMs / 1000) }),
      );
    throw new GeocoderFailure("unreachable", message("sync.geocode.error.unreachable", { host }));
  }
  if (response.status === 401 || response.status === 403)
    throw new GeocoderFailure(
      "unauthorized",
      message("sync.geocode.error.unauthorized", { host, status: String(response.status) }),
      response.status,
    );
  if (response.status === 429) {
    const failure = new GeocoderFailure("rate-limited", message("sync.geocode.error.rateLimited", { host }), 429);
    throw Object.assign(failure, { retryAfter: response.headers.get("Retry-After") });
  }
  if (response.status >= 500)
    throw new GeocoderFailure(
      "server",
      message("sync.geocode.error.server", { host, status: String(response.status) }),
      response.status,
    );
  if (!response.ok)
    throw new GeocoderFailure(
      "refused",
      message("sync.geocode.error.refused", { host, status: String(response.status) }),
      response.status,
    );
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new GeocoderFailure("answer", message("sync.geocode.error.notJson", { host }));
  }
  try {
    return settings.kind === "pelias" ? readPeliasAnswer(body, host) : readNominatimAnswer(body, host);
  } catch (error) {
    throw new GeocoderFailure("answer", saidBy(error) ?? message("sync.geocode.error.notJson", { host }));
  }
}

/** Failures after which every further request would fail too: the run stops. */
function stopsTheRun(failure: GeocoderFailure): boolean {
  return (
    failure.kind === "unauthorized" ||
    failure.kind === "rate-limited" ||
    failure.kind === "unreachable" ||
    failure.kind === "answer"
  );
}

/**
 * Geocodes `rows` (cached addresses answer at once), at the settings' pace. Never rejects: a
 * failure that stops the run is in `stopped`, with every outcome found before it.
 */
export async function geocodeRows(options: GeocodeRunOptions): Promise<GeocodeRun> {
  const { settings, rows, signal } = options;
  const cache = options.cache ?? new GeocodeCache();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRetries = options.maxRetries ?? 6;
  const pacer = new Pacer(1000 / settings.perSecond);
  const outcomes = new Map<number, RowOutcome>();
  const latencies: number[] = [];
  const queue = rows.map((row) => ({ row, attempt: 0 }));
  let stopped: GeocodeRun["stopped"];
  let answered = 0;
  let done = 0;

  const finish = (outcome: RowOutcome, latencyMs?: number) => {
    outcomes.set(outcome.row.index, outcome);
    options.onRow?.(outcome, ++done, latencyMs);
  };
  const worker = async () => {
    for (let item = queue.shift(); item && !stopped; item = queue.shift()) {
      const key = geocodeCacheKey(settings, item.row.query);
      const cached = await cache.get(key);
      if (cached) {
        finish({ row: item.row, places: cached, cached: true });
        continue;
      }
      await pacer.slot(signal);
      if (signal?.aborted || stopped) break;
      const started = performance.now();
      try {
        const places = await askOnce(settings, item.row, signal, timeoutMs);
        const latency = performance.now() - started;
        latencies.push(latency);
        answered++;
        await cache.set(key, places);
        finish({ row: item.row, places }, latency);
      } catch (error) {
        if (signal?.aborted) break;
        const failure = error as GeocoderFailure & { retryAfter?: string | null };
        // A 429 (or, once answers came, an unreadable failure: a 429 without CORS headers looks so) waits and retries.
        const retryable =
          failure.kind === "rate-limited" ||
          (failure.kind === "unreachable" && answered > 0) ||
          failure.kind === "server";
        if (retryable && item.attempt < (failure.kind === "server" ? 2 : maxRetries)) {
          pacer.pause(retryDelayMs(failure.retryAfter, item.attempt));
          queue.unshift({ row: item.row, attempt: item.attempt + 1 });
          continue;
        }
        if (stopsTheRun(failure)) stopped ??= failure;
        else finish({ row: item.row, failure });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.concurrency, rows.length)) }, worker));
  await cache.flush();
  if (!stopped && signal?.aborted) stopped = "cancelled";
  const sorted = latencies.sort((a, b) => a - b);
  return {
    outcomes: rows.flatMap((row) => (outcomes.has(row.index) ? [outcomes.get(row.index)!] : [])),
    ...(stopped ? { stopped } : {}),
    ...(sorted.length > 0 ? { latencyMs: sorted[Math.floor(sorted.length / 2)] } : {}),
  };
}
