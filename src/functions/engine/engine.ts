import { RiskClient } from "../../api/client";
import { connectionKey, type ConnectionConfig } from "../../api/config";
import { AbortedError, NetworkError, RateLimitError, ServerError, TimeoutError } from "../../api/errors";
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from "../../api/http";
import type { SlotSource } from "../../api/pagination";
import { toExcelError } from "../formula-errors";
import { cacheKey, dataKeyOfCacheKey } from "./cache-key";
import type { LastGood, LastGoodCache, LastGoodUsage } from "./last-good-cache";
import { AdaptiveLimiter } from "./limiter";
import { NoAnswerProbes } from "./no-answer-probe";
import { StaleCells, type StaleMark } from "./stale-cells";
import { TtlCache, type Settled } from "./ttl-cache";

/**
 * What a cell sees when a load fails for want of the service (unreachable, 5xx or 429 after
 * retries, timeout) and a last good value exists: the error (default), or that value.
 */
export type FailurePolicy = "show error" | "keep last good";

/** Settings of an engine; every one has a default that suits a workbook of thousands of cells. */
export interface EngineOptions {
  /** The connection, or a function read at each call (the default engine passes the connection store). */
  connection: ConnectionConfig | (() => ConnectionConfig);
  /**
   * Distinct loads running at once to start with (default 6); the limit then adapts to the service
   * between `minConcurrency` and `maxConcurrency` (see limiter.ts). Pages of one dataset are read
   * ahead inside one load.
   */
  concurrency?: number;
  /** The floor of the adaptive limit (default 2): never fewer loads at once, whatever the service answers. */
  minConcurrency?: number;
  /** The ceiling of the adaptive limit (default 64); equal to the floor, the limit is fixed. */
  maxConcurrency?: number;
  /** How long a result answers repeated calls (default 10 minutes). */
  ttlMs?: number;
  /** How long a failure answers repeated calls, so a burst of cells does not repeat it (default 5 s). */
  errorTtlMs?: number;
  /** Time limit of one HTTP attempt (default: the transport's, {@link DEFAULT_TRANSPORT_OPTIONS}). */
  timeoutMs?: number;
  /** Retries of an idempotent request on 429/502/503/504 (default: the transport's). */
  maxRetries?: number;
  /** Upper bound of one back-off delay (default: the transport's). */
  maxRetryDelayMs?: number;
  /** First back-off delay (default: the transport's). */
  baseRetryDelayMs?: number;
  /** The longest a load runs once started, retries included; then its cells show an error (default 60 s). */
  deadlineMs?: number;
  /** How long calls are collected before the distinct loads go out (default 4 ms). */
  batchWindowMs?: number;
  /** Pages of one dataset in flight at once (default 4). */
  readAhead?: number;
  /** Page size of dataset reads (default and maximum 250). */
  rows?: number;
  /** Cached results kept at most; the oldest go first (default 50,000). */
  maxEntries?: number;
  /**
   * Time limit of the `no-cors` probe that tells a CORS refusal from an unreachable service when
   * loads get no answer (default 5 s; no-answer-probe.ts): their cells wait on it no longer.
   */
  probeTimeoutMs?: number;
  /** How long that probe's answer words later failures without a new probe (default 30 s). */
  probeKeepMs?: number;
  /** A fetch implementation (tests, benchmarks); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Observes each HTTP attempt, in addition to the engine's own counting. */
  onRequest?: TransportOptions["onRequest"];
  /**
   * The persistent cache of results (see last-good-cache.ts): answers fresh results after a
   * runtime restart and keeps last good values for the failure policy. None: memory only.
   */
  lastGood?: LastGoodCache;
  /** What a failed load shows when a last good value exists (default "show error"). */
  failurePolicy?: FailurePolicy;
}

/** The settings an engine runs with, defaults filled in. */
export type EngineSettings = Required<
  Omit<EngineOptions, "connection" | "fetch" | "onRequest" | "lastGood" | "failurePolicy">
>;

