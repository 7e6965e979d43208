import type { SlotSource } from "../../api/pagination";

/** Settings of an {@link AdaptiveLimiter}; every one but the three limits has a default. */
export interface LimiterOptions {
  /** Tasks at once to start with. */
  initial: number;
  /** Never fewer tasks at once than this (the floor). */
  min: number;
  /** Never more tasks at once than this (the ceiling). */
  max: number;
  /** A round whose mean latency exceeds the baseline by this factor counts as rising latency (default 2). */
  latencyTolerance?: number;
  /** How long a concurrency cap learned from a 429 holds growth before it is probed again (default 30 s). */
  capMemoryMs?: number;
  /** The clock (tests pass a fake one). */
  now?: () => number;
}

/** What one HTTP attempt told about the service, as the limiter's wrapped fetch reports it. */
export interface AttemptOutcome {
  /** HTTP status, or 0 when no answer came (network failure, abort). */
  status: number;
  /** Milliseconds from sending to the answer's headers. */
  latencyMs: number;
  /** The answer's `Retry-After`, in milliseconds, when it had one. */
  retryAfterMs?: number;
  /** Attempts on the wire when this one was sent, itself included. */
  inFlightAtSend: number;
  /** When it was sent (the limiter's clock). */
  sentAt: number;
}

/** A snapshot of the limiter for stats and the task pane. */
export interface LimiterState {
  /** Tasks it lets run at once now. */
  limit: number;
  /** The concurrency cap learned from 429 answers, while it holds. */
  learnedCap: number | undefined;
  /** Milliseconds until new tasks may start after a `Retry-After` (0: not paused). */
  pausedForMs: number;
  /** The latency of an answer when the service is not loaded (the lowest round mean so far). */
  baselineLatencyMs: number | undefined;
  /** Mean latency of the last full round of answers. */
  recentLatencyMs: number | undefined;
  /** Under a rate limit, the attempts per second it sends at (undefined: no rate limit seen). */
  pacePerSecond: number | undefined;
}

interface Waiting {
  start(): void;
  cancel?: () => void;
  /** A page of a list being read: it goes before the single tasks waiting ({@link AdaptiveLimiter.pageSlots}). */
  ahead?: boolean;
}

/** How far a 503, or rising latency, lowers the limit: gently, so it does not idle far below what the service takes. */
const GENTLE_DECREASE = 0.9;
/**
 * How far below a learned cap a refused attempt's count on the wire must be for the cap not to
 * explain it: the client counts an attempt from sending until its answer is read, the service
 * from arrival to answering, so at 300 ms the client's count runs up to 4 ahead at a cap of 32.
 */
function capNoise(cap: number): number {
  return Math.max(2, Math.ceil(cap * 0.15));
}
/**
 * A 429 at or below a learned cap while the service served fewer than this share of the attempts
 * on the wire at once, over the last 2 s, is a sign of a rate limit: under a cap it serves about
 * the cap (at 300 ms and 50/s, 15 of the 30 on the wire; at a cap of 32, about 30).
 */
const RATE_SIGN = 0.7;
const RATE_SIGN_WINDOW_MS = 2_000;
/** Under a rate limit, each overrun lowers the pace to this share of what it was. */
const PACE_DECREASE = 0.92;
/** Under a rate limit, the pace rises by this share (at least half a request per second)… */
const PACE_INCREASE = 0.01;
/** …after this long without a 429. */
const PACE_PROBE_MS = 2_000;
/** The first pace is this share of the most successes answered in any one second of the last 3 s. */
const PACE_START = 0.95;
/** Under a rate limit, slots enough for this many times the pace × latency (the pace, not the slots, bounds). */
const PACE_SLOTS = 2;
/**
 * Successes counted for the throughput estimate after a 429 (Little's law: throughput × latency =
 * concurrency): long enough to even out a rate limit's windows.
 */
const THROUGHPUT_WINDOW_MS = 5_000;

