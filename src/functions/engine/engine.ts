import { RiskClient } from "../../api/client";
import { connectionKey, type ConnectionConfig } from "../../api/config";
import { AbortedError, TimeoutError } from "../../api/errors";
import type { TransportOptions } from "../../api/http";
import { Limiter } from "./limiter";
import { TtlCache, type Settled } from "./ttl-cache";

/** Settings of an engine; every one has a default that suits a workbook of thousands of cells. */
export interface EngineOptions {
  /** The connection, or a function read at each call (the default engine passes the connection store). */
  connection: ConnectionConfig | (() => ConnectionConfig);
  /** Distinct loads running at once (default 6). Pages of one dataset are read ahead inside one load. */
  concurrency?: number;
  /** How long a result answers repeated calls (default 10 minutes). */
  ttlMs?: number;
  /** How long a failure answers repeated calls, so a burst of cells does not repeat it (default 5 s). */
  errorTtlMs?: number;
  /** Time limit of one HTTP attempt (default 20 s). */
  timeoutMs?: number;
  /** Retries of an idempotent request on 429/502/503/504 (default 3). */
  maxRetries?: number;
  /** Upper bound of one back-off delay (default 5 s). */
  maxRetryDelayMs?: number;
  /** First back-off delay (default 300 ms). */
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
  /** A fetch implementation (tests, benchmarks); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Observes each HTTP attempt, in addition to the engine's own counting. */
  onRequest?: TransportOptions["onRequest"];
}

/** The settings an engine runs with, defaults filled in. */
export type EngineSettings = Required<Omit<EngineOptions, "connection" | "fetch" | "onRequest">>;

