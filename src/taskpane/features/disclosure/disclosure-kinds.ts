/**
 * The disclosure's paste kinds: the data sheet (the default summary joined with the asset list) and
 * the significant assets, computed from the workbook (the data table and the Methodology's settings).
 */
import type { RiskClient } from "../../../api/client";
import { readTable } from "../../../excel/read-range";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { formatCount, type LongRunning } from "../../ui/pane-types";
import { filterText, type PasteKind } from "../pasted";
import {
  SIGNIFICANT_HEADER,
  buildDisclosureData,
  readMethodology,
  significantAssets,
  type DisclosureData,
  type DisclosureLabels,
} from "./model/disclosure";

/** The disclosure data sheet. */
export const DISCLOSURE_DATA_KIND: PasteKind = {
  operation: "disclosure-data",
  label: OPERATION_LABELS["disclosure-data"],
  dataset: true,
  rowKey: () => ROW_KEYS["disclosure-data"],
  async fetch(client, source, signal) {
    const labels: DisclosureLabels = {
      value_label: filterText(source, "value_label"),
      currency: filterText(source, "currency"),
      revenue_label: filterText(source, "revenue_label"),
      adaptation_label: filterText(source, "adaptation_label"),
      location_label: filterText(source, "location_label"),
    };
    const { data } = await readDisclosureData(client, source.portfolio ?? "", labels, { signal });
    return { header: data.header, rows: data.rows };
  },
};

/** The significant assets, computed from the data sheet and the Methodology. */
export const DISCLOSURE_SIGNIFICANT_KIND: PasteKind = {
  operation: "disclosure-significant",
  label: OPERATION_LABELS["disclosure-significant"],
  dataset: false,
  rowKey: () => ROW_KEYS["disclosure-significant"],
  // Computed from the workbook as it is now: the data table (the analyst's edits included) and
  // the Methodology table's thresholds, long-term window, scenarios, FX rates and significance.
  async fetch(_client, source, _signal, run) {
    if (!run) throw new Error(`"${source.sheetName}" is computed from the workbook: refresh it from the pane.`);
    const data = filterText(source, "data_table") ?? "";
    const methodology = filterText(source, "methodology_table") ?? "";
    const [table, settings] = await run(async (context) => [
      await readTable(context, data, { maxRows: 1_000_000 }),
      await readTable(context, methodology),
    ]);
    const [header = [], ...rows] = table.values;
    const computed = significantAssets(header.map(String), rows, readMethodology(settings.values));
    if (computed.length === 0)
      throw new Error(
        `No asset is at material risk and significant by the thresholds of "${methodology}": the list was left as it was.`,
      );
    return { header: [...SIGNIFICANT_HEADER], rows: computed };
  },
};

/**
 * The disclosure data sheet's table, read as the first paste and every refresh read it: the
 * default summary (every scenario and window) and the asset list, together, joined by
 * buildDisclosureData (model/disclosure.ts). Also answers how many assets were read.
 */
export async function readDisclosureData(
  client: RiskClient,
  portfolio: string,
  labels: DisclosureLabels,
  { signal, onProgress }: LongRunning = {},
): Promise<{ data: DisclosureData; assetCount: number }> {
  const [summary, assets] = await Promise.all([
    client.datasets.summary(portfolio, {}).all({
      signal,
      readAhead: 4,
      onProgress: ({ itemsRead }) => onProgress?.({ message: `Read ${formatCount(itemsRead)} summary rows…` }),
    }),
    client.portfolios.assets(portfolio).all({ signal, readAhead: 4 }),
  ]);
  return { data: buildDisclosureData(summary, assets, labels, portfolio), assetCount: assets.length };
}
