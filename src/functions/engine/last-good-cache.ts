/**
 * The persistent cache behind the engine's in-memory one: every successful result, kept across
 * restarts of Excel's JavaScript runtime, so unchanged cells answer with no request while the result
 * is fresh, and a failed refresh can fall back on the last good value (engine.ts decides when).
 *
 * Where it lives: `OfficeRuntime.storage` inside Office (10 MB per add-in, shared by the functions
 * and the task pane), `localStorage` in a browser without it, memory elsewhere (jest, Node). Keys
 * are the engine's cache keys (connection and request); a connection key carries a fingerprint of
 * the API key, never the key. Bounded: past `maxChars` the least recently used entries go first.
 */
import { defaultKeyValueStorage } from "../../shared/connection";
import { SeriesValues } from "../../api/series-values";
import { AssetIndex } from "../asset-index";

/** The few calls of `OfficeRuntime.storage` this cache uses; localStorage and memory adapt to it. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** Keeps items in memory: the store under jest and Node, and the stand-in for a "restart" in tests. */
export class MemoryStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }
  /** Characters stored, keys included (what counts against a quota). */
  get chars(): number {
    let total = 0;
    for (const [key, value] of this.items) total += key.length + value.length;
    return total;
  }
}

/**
 * `OfficeRuntime.storage` when this runs inside Office, else localStorage, else memory (the connection store's choice).
 */
export function defaultStorage(): KeyValueStorage {
  return defaultKeyValueStorage();
}

/** A result read back, with when it was fetched from the service. */
export interface LastGood {
  value: unknown;
  fetchedAt: number;
}

/** What the cache holds now. */
export interface LastGoodUsage {
  entries: number;
  /** Characters of the stored entries and index (OfficeRuntime.storage's quota counts these). */
  chars: number;
}

const PREFIX = "climate-risk.last-good.";
const INDEX_KEY = `${PREFIX}index`;

/** One line of the index: storage id, fetched at, characters; kept least recently used first. */
type IndexLine = [id: string, fetchedAt: number, chars: number];

export interface LastGoodOptions {
  /** Characters kept at most (default 8 million: OfficeRuntime.storage holds 10 MB per add-in). */
  maxChars?: number;
  /**
   * A read that takes longer counts as a miss, so a store that never answers cannot hold a cell on #BUSY!
   * (default 2 s).
   */
  readTimeoutMs?: number;
}

export class LastGoodCache {
  private readonly maxChars: number;
  private readonly readTimeoutMs: number;
  private index: Map<string, IndexLine> | undefined;
  private loading: Promise<Map<string, IndexLine>> | undefined;
  private totalChars = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Writes in progress, so `flush()` (tests, benchmarks) can wait for them. */
  private readonly writes = new Set<Promise<unknown>>();

  constructor(
    readonly storage: KeyValueStorage = defaultStorage(),
    options: LastGoodOptions = {},
  ) {
    this.maxChars = options.maxChars ?? 8_000_000;
    this.readTimeoutMs = options.readTimeoutMs ?? 2_000;
  }

