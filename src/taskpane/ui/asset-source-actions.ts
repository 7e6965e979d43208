/**
 * Where a portfolio's assets live in the workbook, so the map can select an asset's row: a range
 * synced to the portfolio, or an asset list pasted from it. Kept in the workbook itself
 * (src/excel/asset-sources.ts), so they outlive the pane and travel with the file; the pane holds
 * nothing in memory. A sheet deleted or edited since is found out when the row is looked up.
 */
import {
  forgetAssetSourcesOf,
  readAssetSources,
  recordAssetSource,
  type AssetSourceKind,
} from "../../excel/asset-sources";
import { readValuesAt } from "../../excel/cells-by-address";
import { selectCell } from "../../excel/select-cell";
import { parseA1, qualify, rangeA1 } from "../../shaping/a1";
import type { ExcelRunner } from "./pane-types";

export type { AssetSourceKind };

/**
 * Records in the workbook the sheet-qualified address (header row first) holding the portfolio's
 * assets: a range synced to it, or its asset list pasted into a sheet.
 */
export function rememberAssetSource(
  run: ExcelRunner,
  portfolio: string,
  address: string,
  kind: AssetSourceKind,
): Promise<void> {
  return run((context) => recordAssetSource(context, { portfolio: portfolio.toLowerCase(), address, kind }));
}

/** The newest recorded address of the portfolio's assets, if any (where the map selects rows). */
export async function assetSourceOf(run: ExcelRunner, portfolio: string): Promise<string | undefined> {
  return (await recordsOf(run, portfolio)).at(-1)?.address;
}

/** The ranges synced to the portfolio, as recorded in this workbook (the delete confirmation names them). */
export async function syncedRangesOf(run: ExcelRunner, portfolio: string): Promise<string[]> {
  return (await recordsOf(run, portfolio)).filter((s) => s.kind === "synced").map((s) => s.address);
}

/** Forgets, in the workbook, where the portfolio's assets are (it was deleted). */
export function forgetAssetSources(run: ExcelRunner, portfolio: string): Promise<void> {
  return run((context) => forgetAssetSourcesOf(context, portfolio.toLowerCase()));
}

function recordsOf(run: ExcelRunner, portfolio: string) {
  const key = portfolio.toLowerCase();
  return run(async (context) => (await readAssetSources(context)).filter((r) => r.portfolio === key));
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
  const address = await assetSourceOf(run, portfolio);
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