/**
 * Runs tasks with a limit on how many run at once that adapts to the service, in arrival order.
 *
 * - It **grows** while answers succeed with flat latency and tasks are waiting: by one per answer
 *   until the first sign of overload (a "slow start", doubling each round trip), then by one per
 *   round (one answer per running task).
 * - On a **429** it learns the service's cap: the attempts on the wire when the refused one was
 *   sent, less one. The limit drops to that cap or to what the service actually served (successes
 *   of the last 5 s × their latency), whichever is lower, and does not grow past the cap for
 *   `capMemoryMs`; then it probes one step above it. A 429 at or near a cap already known (within
 *   the counts' noise, {@link capNoise}) only lowers the cap: the client's count runs a little
 *   ahead of the service's.
 * - 429s that a cap cannot explain, in two overshoots, show a **rate limit** (see
 *   `capCannotExplain`), for good: from then on every attempt (retries included) is *paced*, sent at most at
 *   `pacePerSecond`, which starts a little below the most successes answered in one second
 *   lately, drops by 8 % on each overrun and rises by 1 % every 2 s without one; the concurrency
 *   limit then only keeps slots enough for that pace. Holding a concurrency cannot: at 300 ms,
 *   15 at once is 48/s and 16 overruns 50/s.
 * - A **`Retry-After`** (429 or 503) pauses new starts (and, under a rate limit, paced attempts)
 *   until then; running tasks go on. A 429 explained by a cap already known (a probe past it,
 *   the rest of one overshoot, the counts' noise) does not pause the others: only the refused
 *   attempt waits.
 * - A **503** lowers it gently (× 0.9), never below the floor (under a rate limit it leaves the pace
 *   as it is: one failed request, which its retry answers). **Rising latency** (a round's mean
 *   latency above `latencyTolerance` × the baseline) stops growth and lowers it gently too, but
 *   never below where it started: over a browser's 6 connections it settles at about 12
 *   (latency at most twice the baseline) instead of halving below them.
 * - Answers to attempts sent before the last decrease do not decrease it again (one overshoot, one
 *   reaction).
 *
 * A task whose signal fires while it waits leaves the queue at once and its promise rejects with
 * the signal's reason, so cancelled work neither occupies the service nor keeps a cell busy.
 */
export class AdaptiveLimiter {
  private running = 0;
  private readonly queue: Waiting[] = [];
  private limitValue: number;
  private slowStart = true;
  private cap: number | undefined;
  private capUntil = 0;
  /**
   * Set when 429s keep coming at or below a cap learned before: the service limits a rate, not
   * how many at once, so the limit holds below what it let through and regrows slowly.
   */
  private rateLimited = false;
  /** 429s (one per overshoot) that a cap could not explain. */
  private unexplained = 0;
  /** Under a rate limit: attempts per second, when the next attempt may be sent, and when the pace last changed. */
  private pace: number | undefined;
  private nextSendAt = 0;
  private paceChangedAt = 0;
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private onWire = 0;
  private roundSum = 0;
  private roundCount = 0;
  /** Answers in the current round: the limit when it began. */
  private roundSize = 2;
  /** Full rounds so far, and the lowest round mean: the baseline. */
  private rounds = 0;
  private lowestRoundMean = Number.POSITIVE_INFINITY;
  private recentMean: number | undefined;
  private readonly successTimes: number[] = [];
  private readonly successLatencies: number[] = [];
  private readonly initial: number;
  private readonly min: number;
  private readonly max: number;
  private readonly tolerance: number;
  private readonly capMemoryMs: number;
  private readonly now: () => number;

  constructor(options: LimiterOptions) {
    const { initial, min, max } = options;
    for (const [name, value] of Object.entries({ initial, min, max }))
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`concurrency ${name} must be a whole number ≥ 1 (got ${value})`);
    if (min > max) throw new RangeError(`the concurrency floor (${min}) is above the ceiling (${max})`);
    this.min = min;
    this.max = max;
    this.limitValue = Math.min(max, Math.max(min, initial));
    this.initial = this.limitValue;
    this.tolerance = options.latencyTolerance ?? 2;
    this.capMemoryMs = options.capMemoryMs ?? 30_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Tasks started and not finished. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Tasks it lets run at once now. */
  get limit(): number {
    return Math.floor(this.limitValue);
  }

