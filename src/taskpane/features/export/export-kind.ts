/** The export's paste kind: one CSV file of a portfolio's export ZIP per sheet. */
import type { RiskClient } from "../../../api/client";
import { sheetNameForFile, unzipCsvFiles } from "../../../shaping/export-zip";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { exportKeySpec } from "../../../shaping/row-keys";
import { filterText, type FetchedTable, type PasteKind } from "../pasted";
import { message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** One CSV file of an export and its table. */
export interface ExportFile {
  fileName: string;
  table: FetchedTable;
}

/**
 * The tables of an export ZIP's CSV files, sorted by path: the one shaping of the first paste
 * (unpacking a download) and of every refresh of its sheets.
 */
export function exportFiles(bytes: Uint8Array): ExportFile[] {
  return unzipCsvFiles(bytes).map((file) => ({
    fileName: file.fileName,
    table: { header: file.header, rows: file.rows },
  }));
}

/** A portfolio's export downloaded and unpacked. */
async function readExport(client: RiskClient, portfolio: string, signal?: AbortSignal): Promise<ExportFile[]> {
  return exportFiles(await client.datasets.export(portfolio, { signal }));
}

/** One file of the export. */
export const EXPORT_KIND: PasteKind = {
  operation: "export",
  label: OPERATION_LABELS.export,
  dataset: true,
  rowKey: exportKeySpec,
  // At a refresh the sheets of one export's files take their tables from one download, as the
  // first paste unpacked them all from one.
  async fetch(client, source, signal, _run, extras) {
    const portfolio = source.portfolio ?? "";
    const shared = extras?.shared;
    const files = shared
      ? await shared.once(["export", portfolio], (sharedSignal) => readExport(client, portfolio, sharedSignal))
      : await readExport(client, portfolio, signal);
    const file = files.find((x) => x.fileName === filterText(source, "file"));
    if (!file)
      throw new MessageError(message("export.run.fileGone", { portfolio, file: filterText(source, "file") ?? "" }));
    return file.table;
  },
  sheet: (source) => ({ sheetName: sheetNameForFile(filterText(source, "file") ?? "") }),
};
