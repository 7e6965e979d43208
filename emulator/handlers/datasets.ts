/**
 * Physical-risk datasets of a portfolio (metadata, summary, items, ZIP export).
 * Each page is computed from the hazard model by index arithmetic, so a page at position 2,000
 * costs what page 1 costs; the summary's rendered items are kept for a request asked again on the
 * same data (RenderedItems below).
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import Papa from "papaparse";
import { zip, strToU8, type AsyncZippable } from "fflate";
import { TurnClock } from "../http/turns";
import { badRequest } from "../http/errors";
import { pagination, queryBool, queryEnum, queryString, RequestContext } from "../http/request-context";
import { findPortfolio, requireRiskData } from "./portfolios";
import {
  EXTENDED_KEY,
  Hazard,
  HAZARDS,
  INDICATORS,
  IndicatorSpec,
  Measure,
  MEASURES,
  primaryIndicator,
  Scenario,
  SCENARIOS,
  SPATIAL_RESOLUTION,
  WINDOW_START_YEAR,
  WINDOWS,
} from "../model/catalog";
import { modelValue, pointProfile, PointProfile, seriesFor, YearRange } from "../model/hazard-model";
import { extendedMetrics, pointRiskSummaries, riskSummaries } from "../model/scores";
import { StoredAsset, StoredPortfolio } from "../state/types";

/** Dataset version reported by the metadata endpoint for data never changed by the control route. */
const DATASET_VERSION = "emulator-synthetic-1";

/** The portfolio's dataset version: a new one after each change of its data (POST /__emulator/.../change-data). */
export function datasetVersion(p: StoredPortfolio): string {
  return p.data_revision ? `${DATASET_VERSION}.r${p.data_revision}` : DATASET_VERSION;
}

/**
 * The seed of one asset's model values: the emulator's seed, moved for each change of the asset's
 * data by the control route, so a changed asset gets other (equally plausible) numbers.
 */
export function assetSeed(seed: number, a: StoredAsset): number {
  return a.data_revision ? seed + a.data_revision * 7_919 : seed;
}

/** The indicators the metadata endpoint lists (the same for every portfolio). */
function indicatorMetadata() {
  return INDICATORS.map((s) => ({
    hazard: s.hazard,
    indicator: s.indicator,
    unit: s.unit,
    value_min: s.value_min,
    value_max: s.value_max,
    value_norm: s.value_norm,
    spatial_resolution: SPATIAL_RESOLUTION,
  }));
}

/** The portfolio's dataset digest: of its version, the model's seed and the indicators. */
export function datasetDigest(p: StoredPortfolio, seed: number): string {
  return createHash("sha256")
    .update(JSON.stringify({ version: datasetVersion(p), seed, indicators: indicatorMetadata() }))
    .digest("hex");
}

/** GET .../datasets/physical: metadata of the indicators. */
export async function physicalMetadata(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  // The published client requires portfolio_name, created_at and updated_at (the portfolio's).
  return {
    portfolio_name: p.portfolio_name,
    created_at: p.created_at,
    updated_at: p.updated_at,
    version: datasetVersion(p),
    sha256_digest: datasetDigest(p, ctx.emu.options.seed),
    indicators: indicatorMetadata(),
  };
}

/** Indices of the assets selected by the `entity_id` filter (all when absent). */
function selectAssets(ctx: RequestContext, p: StoredPortfolio): { count: number; at(i: number): number } {
  const entity = queryString(ctx, "entity_id");
  if (entity === undefined) return { count: p.assets.length, at: (i) => i };
  const idx: number[] = [];
  p.assets.forEach((a, i) => {
    if (a.entity_id === entity) idx.push(i);
  });
  return { count: idx.length, at: (i) => idx[i] };
}

function assetHeader(p: StoredPortfolio, a: StoredAsset, index: number) {
  return {
    portfolio_name: p.portfolio_name,
    portfolio_index: index,
    entity_id: a.entity_id,
    entity_name: a.entity_name,
  };
}

