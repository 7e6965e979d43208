/**
 * The disclosure's paste kinds: the data sheet (the default summary joined with the asset list) and
 * the significant assets, computed from the workbook (the data table and the Methodology's settings),
 * refreshed after the data sheets; each with its steps after every refresh (disclosure-after-refresh.ts).
 */
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";
import type { RiskClient } from "../../../api/client";
import { readTable } from "../../../excel/read-range";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import type { ExcelRunner, LongRunning } from "../../ui/pane-types";
import { sheetWords } from "../../../excel/sheet-words";
import { filterText, type PasteKind } from "../pasted";
import { readSyncedColumns, SyncedColumnError } from "../synced-columns";
import {
  SIGNIFICANT_HEADER,
  DisclosureInputError,
  buildDisclosureData,
  readMethodology,
  significantAssets,
  type DisclosureColumns,
  type DisclosureData,
  type DisclosureLabels,
} from "./model/disclosure";
import { afterDataRefresh, afterSignificantRefresh } from "./disclosure-after-refresh";

/** The disclosure data sheet. */
export const DISCLOSURE_DATA_KIND: PasteKind = {
  operation: "disclosure-data",
  label: OPERATION_LABELS["disclosure-data"],
  dataset: true,
  rowKey: () => ROW_KEYS["disclosure-data"],
  async fetch(client, source, signal, run) {
    const labels: DisclosureLabels = {
      value_label: filterText(source, "value_label"),
      currency: filterText(source, "currency"),
      revenue_label: filterText(source, "revenue_label"),
      adaptation_label: filterText(source, "adaptation_label"),
      location_label: filterText(source, "location_label"),
      value_column: filterText(source, "value_column"),
      currency_column: filterText(source, "currency_column"),
      revenue_column: filterText(source, "revenue_column"),
      adaptation_column: filterText(source, "adaptation_column"),
    };
    const { data } = await readDisclosureData(client, source.portfolio ?? "", labels, { signal, run });
    return { header: data.header, rows: data.rows };
  },
  // The by-country rows rewritten, tables still reading fixed ranges marked stale and reported.
  afterRefresh: afterDataRefresh,
};

/** The significant assets, computed from the data sheet and the Methodology. */
export const DISCLOSURE_SIGNIFICANT_KIND: PasteKind = {
  operation: "disclosure-significant",
  label: OPERATION_LABELS["disclosure-significant"],
  dataset: false,
  rowKey: () => ROW_KEYS["disclosure-significant"],
  // Computed from the data table: read only once every data sheet of the refresh is written.
  refreshPhase: 1,
  // Sorted again by value, its check cell written from the data it was computed from.
  afterRefresh: afterSignificantRefresh,
  // Computed from the workbook as it is now: the data table (the analyst's edits included) and
  // the Methodology table's thresholds, long-term window, scenarios, FX rates and significance.
  async fetch(_client, source, _signal, run) {
    if (!run) throw new MessageError(message("disclosure.error.computedInWorkbook", { sheet: source.sheetName ?? "" }));
    const data = filterText(source, "data_table") ?? "";
    const methodology = filterText(source, "methodology_table") ?? "";
    const [table, settings] = await run(async (context) => [
      await readTable(context, data, { maxRows: 1_000_000 }),
      await readTable(context, methodology),
    ]);
    const [header = [], ...rows] = table.values;
    const computed = significantAssets(header.map(String), rows, readMethodology(settings.values));
    if (computed.length === 0)
      throw new MessageError(message("disclosure.error.noSignificant", { table: methodology }));
    return { header: [...SIGNIFICANT_HEADER], rows: computed };
  },
};

/**
 * The disclosure data sheet's table, read as the first paste and every refresh read it: the
 * default summary (every scenario and window) and the asset list, together, joined by
 * buildDisclosureData (model/disclosure.ts), with the inputs named as columns read from the range
 * synced to the portfolio (../synced-columns.ts; `run` needed then). Also answers how many assets
 * were read.
 */
export async function readDisclosureData(
  client: RiskClient,
  portfolio: string,
  labels: DisclosureLabels,
  { signal, onProgress, run }: LongRunning & { run?: ExcelRunner } = {},
): Promise<{ data: DisclosureData; assetCount: number }> {
  // Progress lines are text (../../ui/pane-types): worded with the pane's formatter.
  const words = await sheetWords();
  const [summary, assets] = await Promise.all([
    client.datasets.summary(portfolio, {}).all({
      signal,
      readAhead: 4,
      onProgress: ({ itemsRead }) =>
        onProgress?.({ message: words(message("disclosure.progress.read", { count: itemsRead })) }),
    }),
    client.portfolios.assets(portfolio).all({ signal, readAhead: 4 }),
  ]);
  const columns = await readInputColumns(run, portfolio, labels, assets);
  return { data: buildDisclosureData(summary, assets, labels, portfolio, columns), assetCount: assets.length };
}

/** The inputs `labels` names as columns (`value_column`…), read from the synced range in one read. */
async function readInputColumns(
  run: ExcelRunner | undefined,
  portfolio: string,
  labels: DisclosureLabels,
  assets: readonly { entity_id?: string | null; portfolio_index: number }[],
): Promise<DisclosureColumns> {
  const named = (["value", "currency", "revenue", "adaptation"] as const)
    .map((input) => [input, labels[`${input}_column`]?.trim() ?? ""] as const)
    .filter(([, header]) => header !== "");
  if (named.length === 0) return {};
  if (!run)
    throw new DisclosureInputError(
      message("disclosure.error.columnsNeedPane", { inputs: named.map(([input]) => input).join(", "), portfolio }),
    );
  try {
    const read = await readSyncedColumns(
      run,
      portfolio,
      named.map(([, header]) => header),
      assets,
      "disclosure",
    );
    return Object.fromEntries(named.map(([input], k) => [input, read[k]!]));
  } catch (error) {
    throw error instanceof SyncedColumnError ? new DisclosureInputError(error.said ?? error.message) : error;
  }
}