export const DEFAULT_ENGINE_SETTINGS: Readonly<EngineSettings> = Object.freeze({
  concurrency: 6,
  minConcurrency: 2,
  maxConcurrency: 64,
  ttlMs: 10 * 60_000,
  errorTtlMs: 5_000,
  timeoutMs: DEFAULT_TRANSPORT_OPTIONS.timeoutMs,
  maxRetries: DEFAULT_TRANSPORT_OPTIONS.maxRetries,
  maxRetryDelayMs: DEFAULT_TRANSPORT_OPTIONS.maxRetryDelayMs,
  baseRetryDelayMs: DEFAULT_TRANSPORT_OPTIONS.baseRetryDelayMs,
  deadlineMs: 60_000,
  batchWindowMs: 4,
  readAhead: 4,
  rows: 250,
  maxEntries: 50_000,
  probeTimeoutMs: 5_000,
  probeKeepMs: 30_000,
});

/** Counters since the engine was made or `resetStats()`; for benchmarks, drills and the task pane. */
export interface EngineStats {
  /** Calls of `load` (one per formula evaluation that needs data). */
  calls: number;
  /** Calls answered from the cache, without waiting. */
  cacheHits: number;
  /** Calls that joined a load already queued or running for the same key. */
  joined: number;
  /** Loads started (distinct keys that missed the cache). */
  loads: number;
  /** HTTP attempts sent, retries included. */
  requests: number;
  /** Retries the transport made (429, 502, 503, 504). */
  retries: number;
  /** Loads that ended in an error. */
  failures: number;
  /** Loads aborted because no cell waited for them any more, or because they passed their deadline. */
  aborted: number;
  /** Loads running now. */
  inFlight: number;
  /** Loads the adaptive limit lets run at once now. */
  concurrency: number;
  /** The service's concurrency cap learned from 429 answers, while it holds (else undefined). */
  learnedCap: number | undefined;
  /** Loads collected or waiting for a slot now. */
  queued: number;
  /** Entries in the cache now (results and short-lived failures). */
  cacheEntries: number;
  /** Loads answered by the persistent cache (fresh results kept across a restart), without a request. */
  persistentHits: number;
  /** Failed loads answered by a last good value (failure policy "keep last good"). */
  keptLastGood: number;
}

/**
 * The loads of the current burst (from the first load after the engine was idle until none is
 * left), for the task pane's usage line: "1,200 / 5,000, about 40 s left".
 */
export interface EngineProgress {
  /** Loads collected, waiting for a slot or running. */
  pending: number;
  /** Loads of this burst that have settled (value, error or cancellation). */
  done: number;
  /** done + pending. */
  total: number;
  /**
   * Time left at the present pace, in ms: the pending loads in rounds of the current limit, each
   * as long as the latest answers took, plus any Retry-After pause; undefined before any answer.
   */
  estimateMs: number | undefined;
  /** Loads the adaptive limit lets run at once now. */
  concurrency: number;
  /** How long the latest answers took, in ms; undefined before any answer. */
  latencyMs: number | undefined;
}

/** What a loader gets: the client of the current connection and the knobs for paged reads. */
export interface LoadContext {
  client: RiskClient;
  /** Fires when no cell waits for this load any more, or it passed its deadline. */
  signal: AbortSignal;
  readAhead: number;
  rows: number;
  /**
   * For a paged load (LoadOptions.paged): the turns its pages take, one each, ahead of the single
   * loads waiting (AdaptiveLimiter.pageSlots). Pass them to the list's `all()`.
   */
  slots?: SlotSource;
}

/**
 * What a call may be cancelled by: an AbortSignal, or anything as small that behaves like one
 * (the formulas use a light one per cell: an AbortController costs more than the rest of a call).
 */
export interface CancelSignal {
  readonly aborted: boolean;
  /** The calling cell's address, when known: failures are listed per cell (stale-cells.ts). */
  readonly cell?: string;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
  /** @internal Set on the signal a derived load reads its source with: the source's stale mark reaches it. */
  readonly derivedFor?: { mark?: StaleMark };
}

/**
 * A scoped refresh's window (see {@link RiskEngine.beginFreshPass}): counts the calls made while
 * it is open and how many of them have settled, and tells listeners after each change.
 */