  /** A snapshot of what it has learned. */
  state(): LimiterState {
    const now = this.now();
    return {
      limit: this.limit,
      learnedCap: this.cap !== undefined && now < this.capUntil ? this.cap : undefined,
      pausedForMs: Math.max(0, this.pausedUntil - now),
      baselineLatencyMs: this.baseline(),
      recentLatencyMs: this.recentMean,
      pacePerSecond: this.pace,
    };
  }

  /**
   * Runs `task` in its turn; rejects with `signal.reason` if the signal fires before it starts.
   * `ahead`: it goes before the tasks waiting without it (after those waiting with it).
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal, ahead = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const entry: Waiting = {
        ahead,
        start: () => {
          if (entry.cancel) signal?.removeEventListener("abort", entry.cancel);
          this.running++;
          let promise: Promise<T>;
          try {
            promise = task();
          } catch (error) {
            promise = Promise.reject(error);
          }
          promise.then(resolve, reject).finally(() => {
            this.running--;
            this.drain();
          });
        },
      };
      if (this.canStart()) {
        entry.start();
        return;
      }
      if (signal) {
        entry.cancel = () => {
          const at = this.queue.indexOf(entry);
          if (at >= 0) this.queue.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", entry.cancel, { once: true });
      }
      let at = this.queue.length;
      if (ahead) while (at > 0 && !this.queue[at - 1]!.ahead) at--;
      this.queue.splice(at, 0, entry);
      this.schedulePauseEnd();
    });
  }

  /**
   * Turns for the pages of a list read page by page (`ReadAllOptions.slots`): each page request
   * takes one turn of the limit, as a single load does, so the limit counts what is on the wire;
   * and a page goes before the single loads waiting. A list is a chain of round trips (a page, then
   * the next pages as the first come back): started first, it runs beside the single loads instead
   * of trailing them (the weekly refresh's extended summary, 21 pages after 500 searches, added
   * 2 s of one list alone on the wire at 300 ms).
   */
  readonly pageSlots: SlotSource = pageSlotsOf(this);

  /**
   * Wraps a fetch so every attempt through it (retries included) is reported to {@link observe}:
   * its status, latency to the headers, `Retry-After`, and how many attempts were on the wire.
   * Under a rate limit each attempt first waits for its turn at the pace.
   */
  instrument(fetchImpl: typeof fetch): typeof fetch {
    return async (input, init) => {
      await this.paced(init?.signal ?? (input instanceof Request ? input.signal : undefined));
      const sentAt = this.now();
      const inFlightAtSend = ++this.onWire;
      let status = 0;
      let retryAfterMs: number | undefined;
      try {
        const response = await fetchImpl(input, init);
        status = response.status;
        retryAfterMs = retryAfterOf(response.headers.get("retry-after"), Date.now());
        return response;
      } finally {
        this.onWire--;
        this.observe({ status, latencyMs: this.now() - sentAt, retryAfterMs, inFlightAtSend, sentAt });
      }
    };
  }

  /**
   * Resolves when an attempt may be sent: at once without a rate limit; under one, at its turn at
   * the pace and not before a `Retry-After` pause ends (a turn taken before a pause began is taken
   * again after it). Always settles: each wait is a timer, and an attempt whose request is
   * aborted while it waits (a cell's deadline, a Cancel) is rejected at once as fetch would be,
   * so a slow pace never leaves a cell waiting past its deadline.
   */
  private async paced(signal: AbortSignal | null | undefined): Promise<void> {
    for (;;) {
      if (this.pace === undefined) return;
      signal?.throwIfAborted();
      const now = this.now();
      const at = Math.max(this.nextSendAt, now, this.pausedUntil);
      // No catching up on turns missed while idle: a burst would overrun the service's window.
      this.nextSendAt = at + 1000 / this.pace;
      if (at <= now) return;
      await abortableDelay(at - now, signal);
      if (this.now() >= this.pausedUntil) return;
    }
  }

