/**
 * The physical export ZIP → one table per CSV file inside it, unzipped with fflate (works in the
 * browser and in Node). Files are returned sorted by path; folders and macOS metadata skipped.
 */
import { strFromU8, unzipSync } from "fflate";
import { parseCsvTable } from "./csv-table";
import type { SheetTable } from "./types";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** One CSV file of the archive as a table. */
export interface CsvFileTable extends SheetTable {
  /** Path inside the archive. */
  fileName: string;
}

/** Unzip and parse every CSV file; throws an Error saying the data is not a ZIP archive. */
export function unzipCsvFiles(data: Uint8Array): CsvFileTable[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, {
      filter: (f) => /\.csv$/i.test(f.name) && !f.name.startsWith("__MACOSX/") && !f.name.endsWith("/"),
    });
  } catch (error) {
    throw new MessageError(
      message("export.run.notZip", { reason: error instanceof Error ? error.message : String(error) }),
      { cause: error },
    );
  }
  return Object.keys(files)
    .sort()
    .map((fileName) => ({ fileName, ...parseCsvTable(strFromU8(files[fileName]), fileName) }));
}

/** A sheet name suggestion for a file: its base name without extension ("ssp585/summary.csv" → "summary"). */
export function sheetNameForFile(fileName: string): string {
  const base = fileName.split("/").pop() ?? fileName;
  return base.replace(/\.csv$/i, "");
}
