/**
 * The harness page's own test ids (the workbook view, the ribbon, the banner), as typed constants
 * that the views set and the browser tests find elements by; the pane's are in
 * `src/taskpane/ui/test-ids.ts`. harness.html writes its static ones (`banner`, `problems`,
 * `ribbon`, `paneClose`) by hand: keep them equal.
 */
export const HARNESS_TEST_IDS = {
  banner: "harness-banner",
  problems: "harness-problems",
  ribbon: "ribbon",
  paneClose: "pane-close",
  nameBox: "name-box",
  formulaBar: "formula-bar",
  recalculate: "recalculate",
  calcStatus: "calc-status",
  grid: "grid",
  cellMessage: "cell-message",
  sheetTabs: "sheet-tabs",
  addSheet: "add-sheet",
  /** A group of the ribbon tab, by its id in manifest.xml. */
  ribbonGroup: <G extends string>(group: G) => `ribbon-group-${group}` as const,
  /** A ribbon button, by its control id in manifest.xml (e.g. `ClimateRisk.Check`). */
  ribbonButton: <C extends string>(controlId: C) => `ribbon-${controlId}` as const,
} as const;
