/**
 * How a pane action puts its tables into new sheets: all or none (src/excel/write-sheets.ts),
 * telling the user which sheet and row it is writing, and turning a Cancel into CancelledError.
 */
import {
  writeSheetsAtomically,
  type NewSheetSpec,
  type WriteProgress,
  type WrittenSheet,
} from "../../excel/write-sheets";
import { formatCount, rethrowIfCancelled, type ExcelRunner, type LongRunning, type PastedSheet } from "./pane-types";

/** The progress line of a write: "Writing Summary sites: row 1,000 of 5,000". */
function writingRows(p: WriteProgress): string {
  const sheet = p.sheetCount > 1 ? `sheet ${p.sheetIndex + 1} of ${p.sheetCount}, ` : "";
  return `Writing ${sheet}${p.sheetName}: row ${formatCount(p.rowsWritten)} of ${formatCount(p.totalRows)}`;
}

/** Writes `specs` as new sheets, all or none, reporting progress through `onProgress`. */
export async function writeNewSheets(
  run: ExcelRunner,
  specs: NewSheetSpec[],
  { signal, onProgress }: LongRunning = {},
): Promise<WrittenSheet[]> {
  return run((context) =>
    writeSheetsAtomically(context, specs, {
      signal,
      onProgress: onProgress && ((p) => onProgress({ message: writingRows(p), fraction: p.fraction })),
    }),
  ).catch(rethrowIfCancelled(signal));
}

/** What an action reports of a sheet it wrote. */
export function pastedSheet(written: WrittenSheet): PastedSheet {
  return { sheetName: written.sheetName, rowCount: written.rowCount, columnCount: written.columnCount };
}