/** The default summary's filters read from the query: one row per asset × scenario × window. */
function defaultSummarySelection(ctx: RequestContext, p: StoredPortfolio) {
  const scenario = queryEnum(ctx, "scenario", SCENARIOS);
  const hazard = queryEnum(ctx, "hazard", HAZARDS);
  const windowText = queryString(ctx, "window");
  let window: number | undefined;
  if (windowText !== undefined) {
    window = Number(windowText);
    if (!(WINDOWS as readonly number[]).includes(window))
      throw badRequest(`window: "${windowText}" is not one of ${WINDOWS.join(", ")}`);
  }
  const assets = selectAssets(ctx, p);
  const seed = ctx.emu.options.seed;
  const scenarios = scenario ? [scenario] : [...SCENARIOS];
  const windows = window ? [window] : [...WINDOWS];
  const perAsset = scenarios.length * windows.length;
  // An asset's items are consecutive (one per scenario × window): its summaries share their work.
  let summariesOf: { index: number; of: ReturnType<typeof pointRiskSummaries> } | undefined;
  const locate = (i: number) => {
    const index = assets.at(Math.floor(i / perAsset));
    const k = i % perAsset;
    const s = scenarios[Math.floor(k / windows.length)];
    const w = windows[k % windows.length];
    return { index, scenario: s, window: w, variant: `default|${s}|${w}|${hazard ?? ""}` };
  };
  return {
    hazards: hazard ? [hazard] : [...HAZARDS],
    total: assets.count * perAsset,
    /** The i-th summary item's asset, and what tells it apart from the asset's other items (RenderedItems). */
    locate,
    /** The i-th summary item of the filtered list (0-based, before paging). */
    item(i: number) {
      const { index, scenario: s, window: w } = locate(i);
      const a = p.assets[index];
      if (summariesOf?.index !== index)
        summariesOf = { index, of: pointRiskSummaries(a.lat, a.lng, assetSeed(seed, a)) };
      return {
        ...assetHeader(p, a, index),
        window: w,
        window_start_year: WINDOW_START_YEAR,
        scenario: s,
        risk_summaries: summariesOf.of(s, w, hazard),
      };
    },
  };
}

/**
 * The rendered items of the summary lists (each item's JSON, as UTF-8), by the asset's data and the
 * request's filters. The service answers from data it computed when the portfolio was processed; this
 * emulator computes it from the model on demand, which costs its single thread about 0.4 ms per
 * extended item (a page of 250: 0.1 s), so an analyst's refresh of a 5,000-asset workbook (the extended
 * summary of three scenarios, the default summary of every scenario, read again behind pasted sheets
 * and RISK cells) would be bound by this emulator's CPU rather than by the service's latency. Items
 * are kept instead of pages so that a change of 1 % of the assets' data (the change-data control
 * route) recomputes 1 % of the items, and a page is its items' bytes put together: the same bytes
 * `JSON.stringify` gives the whole page. The key is the portfolio's assets (an import replaces the
 * array), its name, the asset's index and data revision, the seed and the item's variant (scenario,
 * window, hazard filter); the least recently used go past a budget of bytes. Bytes, not texts:
 * joining texts and encoding the page for the socket cost this thread about 25 ms a 3 MB page
 * (measured, Node 20), copying bytes about 4 ms, and the bench runs the add-in on the same two
 * cores (docs/benchmarks.md).
 */
