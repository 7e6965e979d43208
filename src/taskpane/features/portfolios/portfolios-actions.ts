import type { RiskClient } from "../../../api/client";
import type { Asset, MessageResponse } from "../../../api/types";
import type { CellValue } from "../../../shaping/types";
import { qualify } from "../../../shaping/a1";
import { countRiskCells, type RiskCellCount } from "../../../excel/risk-cells";
import { forgetAssetSources, rememberAssetSource, syncedRangesOf } from "../../ui/asset-source-actions";
import { refreshAfterChange, type ForgetChange } from "../../ui/data-change";
import { unlessCancelled, type ExcelRunner, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/**
 * Deletes a portfolio (the pane asked the user first), then drops the RISK.* functions' cached
 * results of it and recalculates, so cells that read it show that it is gone instead of old numbers.
 * Answers the service's message.
 */
export async function deletePortfolio(options: {
  client: RiskClient;
  run: ExcelRunner | null;
  forget: ForgetChange;
  portfolio: string;
  signal?: AbortSignal;
}): Promise<MessageResponse> {
  const { client, portfolio, signal } = options;
  const answer = await client.portfolios.delete(portfolio, { signal });
  if (options.run) await forgetAssetSources(options.run, portfolio); // the workbook's records of it go too
  await refreshAfterChange({ run: options.run, forget: options.forget, change: { kind: "portfolio", portfolio } });
  return answer;
}

/**
 * A portfolio's assets as a table a sync can read back: entity_id, entity_name, lat, lng, then one
 * `label:<key>` column per label key (first-seen order), rows in portfolio_index order.
 */
export function assetsTable(assets: readonly Asset[]): { header: string[]; rows: CellValue[][] } {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const asset of assets) {
    for (const key of Object.keys(asset.labels ?? {})) {
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
    }
  }
  const sorted = [...assets].sort((a, b) => a.portfolio_index - b.portfolio_index);
  const rows = sorted.map((a) => [
    a.entity_id ?? "",
    a.entity_name ?? "",
    a.lat,
    a.lng,
    ...keys.map((k) => a.labels?.[k] ?? ""),
  ]);
  return { header: ["entity_id", "entity_name", "lat", "lng", ...keys.map((k) => `label:${k}`)], rows };
}

/**
 * Writes a portfolio's assets into a new sheet ("Assets <name>") as a table, whole or absent: a
 * failed or cancelled write deletes its sheet. Service text stays text (the writer's rule). The
 * sheet is recorded as where the portfolio's assets are, so the map can select their rows.
 */
export async function pasteAssets(options: PasteOptions & { portfolio: string }): Promise<PastedSheet> {
  const { client, run, portfolio, signal, onProgress } = options;
  onProgress?.({ message: message("portfolios.run.reading", { portfolio }) });
  const assets = await unlessCancelled(
    client.portfolios.assets(portfolio).all({
      signal,
      onProgress: ({ itemsRead }) => onProgress?.({ message: message("portfolios.run.read", { count: itemsRead }) }),
    }),
    signal,
  );
  if (assets.length === 0) throw new MessageError(message("portfolios.run.noAssets", { portfolio }));
  const table = assetsTable(assets);
  const [written] = await writeNewSheets(
    run,
    [{ sheetName: `Assets ${portfolio}`, tableName: `Assets_${portfolio}`, header: table.header, rows: table.rows }],
    { signal, onProgress },
  );
  await rememberAssetSource(run, portfolio, qualify(written!.sheetName, written!.tableAddress), "pasted"); // the map selects rows here
  return pastedSheet(written!);
}

/** Where a portfolio is in use in this workbook, for the delete confirmation. */
export interface PortfolioUsage {
  /** RISK.* cells whose formula names the portfolio (as a text argument), and their sheets. */
  riskCells: RiskCellCount;
  /** Ranges synced to the portfolio, as recorded in this workbook (e.g. `Sites!A1:D40`). */
  syncedRanges: string[];
}

/**
 * Finds where a portfolio is used: RISK.* formulas that name it ("name" as a text argument; a name
 * held in another cell is not seen) and the ranges synced to it, as recorded in the workbook.
 */
export async function findPortfolioUsage(run: ExcelRunner, portfolio: string): Promise<PortfolioUsage> {
  const quoted = `"${portfolio.toLowerCase()}"`;
  const riskCells = await run((context) =>
    countRiskCells(context, (formula) => formula.toLowerCase().includes(quoted)),
  );
  return { riskCells, syncedRanges: await syncedRangesOf(run, portfolio) };
}