  /** Takes what one attempt told about the service into account (see the class comment). */
  observe(outcome: AttemptOutcome): void {
    const { status } = outcome;
    if (status === 0) return; // no answer: says nothing about how loaded the service is
    const now = this.now();
    // A refusal explained by a cap already known (a probe, the rest of one overshoot, or the
    // counts' noise at the cap) says nothing new: the refused attempt waits its Retry-After, the
    // others go on at the cap. Under a rate limit a refusal lowers the pace instead: a pause of
    // every start for a whole Retry-After (whole seconds) would idle past the window's end.
    const expected =
      status === 429 &&
      (this.rateLimited || (this.capHolds(now) && outcome.inFlightAtSend > this.cap! - capNoise(this.cap!)));
    if (outcome.retryAfterMs !== undefined && (status === 429 || status === 503) && !expected) {
      this.pausedUntil = Math.max(this.pausedUntil, now + outcome.retryAfterMs);
    }
    if (status === 429 || status === 503) this.overloaded(outcome, now);
    else if (status < 500) this.succeeded(outcome, now);
    this.drain();
  }

  private overloaded(outcome: AttemptOutcome, now: number): void {
    const sameOvershoot = outcome.sentAt < this.lastDecreaseAt;
    if (this.rateLimited) {
      // Only a 429 overruns the limit's windows. A 503 is one failed request, which its retry's
      // backoff (and any Retry-After pause) answers: lowering the pace for each, when a share of
      // requests fail at random, would slow the pace to a crawl and leave cells waiting.
      if (outcome.status === 429 && !sameOvershoot) this.overran(now);
      return;
    }
    if (outcome.status === 429) {
      const served = this.servedConcurrency(now, RATE_SIGN_WINDOW_MS);
      // Once may be the dip after the first overshoot; twice (two overshoots) is a rate limit.
      if (this.capCannotExplain(outcome, now) && !sameOvershoot && ++this.unexplained >= 2) {
        this.startPacing(now);
        return;
      }
      // A refusal with fewer on the wire than the service served at once (a lone retry refused at
      // 1, say) teaches no cap: a cap of 1 would idle the engine. Any other does, even one the cap
      // could not explain: the first overshoot's count may run far ahead of the service's.
      if (served === undefined || outcome.inFlightAtSend >= RATE_SIGN * served) {
        // The attempts of one overshoot arrive together: the smallest of their counts is the cap.
        const cap = Math.max(this.min, outcome.inFlightAtSend - 1);
        this.cap = sameOvershoot && this.cap !== undefined ? Math.min(this.cap, cap) : cap;
        this.capUntil = now + this.capMemoryMs;
      }
    }
    if (sameOvershoot) {
      if (this.cap !== undefined && outcome.status === 429) this.setLimit(Math.min(this.limitValue, this.cap));
      return;
    }
    this.slowStart = false;
    this.lastDecreaseAt = now;
    if (outcome.status === 429) {
      // No cap when the refusal taught none (a lone retry, say): what was served.
      const ceiling = this.capHolds(now) ? this.cap! : this.limitValue;
      this.setLimit(Math.min(this.limitValue, ceiling, this.servedConcurrency(now) ?? ceiling));
    } else {
      this.setLimit(this.limitValue * GENTLE_DECREASE);
    }
  }