class RenderedItems {
  private readonly generations = new WeakMap<readonly StoredAsset[], number>();
  private nextGeneration = 1;
  private readonly items = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The JSON of the page of `count` items from `first` (UTF-8): each item's kept bytes, or `compute`'s. */
  async page(
    p: StoredPortfolio,
    seed: number,
    first: number,
    count: number,
    locate: (i: number) => { index: number; variant: string },
    compute: (i: number) => unknown,
  ): Promise<Buffer> {
    const clock = new TurnClock();
    let generation = this.generations.get(p.assets);
    if (generation === undefined) this.generations.set(p.assets, (generation = this.nextGeneration++));
    const prefix = `${generation}|${seed}|${p.portfolio_name}|`;
    // "[", the items with "," between them, "]": the bytes of JSON.stringify of the whole array.
    const parts: Buffer[] = [OPEN_BRACKET];
    for (let n = 0; n < count; n++) {
      const { index, variant } = locate(first + n);
      const key = `${prefix}${index}|${p.assets[index].data_revision ?? 0}|${variant}`;
      let item = this.items.get(key);
      if (item !== undefined) {
        this.items.delete(key); // most recently used goes last
      } else {
        item = Buffer.from(JSON.stringify(compute(first + n)), "utf8");
        this.bytes += item.length;
      }
      this.items.set(key, item);
      if (n > 0) parts.push(COMMA);
      parts.push(item);
      await clock.pace();
    }
    parts.push(CLOSE_BRACKET);
    for (const [oldest, item] of this.items) {
      if (this.bytes <= this.budgetBytes) break;
      this.items.delete(oldest);
      this.bytes -= item.length;
    }
    return Buffer.concat(parts);
  }
}

const OPEN_BRACKET = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE_BRACKET = Buffer.from("]");

/**
 * About 250 MB of UTF-8: a 5,000-asset portfolio's extended summary of three scenarios
 * (about 8,200 characters an asset each) and its default summary (about 600 an item, 45,000 items),
 * with room for another portfolio's.
 */
const RENDERED_ITEMS_BUDGET = 250_000_000;

/**
 * Each running emulator's rendered items: they go with it when it stops (a test process starts
 * many emulators, and items kept for stopped ones would only hold memory).
 */
const renderedItemsOf = new WeakMap<object, RenderedItems>();

function renderedItemsFor(emu: object): RenderedItems {
  let items = renderedItemsOf.get(emu);
  if (!items) renderedItemsOf.set(emu, (items = new RenderedItems(RENDERED_ITEMS_BUDGET)));
  return items;
}

/** GET .../datasets/physical/summary (default or extended form). */
export async function physicalSummary(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const extended = queryBool(ctx, "extended") ?? false;
  const page = pagination(ctx);
  const seed = ctx.emu.options.seed;
  const rendered = renderedItemsFor(ctx.emu);
  let body: Buffer;
  if (extended) {
    const scenario = queryEnum(ctx, "scenario", SCENARIOS);
    const hazard = queryEnum(ctx, "hazard", HAZARDS);
    const assets = selectAssets(ctx, p);
    const scenarios = scenario ? [scenario] : [...SCENARIOS];
    const variant = `extended|${scenario ?? ""}|${hazard ?? ""}`;
    const end = Math.min(assets.count, page.offset + page.rows);
    body = await rendered.page(
      p,
      seed,
      page.offset,
      Math.max(0, end - page.offset),
      (i) => ({ index: assets.at(i), variant }),
      (i) => {
        const index = assets.at(i);
        const a = p.assets[index];
        const analytics: Record<string, Record<string, Record<string, number | string>>> = {};
        for (const s of scenarios) {
          const byHazard: Record<string, Record<string, number | string>> = {};
          for (const h of hazard ? [hazard] : HAZARDS)
            byHazard[EXTENDED_KEY[h]] = extendedMetrics(h, a.lat, a.lng, s, assetSeed(seed, a));
          analytics[s] = byHazard;
        }
        return {
          ...assetHeader(p, a, index),
          geometry: { type: "Point", coordinates: [a.lng, a.lat] },
          labels: a.labels,
          scenario_analytics: analytics,
        };
      },
    );
  } else {
    const selection = defaultSummarySelection(ctx, p);
    const end = Math.min(selection.total, page.offset + page.rows);
    body = await rendered.page(p, seed, page.offset, Math.max(0, end - page.offset), selection.locate, selection.item);
  }
  // The bytes fastify would have serialised the array to, with the header it would have sent.
  ctx.reply.header("Content-Type", "application/json; charset=utf-8");
  return body;
}

/** One end of a date range: a year, and for a full date its month and day. */
interface DateBound {
  year: number;
  month?: number;
  day?: number;
}

