/**
 * The default summary seen three ways: a risk matrix (assets × hazards), a scenario comparison
 * (one hazard and window, ssp126 / ssp245 / ssp585 side by side) and counts of LOW / MEDIUM / HIGH
 * per hazard (what a chart draws and the map's text alternative says). Pure: no Excel, no HTTP.
 */
import type { CellValue, ColumnFormats, SheetTable, SummaryItem } from "../../../../shaping/types";
import { PORTFOLIO_HAZARDS_ALPHABETICAL, SCENARIOS } from "../../../../shared/vocabulary";
import { message, type Message } from "../../../../i18n/messages";

/** The three risk labels, lowest first. */
export const RISK_LABELS = ["LOW", "MEDIUM", "HIGH"] as const;
/** One of {@link RISK_LABELS}. */
export type RiskLabelName = (typeof RISK_LABELS)[number];

/** The scenarios a comparison puts side by side, lowest emissions first. */
export const COMPARED_SCENARIOS = SCENARIOS;

const HAZARD_ORDER = PORTFOLIO_HAZARDS_ALPHABETICAL;

/** Hazards present in the items, known ones first in the service's order, others sorted after. */
export function summaryHazards(items: readonly SummaryItem[]): string[] {
  const found = new Set(items.flatMap((i) => (i.risk_summaries ?? []).map((s) => s.hazard)));
  return [...HAZARD_ORDER.filter((h) => found.has(h)), ...[...found].filter((h) => !HAZARD_ORDER.includes(h)).sort()];
}

/** The rank of a label (LOW 0, MEDIUM 1, HIGH 2), or undefined for anything else. */
export function labelRank(label: unknown): number | undefined {
  const i = RISK_LABELS.indexOf(String(label ?? "").toUpperCase() as RiskLabelName);
  return i < 0 ? undefined : i;
}

/** Items of one scenario and window, one per asset (the first when the service repeats one). */
export function itemsFor(items: readonly SummaryItem[], scenario: string, window: number): SummaryItem[] {
  const seen = new Set<number>();
  const out: SummaryItem[] = [];
  for (const item of items) {
    if (item.scenario !== scenario || Number(item.window) !== window || seen.has(item.portfolio_index)) continue;
    seen.add(item.portfolio_index);
    out.push(item);
  }
  return out.sort((a, b) => a.portfolio_index - b.portfolio_index);
}

/** A risk matrix and where its coloured cells are. */
export interface RiskMatrixTable extends SheetTable {
  /** 0-based columns holding one hazard each. */
  hazardColumns: number[];
  /** What the hazard cells hold. */
  cells: "label" | "score";
  /** "Risk matrix · scenario ssp585 · 30-year window · labels", for the sheet's title line. */
  title: Message;
  /** Labels coloured, or scores on a colour scale with three decimals. */
  formats: ColumnFormats;
}

/**
 * Assets as rows, hazards as columns, each cell the hazard's label or score for the scenario and
 * window. A hazard the service did not return for an asset is an empty cell.
 */
export function buildRiskMatrix(
  items: readonly SummaryItem[],
  scenario: string,
  window: number,
  cells: "label" | "score",
): RiskMatrixTable {
  const chosen = itemsFor(items, scenario, window);
  const hazards = summaryHazards(chosen);
  const header = ["portfolio_index", "entity_id", "entity_name", ...hazards];
  const hazardColumns = hazards.map((_, i) => 3 + i);
  const rows = chosen.map((item) => {
    const byHazard = new Map((item.risk_summaries ?? []).map((s) => [s.hazard, s]));
    const row: CellValue[] = [item.portfolio_index, item.entity_id ?? "", item.entity_name ?? ""];
    for (const h of hazards) {
      const s = byHazard.get(h);
      const v = cells === "label" ? s?.risk_class : s?.risk_score;
      row.push(typeof v === "number" ? (Number.isFinite(v) ? v : "") : (v ?? ""));
    }
    return row;
  });
  return {
    header,
    rows,
    hazardColumns,
    cells,
    formats:
      cells === "label"
        ? { labelColumns: hazardColumns }
        : {
            scoreColumns: hazardColumns,
            numberFormats: Object.fromEntries(hazardColumns.map((c) => [c, "0.000"])),
          },
    title: message("visual.sheet.matrixTitle", { scenario, window, cells }),
  };
}