  /**
   * Whether a 429 shows something else than a cap on requests at once: refused with fewer on the
   * wire than the service served at once over the last 2 s (a lone retry refused at 1, say); or,
   * at or below a learned cap, while the service served far fewer at once than were on the wire.
   * Not "well below the learned cap": the first overshoot's counts can run far ahead of the
   * service's (a cap of 32 learned as 39 to 56 on this machine), so the true cap's refusals are.
   */
  private capCannotExplain(outcome: AttemptOutcome, now: number): boolean {
    const inFlight = outcome.inFlightAtSend;
    const served = this.servedConcurrency(now, RATE_SIGN_WINDOW_MS);
    if (served !== undefined && inFlight < RATE_SIGN * served) return true;
    if (!this.capHolds(now) || inFlight > this.cap!) return false;
    return served !== undefined && served < RATE_SIGN * inFlight;
  }

  /**
   * A rate limit found (for good: it does not go away with a cap's memory): pace every attempt a
   * little below the most successes answered in one second of the last 3 s (its windows' worth),
   * and pause the others for the refusal's Retry-After.
   */
  private startPacing(now: number): void {
    this.rateLimited = true;
    this.cap = undefined;
    this.slowStart = false;
    this.lastDecreaseAt = now;
    this.paceChangedAt = now;
    this.pace = Math.max(1, PACE_START * this.busiestSecond(now));
    this.nextSendAt = now;
    this.fitSlotsToPace();
  }

  /** A rate limit overrun again: a lower pace (one reaction per overrun). */
  private overran(now: number): void {
    this.lastDecreaseAt = now;
    this.paceChangedAt = now;
    this.pace = Math.max(1, this.pace! * PACE_DECREASE);
    this.fitSlotsToPace();
  }

  /** Under a rate limit the pace bounds the sends: enough slots that it, not they, is the limit. */
  private fitSlotsToPace(): void {
    const latency = this.recentMean ?? this.baseline() ?? 1000;
    this.setLimit(Math.ceil((PACE_SLOTS * this.pace! * latency) / 1000) + 1);
  }

  /** The most successes answered within any one second of the last 3 s. */
  private busiestSecond(now: number): number {
    let most = 0;
    let first = 0;
    const times = this.successTimes;
    for (let last = 0; last < times.length; last++) {
      if (times[last]! < now - 3_000) {
        first = last + 1;
        continue;
      }
      while (times[first]! <= times[last]! - 1000) first++;
      most = Math.max(most, last - first + 1);
    }
    return most;
  }

  private succeeded(outcome: AttemptOutcome, now: number): void {
    this.successTimes.push(now);
    this.successLatencies.push(outcome.latencyMs);
    this.forgetSuccessesBefore(now - THROUGHPUT_WINDOW_MS);
    this.roundSum += outcome.latencyMs;
    this.roundCount++;
    if (this.roundCount === 1) this.roundSize = Math.max(2, this.limit);
    if (this.roundCount >= this.roundSize) this.endRound(now);
    if (this.pace !== undefined) {
      // Probe a little faster while it is not refused: the limit may be higher, or raised.
      if (now - this.paceChangedAt >= PACE_PROBE_MS && now - this.lastDecreaseAt >= PACE_PROBE_MS) {
        this.pace += Math.max(0.5, this.pace * PACE_INCREASE);
        this.paceChangedAt = now;
      }
      this.fitSlotsToPace();
      return;
    }
    // Grow only when tasks wait for a slot (a limit nobody uses proves nothing) and latency is
    // flat: in the last round and in this answer.
    if (this.queue.length === 0 || this.latencyRising() || this.slow(outcome.latencyMs)) return;
    const capHolds = this.capHolds(now);
    const ceiling = capHolds ? Math.min(this.max, this.cap!) : this.max;
    if (this.limitValue >= ceiling) return;
    // Back up to a known cap as fast as at the start; elsewhere (a probe past the cap, after
    // rising latency or a 503) by one per round.
    const fast = this.slowStart || capHolds;
    const step = fast ? 1 : 1 / Math.max(1, this.limitValue);
    this.setLimit(Math.min(ceiling, this.limitValue + step));
  }

