/**
 * The portfolio seen rather than read: the data behind the map (assets located and labelled for a
 * scenario and window), the risk matrix and scenario comparison sheets with a native chart of label
 * counts, and the asset list pasted so the map can select rows. Plain modules: no React.
 */
import type { RiskClient } from "../../../api/client";
import type { Asset, GeoJson, SummaryItem } from "../../../api/types";
import { itemsFor, labelCountsByHazard, summaryHazards, type LabelCounts } from "./model/risk-views";
import { WINDOWS } from "../../../shared/vocabulary";
import { pasteKinds } from "../pasted";
import { LABEL_COUNTS_KIND, RISK_MATRIX_KIND, SCENARIO_COMPARISON_KIND } from "./risk-view-kinds";
import type { PastedSheet, PasteOptions } from "../../ui/pane-types";
import { message } from "../../../i18n/messages";

/** Summary windows the service offers, in years (docs/service.md#hazards-and-their-three-spellings). */
export const WINDOW_CHOICES: readonly string[] = WINDOWS.map(String);

/** One asset on the map, with its summary per hazard for the chosen scenario and window. */
export interface MapAsset {
  portfolio_index: number;
  entity_id: string;
  entity_name: string;
  lat: number;
  lng: number;
  /** hazard → label and score; absent when the summary has none. */
  risks: Record<string, { label: string; score: number | null }>;
}

/** What the map draws for one portfolio, scenario and window. */
export interface MapData {
  /** What this data is of (so a view never shows one portfolio's data under another's name). */
  portfolio: string;
  scenario: string;
  window: number;
  assets: MapAsset[];
  hazards: string[];
  /** LOW / MEDIUM / HIGH per hazard (the text alternative, and the chart's counts). */
  counts: LabelCounts;
  /** Assets without usable coordinates (not drawn, but counted in the text alternative). */
  unlocated: number;
}

/** Joins the portfolio's assets (coordinates) with its summary for one scenario and window. */
export async function loadMapData(
  client: RiskClient,
  portfolio: string,
  scenario: string,
  window: number,
  signal?: AbortSignal,
): Promise<MapData> {
  const [assets, summary] = await Promise.all([
    client.portfolios.assets(portfolio).all({ signal, readAhead: 4 }),
    client.datasets.summary(portfolio, { scenario, window }).all({ signal, readAhead: 4 }),
  ]);
  return { portfolio, ...joinMapData(assets, summary, scenario, window) };
}

/** The pure join behind {@link loadMapData}. */
export function joinMapData(
  assets: readonly Asset[],
  summary: readonly SummaryItem[],
  scenario: string,
  window: number,
): Omit<MapData, "portfolio"> {
  const chosen = itemsFor(summary, scenario, window);
  const byIndex = new Map(chosen.map((s) => [s.portfolio_index, s]));
  const out: MapAsset[] = [];
  let unlocated = 0;
  for (const a of assets) {
    const lat = Number(a.lat);
    const lng = Number(a.lng);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      unlocated++;
      continue;
    }
    const risks: MapAsset["risks"] = {};
    for (const r of byIndex.get(a.portfolio_index)?.risk_summaries ?? [])
      risks[r.hazard] = {
        label: String(r.risk_class ?? ""),
        score: Number.isFinite(r.risk_score) ? r.risk_score : null,
      };
    out.push({
      portfolio_index: a.portfolio_index,
      entity_id: a.entity_id ?? "",
      entity_name: a.entity_name ?? "",
      lat,
      lng,
      risks,
    });
  }
  return {
    scenario,
    window,
    assets: out,
    hazards: summaryHazards(chosen),
    counts: labelCountsByHazard(chosen),
    unlocated,
  };
}

/** GeoJSON to draw over the map: a vector layer's features or a nature sub-project's polygons. */
export interface Overlay {
  name: string;
  geojson: GeoJson;
}

/** The overlays on offer: the compositions' vector layers and the nature sub-projects. */
export interface OverlayChoice {
  kind: "vector" | "nature";
  id: string;
  name: string;
}

/** Lists the vector layers and nature sub-projects an overlay can show. */
export async function listOverlays(client: RiskClient, signal?: AbortSignal): Promise<OverlayChoice[]> {
  const [vectors, superprojects] = await Promise.all([
    client.compositions.listVectors({ signal }),
    client.nature.superprojects({ signal }).catch(() => [] as string[]),
  ]);
  const subs = await Promise.all(superprojects.map((sp) => client.nature.subprojects(sp, { signal }).catch(() => [])));
  return [
    ...vectors.map((v) => ({ kind: "vector" as const, id: String(v.id), name: v.name })),
    ...subs.flat().map((s) => ({ kind: "nature" as const, id: s.id, name: s.name })),
  ];
}

/** Fetches an overlay's GeoJSON. */
export async function loadOverlay(client: RiskClient, choice: OverlayChoice, signal?: AbortSignal): Promise<Overlay> {
  if (choice.kind === "vector")
    return { name: choice.name, geojson: (await client.compositions.getVector(choice.id, { signal })).geojson };
  return { name: choice.name, geojson: (await client.nature.exportSubproject(choice.id, { signal })).geometry };
}

/** Options of the risk sheet pastes. */
export interface RiskSheetOptions extends PasteOptions {
  portfolio: string;
  window: number;
}

/**
 * Risk matrix (assets × hazards, labels or scores, coloured by conditional formats so colours
 * follow edits; the scenario and window in the title line) plus a sheet of LOW / MEDIUM / HIGH
 * counts per hazard with a native stacked column chart, both from one summary read through their
 * paste kinds (features/pasted/paste-kinds.ts, the definitions their refresh runs). Both sheets or
 * neither.
 */
export async function pasteRiskMatrix(
  options: RiskSheetOptions & { scenario: string; cells: "label" | "score" },
): Promise<PastedSheet[]> {
  const { portfolio, scenario, window, cells, onProgress } = options;
  onProgress?.({ message: message("visual.progress.summary") });
  return pasteKinds(options, [
    {
      kind: RISK_MATRIX_KIND,
      portfolio,
      filters: { scenario, window, cells },
      ifEmpty: message("visual.error.noSummary", { portfolio, scenario, window }),
    },
    { kind: LABEL_COUNTS_KIND, portfolio, filters: { scenario, window } },
  ]);
}

/**
 * For one hazard and window, ssp126 / ssp245 / ssp585 side by side with the change in score and
 * label, sorted by the largest increase, labels coloured (its paste kind's fetch and sheet).
 */
export async function pasteScenarioComparison(options: RiskSheetOptions & { hazard: string }): Promise<PastedSheet[]> {
  const { portfolio, hazard, window, onProgress } = options;
  onProgress?.({ message: message("visual.progress.everyScenario") });
  return pasteKinds(options, [
    {
      kind: SCENARIO_COMPARISON_KIND,
      portfolio,
      filters: { hazard, window },
      ifEmpty: message("visual.error.noHazardSummary", { portfolio, hazard, window }),
    },
  ]);
}
