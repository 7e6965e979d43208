/** The scopes a scoped operation (refresh, convert to values, restore) offers, as the pane names them. */
import type { Scope } from "../../excel/risk-cells";

export type { Scope };

/** Human names of the scopes, for buttons and messages. */
export const SCOPE_LABELS: Record<Scope, string> = {
  selection: "Selection",
  sheet: "Active sheet",
  workbook: "Whole workbook",
};
