/**
 * The risk views' paste kinds: the risk matrix, its label counts and the scenario comparison, each
 * shaped from a summary read (one read shared by the kinds of one paste or refresh).
 */
import { sheetWords } from "../../../excel/sheet-words";
import { message } from "../../../i18n/messages";
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
    const title = `${source.portfolio} · ${(await sheetWords())(matrix.title)}`;
    return { header: matrix.header, rows: matrix.rows, title, formats: matrix.formats };
  },
  // Labels or scores coloured by conditional formats, so colours follow edits.
  sheet: (source, table) => ({
    sheetName: `Matrix ${source.portfolio}`,
    tableName: `Matrix_${source.portfolio}`,
    title: table.title,
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
    const title = (await sheetWords())(message("visual.sheet.countsTitle", { scenario, window }));
    return { ...labelCountsTable(labelCountsByHazard(itemsFor(items, scenario, window))), title };
  },
  // With a native stacked column chart of the counts, titled as the sheet (less the portfolio).
  sheet(source, table) {
    return {
      sheetName: `Counts ${source.portfolio}`,
      tableName: `Counts_${source.portfolio}`,
      title: `${source.portfolio} · ${table.title}`,
      chart: {
        type: "ColumnStacked",
        dataRows: [0, 1, 2],
        firstValueColumn: 1,
        seriesNames: table.rows.map((r) => String(r[0])),
        title: table.title,
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
    const { header, rows, labelColumns } = comparison;
    const title = `${source.portfolio} · ${(await sheetWords())(comparison.title)} (${COMPARED_SCENARIOS.join(", ")})`;
    return { header, rows, title, formats: { labelColumns } };
  },
  sheet: (source, table) => ({
    sheetName: `Compare ${filterText(source, "hazard")} ${source.portfolio}`,
    tableName: `Compare_${filterText(source, "hazard")}_${source.portfolio}`,
    title: table.title,
    ...table.formats,
  }),
};
