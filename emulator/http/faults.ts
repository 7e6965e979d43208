/**
 * Request statistics and injected faults (latency, random 503s, per-key rate and concurrency limits).
 * /__emulator/* routes are neither counted nor faulted, so tools can observe without disturbing.
 */
import { mulberry32 } from "../model/noise";

/** Counters since start or the last reset. */
export class RequestStats {
  total = 0;
  routes: Record<string, number> = {};
  /** 429 answers, both limits. */
  rateLimited = 0;
  /** Of those, the answers of the concurrency cap. */
  concurrencyLimited = 0;
  failed = 0;
  /** Service requests being answered now (from arrival to the answer's end), and the most since the last reset. */
  inFlight = 0;
  peakInFlight = 0;
  /**
   * Bytes of the service's answers as sent, uncompressed: what a client must decode and parse (plus
   * each answer's status line and headers, and a streamed one's chunk size lines: under 1 %).
   */
  answerBytes = 0;

  /** Counts a request under `METHOD /route/pattern` (no trailing slash). */
  count(method: string, pattern: string | undefined): void {
    this.total++;
    const p = pattern === undefined ? "(unmatched)" : pattern.length > 1 ? pattern.replace(/\/$/, "") : pattern;
    const key = `${method} ${p}`;
    this.routes[key] = (this.routes[key] ?? 0) + 1;
  }

  /** A service request arrived; returns the function to call once its answer is done (or its connection gone). */
  enter(): () => void {
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight--;
    };
  }

  /**
   * Counts the bytes `socket` sends from now until the returned function is called, once, when the
   * answer is finished. One answer at a time goes over an HTTP/1.1 connection, so the socket's count
   * in between is this answer's, streamed or not.
   */
  measureAnswer(socket: { readonly bytesWritten: number } | null): () => void {
    if (!socket) return () => undefined;
    const before = socket.bytesWritten;
    return () => {
      this.answerBytes += socket.bytesWritten - before;
    };
  }

  reset(): void {
    this.peakInFlight = this.inFlight;
    this.total = 0;
    this.routes = {};
    this.rateLimited = 0;
    this.concurrencyLimited = 0;
    this.failed = 0;
    this.answerBytes = 0;
  }

  toJSON() {
    return {
      total: this.total,
      routes: { ...this.routes },
      faults: { "429": this.rateLimited, "503": this.failed },
      limits: { rate: this.rateLimited - this.concurrencyLimited, concurrency: this.concurrencyLimited },
      peakInFlight: this.peakInFlight,
      answerBytes: this.answerBytes,
    };
  }
}

/** Decides which requests get an injected fault. */
export class FaultInjector {
  private readonly random: () => number;
  private windowSecond = 0;
  private perKey = new Map<string, number>();
  private openPerKey = new Map<string, number>();

  constructor(
    private readonly failRate: number,
    private readonly rateLimit: number,
    seed: number,
    private readonly concurrencyLimit = 0,
  ) {
    this.random = mulberry32((seed ^ 0x5eed) >>> 0);
  }

  /**
   * Takes one of `key`'s concurrent slots until the returned release is called (when the answer is
   * sent or the client goes away); undefined when the key already has `concurrencyLimit` requests
   * open. Without a limit every request gets a slot.
   */
  enter(key: string): (() => void) | undefined {
    if (!(this.concurrencyLimit > 0)) return () => undefined;
    const open = this.openPerKey.get(key) ?? 0;
    if (open >= this.concurrencyLimit) return undefined;
    this.openPerKey.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.openPerKey.get(key) ?? 1) - 1;
      if (left > 0) this.openPerKey.set(key, left);
      else this.openPerKey.delete(key);
    };
  }

  /** Seconds to wait when the key is over its per-second budget, else 0. */
  rateLimited(key: string): number {
    if (!(this.rateLimit > 0)) return 0;
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (second !== this.windowSecond) {
      this.windowSecond = second;
      this.perKey.clear();
    }
    const n = (this.perKey.get(key) ?? 0) + 1;
    this.perKey.set(key, n);
    return n > this.rateLimit ? Math.max(1, Math.ceil((second + 1) * 1000 - now) / 1000) : 0;
  }

  /** True when this request should fail with 503. */
  shouldFail(): boolean {
    return this.failRate > 0 && this.random() < this.failRate;
  }
}