export class FreshPass {
  /** Keys already loaded afresh in this pass: later calls of them share that load or its result. */
  readonly keys = new Set<string>();
  calls = 0;
  settled = 0;
  ended = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly close: (pass: FreshPass) => void) {}

  /** Calls made in the pass that have not settled yet. */
  get pending(): number {
    return this.calls - this.settled;
  }

  /** Be told after each call made or settled; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the pass: calls from now on use the cache again. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.close(this);
  }

  /** @internal counts one call and its settling. */
  track(promise: Promise<unknown>): void {
    this.calls++;
    this.emit();
    const done = () => {
      this.settled++;
      this.emit();
    };
    promise.then(done, done);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Fetches the data of one key; it must honour `signal`. */
export type Loader<T> = (context: LoadContext) => Promise<T>;

/** How a load's result is kept. */
export interface LoadOptions {
  /**
   * False for a result too large for the persistent cache (a 5,000-asset extended summary is about
   * 40 million characters against its 8 million): it is neither looked up there nor written, which
   * would cost a serialisation of the whole result at every refresh only to be refused. The small
   * results derived from it (`derive`) are kept as usual. Default true.
   */
  persist?: boolean;
  /**
   * True for a loader that reads a list page by page with `LoadContext.slots`: the load takes no
   * turn of the limit itself, each of its pages takes one, ahead of the single loads waiting (a
   * chain of round trips started first runs beside them instead of after them). Its deadline runs
   * from when it is sent. Default false.
   */
  paged?: boolean;
}

/**
 * Computes a small result from other loads of the engine (see {@link RiskEngine.derive}); it must
 * pass `signal` to them.
 */
export type Deriver<T> = (signal: CancelSignal) => Promise<T>;

/** One load shared by every call waiting for the same key. */
interface Flight {
  readonly key: string;
  readonly generation: number;
  readonly controller: AbortController;
  readonly promise: Promise<unknown>;
  readonly loader: Loader<unknown>;
  readonly client: RiskClient;
  waiters: number;
  settled: boolean;
  /** Set by `invalidate`: the data changed while this load ran, so its result is not cached. */
  outdated?: boolean;
  /** Set for a scoped refresh's load (a fresh pass): the persistent cache may not answer it as fresh. */
  skipPersistentFresh?: boolean;
  /** False: the persistent cache neither answers nor keeps this load (LoadOptions.persist). */
  persist: boolean;
  /** Its pages take the limit's turns, not the load (LoadOptions.paged). */
  paged: boolean;
  /** A derived load's computation (see `derive`): it sends nothing itself, so it takes no turn and has no deadline. */
  deriver?: Deriver<unknown>;
  /** Set when the load failed for want of the service: what its cells show (for the stale list). */
  mark?: StaleMark;
  /** The last good value the persistent cache holds for this key, if any (for the failure policy). */
  previous?: LastGood;
  /**
   * Whether {@link previous} was looked up. A refresh's load goes out without it (the persistent
   * cache may not answer it as fresh, so reading and parsing its entry first only delays the
   * request) and looks it up only if the service fails it.
   */
  previousRead?: boolean;
  /** The look-up of {@link previous} under way, when a failure started it. */
  previousLookup?: Promise<void>;
  /** Ends the load for every waiting cell at `deadlineMs` after it started running. */
  deadline: ReturnType<typeof setTimeout> | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The engine behind the RISK.* functions. Each call names the data it needs by a key; calls of one
 * recalculation are collected for a few milliseconds, identical keys share one load, distinct loads
 * run with bounded concurrency, results are cached for a while (keyed by connection and key), and
 * every call settles: by value, by error, by its deadline, or by its own cancellation. A load no
 * call waits for any more is aborted.
 */

export class RiskEngine {
  readonly settings: Readonly<EngineSettings>;
  private readonly connectionOf: () => ConnectionConfig;
  private readonly cache: TtlCache<unknown>;
  private readonly limiter: AdaptiveLimiter;
  /** The fetch every client of this engine sends through, so the limiter sees each attempt. */
  private readonly fetch: typeof fetch;
  private readonly flights = new Map<string, Flight>();
  /** Why loads got no answer (CORS or unreachable): one probe per burst of failures. */
  private readonly probes: NoAnswerProbes;
  private batch: Flight[] = [];
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  /**
   * Persistent results fetched before this time are not fresh any more (only last good values):
   * "Refresh all" must reach the service, not the copy it kept on disk.
   */
  private freshAfter = 0;
  /** The task pane's invalidations (see `invalidate`), newest last, for the persistent cache's freshness. */
  private invalidations: { matches: (key: string) => boolean; at: number }[] = [];
  private clientKey: string | undefined;
  private clientValue: RiskClient | undefined;
  private counters = zeroCounters();
  /** Loads started and not settled, and loads settled since the engine was last idle (see `progress`). */
  private unsettled = 0;
  private burstDone = 0;
  /** The cells showing old values or errors after failed loads (the task pane lists them). */
  readonly staleCells = new StaleCells();
  /** What a failed load shows when a last good value exists; the task pane's setting changes it. */
  failurePolicy: FailurePolicy;
  private freshPass: FreshPass | undefined;

  constructor(private readonly options: EngineOptions) {
    const settings = { ...DEFAULT_ENGINE_SETTINGS };
    for (const name of Object.keys(settings) as (keyof EngineSettings)[]) {
      const value = options[name];
      if (value !== undefined) {
        if (!Number.isFinite(value) || value < 0)
          throw new RangeError(`engine setting ${name} must be a number ≥ 0 (got ${value})`);
        settings[name] = value;
      }
    }
    this.settings = Object.freeze(settings);
    const connection = options.connection;
    this.connectionOf = typeof connection === "function" ? connection : () => connection;
    this.cache = new TtlCache(settings.maxEntries);
    const max = Math.max(1, Math.floor(settings.maxConcurrency));
    this.limiter = new AdaptiveLimiter({
      initial: Math.max(1, Math.floor(settings.concurrency)),
      min: Math.min(max, Math.max(1, Math.floor(settings.minConcurrency))),
      max,
    });
    // Bound, so browsers do not throw "Illegal invocation" on an unbound window.fetch.
    this.fetch = this.limiter.instrument(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
    this.probes = new NoAnswerProbes({
      fetch: options.fetch,
      timeoutMs: settings.probeTimeoutMs,
      keepMs: settings.probeKeepMs,
    });
    this.failurePolicy = options.failurePolicy ?? "show error";
  }

  /**
   * The data of `key` from the cache, from a load already under way, or from a new load. `key` must
   * name everything the loader's result depends on; the connection is added here. Rejects with
   * AbortedError when `signal` fires and TimeoutError past the deadline; the load goes on while
   * other calls still wait for it.
   */
  load<T>(key: string, loader: Loader<T>, signal?: CancelSignal, options: LoadOptions = {}): Promise<T> {
    return this.start(key, loader, undefined, signal, {
      persist: options.persist ?? true,
      paged: options.paged ?? false,
    });
  }

  /**
   * A small result computed from other loads (the part of a large dataset that cells read), cached
   * under its own `key` in memory and in the persistent cache like any load's: after a restart it
   * answers without reading the large dataset again, which may be too large to keep. `derive`
   * reads its sources through `load` with the signal it is given; the derivation takes no turn of
   * the concurrency limit and has no deadline of its own (its sources have theirs), so it can
   * never wait behind the very loads it waits for. A source answering with a last good value
   * marks the derived result too, which is then neither kept nor taken as fresh.
   */
  derive<T>(key: string, derive: Deriver<T>, signal?: CancelSignal): Promise<T> {
    const noLoader = () => Promise.reject(new Error("a derived load has no loader"));
    return this.start(key, noLoader, derive, signal, { persist: true, paged: false });
  }

  private start<T>(
    key: string,
    loader: Loader<T>,
    deriver: Deriver<T> | undefined,
    signal: CancelSignal | undefined,
    how: Required<LoadOptions>,
  ): Promise<T> {
    this.counters.calls++;
    if (signal?.aborted) return Promise.reject(cancelled());
    let client: RiskClient;
    let fullKey: string;
    try {
      const connection = this.connectionOf();
      const connKey = connectionKey(connection);
      fullKey = cacheKey(connKey, key);
      client = this.clientFor(connection, connKey);
    } catch (error) {
      return Promise.reject(error); // unusable settings (ConfigurationError): nothing to send
    }
    const cell = signal?.cell;
    if (cell) this.staleCells.touch(cell, signal);
    // In a fresh pass the first call of a key skips the cache; later ones join its fresh load
    // while it runs (the cache still holds the old result until it settles), then read its result.
    const pass = this.freshPass;
    const fresh = pass !== undefined && !pass.keys.has(fullKey);
    if (fresh) pass.keys.add(fullKey);
    const skipCache = fresh || (pass !== undefined && this.flights.has(fullKey));
    const cached = skipCache ? undefined : this.cache.get(fullKey);
    if (cached) {
      this.counters.cacheHits++;
      if (cell && cached.mark) this.staleCells.record(cell, key, cached.mark);
      if (signal?.derivedFor && cached.mark) signal.derivedFor.mark ??= cached.mark;
      const answer = cached.ok ? Promise.resolve(cached.value as T) : Promise.reject(cached.error);
      pass?.track(answer);
      return answer;
    }
    let flight = this.flights.get(fullKey);
    if (flight) this.counters.joined++;
    else {
      flight = this.startFlight(fullKey, loader as Loader<unknown>, client, how);
      flight.deriver = deriver;
    }
    // A fresh pass's load must reach the service: the persistent cache may not answer it as fresh.
    if (fresh) flight.skipPersistentFresh = true;
    const waiting = this.wait(flight, signal) as Promise<T>;
    const joined = flight;
    const note = () => {
      if (cell && joined.mark) this.staleCells.record(cell, key, joined.mark);
      if (signal?.derivedFor && joined.mark) signal.derivedFor.mark ??= joined.mark;
    };
    const answer = waiting.then(
      (value) => {
        note();
        return value;
      },
      (error: unknown) => {
        note();
        throw error;
      },
    );
    pass?.track(answer);
    return answer;
  }

  /**
   * Opens a fresh pass for a scoped refresh: until `end()`, the first call of each key is loaded
   * anew (skipping the cache; a load already under way is joined) and its result replaces the cached
   * one, while keys never called in the pass keep their cached results. The task pane opens it,
   * re-enters the RISK formulas of the cells in scope so only they recalculate, and waits on its
   * counters. One pass at a time: opening one ends the previous.
   */
  beginFreshPass(): FreshPass {
    this.freshPass?.end();
    const pass = new FreshPass((p) => {
      if (this.freshPass === p) this.freshPass = undefined;
    });
    this.freshPass = pass;
    return pass;
  }

  /**
   * Empties both caches (memory and persistent) and the stale list: the task pane's "Clear cache".
   * Loads under way finish for their callers but are not cached.
   */
  async clearCache(): Promise<void> {
    this.refresh();
    this.staleCells.clear();
    await this.options.lastGood?.clear();
  }

  /** Resolves when the persistent cache holds every result so far (benchmarks, tests). */
  async flushPersistent(): Promise<void> {
    await this.options.lastGood?.flush();
  }

  /** Entries and characters in the persistent cache, or undefined without one. */
  async persistentUsage(): Promise<LastGoodUsage | undefined> {
    return this.options.lastGood?.usage();
  }

  /**
   * "Retry these": forgets the cached results and failures behind the listed cells (memory only;
   * the last good values stay) and returns their addresses, for the pane to recalculate them.
   */
  retryStale(): string[] {
    const connKey = connectionKey(this.connectionOf());
    const list = this.staleCells.list();
    for (const line of list) for (const key of line.keys) this.cache.delete(cacheKey(connKey, key));
    return list.map((line) => line.address);
  }

  /**
   * Forgets every cached result; loads under way finish for their callers but are not cached. The
   * persistent cache keeps its entries as last good values, but none of them answers as fresh.
   */
  refresh(): void {
    this.generation++;
    this.freshAfter = Date.now();
    this.cache.clear();
    this.flights.clear();
  }

  /**
   * Forgets the cached results whose key (as given to `load`, without the connection) `matches`,
   * in every connection, after the task pane changed that data (a sync, an import, a delete).
   * Loads of such keys under way finish for their callers but are not cached, and the next call
   * starts a new one. Answers how many cached results were dropped.
   */
  invalidate(matches: (key: string) => boolean): number {
    const now = Date.now();
    // The persistent cache may hold a result of such a key fetched before the change: it stays a
    // last good value but must not answer as fresh. Older invalidations cannot matter any more:
    // everything fetched before them is past its time to live.
    this.invalidations = this.invalidations.filter((i) => now - i.at < this.settings.ttlMs);
    this.invalidations.push({ matches, at: now });
    for (const [fullKey, flight] of [...this.flights]) {
      if (matches(dataKeyOfCacheKey(fullKey))) {
        flight.outdated = true;
        this.flights.delete(fullKey);
      }
    }
    return this.cache.deleteWhere((fullKey) => matches(dataKeyOfCacheKey(fullKey)));
  }

  /**
   * Whether a result of `fullKey` fetched at `fetchedAt` answers as fresh: after the last refresh and any invalidation
   * of it, within its time to live.
   */
  private isFresh(fullKey: string, fetchedAt: number): boolean {
    if (fetchedAt <= this.freshAfter || Date.now() - fetchedAt >= this.settings.ttlMs) return false;
    const key = dataKeyOfCacheKey(fullKey);
    return !this.invalidations.some((i) => fetchedAt <= i.at && i.matches(key));
  }

  /** A snapshot of the counters. */
  stats(): EngineStats {
    return {
      ...this.counters,
      inFlight: this.limiter.active,
      concurrency: this.limiter.limit,
      learnedCap: this.limiter.state().learnedCap,
      queued: this.batch.length + this.limiter.waiting,
      cacheEntries: this.cache.size,
    };
  }

  /** The current burst of loads: how many are done and pending, and an estimate of the time left. */
  progress(): EngineProgress {
    const limiter = this.limiter.state();
    const latency = limiter.recentLatencyMs ?? limiter.baselineLatencyMs;
    const pending = this.unsettled;
    const estimateMs =
      pending === 0
        ? 0
        : latency === undefined
          ? undefined
          : // Under a rate limit the pace may bound rather than the rounds of the limit.
            Math.max(
              Math.ceil(pending / limiter.limit) * latency,
              limiter.pacePerSecond === undefined ? 0 : (pending / limiter.pacePerSecond) * 1000,
            ) + limiter.pausedForMs;
    return {
      pending,
      done: this.burstDone,
      total: this.burstDone + pending,
      estimateMs,
      concurrency: limiter.limit,
      latencyMs: latency,
    };
  }

  resetStats(): void {
    this.counters = zeroCounters();
  }

  /** The client of the current connection (made anew when the connection changes). */
  get client(): RiskClient {
    const connection = this.connectionOf();
    return this.clientFor(connection, connectionKey(connection));
  }

  /** The client of `connection` (whose cache key is `key`), made anew when the connection changes. */
  private clientFor(connection: ConnectionConfig, key: string): RiskClient {
    if (this.clientValue === undefined || this.clientKey !== key) {
      this.clientValue = new RiskClient(connection, {
        timeoutMs: this.settings.timeoutMs,
        maxRetries: this.settings.maxRetries,
        maxRetryDelayMs: this.settings.maxRetryDelayMs,
        baseRetryDelayMs: this.settings.baseRetryDelayMs,
        fetch: this.fetch,
        onRequest: (event) => {
          this.counters.requests++;
          this.options.onRequest?.(event);
        },
        onRetry: () => {
          this.counters.retries++;
        },
      });
      this.clientKey = key;
    }
    return this.clientValue;
  }

  private startFlight(
    key: string,
    loader: Loader<unknown>,
    client: RiskClient,
    { persist, paged }: Required<LoadOptions>,
  ): Flight {
    let resolve!: (value: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // waiters handle it; a flight nobody waits for must not warn
    const flight: Flight = {
      key,
      generation: this.generation,
      controller: new AbortController(),
      promise,
      loader,
      client,
      waiters: 0,
      settled: false,
      persist,
      paged,
      deadline: undefined,
      resolve,
      reject,
    };
    this.flights.set(key, flight);
    this.counters.loads++;
    if (this.unsettled === 0) this.burstDone = 0;
    this.unsettled++;
    this.batch.push(flight);
    if (this.batchTimer === undefined) {
      this.batchTimer = setTimeout(() => this.dispatch(), this.settings.batchWindowMs);
    }
    return flight;
  }

  /** Sends the collected loads into the limiter, in the order the calls came. */
  private dispatch(): void {
    this.batchTimer = undefined;
    const batch = this.batch;
    this.batch = [];
    for (const flight of batch) {
      if (flight.controller.signal.aborted) continue;
      const lastGood = flight.persist ? this.options.lastGood : undefined;
      // Since a Refresh all nothing stored before it can answer as fresh, and what this engine
      // stored after it is in its memory: reading and parsing the entry first would only delay
      // the request (in Office, a storage call per load). Its last good value is needed only if
      // the load fails, and is looked up then.
      if (!lastGood || flight.skipPersistentFresh || this.freshAfter > 0) {
        this.run(flight, undefined, !lastGood);
        continue;
      }
      // The persistent cache first: after a restart, a fresh result answers without a request.
      void lastGood.get(flight.key).then((previous) => {
        if (flight.settled) return;
        if (previous && !flight.skipPersistentFresh && this.isFresh(flight.key, previous.fetchedAt)) {
          this.counters.persistentHits++;
          this.settle(flight, { ok: true, value: previous.value }, previous.fetchedAt);
        } else this.run(flight, previous, true);
      });
    }
  }

  /**
   * Runs a load in its turn; `previous` is its last good value, if the persistent cache has one
   * (`previousRead`: it was looked up, else a failure looks it up).
   */
  private run(flight: Flight, previous: LastGood | undefined, previousRead: boolean): void {
    flight.previous = previous;
    flight.previousRead = previousRead;
    const signal = flight.controller.signal;
    const deriver = flight.deriver;
    // One deadline per load, from when it starts: a recalculation joins thousands of cells to a few
    // loads, and a load waiting for its turn behind others is not late. A paged load's pages go
    // before the waiting loads, so it starts at once.
    const send = (slots?: SlotSource) => {
      flight.deadline = setTimeout(() => this.expire(flight), this.settings.deadlineMs);
      return flight.loader({
        client: flight.client,
        signal,
        readAhead: this.settings.readAhead,
        rows: this.settings.rows,
        ...(slots ? { slots } : {}),
      });
    };
    const running = deriver
      ? // A derived load's sources tell it when they answer with a last good value.
        Promise.resolve().then(() => deriver(derivedSignal(signal, flight)))
      : flight.paged
        ? Promise.resolve().then(() => send(this.limiter.pageSlots))
        : this.limiter.run(() => send(), signal);
    running.then(
      (value) => {
        // A derived result from a source's last good value is shown as such and not kept.
        if (flight.mark) {
          this.settle(flight, { ok: true, value, mark: flight.mark });
          return;
        }
        // A load begun before a refresh is not kept: it may hold what the refresh meant to replace.
        if (flight.persist && flight.generation === this.generation && !flight.outdated)
          this.options.lastGood?.set(flight.key, value, Date.now());
        this.settle(flight, { ok: true, value });
      },
      (error) => this.fail(flight, error),
    );
  }

  /**
   * A load failed. When the service was out of reach (not a bad request or a missing portfolio),
   * its cells go on the stale list, and with policy "keep last good" they show the last good value.
   * When no answer came at all, the burst's probe first tells whether the service refused this
   * add-in's origin (CORS), so the cells name that fix; the deadline still bounds the wait.
   */
  private fail(flight: Flight, error: unknown): void {
    if (error instanceof NetworkError && !flight.controller.signal.aborted && !flight.settled) {
      void this.probes
        .explain(error, flight.client.connection)
        .catch(() => error)
        .then((explained) => this.settleFailure(flight, explained));
      return;
    }
    this.settleFailure(flight, error);
  }

  /** Settles a failed load with `error`, as an outage or not (see `fail`). */
  private settleFailure(flight: Flight, error: unknown): void {
    if (!isOutage(error) || flight.controller.signal.aborted) {
      this.settle(flight, { ok: false, error });
      return;
    }
    if (flight.previousRead) {
      this.settle(flight, this.outcomeOfOutage(flight, error));
      return;
    }
    void this.lookUpPrevious(flight).then(() => this.settle(flight, this.outcomeOfOutage(flight, error)));
  }

  /**
   * Reads a load's last good value from the persistent cache, if not done yet. Always resolves:
   * the cache's read has its own time limit and answers nothing when the store fails.
   */
  private lookUpPrevious(flight: Flight): Promise<void> {
    if (flight.previousRead) return Promise.resolve();
    const lastGood = flight.persist ? this.options.lastGood : undefined;
    flight.previousLookup ??= (lastGood ? lastGood.get(flight.key) : Promise.resolve(undefined)).then((previous) => {
      flight.previous = previous;
      flight.previousRead = true;
    });
    return flight.previousLookup;
  }

  /** What the cells of a load the service could not answer see, by the failure policy; marks the flight. */
  private outcomeOfOutage(flight: Flight, error: unknown): Settled<unknown> {
    // The words the cell's error shows (short, no URL or service page), not the transport's.
    const reason = toExcelError(error, { notFound: undefined }).message;
    const previous = flight.previous;
    if (previous && this.failurePolicy === "keep last good") {
      this.counters.keptLastGood++;
      flight.mark = { showing: "old value", fetchedAt: previous.fetchedAt, reason };
      return { ok: true, value: previous.value, mark: flight.mark };
    }
    flight.mark = { showing: "error", fetchedAt: previous?.fetchedAt, reason };
    return { ok: false, error, mark: flight.mark };
  }

  /** `fetchedAt`: when a result from the persistent cache was fetched (its memory entry expires with it). */
  private settle(flight: Flight, result: Settled<unknown>, fetchedAt?: number): void {
    if (flight.settled) return; // already ended by its deadline or its last waiter leaving
    this.markSettled(flight);
    clearTimeout(flight.deadline);
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    const abandoned = flight.controller.signal.aborted;
    if (!result.ok && !abandoned) this.counters.failures++;
    if (!abandoned && flight.generation === this.generation && !flight.outdated) {
      // A last good value shown for a failure is kept as briefly as a failure: the next
      // recalculation after the burst tries the service again.
      const ttl =
        result.ok && !result.mark
          ? this.settings.ttlMs - (fetchedAt === undefined ? 0 : Date.now() - fetchedAt)
          : this.settings.errorTtlMs;
      this.cache.set(flight.key, result, ttl);
    }
    if (result.ok) flight.resolve(result.value);
    else flight.reject(result.error);
  }

  /** One caller's wait: ends with the flight (value, error or deadline) or the caller's cancellation. */
  private wait(flight: Flight, signal: CancelSignal | undefined): Promise<unknown> {
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise((resolve, reject) => {
      let done = false;
      const onAbort = () => {
        if (done) return;
        done = true;
        this.leave(flight);
        reject(cancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      flight.promise.then(
        (value) => {
          done = true;
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          done = true;
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  /** The load passed its deadline: every waiting cell gets a TimeoutError and the request is aborted. */
  private expire(flight: Flight): void {
    if (flight.settled) return;
    this.markSettled(flight);
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    this.counters.aborted++;
    flight.controller.abort(cancelled());
    // Past its deadline a load is an outage like any other: the failure policy applies.
    const error = new TimeoutError(`no answer within ${this.settings.deadlineMs} ms`, { operation: "engine.load" });
    const end = () => {
      const outcome = this.outcomeOfOutage(flight, error);
      if (outcome.ok) flight.resolve(outcome.value);
      else flight.reject(outcome.error);
    };
    if (flight.previousRead) end();
    else void this.lookUpPrevious(flight).then(end);
  }

  /** Marks a load settled (once) and counts it done for `progress`. */
  private markSettled(flight: Flight): void {
    flight.settled = true;
    this.unsettled--;
    this.burstDone++;
  }

  /** A caller stopped waiting; the last one out aborts the load. */
  private leave(flight: Flight): void {
    flight.waiters--;
    if (flight.waiters > 0 || flight.settled) return;
    this.markSettled(flight);
    clearTimeout(flight.deadline);
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    this.counters.aborted++;
    flight.controller.abort(cancelled());
    flight.reject(cancelled());
  }
}

/** The signal a derived load passes to its sources: the flight's own, and the flight to mark. */
function derivedSignal(signal: AbortSignal, flight: Flight): CancelSignal {
  return {
    get aborted() {
      return signal.aborted;
    },
    derivedFor: flight,
    addEventListener: (type, listener, options) => signal.addEventListener(type, listener, options),
    removeEventListener: (type, listener) => signal.removeEventListener(type, listener),
  };
}

function cancelled(): AbortedError {
  return new AbortedError("the call was cancelled", { operation: "engine.load" });
}

function zeroCounters() {
  return {
    calls: 0,
    cacheHits: 0,
    joined: 0,
    loads: 0,
    requests: 0,
    retries: 0,
    failures: 0,
    aborted: 0,
    persistentHits: 0,
    keptLastGood: 0,
  };
}

/** Failures that say nothing about the data, only that the service could not answer now. */
function isOutage(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof ServerError ||
    error instanceof RateLimitError ||
    error instanceof TimeoutError
  );
}
