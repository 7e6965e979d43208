/**
 * The changes a sync may make to the analyst's asset range, each only when the analyst accepts it in
 * the pane: coordinates converted to decimal degrees and entity_ids for assets that cannot be told
 * apart (the preview's cells, before and after), and an in-cell dropdown of the service's published
 * asset types on the `label:type` column.
 */
import { parseA1, qualify, quoteSheetName, rangeA1 } from "../shaping/a1";
import type { CellValue } from "../shaping/types";
import { ASSET_TYPES } from "../shared/vocabulary";
import { addStoreSheet, writeTextBlock } from "./store-sheets";
import { message } from "../i18n/messages";
import { sheetWords } from "./sheet-words";

/** One cell to change: its sheet-qualified address, what the preview showed it holding, and the value to write. */
export interface CellChange {
  address: string;
  before: string;
  /** A number (a converted coordinate) or text (an entity_id the pane offers). */
  after: number | string;
}

/** The cells changed since the preview: nothing was written. */
export class CellsChangedError extends Error {
  constructor(readonly cells: string[]) {
    super(
      `${cells.slice(0, 5).join(", ")}${cells.length > 5 ? ` and ${cells.length - 5} more` : ""} changed since the preview: nothing was written. Check again to see the new preview.`,
    );
    this.name = "CellsChangedError";
  }
}

function rangeAt(context: Excel.RequestContext, address: string): Excel.Range {
  const a = parseA1(address);
  return context.workbook.worksheets.getItem(a.sheet ?? "").getRange(rangeA1(a.row, a.col, a.rows, a.cols));
}

/**
 * Writes each change's value into its cell, all in one request, after checking that every cell
 * still holds the text the preview showed (else {@link CellsChangedError}, nothing written). For a
 * number, a cell formatted as text (`@`) is set to General, or the number would stay text; text is
 * written with the text format, so an id such as `0012` stays as written.
 */
export async function applyCellChanges(context: Excel.RequestContext, changes: readonly CellChange[]): Promise<void> {
  const ranges = changes.map((change) => {
    const range = rangeAt(context, change.address);
    range.load("values, numberFormat");
    return range;
  });
  await context.sync();
  const changed = changes.filter((change, i) => String(ranges[i]!.values[0]?.[0] ?? "") !== change.before);
  if (changed.length > 0) throw new CellsChangedError(changed.map((c) => c.address));
  const formats = ranges.map((range) => range.numberFormat[0]?.[0] ?? "General");
  const befores = ranges.map((range) => range.values[0]?.[0] ?? "");
  changes.forEach((change, i) => {
    const range = ranges[i]!;
    if (typeof change.after === "string") range.numberFormat = [["@"]];
    else if (formats[i] === "@") range.numberFormat = [["General"]];
    range.values = [[change.after]];
  });
  try {
    await context.sync();
  } catch (error) {
    // A request that failed part-way may have written some cells: they are put back as they were.
    changes.forEach((change, i) => {
      const range = rangeAt(context, change.address);
      range.numberFormat = [[formats[i]]];
      range.values = [[befores[i]]];
    });
    await context.sync().catch(() => undefined);
    throw error;
  }
}

/** The very hidden sheet holding the published asset types, the source of the type dropdown. */
export const TYPE_LIST_SHEET = "_ClimateRiskTypes";

/** Where the list is: column A, one type a row, as a dropdown source reference. */
export const TYPE_LIST_SOURCE = `=${quoteSheetName(TYPE_LIST_SHEET)}!$A$1:$A$${ASSET_TYPES.length}`;

/** What {@link addAssetTypeDropdown} did. */
export type DropdownOutcome =
  | { added: true; address: string }
  /** The cells already have a data validation of the analyst's (or ours): left as it is. */
  | { added: false; address: string; reason: string };

/**
 * Offers the published types in a dropdown on `cells` (sheet-qualified, the type column's data
 * cells): writes the list into a very hidden sheet (33 entries, longer than the 255 characters a
 * typed list may hold) and sets a list validation whose source is that range. Other text stays
 * allowed (a Warning alert says it gets a default damage curve), so nothing is imposed. Cells that
 * already have a data validation keep it: the outcome says so.
 */
export async function addAssetTypeDropdown(context: Excel.RequestContext, cells: string): Promise<DropdownOutcome> {
  const target = rangeAt(context, cells);
  target.dataValidation.load("type, rule");
  const list = context.workbook.worksheets.getItemOrNullObject(TYPE_LIST_SHEET);
  await context.sync();
  const address = qualify(parseA1(cells).sheet, cells.slice(cells.lastIndexOf("!") + 1));
  const existing = target.dataValidation.type as string;
  if (existing !== "None") {
    const ours = target.dataValidation.rule.list?.source === TYPE_LIST_SOURCE;
    return {
      added: false,
      address,
      reason: ours
        ? `${address} already has the dropdown of published types.`
        : `${address} already has a data validation of its own (${existing}): it is left as it is.`,
    };
  }
  const sheet = list.isNullObject ? addStoreSheet(context, TYPE_LIST_SHEET) : list;
  writeTextBlock(
    sheet,
    ASSET_TYPES.map((type): CellValue[] => [type]),
    1,
  );
  // The source as a Range (Excel.ListDataValidation.source: "a Range object, or a string that
  // contains a comma-separated number, boolean, or date"); Excel reads it back as TYPE_LIST_SOURCE.
  const source = sheet.getRange(TYPE_LIST_SOURCE.slice(TYPE_LIST_SOURCE.lastIndexOf("!") + 1));
  target.dataValidation.rule = { list: { inCellDropDown: true, source } };
  const words = await sheetWords();
  target.dataValidation.errorAlert = {
    showAlert: true,
    style: "Warning" as Excel.DataValidationAlertStyle,
    title: words(message("sheet.assetType.alertTitle")),
    message: words(message("sheet.assetType.alertMessage")),
  };
  await context.sync();
  return { added: true, address };
}
