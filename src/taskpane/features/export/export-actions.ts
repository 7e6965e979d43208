import type { RiskClient } from "../../../api/client";
import { pasteKinds } from "../pasted";
import { EXPORT_KIND, exportFiles } from "./export-kind";
import {
  rethrowIfCancelled,
  throwIfCancelled,
  type ExcelRunner,
  type LongRunning,
  type PastedSheet,
} from "../../ui/pane-types";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** A downloaded export: its bytes and the file name to save it under. */
export interface DownloadedExport {
  portfolio: string;
  fileName: string;
  bytes: Uint8Array;
}

/** Downloads the portfolio's physical export ZIP (nothing is written to the workbook). */
export async function downloadExport(
  client: RiskClient,
  portfolio: string,
  options: LongRunning = {},
): Promise<DownloadedExport> {
  options.onProgress?.({ message: message("export.run.downloading", { portfolio }) });
  const bytes = await client.datasets
    .export(portfolio, { signal: options.signal })
    .catch(rethrowIfCancelled(options.signal));
  return { portfolio, fileName: `${portfolio}-physical-export.zip`, bytes };
}

/** The CSV files inside an export, for the "unpack" offer (names and sizes). */
export function listExportFiles(
  download: DownloadedExport,
): Array<{ fileName: string; rows: number; columns: number }> {
  return exportFiles(download.bytes).map((f) => ({
    fileName: f.fileName,
    rows: f.table.rows.length,
    columns: f.table.header.length,
  }));
}

/**
 * Unpacks every CSV file of an export into its own new sheet through the export paste kind
 * (export-kind.ts: its shaping of the files, sheet, row key and provenance, as its refresh runs
 * them), all or none: a failure or Cancel part-way deletes the sheets already made.
 */
export async function unpackExport(
  options: LongRunning & { run: ExcelRunner; download: DownloadedExport; client?: RiskClient },
): Promise<PastedSheet[]> {
  const { download, signal } = options;
  const files = exportFiles(download.bytes);
  if (files.length === 0) throw new MessageError(message("export.run.noCsv", { file: download.fileName }));
  throwIfCancelled(signal);
  // With the client it came from, each sheet records its provenance (and can be refreshed).
  return pasteKinds(
    options,
    files.map((file) => ({
      kind: EXPORT_KIND,
      portfolio: download.portfolio,
      filters: { file: file.fileName },
      table: file.table,
    })),
  );
}
