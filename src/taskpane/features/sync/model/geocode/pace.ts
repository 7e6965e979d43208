/**
 * How long a geocoding run takes, said before it starts: requests start no faster than the
 * endpoint's rate and no more than its concurrency at once, each taking about one answer's
 * latency. Whichever limit binds sets the time: the rate ((n − 1) intervals, then one answer) or the
 * concurrency (⌈n / concurrency⌉ rounds of one answer each), or both in turn.
 */

/** The endpoint's limits and the latency of its answers. */
export interface Pace {
  /** Most requests started a second. */
  perSecond: number;
  /** Most requests at once. */
  concurrency: number;
  /** About how long one answer takes, ms. */
  latencyMs: number;
}

/** The latency assumed before any answer from the endpoint was timed (a hosted geocoder's usual). */
export const ASSUMED_LATENCY_MS = 300;

/**
 * Milliseconds `count` requests take at `pace` (0 for none): request i starts at the later of its
 * turn at the rate (i intervals) and the end of request i − concurrency; the last one's end.
 */
export function estimateMs(count: number, pace: Pace): number {
  if (count <= 0) return 0;
  const intervalMs = 1000 / pace.perSecond;
  const ends: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = Math.max(i * intervalMs, i >= pace.concurrency ? ends[i - pace.concurrency]! : 0);
    ends.push(start + pace.latencyMs);
  }
  return ends[count - 1]!;
}

/** "about 2 min 5 s", "about 40 s", "under a second". */
export function formatEstimate(ms: number): string {
  if (ms < 1000) return "under a second";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `about ${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ""}`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How long to wait before retrying after a 429: `Retry-After` where readable, else exponential back-off. */
export function retryDelayMs(retryAfter: string | null | undefined, attempt: number, now = Date.now()): number {
  const backOff = Math.min(60_000, 1000 * 2 ** attempt);
  if (!retryAfter) return backOff;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(300_000, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isFinite(date) ? Math.min(300_000, Math.max(0, date - now)) : backOff;
}
