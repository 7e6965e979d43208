import type { Feature } from "../feature";
import { pastedSheetsPanelFor } from "./PastedSheetsPanel";
import type { PasteKind } from "./paste-kind";

/**
 * What other features use: what a paste kind is (PasteKind and the helpers its definitions share),
 * the first paste of a kind (pasteKinds, streamKind), the provenance every paste records, the row
 * keys of a paste and the refresh of pasted sheets (handed the list of kinds, features/paste-kinds.ts).
 */
export {
  REFRESH_PAGES_IN_FLIGHT,
  provenanceOf,
  refreshPastedSheets,
  refreshPastedSheetsWithoutPane,
  sortPastedSheetAgain,
} from "./pasted-sheets-actions";
export type { PastedRefreshResult, RefreshChoices, RefreshOptions } from "./pasted-sheets-actions";
export { filterText, pasteKind, reportingItems, rowKeysFor, summaryItems } from "./paste-kind";
export type {
  AfterRefreshReads,
  FetchExtras,
  FetchedTable,
  KindStream,
  PasteKind,
  PasteSource,
  RefreshFollowUp,
  RefreshedSheet,
  SheetLayout,
  StreamReading,
} from "./paste-kind";
export { pasteKinds, streamKind } from "./first-paste";
export type { KindPaste, StreamKindOptions } from "./first-paste";

/**
 * The "Pasted sheets & sources" section of the pane, refreshing sheets of the kinds of `kinds`
 * (every paste kind: the registry hands its list over, features/index.ts).
 */
export function pastedSheetsFeature(kinds: readonly PasteKind[]): Feature {
  return {
    id: "pasted",
    group: "pull",
    title: "feature.pasted.title",
    keywords: "feature.pasted.keywords",
    Panel: pastedSheetsPanelFor(kinds),
  };
}