/**
 * Reads start_date/end_date: a date `YYYY-MM-DD` (the published client's form) or a year `YYYY`
 * alone (also used). 400 naming the parameter otherwise, and for dates that do not exist.
 */
function dateParam(ctx: RequestContext, name: string): DateBound | undefined {
  const s = queryString(ctx, name);
  if (s === undefined) return undefined;
  const m = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/.exec(s.trim());
  if (!m) throw badRequest(`${name}: "${s}" is not a date (YYYY-MM-DD) or a year (YYYY)`);
  const year = Number(m[1]);
  if (m[2] === undefined) return { year };
  const month = Number(m[2]);
  const day = Number(m[3]);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw badRequest(`${name}: "${s}" is not a date that exists`);
  }
  return { year, month, day };
}

/** The range of start_date/end_date: projections narrowed by year, observed series by month. */
function dateRange(ctx: RequestContext): YearRange | undefined {
  const from = dateParam(ctx, "start_date");
  const to = dateParam(ctx, "end_date");
  if (from === undefined && to === undefined) return undefined;
  if (from !== undefined && to !== undefined) {
    const first = [from.year, from.month ?? 1, from.day ?? 1];
    const last = [to.year, to.month ?? 12, to.day ?? 31];
    const after =
      first[0] !== last[0] ? first[0] > last[0] : first[1] !== last[1] ? first[1] > last[1] : first[2] > last[2];
    if (after)
      throw badRequest(
        `start_date: ${queryString(ctx, "start_date")} is after end_date ${queryString(ctx, "end_date")}`,
      );
  }
  return { from: from?.year ?? 0, to: to?.year ?? 9999, fromMonth: from?.month, toMonth: to?.month };
}

/** The items' filters read from the query: one item per asset × indicator × scenario × measure. */
function itemsSelection(ctx: RequestContext, p: StoredPortfolio) {
  const hazard = queryEnum(ctx, "hazard", HAZARDS);
  const indicator = queryString(ctx, "indicator");
  const scenario = queryEnum(ctx, "scenario", SCENARIOS);
  const measure = queryEnum(ctx, "measure", MEASURES);
  const range = dateRange(ctx);
  const specs = INDICATORS.filter((s) => (!hazard || s.hazard === hazard) && (!indicator || s.indicator === indicator));
  if (indicator && specs.length === 0) {
    const valid = INDICATORS.filter((s) => !hazard || s.hazard === hazard).map((s) => s.indicator);
    throw badRequest(
      `indicator: "${indicator}" is not an indicator${hazard ? ` of hazard ${hazard}` : ""} (expected one of ${[...new Set(valid)].join(", ")})`,
    );
  }
  const combos: { spec: IndicatorSpec; scenario: Scenario; measure: Measure }[] = [];
  for (const spec of specs)
    for (const s of scenario ? [scenario] : SCENARIOS)
      for (const m of measure ? [measure] : MEASURES) combos.push({ spec, scenario: s, measure: m });
  const assets = selectAssets(ctx, p);
  const seed = ctx.emu.options.seed;
  const profiles = new Map<string, PointProfile>();
  return {
    combos,
    range,
    total: assets.count * combos.length,
    /** The i-th item of the filtered list (0-based, before paging). */
    item(i: number) {
      const index = assets.at(Math.floor(i / combos.length));
      const c = combos[i % combos.length];
      const a = p.assets[index];
      const key = `${index}|${c.spec.hazard}`;
      let prof = profiles.get(key);
      if (!prof) {
        if (profiles.size > 64) profiles.clear(); // items come asset by asset: keep the memory of a long export flat
        profiles.set(key, (prof = pointProfile(c.spec.hazard, a.lat, a.lng, assetSeed(seed, a))));
      }
      return {
        ...assetHeader(p, a, index),
        hazard: c.spec.hazard,
        indicator: c.spec.indicator,
        scenario: c.scenario,
        measure: c.measure,
        risk_exposure: seriesFor(c.spec, prof, c.scenario, c.measure, range),
      };
    },
  };
}