  /** The stored result of a full cache key, however old; the caller decides whether it is fresh. */
  get(fullKey: string): Promise<LastGood | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.readTimeoutMs);
    });
    return Promise.race([this.read(fullKey), timeout]).finally(() => clearTimeout(timer));
  }

  private async read(fullKey: string): Promise<LastGood | undefined> {
    try {
      const index = await this.ready();
      const id = storageId(fullKey);
      const line = index.get(id);
      if (!line) return undefined;
      const text = await this.storage.getItem(PREFIX + id);
      const entry = text ? (JSON.parse(text, revive) as { k: string; t: number; v: unknown }) : undefined;
      if (!entry || entry.k !== fullKey) return undefined; // gone, or another key with the same id
      index.delete(id); // most recently used goes last
      index.set(id, line);
      this.scheduleIndexWrite();
      return { value: entry.v, fetchedAt: entry.t };
    } catch {
      return undefined; // an unreadable store is an empty one: the service answers instead
    }
  }

  /** Keeps a result (written in the background; the least recently used go past the bound). */
  set(fullKey: string, value: unknown, fetchedAt: number): void {
    // a full or failing store only loses the copy
    const write = this.write(fullKey, value, fetchedAt).catch(() => undefined);
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  /** Forgets everything this cache stored (the task pane's "Clear cache"). */
  async clear(): Promise<void> {
    await this.flush();
    const index = await this.ready();
    await Promise.all([...index.keys()].map((id) => this.storage.removeItem(PREFIX + id)));
    index.clear();
    this.totalChars = 0;
    await this.storage.removeItem(INDEX_KEY);
  }

  /** Entries and characters stored now. */
  async usage(): Promise<LastGoodUsage> {
    const index = await this.ready();
    return { entries: index.size, chars: this.totalChars + JSON.stringify([...index.values()]).length };
  }

  /** Resolves when every write so far, and the index, are in the store. */
  async flush(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      await this.writeIndex();
    }
  }

  private async write(fullKey: string, value: unknown, fetchedAt: number): Promise<void> {
    const index = await this.ready();
    const id = storageId(fullKey);
    const text = JSON.stringify({ k: fullKey, t: fetchedAt, v: value }, replace);
    const previous = index.get(id);
    if (previous) {
      this.totalChars -= previous[2];
      index.delete(id);
    }
    if (text.length > this.maxChars) return;
    index.set(id, [id, fetchedAt, text.length]);
    this.totalChars += text.length;
    await this.storage.setItem(PREFIX + id, text);
    const evicted: string[] = [];
    for (const [oldId, line] of index) {
      if (this.totalChars <= this.maxChars) break;
      index.delete(oldId);
      this.totalChars -= line[2];
      evicted.push(oldId);
    }
    await Promise.all(evicted.map((oldId) => this.storage.removeItem(PREFIX + oldId)));
    this.scheduleIndexWrite();
  }

  private ready(): Promise<Map<string, IndexLine>> {
    if (this.index) return Promise.resolve(this.index);
    this.loading ??= this.storage
      .getItem(INDEX_KEY)
      .catch(() => null)
      .then((text) => {
        const lines = parseIndex(text);
        this.index = new Map(lines.map((line) => [line[0], line]));
        this.totalChars = lines.reduce((sum, line) => sum + line[2], 0);
        return this.index;
      });
    return this.loading;
  }

  /** The index is written once per burst of changes, not once per entry. */
  private scheduleIndexWrite(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const write = this.writeIndex().catch(() => undefined);
      this.writes.add(write);
      void write.finally(() => this.writes.delete(write));
    }, 50);
  }

  private async writeIndex(): Promise<void> {
    if (!this.index) return;
    await this.storage.setItem(INDEX_KEY, JSON.stringify([...this.index.values()]));
  }
}

function parseIndex(text: string | null): IndexLine[] {
  if (!text) return [];
  try {
    const lines = JSON.parse(text) as unknown;
    return Array.isArray(lines)
      ? lines.filter(
          (l): l is IndexLine =>
            Array.isArray(l) && typeof l[0] === "string" && typeof l[1] === "number" && typeof l[2] === "number",
        )
      : [];
  } catch {
    return [];
  }
}

/** A short id for a storage item: two 32-bit FNV-1a hashes (the entry keeps its full key to check). */
function storageId(key: string): string {
  let a = 2166136261;
  let b = 0x811c9dc5 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 16777619);
    b = Math.imul(b ^ code, 0x01000193) + i;
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36);
}

/** JSON for the engine's results: Maps (and AssetIndex, a Map with its entity_ids) are tagged. */
function replace(_key: string, value: unknown): unknown {
  if (value instanceof SeriesValues) return { $type: "SeriesValues", record: value.toRecord() };
  if (value instanceof AssetIndex) return { $type: "AssetIndex", entries: [...value], entities: [...value.entities] };
  if (value instanceof Map) return { $type: "Map", entries: [...value] };
  return value;
}

function revive(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && "$type" in value) {
    const tagged = value as {
      $type: string;
      entries: [unknown, unknown][];
      entities?: [string, number[]][];
      record?: Record<string, unknown>;
    };
    if (tagged.$type === "SeriesValues") return SeriesValues.from(tagged.record);
    if (tagged.$type === "Map") return new Map(tagged.entries);
    if (tagged.$type === "AssetIndex") {
      const index = new AssetIndex<unknown>();
      for (const [k, v] of tagged.entries) index.set(k as number, v);
      for (const [id, indexes] of tagged.entities ?? []) index.entities.set(id, indexes);
      return index;
    }
  }
  return value;
}
