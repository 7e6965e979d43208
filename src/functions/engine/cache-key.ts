/**
 * The engine's cache keys, built and read in one place. A data key names what a loader fetches
 * (`summary|sites|ssp585|30`); the engine prefixes it with the connection's key, so another
 * connection never sees its entries. The same text keys the in-memory cache, the persistent
 * last-good cache (last-good-cache.ts: it survives restarts, so the text must not change) and
 * the stale-cell list (stale-cells.ts).
 */

/** The data a RISK function reads, one variant per loader of data-loaders.ts. */
export type DataKey =
  | { kind: "search"; lat: number; lng: number }
  | { kind: "summary"; portfolio: string; scenario: string; window: number }
  | { kind: "extended"; portfolio: string; scenario: string }
  | { kind: "extended-asset"; portfolio: string; scenario: string; asset: string; hazard: string; metric: string }
  | { kind: "items"; portfolio: string; hazard: string; scenario: string; indicator: string; measure: string }
  | { kind: "assets"; portfolio: string }
  | { kind: "projects" }
  | { kind: "portfolios" }
  | { kind: "layer"; vector: string; portfolio: string }
  | { kind: "nature-subprojects" }
  | { kind: "nature-export"; id: string };

type Fields<K extends DataKey["kind"]> = Exclude<keyof Extract<DataKey, { kind: K }>, "kind">;

/** Each kind's text: a fixed head, then its fields in this order, joined by `|`. */
const LAYOUT: { [K in DataKey["kind"]]: { head: string; fields: readonly Fields<K>[] } } = {
  search: { head: "search", fields: ["lat", "lng"] },
  summary: { head: "summary", fields: ["portfolio", "scenario", "window"] },
  extended: { head: "extended", fields: ["portfolio", "scenario"] },
  "extended-asset": { head: "extended-asset", fields: ["portfolio", "scenario", "asset", "hazard", "metric"] },
  items: { head: "items", fields: ["portfolio", "hazard", "scenario", "indicator", "measure"] },
  assets: { head: "assets", fields: ["portfolio"] },
  projects: { head: "projects", fields: [] },
  portfolios: { head: "portfolios", fields: [] },
  layer: { head: "layer", fields: ["vector", "portfolio"] },
  "nature-subprojects": { head: "nature|subprojects", fields: [] },
  "nature-export": { head: "nature|export", fields: ["id"] },
};

const NUMBER_FIELDS: ReadonlySet<string> = new Set(["lat", "lng", "window"]);

/**
 * `|` and `%` inside a name are escaped (`%7C`, `%25`), so a name never shifts the fields after
 * it; names without them keep the text they always had, and with it their persistent entries.
 */
function escapeField(value: string | number): string {
  return String(value).replace(/%/g, "%25").replace(/\|/g, "%7C");
}

function unescapeField(text: string): string {
  return text.replace(/%7C/g, "|").replace(/%25/g, "%");
}

/** The text of a data key: what a loader passes to `RiskEngine.load`. */
export function formatDataKey(key: DataKey): string {
  const layout = LAYOUT[key.kind] as { head: string; fields: readonly string[] };
  const values = layout.fields.map((field) => escapeField((key as unknown as Record<string, string | number>)[field]!));
  return [layout.head, ...values].join("|");
}

/** The data key a text names, or undefined for text no loader builds (tests' own keys). */
export function parseDataKey(text: string): DataKey | undefined {
  for (const [kind, layout] of Object.entries(LAYOUT) as [
    DataKey["kind"],
    { head: string; fields: readonly string[] },
  ][]) {
    if (text !== layout.head && !text.startsWith(`${layout.head}|`)) continue;
    const parts = text === layout.head ? [] : text.slice(layout.head.length + 1).split("|");
    if (parts.length !== layout.fields.length) continue;
    const key: Record<string, string | number> = { kind };
    layout.fields.forEach((field, i) => {
      const value = unescapeField(parts[i]!);
      key[field] = NUMBER_FIELDS.has(field) ? Number(value) : value;
    });
    return key as unknown as DataKey;
  }
  return undefined;
}

/** The portfolio a data key's data belongs to, if it belongs to one. */
export function portfolioOfDataKey(key: DataKey): string | undefined {
  return "portfolio" in key ? key.portfolio : undefined;
}

const CONNECTION_SEPARATOR = "\u0000";

/** The engine's full cache key: the connection's key, then the data key (`load`'s key). */
export function cacheKey(connectionKey: string, dataKey: string): string {
  return `${connectionKey}${CONNECTION_SEPARATOR}${dataKey}`;
}

/** The data key of a full cache key: the key as given to `load`, without the connection. */
export function dataKeyOfCacheKey(fullKey: string): string {
  return fullKey.slice(fullKey.indexOf(CONNECTION_SEPARATOR) + 1);
}
