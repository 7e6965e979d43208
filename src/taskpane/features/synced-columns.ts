/**
 * Columns of the range synced to a portfolio (the sheet range the portfolio was synced from, which
 * the pane remembers per portfolio), read cell by cell for the assets: the financial impact reads
 * its value from one, the disclosure tables their value, currency, revenue and adaptation.
 */
import { readAddress } from "../../excel/read-range";
import { cellA1, parseA1, qualify } from "../../shaping/a1";
import { mapHeader } from "../../shaping/headers";
import type { CellValue } from "../../shaping/types";
import { assetSourceOf } from "../ui/asset-source-actions";
import type { ExcelRunner } from "../ui/pane-types";
import { message, type Message } from "../../i18n/messages";
import { MessageError } from "../../i18n/message-error";

/** A column of the synced range that is missing, or no synced range: the message says which and where. */
export class SyncedColumnError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "SyncedColumnError";
  }
}

/** Who reads the columns, which says what else the analyst can do when there is no synced range. */
export type SyncedColumnsReader = "disclosure" | "impact";

/** One column read: where it is, and each asset's cell (by portfolio_index) with its address. */
export interface SyncedColumn {
  /** Says where the values were read, e.g. "Insured of Sites!A1:C5". */
  name: string;
  /** portfolio_index → the cell's value and its address (for messages). */
  byIndex: ReadonlyMap<number, { value: CellValue; address: string }>;
}

/** Where a header goes as the sync maps it (src/shaping/headers.ts): "Currency" and "label:currency" alike. */
function targetOf(header: string): string {
  const target = mapHeader(header);
  return target.kind === "label" ? `label:${target.key}` : target.kind === "field" ? target.field : "";
}

/**
 * Reads the columns named by `headers` of the range synced to `portfolio`, each matched by its
 * header (case aside), else by the label or field the sync maps both to (a synonym: "Adaptation"
 * for `adapted`). Cells are matched to assets by entity_id when the range has that column, else
 * by position (data row k is portfolio_index k, as the import numbers them). Throws
 * {@link SyncedColumnError} when no range is known or a column is missing; the first message
 * ends with what else `reader`'s analyst can do.
 */
export async function readSyncedColumns(
  run: ExcelRunner,
  portfolio: string,
  headers: readonly string[],
  assets: readonly { entity_id?: string | null; portfolio_index: number }[],
  reader: SyncedColumnsReader,
): Promise<SyncedColumn[]> {
  const address = await assetSourceOf(run, portfolio);
  if (!address) throw new SyncedColumnError(message("ui.syncedColumns.noRange", { portfolio, reader }));
  const snapshot = await run((context) => readAddress(context, address));
  const [head = [], ...rows] = snapshot.values;
  const names = head.map((h) =>
    String(h ?? "")
      .trim()
      .toLowerCase(),
  );
  const targets = names.map(targetOf);
  const top = parseA1(snapshot.address);
  const idCol = names.indexOf("entity_id");
  const rowOf = new Map<string, number>();
  rows.forEach((row, k) => {
    const id = idCol >= 0 ? String(row[idCol] ?? "").trim() : "";
    if (id !== "" && !rowOf.has(id)) rowOf.set(id, k);
  });
  return headers.map((header) => {
    const wanted = header.trim().toLowerCase();
    const exact = names.indexOf(wanted);
    const target = targetOf(header);
    const col = exact >= 0 ? exact : target === "" ? -1 : targets.indexOf(target);
    if (col < 0)
      throw new SyncedColumnError(
        message("ui.syncedColumns.noColumn", {
          address: snapshot.address,
          header,
          columns: names.filter(Boolean).join(", "),
        }),
      );
    const cellOf = (k: number) => qualify(top.sheet, cellA1(top.row + 1 + k, top.col + col));
    const byIndex = new Map<number, { value: CellValue; address: string }>();
    if (idCol >= 0) {
      for (const asset of assets) {
        const k = rowOf.get(String(asset.entity_id ?? ""));
        if (k !== undefined)
          byIndex.set(asset.portfolio_index, { value: rows[k]![col] as CellValue, address: cellOf(k) });
      }
    } else {
      rows.forEach((row, k) => byIndex.set(k, { value: row[col] as CellValue, address: cellOf(k) }));
    }
    return { name: `${header} of ${snapshot.address}`, byIndex };
  });
}