export const DEFAULT_ENGINE_SETTINGS: Readonly<EngineSettings> = Object.freeze({
  concurrency: 6,
  ttlMs: 10 * 60_000,
  errorTtlMs: 5_000,
  timeoutMs: 20_000,
  maxRetries: 3,
  maxRetryDelayMs: 5_000,
  baseRetryDelayMs: 300,
  deadlineMs: 60_000,
  batchWindowMs: 4,
  readAhead: 4,
  rows: 250,
  maxEntries: 50_000,
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
  /** Loads collected or waiting for a slot now. */
  queued: number;
  /** Entries in the cache now (results and short-lived failures). */
  cacheEntries: number;
}

/** What a loader gets: the client of the current connection and the knobs for paged reads. */
export interface LoadContext {
  client: RiskClient;
  /** Fires when no cell waits for this load any more, or it passed its deadline. */
  signal: AbortSignal;
  readAhead: number;
  rows: number;
}

/**
 * What a call may be cancelled by: an AbortSignal, or anything as small that behaves like one
 * (the formulas use a light one per cell: an AbortController costs more than the rest of a call).
 */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
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
  private readonly limiter: Limiter;
  private readonly flights = new Map<string, Flight>();
  private batch: Flight[] = [];
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private clientKey: string | undefined;
  private clientValue: RiskClient | undefined;
  private counters = zeroCounters();
  private freshPass: FreshPass | undefined;

  constructor(private readonly options: EngineOptions) {
    const settings = { ...DEFAULT_ENGINE_SETTINGS };
    for (const name of Object.keys(settings) as (keyof EngineSettings)[]) {
      const value = options[name];
      if (value !== undefined) {
        if (!Number.isFinite(value) || value < 0) throw new RangeError(`engine setting ${name} must be a number ≥ 0 (got ${value})`);
        settings[name] = value;
      }
    }
    this.settings = Object.freeze(settings);
    const connection = options.connection;
    this.connectionOf = typeof connection === "function" ? connection : () => connection;
    this.cache = new TtlCache(settings.maxEntries);
    this.limiter = new Limiter(Math.max(1, Math.floor(settings.concurrency)));
  }

  /**
   * The data of `key` from the cache, from a load already under way, or from a new load. `key` must
   * name everything the loader's result depends on; the connection is added here. Rejects with
   * AbortedError when `signal` fires and TimeoutError past the deadline; the load goes on while
   * other calls still wait for it.
   */
  load<T>(key: string, loader: Loader<T>, signal?: CancelSignal): Promise<T> {
    this.counters.calls++;
    if (signal?.aborted) return Promise.reject(cancelled());
    let client: RiskClient;
    let fullKey: string;
    try {
      const connection = this.connectionOf();
      const connKey = connectionKey(connection);
      fullKey = `${connKey}\u0000${key}`;
      client = this.clientFor(connection, connKey);
    } catch (error) {
      return Promise.reject(error); // unusable settings (ConfigurationError): nothing to send
    }
    // In a fresh pass the first call of a key skips the cache; later ones join its fresh load
    // while it runs (the cache still holds the old result until it settles), then read its result.
    const pass = this.freshPass;
    const fresh = pass !== undefined && !pass.keys.has(fullKey);
    if (fresh) pass.keys.add(fullKey);
    const skipCache = fresh || (pass !== undefined && this.flights.has(fullKey));
    const cached = skipCache ? undefined : this.cache.get(fullKey);
    if (cached) {
      this.counters.cacheHits++;
      const answer = cached.ok ? Promise.resolve(cached.value as T) : Promise.reject(cached.error);
      pass?.track(answer);
      return answer;
    }
    let flight = this.flights.get(fullKey);
    if (flight) this.counters.joined++;
    else flight = this.startFlight(fullKey, loader as Loader<unknown>, client);
    const answer = this.wait(flight, signal) as Promise<T>;
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

  /** Forgets every cached result; loads under way finish for their callers but are not cached. */
  refresh(): void {
    this.generation++;
    this.cache.clear();
    this.flights.clear();
  }

  /** A snapshot of the counters. */
  stats(): EngineStats {
    return {
      ...this.counters,
      inFlight: this.limiter.active,
      queued: this.batch.length + this.limiter.waiting,
      cacheEntries: this.cache.size,
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
        fetch: this.options.fetch,
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

  private startFlight(key: string, loader: Loader<unknown>, client: RiskClient): Flight {
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
      deadline: undefined,
      resolve,
      reject,
    };
    this.flights.set(key, flight);
    this.counters.loads++;
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
      const signal = flight.controller.signal;
      this.limiter
        .run(() => {
          // One deadline per load, from when it starts: a recalculation joins thousands of cells to
          // a few loads, and a load waiting for its turn behind others is not late.
          flight.deadline = setTimeout(() => this.expire(flight), this.settings.deadlineMs);
          return flight.loader({ client: flight.client, signal, readAhead: this.settings.readAhead, rows: this.settings.rows });
        }, signal)
        .then(
          (value) => this.settle(flight, { ok: true, value }),
          (error) => this.settle(flight, { ok: false, error }),
        );
    }
  }

  private settle(flight: Flight, result: Settled<unknown>): void {
    if (flight.settled) return; // already ended by its deadline or its last waiter leaving
    flight.settled = true;
    clearTimeout(flight.deadline);
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    const abandoned = flight.controller.signal.aborted;
    if (!result.ok && !abandoned) this.counters.failures++;
    if (!abandoned && flight.generation === this.generation) {
      this.cache.set(flight.key, result, result.ok ? this.settings.ttlMs : this.settings.errorTtlMs);
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
    flight.settled = true;
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    this.counters.aborted++;
    flight.controller.abort(cancelled());
    flight.reject(new TimeoutError(`no answer within ${this.settings.deadlineMs} ms`, { operation: "engine.load" }));
  }

  /** A caller stopped waiting; the last one out aborts the load. */
  private leave(flight: Flight): void {
    flight.waiters--;
    if (flight.waiters > 0 || flight.settled) return;
    flight.settled = true;
    clearTimeout(flight.deadline);
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
    this.counters.aborted++;
    flight.controller.abort(cancelled());
    flight.reject(cancelled());
  }
}

function cancelled(): AbortedError {
  return new AbortedError("the call was cancelled", { operation: "engine.load" });
}

function zeroCounters() {
  return { calls: 0, cacheHits: 0, joined: 0, loads: 0, requests: 0, retries: 0, failures: 0, aborted: 0 };
}
