import {
  constants as perfConstants,
  performance as nodePerformance,
  PerformanceObserver,
  type PerformanceEntry,
} from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Peak memory seen while a scenario ran, in bytes. */
export interface MemoryPeak {
  rss: number;
  heapUsed: number;
}

/** What one timed run produced: its result, wall time and peak memory. */
export interface Timed<T> {
  value: T;
  wallMs: number;
  memory: MemoryPeak;
}

/** A garbage collection, so each scenario's heap peak starts from what is really live. */
const collectGarbage: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return () => undefined;
  }
})();

/** The heap that is live now: bytes used after a full garbage collection. */
export function liveHeapBytes(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * Runs `work` and returns its wall time and the peak RSS and heap sampled every 10 ms meanwhile
 * (plus once at the end). Collects garbage first so one scenario's leftovers do not count in the next.
 */
export async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  collectGarbage();
  const peak: MemoryPeak = { rss: 0, heapUsed: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
  };
  sample();
  const sampler = setInterval(sample, 10);
  const started = performance.now();
  try {
    const value = await work();
    const wallMs = performance.now() - started;
    sample();
    return { value, wallMs, memory: peak };
  } finally {
    clearInterval(sampler);
  }
}

/** Runs `task` over every item with at most `limit` running at once; results in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A piece of work's wall time split by what this thread did meanwhile. */
export interface ThreadTime<T> {
  value: T;
  wallMs: number;
  /** The event loop idle: nothing to run, waiting on I/O (for a paste, on the reads). */
  idleMs: number;
  /** The event loop busy: JavaScript, parsing, garbage collection, callbacks. */
  activeMs: number;
}

/**
 * Runs `work` and splits its wall time into the event loop's idle and active time over the same
 * interval (Node's event loop utilisation, from libuv's own accounting), so idle + active = wall.
 */
export async function threadTime<T>(work: () => Promise<T>): Promise<ThreadTime<T>> {
  const before = nodePerformance.eventLoopUtilization();
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const { idle, active } = nodePerformance.eventLoopUtilization(before);
  return { value, wallMs, idleMs: idle, activeMs: active };
}

/** Garbage-collection pauses on this thread, added up since {@link watchGc} began. */
export interface GcWatch {
  /** Milliseconds paused, all kinds, and those of major (mark-compact, incremental finalisation) collections. */
  totals(): { allMs: number; majorMs: number };
  stop(): void;
}

/**
 * Adds up this thread's garbage-collection pauses from V8's `gc` performance entries. Entries
 * arrive asynchronously: read the totals after the work and at least one turn of the event loop.
 */
export function watchGc(): GcWatch {
  let allMs = 0;
  let majorMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      allMs += entry.duration;
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind !== perfConstants.NODE_PERFORMANCE_GC_MINOR) majorMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { totals: () => ({ allMs, majorMs }), stop: () => observer.disconnect() };
}
