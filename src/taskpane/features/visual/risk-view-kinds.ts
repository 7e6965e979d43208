/**
 * The risk views' paste kinds: the risk matrix, its label counts and the scenario comparison, each
 * shaped from a summary read (one read shared by the kinds of one paste or refresh).
 */
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { filterText, summaryItems, type PasteKind } from "../pasted";
import {
  COMPARED_SCENARIOS,
  buildRiskMatrix,
  buildScenarioComparison,
  itemsFor,
  labelCountsByHazard,
  labelCountsTable,
} from "./model/risk-views";

/** Assets by hazard, their labels or scores for one scenario and window. */
export const RISK_MATRIX_KIND: PasteKind = {
  operation: "risk-matrix",
  label: OPERATION_LABELS["risk-matrix"],
  dataset: true,
  rowKey: () => ROW_KEYS["risk-matrix"],
  async fetch(client, source, signal, _run, extras) {
    const scenario = filterText(source, "scenario") ?? "";
    const window = Number(source.filters.window);
    const items = await summaryItems(client, source, { scenario, window }, signal, extras);
    const cells = filterText(source, "cells") === "score" ? "score" : "label";
    const matrix = buildRiskMatrix(items, scenario, window, cells);
    return { header: matrix.header, rows: matrix.rows, title: matrix.title, formats: matrix.formats };
  },
  // Labels or scores coloured by conditional formats, so colours follow edits.
  sheet: (source, table) => ({
    sheetName: `Matrix ${source.portfolio}`,
    tableName: `Matrix_${source.portfolio}`,
    title: `${source.portfolio} · ${table.title}`,
    ...table.formats,
  }),
};

/** Assets per label and hazard for one scenario and window. */
export const LABEL_COUNTS_KIND: PasteKind = {
  operation: "label-counts",
  label: OPERATION_LABELS["label-counts"],
  dataset: true,
  rowKey: () => ROW_KEYS["label-counts"],
  async fetch(client, source, signal, _run, extras) {
    const scenario = filterText(source, "scenario") ?? "";
    const window = Number(source.filters.window);
    const items = await summaryItems(client, source, { scenario, window }, signal, extras);
    return labelCountsTable(labelCountsByHazard(itemsFor(items, scenario, window)));
  },
  // With a native stacked column chart of the counts.
  sheet(source, table) {
    const scope = `scenario ${filterText(source, "scenario")} · ${filterText(source, "window")}-year window`;
    return {
      sheetName: `Counts ${source.portfolio}`,
      tableName: `Counts_${source.portfolio}`,
      title: `${source.portfolio} · assets per label and hazard · ${scope}`,
      chart: {
        type: "ColumnStacked",
        dataRows: [0, 1, 2],
        firstValueColumn: 1,
        seriesNames: table.rows.map((r) => String(r[0])),
        title: `Assets per label · ${filterText(source, "scenario")} · ${filterText(source, "window")}-year window`,
      },
    };
  },
};

/** One hazard's labels across the compared scenarios. */
export const SCENARIO_COMPARISON_KIND: PasteKind = {
  operation: "scenario-comparison",
  label: OPERATION_LABELS["scenario-comparison"],
  dataset: true,
  rowKey: () => ROW_KEYS["scenario-comparison"],
  async fetch(client, source, signal, _run, extras) {
    const hazard = filterText(source, "hazard") ?? "";
    const window = Number(source.filters.window);
    const items = await summaryItems(client, source, { window, hazard }, signal, extras);
    const comparison = buildScenarioComparison(items, hazard, window);
    const { header, rows, title, labelColumns } = comparison;
    return { header, rows, title, formats: { labelColumns } };
  },
  sheet: (source, table) => ({
    sheetName: `Compare ${filterText(source, "hazard")} ${source.portfolio}`,
    tableName: `Compare_${filterText(source, "hazard")}_${source.portfolio}`,
    title: `${source.portfolio} · ${table.title} (${COMPARED_SCENARIOS.join(", ")})`,
    ...table.formats,
  }),
};
