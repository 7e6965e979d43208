import type {
  Asset,
  HazardMetrics,
  Portfolio,
  Project,
  RiskSummaryEntry,
  SearchExposure,
  SubProject,
} from "../api/types";
import type { SeriesValues } from "../api/series-values";
import { parseCsvTable } from "../shaping/csv-table";
import { AssetIndex, type AssetRef } from "./asset-index";
import { formatDataKey, parseDataKey, portfolioOfDataKey } from "./engine/cache-key";
import type { CancelSignal, RiskEngine } from "./engine/engine";

/**
 * Data loaders: the service data the RISK.* functions read, each fetched through the engine under a key that names it.
 * Portfolio-level datasets are read whole (every page, read ahead) and indexed once by
 * `portfolio_index` (and entity_id, see asset-index.ts), so thousands of cells over one portfolio cost that dataset's
 * pages only.
 */

/** Data the task pane changed: one portfolio (synced, imported, deleted) or the nature sub-project list. */
export type DataChange = { kind: "portfolio"; portfolio: string } | { kind: "nature" };

/**
 * Which cache keys of the loaders below hold data a change made stale: for a portfolio, its
 * summaries, timeseries, assets and applied layers, and the portfolio list (a sync may create
 * one, a delete removes one); for nature, the sub-project list.
 */
export function dataChangeMatcher(change: DataChange): (key: string) => boolean {
  return (text) => {
    const key = parseDataKey(text);
    if (change.kind === "nature") return key?.kind === "nature-subprojects";
    return key?.kind === "portfolios" || (key !== undefined && portfolioOfDataKey(key) === change.portfolio);
  };
}

/** Local and background exposure of the point a search found, or null when it found none. */
export interface PointExposure {
  local: SearchExposure;
  background: SearchExposure;
}

export function searchPoint(
  engine: RiskEngine,
  lat: number,
  lng: number,
  signal: CancelSignal,
): Promise<PointExposure | null> {
  return engine.load(
    formatDataKey({ kind: "search", lat, lng }),
    async ({ client, signal: loadSignal }) => {
      const result = await client.search.point(lat, lng, { signal: loadSignal });
      // Keep only what the cells read: 1,000 points of full GeoJSON would weigh on memory for nothing.
      const exposure = result.features?.[0]?.properties?.physical_risk_exposure;
      return exposure ? { local: exposure.local, background: exposure.background } : null;
    },
    signal,
  );
}

/** portfolio_index → portfolio hazard name → score and class, for one scenario and window. */
export type SummaryIndex = AssetIndex<Map<string, RiskSummaryEntry>>;

export function portfolioSummary(
  engine: RiskEngine,
  portfolio: string,
  scenario: string,
  window: number,
  signal: CancelSignal,
): Promise<SummaryIndex> {
  return engine.load(
    formatDataKey({ kind: "summary", portfolio, scenario, window }),
    async ({ client, signal: loadSignal, rows, readAhead, slots }) => {
      const items = await client.datasets
        .summary(portfolio, { scenario, window })
        .all({ rows, readAhead, slots, signal: loadSignal });
      const index: SummaryIndex = new AssetIndex();
      for (const item of items) {
        // the filter is the server's; check it
        if (item.scenario !== scenario || Number(item.window) !== window) continue;
        const byHazard = index.get(item.portfolio_index) ?? new Map<string, RiskSummaryEntry>();
        for (const entry of item.risk_summaries ?? []) byHazard.set(entry.hazard, entry);
        index.put(item.portfolio_index, item.entity_id, byHazard);
      }
      return index;
    },
    signal,
    { paged: true },
  );
}

/** portfolio_index → extended hazard key → metrics, for one scenario. */
export type ExtendedIndex = AssetIndex<Record<string, HazardMetrics>>;

export function portfolioExtendedSummary(
  engine: RiskEngine,
  portfolio: string,
  scenario: string,
  signal: CancelSignal,
): Promise<ExtendedIndex> {
  return engine.load(
    formatDataKey({ kind: "extended", portfolio, scenario }),
    async ({ client, signal: loadSignal, rows, readAhead, slots }) => {
      const items = await client.datasets
        .extendedSummary(portfolio, { scenario })
        .all({ rows, readAhead, slots, signal: loadSignal });
      const index: ExtendedIndex = new AssetIndex();
      for (const item of items) {
        const analytics = item.scenario_analytics?.[scenario];
        if (analytics) index.put(item.portfolio_index, item.entity_id, analytics);
      }
      return index;
    },
    signal,
    // About 8,000 characters per asset: cells keep the metrics they read instead (assetMetric).
    { persist: false, paged: true },
  );
}

