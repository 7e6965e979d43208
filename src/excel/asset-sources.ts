/**
 * Where each portfolio's assets are in this workbook: a range synced to the portfolio, or its asset
 * list pasted into a sheet. Kept in the workbook, so the records travel with the file and the next
 * session (the pane reopened, the workbook sent on) still finds them: a very hidden sheet
 * (`_ClimateRiskAssetSources`), one row per record (portfolio in lower case, sheet-qualified address
 * with the header row first, how it got there), kept like the other stores
 * (src/excel/store-sheets.ts). Addresses only: never a key, never the assets themselves.
 */
import { ASSET_SOURCES_STORE_SHEET } from "../shaping/paste-provenance";
import { readStoreRows, rewriteStore } from "./store-sheets";

/** How a range came to hold a portfolio's assets. */
export type AssetSourceKind = "synced" | "pasted";

/** One range holding a portfolio's assets. */
export interface AssetSourceRecord {
  /** The portfolio's name in lower case (portfolio names are matched without case). */
  portfolio: string;
  /** Sheet-qualified address, header row first (`'Sites 2026'!A1:D40`). */
  address: string;
  kind: AssetSourceKind;
}

const STORE_HEADER = ["portfolio", "address", "kind"];

/** Every record of the workbook, oldest first; rows that are not records (edited) are skipped. */
export async function readAssetSources(context: Excel.RequestContext): Promise<AssetSourceRecord[]> {
  const rows = (await readStoreRows(context, ASSET_SOURCES_STORE_SHEET)) ?? [];
  return rows.flatMap(({ cells: [portfolio, address, kind] }) =>
    typeof portfolio === "string" && portfolio !== "" && typeof address === "string" && address !== ""
      ? [{ portfolio, address, kind: kind === "pasted" ? ("pasted" as const) : ("synced" as const) }]
      : [],
  );
}

/** Records `record` as the newest for its portfolio (the same address recorded before moves to the end). */
export async function recordAssetSource(context: Excel.RequestContext, record: AssetSourceRecord): Promise<void> {
  const kept = (await readAssetSources(context)).filter(
    (r) => !(r.portfolio === record.portfolio && r.address === record.address),
  );
  await writeAssetSources(context, [...kept, record]);
}

/** Drops every record of the portfolio (lower case); a workbook without records is left as it is. */
export async function forgetAssetSourcesOf(context: Excel.RequestContext, portfolio: string): Promise<void> {
  const records = await readAssetSources(context);
  const kept = records.filter((r) => r.portfolio !== portfolio);
  if (kept.length !== records.length) await writeAssetSources(context, kept);
}

/** Rewrites the store with `records` (adding it, very hidden, when missing); syncs. */
async function writeAssetSources(context: Excel.RequestContext, records: readonly AssetSourceRecord[]): Promise<void> {
  await rewriteStore(
    context,
    ASSET_SOURCES_STORE_SHEET,
    STORE_HEADER,
    records.map((r) => [r.portfolio, r.address, r.kind]),
  );
}
