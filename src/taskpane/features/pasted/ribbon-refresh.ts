/**
 * "Refresh · Pasted sheets" from the ribbon or its shortcut, with the pane possibly hidden: the
 * one seam between the ribbon and the refresh of pasted sheets.
 *
 * The rule: a refresh started here never overwrites cells the analyst edited. Today it calls the
 * pane's refresh, which refuses a table whose cells changed since it was written (whole table left
 * as it is, PastedSheetChangedError) and goes on with the others; each refusal is returned as a line
 * that needs a look, so the pane opens at "Pasted sheets & sources" with the list. When keyed
 * refresh lands (matching rows by key, keeping edited cells in place), this function switches to
 * its "without the pane: keep edited cells" mode and keeps the same answer shape.
 */
import type { RiskClient } from "../../../api/client";
import type { ExcelRunner } from "../../ui/pane-types";
import { refreshPastedSheets } from "./pasted-sheets-actions";

/** What the ribbon shows: one sentence, and each sheet left alone (with why). */
export interface RibbonPastedRefresh {
  message: string;
  attention: string[];
}

/** Refreshes every pasted sheet without overwriting edited cells; throws when nothing could be refreshed. */
export async function refreshPastedSheetsFromRibbon(options: {
  client: RiskClient;
  run: ExcelRunner;
  signal?: AbortSignal;
}): Promise<RibbonPastedRefresh> {
  const result = await refreshPastedSheets({ client: options.client, run: options.run, signal: options.signal });
  const total = result.refreshed + result.refused;
  const attention = result.outcomes.filter((o) => !o.ok).map((o) => o.message ?? `${o.sheetName} was not changed.`);
  if (result.refreshed === 0 && result.refused > 0)
    throw Object.assign(new Error(`No pasted sheet was refreshed (${result.refused} left as they were).`), {
      details: attention,
    });
  return {
    message: `Refreshed ${result.refreshed} of ${total} pasted sheet${total === 1 ? "" : "s"}${result.refused > 0 ? `; ${result.refused} left as ${result.refused === 1 ? "it was" : "they were"}` : ""}.`,
    attention,
  };
}
