import type { StaleMark } from "./stale-cells";

/**
 * A settled result: a value, or an error kept briefly so a burst of cells does not repeat a failure.
 * `mark` is set when the service could not answer (the value is a last good one, or the error an
 * outage): cells answered from this entry go on the stale list too.
 */
export type Settled<T> = { ok: true; value: T; mark?: StaleMark } | { ok: false; error: unknown; mark?: StaleMark };

interface Entry<T> {
  result: Settled<T>;
  expiresAt: number;
}

/**
 * An in-memory map whose entries expire. Bounded: past `maxEntries` the oldest insertions go first,
 * so a workbook scanning a million points cannot grow the add-in's memory without end.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live entry for a key, or undefined (an expired one is dropped). */
  get(key: string): Settled<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  set(key: string, result: Settled<T>, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key); // re-insert at the end: it is now the newest
    this.entries.set(key, { result, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops every entry whose key `matches`; answers how many were dropped. */
  deleteWhere(matches: (key: string) => boolean): number {
    let dropped = 0;
    for (const key of [...this.entries.keys()]) {
      if (matches(key)) {
        this.entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /** Forgets one key. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
