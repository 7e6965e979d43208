/** The scopes a scoped operation (refresh, convert to values, restore) offers, as the pane names them. */
import type { Scope } from "../../excel/risk-cells";
import type { MessageId } from "../../i18n/messages";

export type { Scope };

/** The catalog ids of the scopes' names, for radio buttons (`t(SCOPE_LABELS[scope])`). */
export const SCOPE_LABELS: Record<Scope, MessageId> = {
  selection: "scope.selection",
  sheet: "scope.sheet",
  workbook: "scope.workbook",
};
