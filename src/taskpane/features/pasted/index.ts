import type { Feature } from "../feature";
import { PastedSheetsPanel } from "./PastedSheetsPanel";

/**
 * What other features use: the first paste of a kind (pasteKinds, streamKind), the provenance every
 * paste records, and the paste kinds' row keys.
 */
export {
  provenanceOf,
  refreshPastedSheets,
  refreshPastedSheetsWithoutPane,
  sortPastedSheetAgain,
} from "./pasted-sheets-actions";
export type { PastedRefreshResult, RefreshChoices } from "./pasted-sheets-actions";
export { SharedReads, TIMESERIES_SHEET_PREFIX, readDisclosureData, rowKeysFor } from "./paste-kinds";
export type { FetchedTable, PasteSource } from "./paste-kinds";
export { pasteKinds, streamKind } from "./first-paste";
export type { KindPaste, StreamKindOptions } from "./first-paste";

/** The "Pasted sheets & sources" section of the pane. */
export const pastedSheetsFeature: Feature = {
  id: "pasted",
  group: "pull",
  title: "Pasted sheets & sources",
  keywords: "provenance refresh in place sources audit",
  Panel: PastedSheetsPanel,
};