/** One metric of one asset and hazard in a scenario's extended summary: what one RISK.IMPACT or METRIC cell reads. */
export interface AssetMetric {
  /** The asset's portfolio_index. */
  position: number;
  /** Whether the extended summary has the asset at all. */
  assetFound: boolean;
  /** Whether it has the hazard for that asset. */
  hazardFound: boolean;
  /** The metric's value; undefined when the hazard has no such metric. */
  value?: HazardMetrics[string];
}

/**
 * One metric of one asset and extended hazard key, derived from the whole extended summary
 * (`portfolioExtendedSummary`, one load per portfolio and scenario) and kept under a key of its own
 * (see `RiskEngine.derive`). The whole summary is about 8,000 characters per asset (240 values),
 * 40 million for 5,000 assets: more than the persistent cache holds, so it is never kept across a
 * restart. One metric is about 250 characters with its key, so the cells of a reopened workbook
 * answer without a request while they are fresh.
 */
export function assetMetric(
  engine: RiskEngine,
  portfolio: string,
  scenario: string,
  asset: AssetRef,
  hazard: string,
  metric: string,
  signal: CancelSignal,
): Promise<AssetMetric> {
  const ref = asset.kind === "index" ? `index:${asset.index}` : `entity:${asset.entityId}`;
  return engine.derive(
    formatDataKey({ kind: "extended-asset", portfolio, scenario, asset: ref, hazard, metric }),
    async (sourceSignal) => {
      const data = await portfolioExtendedSummary(engine, portfolio, scenario, sourceSignal);
      const position = data.resolve(asset, portfolio);
      const metrics = data.get(position)?.[hazard];
      return {
        position,
        assetFound: data.has(position),
        hazardFound: metrics !== undefined,
        value: metrics?.[metric],
      };
    },
    signal,
  );
}

/** The filters of one timeseries set. */
export interface SeriesFilter {
  hazard: string;
  scenario: string;
  indicator: string;
  measure: string;
}

/**
 * portfolio_index → year (`YYYY` or `YYYY-MM`) → value, for one filter set. Read its series with
 * `SeriesValues.of`: one from the persistent cache may be a record an earlier version stored.
 */
export type SeriesIndex = AssetIndex<SeriesValues | Record<string, number>>;

export function portfolioSeries(
  engine: RiskEngine,
  portfolio: string,
  filter: SeriesFilter,
  signal: CancelSignal,
): Promise<SeriesIndex> {
  return engine.load(
    formatDataKey({ kind: "items", portfolio, ...filter }),
    async ({ client, signal: loadSignal, rows, readAhead, slots }) => {
      const items = await client.datasets
        .items(portfolio, { ...filter })
        .all({ rows, readAhead, slots, signal: loadSignal });
      const index: SeriesIndex = new AssetIndex();
      for (const item of items) {
        const matches =
          item.hazard === filter.hazard &&
          item.scenario === filter.scenario &&
          item.indicator === filter.indicator &&
          item.measure === filter.measure;
        if (matches) index.put(item.portfolio_index, item.entity_id, item.risk_exposure);
      }
      return index;
    },
    signal,
    { paged: true },
  );
}

export function portfolioAssets(engine: RiskEngine, portfolio: string, signal: CancelSignal): Promise<Asset[]> {
  return engine.load(
    formatDataKey({ kind: "assets", portfolio }),
    ({ client, signal: loadSignal, rows, readAhead, slots }) =>
      client.portfolios.assets(portfolio).all({ rows, readAhead, slots, signal: loadSignal }),
    signal,
    { paged: true },
  );
}

export function projectList(engine: RiskEngine, signal: CancelSignal): Promise<Project[]> {
  return engine.load(
    formatDataKey({ kind: "projects" }),
    ({ client, signal: loadSignal }) => client.projects.list({ signal: loadSignal }),
    signal,
  );
}

