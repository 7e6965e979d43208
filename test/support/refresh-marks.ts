/**
 * A workbook snapshot without the marks a refresh leaves on the sheets it left as they were: the
 * `notRefreshed` of their provenance records (the very hidden store) and the Sources sheet's last
 * two columns (src/taskpane/features/pasted/pasted-sheets-actions.ts markNotRefreshed). A refused or
 * failed refresh changes nothing else, which tests compare whole; the marks they assert apart.
 */
import type { WorkbookSnapshot } from "../../testing/fake-excel";
import { columnLetters } from "../../src/shaping/a1";
import { PROVENANCE_STORE_SHEET, SOURCES_HEADER, SOURCES_SHEET } from "../../src/shaping/paste-provenance";

/** The Sources sheet's columns that say a sheet was not refreshed (letters; the header row stays). */
const MARK_COLUMNS = ["Not refreshed (UTC)", "Why not refreshed"].map((name) =>
  columnLetters(SOURCES_HEADER.indexOf(name)),
);

/** `snapshot` with the refresh's marks taken out (see the module's comment). */
export function withoutRefreshMarks(snapshot: WorkbookSnapshot): WorkbookSnapshot {
  return {
    ...snapshot,
    sheets: snapshot.sheets.map((sheet) => {
      if (sheet.name === PROVENANCE_STORE_SHEET)
        return {
          ...sheet,
          cells: sheet.cells.map(([address, value, ...rest]) => {
            if (typeof value !== "string" || !value.startsWith('{"')) return [address, value, ...rest];
            const { notRefreshed: _, ...record } = JSON.parse(value) as Record<string, unknown>;
            return [address, JSON.stringify(record), ...rest];
          }),
        };
      if (sheet.name === SOURCES_SHEET)
        return {
          ...sheet,
          cells: sheet.cells.filter(([address]) => {
            // Sheet-qualified ("'Climate Risk sources'!N2").
            const [, column, row] = /!\$?([A-Z]+)\$?(\d+)$/.exec(address) ?? [];
            return !(MARK_COLUMNS.includes(column) && Number(row) > 1);
          }),
        };
      return sheet;
    }),
  };
}
