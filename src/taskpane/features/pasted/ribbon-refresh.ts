/**
 * "Refresh · Pasted sheets" from the ribbon or its shortcut, with the pane possibly hidden: the
 * one seam between the ribbon and the refresh of pasted sheets.
 *
 * The rule: a refresh started here never overwrites cells the analyst edited. It is the refresh
 * without the pane: keyed tables are matched by row, cells the analyst changed are kept and left on
 * record for the pane to ask about, rows deleted by hand are not added back. Each sheet that needs a
 * look (edited cells awaiting a choice, rows deleted by hand, a sheet not refreshed) and what the
 * kinds' steps after the refresh said (tables to upgrade, say) is returned as a line, so the pane
 * opens at "Pasted sheets & sources" with the list.
 */
import type { RiskClient } from "../../../api/client";
import type { ExcelRunner } from "../../ui/pane-types";
import type { PasteKind } from "./paste-kind";
import { refreshPastedSheetsWithoutPane } from "./pasted-sheets-actions";

/** What the ribbon shows: one sentence, and each sheet left alone (with why). */
export interface RibbonPastedRefresh {
  message: string;
  attention: string[];
}

/**
 * Refreshes every pasted sheet without overwriting edited cells; throws when nothing could be
 * refreshed. `kinds`: every paste kind (features/paste-kinds.ts), handed over by the shell.
 */
export async function refreshPastedSheetsFromRibbon(options: {
  client: RiskClient;
  run: ExcelRunner;
  kinds: readonly PasteKind[];
  signal?: AbortSignal;
}): Promise<RibbonPastedRefresh> {
  const result = await refreshPastedSheetsWithoutPane({
    client: options.client,
    run: options.run,
    kinds: options.kinds,
    signal: options.signal,
  });
  const total = result.refreshed + result.refused;
  const attention = result.outcomes.flatMap((o) => {
    if (!o.ok) return [o.message ?? `${o.sheetName} was not changed.`];
    // Without the pane the choice is never made here: every edited cell is kept and awaits it.
    const awaiting = o.keyed?.edited.length ?? 0;
    const deleted = o.keyed?.deletedByHand.length ?? 0;
    const lines: string[] = [];
    if (awaiting > 0)
      lines.push(`${o.sheetName}: ${awaiting} cell${awaiting === 1 ? "" : "s"} you edited kept, awaiting your choice.`);
    if (deleted > 0)
      lines.push(`${o.sheetName}: ${deleted} row${deleted === 1 ? "" : "s"} you deleted not added back.`);
    if (o.followers?.failed) lines.push(`${o.sheetName}: ${o.followers.message}`);
    return lines;
  });
  // What the kinds' steps after the refresh said: tables made by an older version, steps that failed.
  attention.push(...result.followUps.flatMap((f) => f.messages));
  if (result.refreshed === 0 && result.refused > 0)
    throw Object.assign(new Error(`No pasted sheet was refreshed (${result.refused} left as they were).`), {
      details: attention,
    });
  return {
    message: `Refreshed ${result.refreshed} of ${total} pasted sheet${total === 1 ? "" : "s"}${result.refused > 0 ? `; ${result.refused} left as ${result.refused === 1 ? "it was" : "they were"}` : ""}.`,
    attention,
  };
}