export function portfolioList(engine: RiskEngine, signal: CancelSignal): Promise<Portfolio[]> {
  return engine.load(
    formatDataKey({ kind: "portfolios" }),
    ({ client, signal: loadSignal }) => client.portfolios.list({ signal: loadSignal }),
    signal,
  );
}

/** The applied-layer CSV of one vector over one portfolio, indexed by `portfolio_index`. */
export interface LayerTable {
  columns: string[];
  rows: AssetIndex<Record<string, unknown>>;
  /** The column RISK.LAYER reads when none is named (see `defaultLayerColumn`). */
  defaultColumn: string | undefined;
}

/**
 * Columns of the apply CSV that describe the asset or the join rather than carry a layer value
 * (the emulator writes portfolio_index, entity_id, entity_name, lat, lng, feature_index,
 * feature_id, match, distance_km, then the layer's properties; a feature located by `lat`/`lng`
 * properties, as in the published add-vector example, gives `property:lat`, `property:lng`).
 */
const JOIN_COLUMNS = new Set([
  "portfolio_index",
  "portfolio_name",
  "entity_id",
  "entity_name",
  "lat",
  "lng",
  "name",
  "id",
  "feature_index",
  "feature_id",
  "match",
  "distance_km",
  "property:lat",
  "property:lng",
]);

/**
 * The column RISK.LAYER reads when none is named: `value` when the CSV has one, else the first
 * column (left to right) that is not an asset or join column and holds a number in some row.
 */
export function defaultLayerColumn(
  columns: readonly string[],
  rows: Iterable<Record<string, unknown>>,
): string | undefined {
  if (columns.includes("value")) return "value";
  const candidates = columns.filter((column) => !JOIN_COLUMNS.has(column) && !column.startsWith("label:"));
  const rowList = [...rows];
  return candidates.find((column) =>
    rowList.some((row) => typeof row[column] === "number" && Number.isFinite(row[column])),
  );
}

export function appliedLayer(
  engine: RiskEngine,
  vector: string,
  portfolio: string,
  signal: CancelSignal,
): Promise<LayerTable> {
  return engine.load(
    formatDataKey({ kind: "layer", vector, portfolio }),
    async ({ client, signal: loadSignal }) => {
      const result = await client.compositions.applyVector(vector, portfolio, { signal: loadSignal });
      return parseLayerCsv(result.csv);
    },
    signal,
  );
}

/**
 * Parses the apply CSV with the task pane's reading (parseCsvTable: a column is numeric only when
 * every value is a plain number; ids and leading zeros stay text), so a RISK.LAYER cell shows what
 * the pasted layer sheet shows. Rows without a whole portfolio_index are skipped.
 */
export function parseLayerCsv(csv: string): LayerTable {
  const table = parseCsvTable(csv, "The applied layer's CSV");
  const columns = table.header;
  const rows = new AssetIndex<Record<string, unknown>>();
  for (const cells of table.rows) {
    const row: Record<string, unknown> = {};
    columns.forEach((column, i) => (row[column] = cells[i] === "" ? null : cells[i]));
    const index = Number(row.portfolio_index);
    if (row.portfolio_index !== null && Number.isInteger(index)) rows.put(index, row.entity_id, row);
  }
  return { columns, rows, defaultColumn: defaultLayerColumn(columns, rows.values()) };
}

/** Every nature sub-project the key can see, across all superprojects. */
export function natureSubprojects(engine: RiskEngine, signal: CancelSignal): Promise<SubProject[]> {
  return engine.load(
    formatDataKey({ kind: "nature-subprojects" }),
    async ({ client, signal: loadSignal }) => {
      const superprojects = await client.nature.superprojects({ signal: loadSignal });
      const lists = await Promise.all(
        superprojects.map((name) => client.nature.subprojects(name, { signal: loadSignal })),
      );
      return lists.flat();
    },
    signal,
  );
}

export function natureSummary(engine: RiskEngine, id: string, signal: CancelSignal): Promise<Record<string, number>> {
  return engine.load(
    formatDataKey({ kind: "nature-export", id }),
    async ({ client, signal: loadSignal }) => {
      const exported = await client.nature.exportSubproject(id, { signal: loadSignal });
      return exported.summary ?? {};
    },
    signal,
  );
}
