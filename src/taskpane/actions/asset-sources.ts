/**
 * Where a portfolio's assets live in the workbook, so the map can select an asset's row: a range
 * synced to the portfolio, or an asset list pasted from it. Kept for the session (the pane's
 * lifetime); a sheet deleted or edited since is found out when the row is looked up.
 */
import { parseA1, qualify, rangeA1 } from "../../shaping/a1";
import type { ExcelRunner } from "./types";

const sources = new Map<string, string>();

/** Records the sheet-qualified address (header row first) holding the portfolio's assets. */
export function rememberAssetSource(portfolio: string, address: string): void {
  sources.set(portfolio.toLowerCase(), address);
}

/** The recorded address of the portfolio's assets, if any. */
export function assetSourceOf(portfolio: string): string | undefined {
  return sources.get(portfolio.toLowerCase());
}

/** Forgets every recorded source (tests). */
export function forgetAssetSources(): void {
  sources.clear();
}

/** What selecting an asset's row found. */
export type SelectOutcome = { selected: string } | { notFound: string };

/**
 * Selects the row of the asset in the portfolio's recorded range: the row whose entity_id column
 * holds `entityId`, else (no entity_id column) the `portfolioIndex`-th data row. Resolves
 * `{notFound}` with the reason when no source is recorded or the asset is not there any more.
 */
export async function selectAssetRow(run: ExcelRunner, portfolio: string, entityId: string, portfolioIndex: number): Promise<SelectOutcome> {
  const address = assetSourceOf(portfolio);
  if (!address) return { notFound: `No sheet of ${portfolio}'s assets is known in this workbook.` };
  const a = parseA1(address);
  if (a.sheet === undefined) return { notFound: `The recorded range ${address} names no sheet.` };
  return run(async (context) => {
    const sheet = context.workbook.worksheets.getItemOrNullObject(a.sheet!);
    await context.sync();
    if (sheet.isNullObject) return { notFound: `The sheet "${a.sheet}" holding ${portfolio}'s assets no longer exists.` };
    const range = sheet.getRange(rangeA1(a.row, a.col, a.rows, a.cols));
    range.load("values");
    await context.sync();
    const [header = [], ...rows] = range.values as unknown[][];
    const idColumn = header.findIndex((h) => String(h).trim().toLowerCase() === "entity_id");
    let found = idColumn >= 0 ? rows.findIndex((r) => String(r[idColumn]) === entityId) : -1;
    if (found < 0 && idColumn < 0 && portfolioIndex >= 0 && portfolioIndex < rows.length) found = portfolioIndex;
    if (found < 0) return { notFound: `${entityId || `Asset #${portfolioIndex}`} is no longer in ${address}.` };
    const rowAddress = rangeA1(a.row + 1 + found, a.col, 1, a.cols);
    sheet.activate();
    sheet.getRange(rowAddress).select();
    await context.sync();
    return { selected: qualify(a.sheet, rowAddress) };
  });
}
