/**
 * The work behind the Climate Risk tab's `run` buttons and shortcuts, loaded the first time one is
 * used (a chunk of its own: the pane's UI is not needed to refresh cells). Each handler calls the
 * same action the pane's section calls, and answers with one sentence (and what needs a look).
 * The feature action modules are imported directly, not through the features' index.ts, which
 * would bring their React panels into this chunk.
 */
import { RiskClient } from "../../api/client";
import type { CommandId } from "../../commands/catalogue";
import { staticCopiesChanged } from "../../commands/page";
import type { CommandHandler, CommandReport } from "../../commands/register";
import type { Scope } from "../../excel/risk-cells";
import { defaultEngine } from "../../functions/engine/default-engine";
import { getConnection, loadConnection } from "../../shared/connection";
import { PASTE_KINDS } from "../features/paste-kinds";
import { NothingRefreshedError, refreshPastedSheetsFromRibbon } from "../features/pasted/ribbon-refresh";
import { refreshScope, refreshWorkbookByRecalculation } from "../features/refresh/scoped-refresh-actions";
import { convertToValues, restoreFormulas } from "../features/static/static-copy-actions";
import type { ExcelRunner } from "../ui/pane-types";
import { sheetWords } from "../../excel/sheet-words";
import { message, type Message } from "../../i18n/messages";
import { MessageError } from "../../i18n/message-error";
import { excelRunner } from "./excel-runner";

function runner(): ExcelRunner {
  const run = excelRunner();
  if (!run) throw new Error("No workbook is available: open this add-in in Excel.");
  return run;
}

/** A client for the stored connection (loaded first: the ribbon may be the first thing used). */
async function client(): Promise<RiskClient> {
  await loadConnection();
  return new RiskClient(getConnection());
}

/** What a handler answers before it is worded: catalog messages (a string is shown as it is). */
interface SaidReport {
  message: Message;
  attention?: Array<Message | string>;
}

/**
 * A handler whose report and failures are worded in the pane's language (the one sheets are
 * written in: English until the pane has set its own), as the ribbon's outcome line shows them.
 */
function worded(work: (signal: AbortSignal) => Promise<SaidReport>): CommandHandler {
  return async (signal): Promise<CommandReport> => {
    try {
      const report = await work(signal);
      const words = await sheetWords();
      const say = (said: Message | string) => (typeof said === "string" ? said : words(said));
      return { message: words(report.message), ...(report.attention ? { attention: report.attention.map(say) } : {}) };
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      const words = await sheetWords();
      const details = error instanceof NothingRefreshedError ? error.details : [];
      throw Object.assign(new Error(words(error.said)), {
        details: details.map((said) => (typeof said === "string" ? said : words(said))),
      });
    }
  };
}

function scoped(scope: Scope): CommandHandler {
  return worded(async (signal) => {
    const result = await refreshScope({ run: runner(), engine: defaultEngine(), scope, onlyErrors: false, signal });
    return {
      message: message("refresh.run.ribbon", { count: result.riskCells, scope, sheets: result.sheets.join(", ") }),
    };
  });
}

/** The handlers of every `run` command of the tab. */
export function ribbonHandlers(): Partial<Record<CommandId, CommandHandler>> {
  return {
    refreshSelection: scoped("selection"),
    refreshSheet: scoped("sheet"),
    // The whole workbook by recalculation: nothing of it read (scoped() finds every RISK formula first).
    refreshWorkbook: worded(async (signal) => {
      const result = await refreshWorkbookByRecalculation({ run: runner(), engine: defaultEngine(), signal });
      return { message: message("refresh.run.workbookDone", { count: result.calls, answered: result.answered }) };
    }),
    refreshPastedSheets: worded(async (signal) =>
      refreshPastedSheetsFromRibbon({ client: await client(), run: runner(), kinds: PASTE_KINDS, signal }),
    ),
    convertToValues: worded(async () => {
      try {
        const result = await convertToValues({ run: runner(), scope: "selection" });
        return {
          message: message("static.run.converted", { count: result.converted, sheets: result.sheets.join(", ") }),
        };
      } finally {
        staticCopiesChanged();
      }
    }),
    restoreFormulas: worded(async () => {
      try {
        const result = await restoreFormulas({ run: runner(), scope: "workbook" });
        return {
          message: message("static.run.restored", { count: result.restored }),
          attention: result.skipped.map((cell) => message("static.run.skipped", { cell })),
        };
      } finally {
        staticCopiesChanged();
      }
    }),
  };
}
