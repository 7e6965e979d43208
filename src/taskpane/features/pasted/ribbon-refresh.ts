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
import { message, type Message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** What the ribbon shows: one sentence, and each sheet left alone (with why); the shell words them. */
export interface RibbonPastedRefresh {
  message: Message;
  attention: Array<Message | string>;
}

/** Nothing could be refreshed: the sentence, and each sheet left alone (with why) as `details`. */
export class NothingRefreshedError extends MessageError {
  constructor(
    said: Message,
    readonly details: Array<Message | string>,
  ) {
    super(said);
    this.name = "NothingRefreshedError";
  }
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
  const attention = result.outcomes.flatMap((o): Array<Message | string> => {
    if (!o.ok) return [o.message ?? message("pasted.run.ribbon.notChanged", { sheet: o.sheetName })];
    // Without the pane the choice is never made here: every edited cell is kept and awaits it.
    const awaiting = o.keyed?.edited.length ?? 0;
    const deleted = o.keyed?.deletedByHand.length ?? 0;
    const lines: Message[] = [];
    if (awaiting > 0) lines.push(message("pasted.run.ribbon.awaiting", { sheet: o.sheetName, count: awaiting }));
    if (deleted > 0) lines.push(message("pasted.run.ribbon.deleted", { sheet: o.sheetName, count: deleted }));
    if (o.followers?.failed)
      lines.push(
        ...o.followers.messages.map((status) => message("pasted.run.ribbon.line", { sheet: o.sheetName, status })),
      );
    return lines;
  });
  // What the kinds' steps after the refresh said: tables made by an older version, steps that failed.
  attention.push(...result.followUps.flatMap((f) => f.messages));
  if (result.refreshed === 0 && result.refused > 0)
    throw new NothingRefreshedError(message("pasted.run.ribbon.none", { refused: result.refused }), attention);
  return {
    message: message("pasted.run.ribbon.done", { refreshed: result.refreshed, total, refused: result.refused }),
    attention,
  };
}