/** GET .../datasets/physical/items: timeseries, one per asset × indicator × scenario × measure. */
export async function physicalItems(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const selection = itemsSelection(ctx, p);
  const page = pagination(ctx);
  const end = Math.min(selection.total, page.offset + page.rows);
  const out: unknown[] = [];
  const clock = new TurnClock();
  for (let i = page.offset; i < end; i++) {
    out.push(selection.item(i));
    await clock.pace();
  }
  return out;
}

/** Values of `file_format` on the item and summary downloads (not published; inferred: csv by default, json). */
export const FILE_FORMATS = ["csv", "json"] as const;

/**
 * The rows a download covers: everything the filters select, or one page of it when `page` or
 * `rows` is given (the downloads take the list's filters, paging included; inferred).
 */
function downloadSpan(ctx: RequestContext, total: number): { start: number; end: number } {
  if (queryString(ctx, "page") === undefined && queryString(ctx, "rows") === undefined) return { start: 0, end: total };
  const page = pagination(ctx);
  return { start: Math.min(total, page.offset), end: Math.min(total, page.offset + page.rows) };
}

/** One CSV line (RFC 4180 quoting via papaparse), with its newline. */
function csvLine(values: readonly unknown[]): string {
  return Papa.unparse([values as unknown[]], { newline: "\n" }) + "\n";
}

/**
 * Sends a download as a stream of text chunks produced on demand, so a 5,000-asset export never
 * sits whole in memory. Every check ran before: a stream cannot turn into an `{errors}` answer.
 */
function sendDownload(
  ctx: RequestContext,
  fileName: string,
  format: "csv" | "json",
  chunks: () => Generator<string> | AsyncGenerator<string>,
) {
  ctx.reply
    .header("Content-Type", format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8")
    .header("Content-Disposition", `attachment; filename="${fileName}"`);
  return Readable.from(batched(chunks()));
}

/**
 * Joins small chunks into pieces of about 64 KB (fewer writes to the socket), giving the event loop
 * back whenever producing them took a slice: on a local socket every write succeeds at once, so
 * an unpaced stream would produce the whole download in one turn.
 */
async function* batched(chunks: Generator<string> | AsyncGenerator<string>): AsyncGenerator<string> {
  const clock = new TurnClock();
  let buffer = "";
  for await (const chunk of chunks) {
    buffer += chunk;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = "";
    }
    await clock.pace();
  }
  if (buffer !== "") yield buffer;
}

/** A JSON array of the items from `start` to `end`, produced one item at a time. */
function* jsonArray(start: number, end: number, item: (i: number) => unknown): Generator<string> {
  yield "[";
  for (let i = start; i < end; i++) yield (i > start ? "," : "") + JSON.stringify(item(i));
  yield "]";
}

/**
 * GET .../datasets/physical/items/export: the items' filters plus `file_format`. CSV: one row per
 * item, asset columns, hazard, indicator, scenario, measure, then one column per date key
 * (`YYYY` and `YYYY-MM`, sorted), as the task pane's timeseries sheet; JSON: the items as listed.
 */
export async function physicalItemsExport(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const format = queryEnum(ctx, "file_format", FILE_FORMATS) ?? "csv";
  const selection = itemsSelection(ctx, p);
  const { start, end } = downloadSpan(ctx, selection.total);
  const fileName = `${p.portfolio_name}-items.${format}`;
  if (format === "json") return sendDownload(ctx, fileName, format, () => jsonArray(start, end, selection.item));
  // The date keys depend on the indicators' kinds and the range only, not on the asset.
  const keys = new Set<string>();
  const probe = pointProfile(HAZARDS[0], 0, 0, ctx.emu.options.seed);
  for (const kind of new Set(selection.combos.map((c) => c.spec.kind))) {
    const spec = selection.combos.find((c) => c.spec.kind === kind)!.spec;
    for (const k of Object.keys(seriesFor(spec, probe, "ssp585", "mid", selection.range))) keys.add(k);
  }
  const dates = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sendDownload(ctx, fileName, format, function* () {
    yield csvLine([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "hazard",
      "indicator",
      "scenario",
      "measure",
      ...dates,
    ]);
    for (let i = start; i < end; i++) {
      const it = selection.item(i);
      yield csvLine([
        it.portfolio_index,
        it.entity_id,
        it.entity_name,
        it.hazard,
        it.indicator,
        it.scenario,
        it.measure,
        ...dates.map((d) => it.risk_exposure[d] ?? ""),
      ]);
    }
  });
}

