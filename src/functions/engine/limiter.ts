/**
 * Runs at most `concurrency` tasks at once, in arrival order. A task whose signal fired while it
 * waited for a slot is skipped (its promise rejects with the signal's reason), so cancelled work
 * never occupies the service.
 */
export class Limiter {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a whole number ≥ 1 (got ${concurrency})`);
  }

  /** Tasks started and not finished. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        if (signal?.aborted) {
          reject(signal.reason);
          this.next();
          return;
        }
        this.running++;
        let promise: Promise<T>;
        try {
          promise = task();
        } catch (error) {
          promise = Promise.reject(error);
        }
        promise.then(resolve, reject).finally(() => {
          this.running--;
          this.next();
        });
      };
      if (this.running < this.concurrency) start();
      else this.queue.push(start);
    });
  }

  private next(): void {
    if (this.running >= this.concurrency) return;
    const start = this.queue.shift();
    start?.();
  }
}
