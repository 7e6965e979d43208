/** The summary's paste kinds: the default summary of every scenario, and a scenario's extended summary. */
import { flattenExtendedSummary, flattenSummary } from "../../../shaping/flatten-summary";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { filterText, reportingItems, type PasteKind } from "../pasted";

/**
 * Pages in flight when a first paste reads the default summary of every scenario: assets × 3
 * scenarios × 3 windows rows, 180 pages of 250 at 5,000 assets, ten times the other lists. At 4
 * pages at a time it was 45 round trips in a row (14 s at 300 ms); 8 halves that. (A refresh reads
 * it within the slots of all its reads, REFRESH_PAGES_IN_FLIGHT.)
 */
export const SUMMARY_READ_AHEAD = 8;

/** The default summary (every scenario and window, or one scenario). */
export const SUMMARY_KIND: PasteKind = {
  operation: "summary",
  label: OPERATION_LABELS.summary,
  dataset: true,
  rowKey: () => ROW_KEYS.summary,
  async fetch(client, source, signal, _run, extras) {
    const scenario = filterText(source, "scenario");
    // At a refresh, with the refresh's slots and the rows the sheet held: one item a row.
    const reading = extras?.shared?.reading(SUMMARY_READ_AHEAD, source.rows) ?? { readAhead: SUMMARY_READ_AHEAD };
    const items = await client.datasets
      .summary(source.portfolio ?? "", scenario ? { scenario } : {})
      .all({ signal, ...reading, onProgress: reportingItems(extras?.onItemsRead) });
    const flat = flattenSummary(items);
    return { header: flat.header, rows: flat.rows, formats: { labelColumns: flat.labelColumns } };
  },
  sheet: (source, table) => ({
    sheetName: `Summary ${source.portfolio}`,
    tableName: `Summary_${source.portfolio}`,
    ...table.formats,
  }),
};

/** A scenario's extended summary. */
export const EXTENDED_SUMMARY_KIND: PasteKind = {
  operation: "extended-summary",
  label: OPERATION_LABELS["extended-summary"],
  dataset: true,
  rowKey: () => ROW_KEYS["extended-summary"],
  async fetch(client, source, signal, _run, extras) {
    const scenario = filterText(source, "scenario");
    const portfolio = source.portfolio ?? "";
    const items = extras?.shared
      ? await extras.shared.extendedSummary(portfolio, scenario, source.rows) // one item a row
      : await client.datasets
          .extendedSummary(portfolio, scenario ? { scenario } : {})
          .all({ signal, onProgress: reportingItems(extras?.onItemsRead) });
    const flat = flattenExtendedSummary(items);
    return { header: flat.header, rows: flat.rows, formats: { labelColumns: flat.labelColumns } };
  },
  sheet: (source, table) => ({
    sheetName: `Extended ${filterText(source, "scenario")} ${source.portfolio}`,
    tableName: `Extended_${filterText(source, "scenario")}_${source.portfolio}`,
    ...table.formats,
  }),
};