  /** A round is as many answers as the limit: compare its mean latency with the baseline. */
  private endRound(now: number): void {
    const mean = this.roundSum / this.roundCount;
    this.roundSum = 0;
    this.roundCount = 0;
    this.recentMean = mean;
    this.rounds++;
    // The lowest ever, never a recent window's: under a queue that lasts (a browser's 6
    // connections), a window would forget the latency of an unloaded service and let the limit
    // climb. If the service really slowed for good, the limit stays at its start (latency never
    // takes it lower), which is what a fixed limit did.
    this.lowestRoundMean = Math.min(this.lowestRoundMean, mean);
    // Latency alone never takes it below where it started: rising latency at that concurrency is
    // not of this limiter's making (a 429 or 503 may take it lower, down to the floor).
    if (this.pace === undefined && this.latencyRising() && this.rounds > 1 && this.limitValue > this.initial) {
      this.slowStart = false;
      this.lastDecreaseAt = now;
      this.setLimit(Math.max(this.initial, this.limitValue * GENTLE_DECREASE));
    }
  }

  /** Whether a cap learned from a 429 still holds growth. */
  private capHolds(now: number): boolean {
    return this.cap !== undefined && now < this.capUntil;
  }

  private baseline(): number | undefined {
    return this.rounds === 0 ? undefined : this.lowestRoundMean;
  }

  private latencyRising(): boolean {
    return this.recentMean !== undefined && this.slow(this.recentMean);
  }

  /** Whether a latency is beyond the tolerance of the baseline (never before the first round). */
  private slow(latencyMs: number): boolean {
    const baseline = this.baseline();
    return baseline !== undefined && latencyMs > this.tolerance * baseline;
  }

  /**
   * Little's law over the last `windowMs` (at most 5 s): successes per ms × their mean latency;
   * undefined without any.
   */
  private servedConcurrency(now: number, windowMs = THROUGHPUT_WINDOW_MS): number | undefined {
    this.forgetSuccessesBefore(now - THROUGHPUT_WINDOW_MS);
    let from = 0;
    while (from < this.successTimes.length && this.successTimes[from]! < now - windowMs) from++;
    const times = this.successTimes.slice(from);
    const latencies = this.successLatencies.slice(from);
    const n = times.length;
    if (n === 0) return undefined;
    const span = Math.max(now - times[0]!, ...latencies);
    const meanLatency = latencies.reduce((a, b) => a + b, 0) / n;
    return span > 0 ? (n / span) * meanLatency : undefined;
  }

  private forgetSuccessesBefore(time: number): void {
    while (this.successTimes.length > 0 && this.successTimes[0]! < time) {
      this.successTimes.shift();
      this.successLatencies.shift();
    }
  }

  private setLimit(value: number): void {
    if (Number.isNaN(value)) return; // never: a NaN limit would start nothing again
    this.limitValue = Math.min(this.max, Math.max(this.min, value));
  }

  private canStart(): boolean {
    return this.running < this.limit && this.now() >= this.pausedUntil;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canStart()) this.queue.shift()!.start();
    this.schedulePauseEnd();
  }

  /** While paused by a `Retry-After` with tasks waiting, wakes up when the pause ends. */
  private schedulePauseEnd(): void {
    if (this.pauseTimer !== undefined || this.queue.length === 0) return;
    const wait = this.pausedUntil - this.now();
    if (wait <= 0) return;
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = undefined;
      this.drain();
    }, wait);
  }
}

/** `Retry-After` in ms: seconds, or an HTTP date (relative to `nowMs`); undefined when absent or unreadable. */
export function retryAfterOf(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it is aborted. */
function abortableDelay(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

/** {@link AdaptiveLimiter.pageSlots}: a turn ahead of the single tasks for each page; its size is the limit now. */
function pageSlotsOf(limiter: AdaptiveLimiter): SlotSource {
  return {
    get size(): number {
      return limiter.limit;
    },
    acquire: (signal?: AbortSignal) =>
      new Promise<() => void>((resolve, reject) => {
        limiter.run(() => new Promise<void>((released) => resolve(() => released())), signal, true).catch(reject);
      }),
  };
}
