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
import { refreshPastedSheetsFromRibbon } from "../features/pasted/ribbon-refresh";
import { refreshScope } from "../features/refresh/scoped-refresh-actions";
import { convertToValues, restoreFormulas } from "../features/static/static-copy-actions";
import { formatCount, type ExcelRunner } from "../ui/pane-types";
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

const SCOPE_WORDS: Record<Scope, string> = {
  selection: "the selection",
  sheet: "the active sheet",
  workbook: "the workbook",
};

function scoped(scope: Scope): CommandHandler {
  return async (signal): Promise<CommandReport> => {
    const result = await refreshScope({ run: runner(), engine: defaultEngine(), scope, onlyErrors: false, signal });
    const cells = `${formatCount(result.riskCells)} RISK cell${result.riskCells === 1 ? "" : "s"}`;
    return { message: `Refreshed ${cells} in ${SCOPE_WORDS[scope]} (${result.sheets.join(", ")}).` };
  };
}

/** The handlers of every `run` command of the tab. */
export function ribbonHandlers(): Partial<Record<CommandId, CommandHandler>> {
  return {
    refreshSelection: scoped("selection"),
    refreshSheet: scoped("sheet"),
    refreshWorkbook: scoped("workbook"),
    refreshPastedSheets: async (signal) =>
      refreshPastedSheetsFromRibbon({ client: await client(), run: runner(), kinds: PASTE_KINDS, signal }),
    convertToValues: async () => {
      try {
        const result = await convertToValues({ run: runner(), scope: "selection" });
        return {
          message: `Converted ${formatCount(result.converted)} RISK formula${result.converted === 1 ? "" : "s"} in ${result.sheets.join(", ")} to values; Restore formulas puts them back.`,
        };
      } finally {
        staticCopiesChanged();
      }
    },
    restoreFormulas: async () => {
      try {
        const result = await restoreFormulas({ run: runner(), scope: "workbook" });
        return {
          message: `Restored ${formatCount(result.restored)} RISK formula${result.restored === 1 ? "" : "s"}.`,
          attention: result.skipped.map((cell) => `${cell} changed since the static copy: left as it is.`),
        };
      } finally {
        staticCopiesChanged();
      }
    },
  };
}
