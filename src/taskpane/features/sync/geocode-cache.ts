/**
 * What a geocoder found, kept across sessions so a run that was cancelled or failed resumes where
 * it stopped and a second run asks nothing twice: keyed by the endpoint (format and URL, never the
 * key) and the normalised address. It lives in the add-in's key-value store (OfficeRuntime.storage
 * inside Office) as ONE item with a budget of its own, well under what the functions' last-good
 * cache leaves free of the 10 MB quota (it takes 8 million characters), so it never crowds out the
 * last good values: past `maxChars` the least recently used addresses go first, and a store that
 * refuses the write (quota) leaves the run going, only unremembered.
 */
import { defaultKeyValueStorage, type ConnectionStorage } from "../../../shared/connection";
import type { GeocoderSettings } from "../../../shared/geocoder-connection";
import type { FoundPlace } from "./model/geocode/found-place";
import { normalisedQuery, type AddressQuery } from "./model/geocode/address-rows";

const STORAGE_KEY = "climate-risk.geocode-cache";

/** Characters the cache keeps at most (1 million: the last-good cache takes 8 of the 10 MB). */
export const GEOCODE_CACHE_MAX_CHARS = 1_000_000;

/** The cache key of one address at one endpoint. */
export function geocodeCacheKey(settings: Pick<GeocoderSettings, "kind" | "url">, query: AddressQuery): string {
  return `${settings.kind}|${settings.url}|${normalisedQuery(query)}`;
}

/** The places found per address, least recently used first. */
export class GeocodeCache {
  private entries: Map<string, FoundPlace[]> | undefined;
  private dirty = false;

  constructor(
    private readonly storage: ConnectionStorage = defaultKeyValueStorage(),
    private readonly maxChars = GEOCODE_CACHE_MAX_CHARS,
  ) {}

  private async load(): Promise<Map<string, FoundPlace[]>> {
    if (this.entries) return this.entries;
    let stored: [string, FoundPlace[]][] = [];
    try {
      const text = await this.storage.getItem(STORAGE_KEY);
      const parsed: unknown = text ? JSON.parse(text) : [];
      if (Array.isArray(parsed)) stored = parsed as [string, FoundPlace[]][];
    } catch {
      // Unreadable or corrupt: start empty rather than stop the run.
    }
    this.entries ??= new Map(stored);
    return this.entries;
  }

  /** The places found before for `key`, or undefined. */
  async get(key: string): Promise<FoundPlace[] | undefined> {
    const entries = await this.load();
    const places = entries.get(key);
    if (places) {
      entries.delete(key);
      entries.set(key, places); // most recently used last
    }
    return places;
  }

  /** Remembers the places found for `key` (written by {@link flush}). */
  async set(key: string, places: FoundPlace[]): Promise<void> {
    const entries = await this.load();
    entries.delete(key);
    entries.set(key, places);
    this.dirty = true;
  }

  /** Writes the cache, least recently used addresses dropped past the budget. Never throws. */
  async flush(): Promise<void> {
    if (!this.entries || !this.dirty) return;
    const list = [...this.entries];
    let text = JSON.stringify(list);
    while (text.length > this.maxChars && list.length > 0) {
      list.splice(0, Math.max(1, Math.ceil(list.length / 10)));
      text = JSON.stringify(list);
    }
    this.entries = new Map(list);
    try {
      await this.storage.setItem(STORAGE_KEY, text);
      this.dirty = false;
    } catch {
      // The store refused (quota): the run goes on, what was found is only not remembered.
    }
  }
}
