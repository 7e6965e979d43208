/**
 * The Office side of the ribbon commands: Office.actions.associate, Office.addin's pane calls and
 * visibility event, Office.ribbon.requestUpdate where RibbonApi 1.1 exists, the selection event,
 * and the shortcuts as Office reports them where KeyboardShortcuts 1.1 exists. Every optional API is
 * checked at run time with a literal isSetSupported (test/requirement-sets.test.ts reads them).
 * Outside Office (jest, a plain browser before the harness installs its stand-ins) each binding
 * does nothing or answers "not available".
 */
import { COMMAND_SHORTCUTS, type CommandId } from "./catalogue";
import type { CommandHost } from "./register";
import type { RibbonUpdate } from "./ribbon-state";

/** Office as this module reads it: the global, if any, typed loosely (it may be a stand-in). */
function office(): typeof Office | undefined {
  return (globalThis as { Office?: typeof Office }).Office;
}

function supported(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/** Office.actions.associate and Office.addin.showAsTaskpane, or null when this page has no Office.actions. */
export function officeCommandHost(): CommandHost | null {
  const api = office();
  if (typeof api?.actions?.associate !== "function") return null;
  return {
    associate: (id, run) => api.actions.associate(id, run),
    showPane: () => api.addin.showAsTaskpane(),
  };
}

/**
 * Office.ribbon.requestUpdate where RibbonApi 1.1 exists ("Enable and Disable Add-in Commands":
 * it cannot be declared in the manifest, so it is checked here), else null: every button stays enabled.
 */
export function ribbonUpdater(): ((data: RibbonUpdate) => Promise<void>) | null {
  const api = office();
  if (!supported(() => api!.context.requirements.isSetSupported("RibbonApi", "1.1"))) return null;
  if (typeof api?.ribbon?.requestUpdate !== "function") return null;
  return (data) => api.ribbon.requestUpdate(data as Office.RibbonUpdaterData);
}

/**
 * Calls `listener(visible)` whenever the pane is shown or hidden (Office.addin.onVisibilityModeChanged,
 * SharedRuntime 1.1). Resolves to false where the page cannot be told (no Office.addin).
 */
export async function watchPaneVisibility(listener: (visible: boolean) => void): Promise<boolean> {
  const api = office();
  if (typeof api?.addin?.onVisibilityModeChanged !== "function") return false;
  try {
    await api.addin.onVisibilityModeChanged((message) => listener(message.visibilityMode === "Taskpane"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Calls `listener` on every selection change of the workbook (the common API's
 * DocumentSelectionChanged event: no Excel request per change, so a drag costs nothing until the
 * watcher's debounce reads the active cell). Resolves to false where it cannot be registered.
 */
export function watchSelection(listener: () => void): Promise<boolean> {
  const document = office()?.context?.document;
  if (typeof document?.addHandlerAsync !== "function") return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, listener, (result) =>
        resolve(result.status === Office.AsyncResultStatus.Succeeded),
      );
    } catch {
      resolve(false);
    }
  });
}

/** Each shortcut's key as the analyst must press it now, and where that answer comes from. */
export interface ShortcutKeys {
  /**
   * `office`: Office.actions.getShortcuts (the analyst's own keys; null where another action won a
   * clash); `file`: shortcuts.json as shipped.
   */
  source: "office" | "file";
  keys: Partial<Record<CommandId, string | null>>;
}

/**
 * The shortcuts in force: where KeyboardShortcuts 1.1 exists, Office.actions.getShortcuts (it
 * knows a key the analyst customised, or gave to another action in Office's conflict dialog);
 * elsewhere the keys shortcuts.json declares (`mac` picks the Mac ones).
 */
export async function currentShortcuts(mac: boolean): Promise<ShortcutKeys> {
  const fromFile: ShortcutKeys = {
    source: "file",
    keys: Object.fromEntries(COMMAND_SHORTCUTS.map((s) => [s.action, mac ? s.mac : s.key])),
  };
  const api = office();
  if (!supported(() => api!.context.requirements.isSetSupported("KeyboardShortcuts", "1.1"))) return fromFile;
  try {
    const keys = await api!.actions.getShortcuts();
    return { source: "office", keys: keys as ShortcutKeys["keys"] };
  } catch {
    return fromFile;
  }
}