/**
 * GET .../datasets/physical/summary/export: the (default) summary's filters plus `file_format`.
 * CSV: one row per asset × scenario × window with `<hazard>_risk_class` and `<hazard>_risk_score`
 * columns, as the task pane's summary sheet; JSON: the summary items as listed.
 */
export async function physicalSummaryExport(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  if (queryString(ctx, "extended") !== undefined)
    throw badRequest("extended: not a filter of the summary export (it exports the default summary)");
  const format = queryEnum(ctx, "file_format", FILE_FORMATS) ?? "csv";
  const selection = defaultSummarySelection(ctx, p);
  const { start, end } = downloadSpan(ctx, selection.total);
  const fileName = `${p.portfolio_name}-summary.${format}`;
  if (format === "json") return sendDownload(ctx, fileName, format, () => jsonArray(start, end, selection.item));
  return sendDownload(ctx, fileName, format, function* () {
    yield csvLine([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "scenario",
      "window",
      "window_start_year",
      ...selection.hazards.flatMap((h) => [`${h}_risk_class`, `${h}_risk_score`]),
    ]);
    for (let i = start; i < end; i++) {
      const it = selection.item(i);
      const byHazard = new Map(it.risk_summaries.map((r) => [r.hazard, r]));
      const cells = selection.hazards.flatMap((h) => [
        byHazard.get(h)?.risk_class ?? "",
        byHazard.get(h)?.risk_score ?? "",
      ]);
      yield csvLine([
        it.portfolio_index,
        it.entity_id,
        it.entity_name,
        it.scenario,
        it.window,
        it.window_start_year,
        ...cells,
      ]);
    }
  });
}

/** Years of the ZIP's exposure tables: 2020 to 2100 in steps of 5 (keeps a 5,000-asset export small). */
export const EXPORT_YEARS = Array.from({ length: 17 }, (_, i) => 2020 + 5 * i);

/** One table of the export: column names and rows. */
export interface ExportTable {
  fields: string[];
  data: unknown[][];
}

/**
 * The export's tables with their names (`exposure_<scenario>`, `exposure_bounds_<scenario>`,
 * `summary_<scenario>`), one scenario's at a time: a consumer that lets each go keeps a third of
 * the 5,000-asset export in memory, not all of it (a heap of gigabytes pauses for seconds to collect).
 */
export async function* exportTables(p: StoredPortfolio, seed: number): AsyncGenerator<[string, ExportTable]> {
  const clock = new TurnClock();
  const profiles: PointProfile[] = [];
  const idCols = ["portfolio_index", "entity_id", "entity_name", "lat", "lng"];
  for (const scenario of SCENARIOS) {
    const mid: unknown[][] = [];
    const bounds: unknown[][] = [];
    const summary: unknown[][] = [];
    for (let i = 0; i < p.assets.length; i++) {
      const a = p.assets[i];
      const id = [i, a.entity_id, a.entity_name, a.lat, a.lng];
      for (const hazard of HAZARDS as readonly Hazard[]) {
        const spec = primaryIndicator(hazard);
        // An asset's profile does not depend on the scenario: made once for the three.
        const key = i * HAZARDS.length + HAZARDS.indexOf(hazard);
        const prof = (profiles[key] ??= pointProfile(hazard, a.lat, a.lng, assetSeed(seed, a)));
        mid.push([
          ...id,
          hazard,
          spec.indicator,
          ...EXPORT_YEARS.map((y) => modelValue(spec, prof, scenario, "mid", y)),
        ]);
        for (const m of ["lb", "ub"] as const)
          bounds.push([
            ...id,
            hazard,
            spec.indicator,
            m,
            ...EXPORT_YEARS.map((y) => modelValue(spec, prof, scenario, m, y)),
          ]);
      }
      for (const w of WINDOWS) {
        for (const r of riskSummaries(a.lat, a.lng, scenario, w, assetSeed(seed, a)))
          summary.push([...id, w, WINDOW_START_YEAR, r.hazard, r.risk_score, r.risk_class]);
      }
      await clock.pace();
    }
    const years = EXPORT_YEARS.map(String);
    yield [`exposure_${scenario}`, { fields: [...idCols, "hazard", "indicator", ...years], data: mid }];
    yield [
      `exposure_bounds_${scenario}`,
      { fields: [...idCols, "hazard", "indicator", "measure", ...years], data: bounds },
    ];
    yield [
      `summary_${scenario}`,
      { fields: [...idCols, "window", "window_start_year", "hazard", "risk_score", "risk_class"], data: summary },
    ];
  }
}

