/** The export's paste kind: one CSV file of a portfolio's export ZIP per sheet. */
import { sheetNameForFile, unzipCsvFiles } from "../../../shaping/export-zip";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { exportKeySpec } from "../../../shaping/row-keys";
import { filterText, type PasteKind } from "../pasted";

/** One file of the export. */
export const EXPORT_KIND: PasteKind = {
  operation: "export",
  label: OPERATION_LABELS.export,
  dataset: true,
  rowKey: exportKeySpec,
  async fetch(client, source, signal) {
    const portfolio = source.portfolio ?? "";
    const bytes = await client.datasets.export(portfolio, { signal });
    const file = unzipCsvFiles(bytes).find((x) => x.fileName === filterText(source, "file"));
    if (!file) throw new Error(`The export of ${portfolio} no longer holds the file ${filterText(source, "file")}.`);
    return { header: file.header, rows: file.rows };
  },
  sheet: (source) => ({ sheetName: sheetNameForFile(filterText(source, "file") ?? "") }),
};