/** A scenario comparison and its label columns. */
export interface ScenarioComparisonTable extends SheetTable {
  labelColumns: number[];
  /** 0-based column of the score change (the sort key). */
  changeColumn: number;
  /** "Scenario comparison · flood_potential · 30-year window · sorted by …", for the sheet's title line. */
  title: Message;
}

/**
 * For one hazard and window: per asset the score and label under each compared scenario, the change
 * in score from the lowest to the highest emissions scenario and the label change ("LOW → HIGH"),
 * sorted by the largest increase first (assets missing a scenario's score sort last).
 */
export function buildScenarioComparison(
  items: readonly SummaryItem[],
  hazard: string,
  window: number,
): ScenarioComparisonTable {
  type Entry = { score?: number; label?: string };
  const assets = new Map<number, { id: string; name: string; by: Map<string, Entry> }>();
  for (const item of items) {
    if (Number(item.window) !== window || !(COMPARED_SCENARIOS as readonly string[]).includes(item.scenario)) continue;
    const s = (item.risk_summaries ?? []).find((x) => x.hazard === hazard);
    if (!s) continue;
    const asset = assets.get(item.portfolio_index) ?? {
      id: item.entity_id ?? "",
      name: item.entity_name ?? "",
      by: new Map<string, Entry>(),
    };
    if (!asset.by.has(item.scenario))
      asset.by.set(item.scenario, {
        score: Number.isFinite(s.risk_score) ? s.risk_score : undefined,
        label: s.risk_class,
      });
    assets.set(item.portfolio_index, asset);
  }
  const [low, , high] = COMPARED_SCENARIOS;
  const header = ["portfolio_index", "entity_id", "entity_name"];
  const labelColumns: number[] = [];
  for (const sc of COMPARED_SCENARIOS) {
    header.push(`${sc}_score`);
    labelColumns.push(header.length);
    header.push(`${sc}_label`);
  }
  const changeColumn = header.length;
  header.push(`score_change_${low}_to_${high}`, `label_change_${low}_to_${high}`);
  const rows = [...assets.entries()].map(([index, a]) => {
    const row: CellValue[] = [index, a.id, a.name];
    for (const sc of COMPARED_SCENARIOS) {
      const e = a.by.get(sc);
      row.push(e?.score ?? "", e?.label ?? "");
    }
    const from = a.by.get(low);
    const to = a.by.get(high);
    const change = from?.score !== undefined && to?.score !== undefined ? round(to.score - from.score) : "";
    const labelChange =
      from?.label && to?.label
        ? from.label === to.label
          ? `${from.label} (same)`
          : `${from.label} → ${to.label}`
        : "";
    row.push(change, labelChange);
    return row;
  });
  rows.sort((a, b) => {
    const x = a[changeColumn];
    const y = b[changeColumn];
    if (typeof x !== "number") return typeof y === "number" ? 1 : Number(a[0]) - Number(b[0]);
    if (typeof y !== "number") return -1;
    return y - x || Number(a[0]) - Number(b[0]);
  });
  return {
    header,
    rows,
    labelColumns,
    changeColumn,
    title: message("visual.sheet.comparisonTitle", { hazard, window, low, high }),
  };
}

/** How many assets carry each label, per hazard. */
export type LabelCounts = Record<string, Record<RiskLabelName, number>>;

/** Counts of LOW / MEDIUM / HIGH per hazard over the given items (one per asset). */
export function labelCountsByHazard(items: readonly SummaryItem[]): LabelCounts {
  const counts: LabelCounts = {};
  for (const h of summaryHazards(items)) counts[h] = { LOW: 0, MEDIUM: 0, HIGH: 0 };
  for (const item of items) {
    for (const s of item.risk_summaries ?? []) {
      const rank = labelRank(s.risk_class);
      if (rank !== undefined) counts[s.hazard][RISK_LABELS[rank]]++;
    }
  }
  return counts;
}

/**
 * The counts as a table a stacked column chart draws: one row per label (a series each), one
 * column per hazard (the categories).
 */
export function labelCountsTable(counts: LabelCounts): SheetTable {
  const hazards = Object.keys(counts);
  return {
    header: ["label", ...hazards],
    rows: RISK_LABELS.map((label) => [label, ...hazards.map((h) => counts[h][label])]),
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