/** A table as CSV text, a slice of rows at a time between turns of the event loop. */
async function tableCsv(table: ExportTable): Promise<string> {
  const parts = [Papa.unparse([table.fields], { newline: "\n" })];
  const clock = new TurnClock();
  for (let at = 0; at < table.data.length; at += 200) {
    parts.push(Papa.unparse(table.data.slice(at, at + 200), { newline: "\n" }));
    await clock.pace();
  }
  return parts.join("\n");
}

/** What the export ZIP's README.txt says. */
const EXPORT_README =
  "Synthetic demo data generated by the local service emulator.\n" +
  "exposure_<scenario>.csv: mid value of each hazard's primary indicator per asset, one column per year (2020-2100, every 5 years).\n" +
  "exposure_bounds_<scenario>.csv: the same with lower (lb) and upper (ub) bounds.\n" +
  "summary_<scenario>.csv: risk score (maximum of the mid series over the window) and class per asset, window and hazard.\n";

/**
 * GET .../datasets/physical/export/json: the export as one JSON document (its shape is not
 * published; inferred): `{portfolio_name, version, tables: {<name>: {fields, data}}}` with the
 * ZIP's tables, same names without `.csv`, same numbers.
 */
export async function physicalExportJson(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  const seed = ctx.emu.options.seed;
  return sendDownload(ctx, `${p.portfolio_name}-physical.json`, "json", async function* () {
    yield `{"portfolio_name":${JSON.stringify(p.portfolio_name)},"version":${JSON.stringify(datasetVersion(p))},"tables":{`;
    let first = true;
    for await (const [name, table] of exportTables(p, seed)) {
      yield `${first ? "" : ","}${JSON.stringify(name)}:{"fields":${JSON.stringify(table.fields)},"data":[`;
      // Rows are yielded one by one: a whole 5,000-asset table as one string is tens of MB.
      for (let i = 0; i < table.data.length; i++) yield (i > 0 ? "," : "") + JSON.stringify(table.data[i]);
      yield "]}";
      first = false;
    }
    yield "}}";
  });
}

/** GET .../datasets/physical/export: ZIP of CSV files per scenario. */
export async function physicalExport(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  requireRiskData(p);
  // Each table becomes its file's bytes at once, and its rows and text are let go.
  const entries: AsyncZippable = {};
  for await (const [name, table] of exportTables(p, ctx.emu.options.seed))
    entries[`${name}.csv`] = strToU8(await tableCsv(table));
  entries["README.txt"] = strToU8(EXPORT_README);
  // fflate's asynchronous zip compresses in worker threads, off the server's thread.
  const archive = await new Promise<Uint8Array>((resolve, reject) =>
    zip(entries, { level: 6 }, (err, data) => (err ? reject(err) : resolve(data))),
  );
  ctx.reply
    .header("Content-Type", "application/zip")
    .header("Content-Disposition", `attachment; filename="${p.portfolio_name}-physical.zip"`);
  return Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
}
