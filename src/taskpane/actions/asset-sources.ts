/**
 * Where a portfolio's assets live in the workbook, so the map can select an asset's row: a range
 * synced to the portfolio, or an asset list pasted from it. Kept for the session (the pane's
 * lifetime); a sheet deleted or edited since is found out when the row is looked up.
 */
import { readValuesAt } from "../../excel/cellsByAddress";
import { selectCell } from "../../excel/selectCell";
import { parseA1, qualify, rangeA1 } from "../../shaping/a1";
import type { ExcelRunner } from "./types";

/** How a range came to hold a portfolio's assets. */
export type AssetSourceKind = "synced" | "pasted";

/** Per portfolio (lower case), the ranges holding its assets, the newest last. */
const sources = new Map<string, Array<{ address: string; kind: AssetSourceKind }>>();

/**
 * Records the sheet-qualified address (header row first) holding the portfolio's assets: a range
 * synced to it, or its asset list pasted into a sheet.
 */
export function rememberAssetSource(portfolio: string, address: string, kind: AssetSourceKind): void {
  const key = portfolio.toLowerCase();
  const list = (sources.get(key) ?? []).filter((s) => s.address !== address);
  list.push({ address, kind });
  sources.set(key, list);
}

/** The newest recorded address of the portfolio's assets, if any (where the map selects rows). */
export function assetSourceOf(portfolio: string): string | undefined {
  return sources.get(portfolio.toLowerCase())?.at(-1)?.address;
}

/** The ranges synced to the portfolio from this pane (the delete confirmation names them). */
export function syncedRangesOf(portfolio: string): string[] {
  return (sources.get(portfolio.toLowerCase()) ?? []).filter((s) => s.kind === "synced").map((s) => s.address);
}

/** Forgets the recorded sources of one portfolio (it was deleted), or of all (tests). */
export function forgetAssetSources(portfolio?: string): void {
  if (portfolio === undefined) sources.clear();
  else sources.delete(portfolio.toLowerCase());
}

/** What selecting an asset's row found. */
export type SelectOutcome = { selected: string } | { notFound: string };

/**
 * Selects the row of the asset in the portfolio's recorded range: the row whose entity_id column
 * holds `entityId`, else (no entity_id column) the `portfolioIndex`-th data row. Resolves
 * `{notFound}` with the reason when no source is recorded or the asset is not there any more.
 */
export async function selectAssetRow(
  run: ExcelRunner,
  portfolio: string,
  entityId: string,
  portfolioIndex: number,
): Promise<SelectOutcome> {
  const address = assetSourceOf(portfolio);
  if (!address) return { notFound: `No sheet of ${portfolio}'s assets is known in this workbook.` };
  const a = parseA1(address);
  if (a.sheet === undefined) return { notFound: `The recorded range ${address} names no sheet.` };
  return run(async (context) => {
    const values = await readValuesAt(context, address);
    if (values === null) return { notFound: `The sheet "${a.sheet}" holding ${portfolio}'s assets no longer exists.` };
    const [header = [], ...rows] = values;
    const idColumn = header.findIndex((h) => String(h).trim().toLowerCase() === "entity_id");
    // entity_id identifies a row where the asset has one; an empty id (allowed) would match the
    // first empty cell, so then the row's position (the portfolio_index) does.
    let found = idColumn >= 0 && entityId !== "" ? rows.findIndex((r) => String(r[idColumn]) === entityId) : -1;
    if (found < 0 && (idColumn < 0 || entityId === "") && portfolioIndex >= 0 && portfolioIndex < rows.length)
      found = portfolioIndex;
    if (found < 0) return { notFound: `${entityId || `Asset #${portfolioIndex}`} is no longer in ${address}.` };
    const rowAddress = qualify(a.sheet, rangeA1(a.row + 1 + found, a.col, 1, a.cols));
    await selectCell(context, rowAddress);
    return { selected: rowAddress };
  });
}
