/**
 * The Climate Risk ribbon tab and keyboard shortcuts as data: one entry per command, which
 * manifest.xml's CustomTab, shortcuts.json, the Office.actions.associate calls (register.ts), the
 * harness's drawn tab and the tests all agree with (test/manifest.test.ts and
 * test/commands/catalogue.test.ts fail when they do not).
 *
 * Every button is an `ExecuteFunction` action, even those that only open the pane: only an
 * ExecuteFunction can be bound to a keyboard shortcut, and only a function can say which section
 * of the pane to open ("Add custom keyboard shortcuts to your Office Add-ins",
 * https://learn.microsoft.com/office/dev/add-ins/design/keyboard-shortcuts).
 */
import shortcutsFile from "./shortcuts.json";

/** The ribbon groups of the tab, in order. */
export type CommandGroup = "refresh" | "formulas" | "share" | "data" | "setup";

/**
 * What a command does when clicked: `run` does its work without the pane (the outcome reaches the
 * analyst through the pane, opened on failure); `pane` opens the pane at a section.
 */
export type CommandKind = "run" | "pane";

/** When a button is enabled, where the host lets the add-in say so (RibbonApi 1.1). */
export type CommandContext = "static-copy" | "explainable-cell";

/** One command of the tab. */
export interface RibbonCommand {
  /** The action id: the manifest's FunctionName, shortcuts.json's action id, Office.actions.associate's id. */
  id: CommandId;
  /** The manifest's Control id. */
  controlId: string;
  group: CommandGroup;
  kind: CommandKind;
  /** The button's label (the manifest's ShortString). */
  label: string;
  /** The supertip's description (the manifest's LongString). */
  tip: string;
  /** assets/ribbon/<icon>-<16|32|80>.png */
  icon: string;
  /** The pane section the command opens (`pane`), or where its failures are shown (`run`). */
  section: string;
  /** Enabled only in this context, where RibbonApi 1.1 exists; always enabled elsewhere. */
  context?: CommandContext;
}

/** Every command id. */
export type CommandId =
  | "refreshSelection"
  | "refreshSheet"
  | "refreshWorkbook"
  | "refreshPastedSheets"
  | "openBuilder"
  | "openExplain"
  | "convertToValues"
  | "restoreFormulas"
  | "openSync"
  | "openPull"
  | "openConnection"
  | "checkAddin";

/** The custom tab's id and label (the manifest's CustomTab id and its Label's ShortString). */
export const RIBBON_TAB = { id: "ClimateRisk.Tab", label: "Climate Risk" } as const;

/** The tab's groups: manifest Group ids and labels. */
export const RIBBON_GROUPS: readonly { id: CommandGroup; controlId: string; label: string }[] = [
  { id: "refresh", controlId: "ClimateRisk.Refresh", label: "Refresh" },
  { id: "formulas", controlId: "ClimateRisk.Formulas", label: "Formulas" },
  { id: "share", controlId: "ClimateRisk.Share", label: "Share" },
  { id: "data", controlId: "ClimateRisk.Data", label: "Data" },
  { id: "setup", controlId: "ClimateRisk.Setup", label: "Setup" },
];

/** The tab's commands, in ribbon order. */
export const RIBBON_COMMANDS: readonly RibbonCommand[] = [
  {
    id: "refreshSelection",
    controlId: "ClimateRisk.RefreshSelection",
    group: "refresh",
    kind: "run",
    label: "Selection",
    tip: "Refresh the RISK cells of the selection from the service; every other cell keeps its cached value. Runs without the pane; a failure opens the pane at its message.",
    icon: "refresh-selection",
    section: "scoped-refresh",
  },
  {
    id: "refreshSheet",
    controlId: "ClimateRisk.RefreshSheet",
    group: "refresh",
    kind: "run",
    label: "Sheet",
    tip: "Refresh every RISK cell of the active sheet from the service. Runs without the pane; a failure opens the pane at its message.",
    icon: "refresh-sheet",
    section: "scoped-refresh",
  },
  {
    id: "refreshWorkbook",
    controlId: "ClimateRisk.RefreshWorkbook",
    group: "refresh",
    kind: "run",
    label: "Workbook",
    tip: "Refresh every RISK cell of the workbook from the service. Runs without the pane; a failure opens the pane at its message.",
    icon: "refresh-workbook",
    section: "scoped-refresh",
  },
  {
    id: "refreshPastedSheets",
    controlId: "ClimateRisk.RefreshPasted",
    group: "refresh",
    kind: "run",
    label: "Pasted sheets",
    tip: "Re-run the query of every sheet the pane pasted and refresh its table in place. A table with cells you edited is never overwritten: it is left as it is and listed in the pane.",
    icon: "refresh-pasted",
    section: "pasted",
  },
  {
    id: "openBuilder",
    controlId: "ClimateRisk.Builder",
    group: "formulas",
    kind: "pane",
    label: "Builder",
    tip: "Open the formula builder: pick a function and its arguments, and insert the RISK formula into the selected cell.",
    icon: "builder",
    section: "builder",
  },
  {
    id: "openExplain",
    controlId: "ClimateRisk.Explain",
    group: "formulas",
    kind: "pane",
    label: "Explain",
    tip: "Explain the selected number: its function, arguments, thresholds, window and dataset version. Enabled on a RISK cell or a score in a pasted sheet.",
    icon: "explain",
    section: "explain",
    context: "explainable-cell",
  },
  {
    id: "convertToValues",
    controlId: "ClimateRisk.ConvertToValues",
    group: "share",
    kind: "run",
    label: "Convert to values",
    tip: "Replace the RISK formulas of the selection with the values they show, for people without the add-in. The formulas are kept in the workbook: Restore formulas puts them back.",
    icon: "to-values",
    section: "static",
  },
  {
    id: "restoreFormulas",
    controlId: "ClimateRisk.RestoreFormulas",
    group: "share",
    kind: "run",
    label: "Restore formulas",
    tip: "Put back every RISK formula a static copy replaced in this workbook. A cell changed since the copy is left as it is and listed in the pane.",
    icon: "restore",
    section: "static",
    context: "static-copy",
  },
  {
    id: "openSync",
    controlId: "ClimateRisk.Sync",
    group: "data",
    kind: "pane",
    label: "Sync",
    tip: "Open the pane at Sync a range to a portfolio: validate the selected assets, see what changes, and push them up.",
    icon: "sync",
    section: "sync",
  },
  {
    id: "openPull",
    controlId: "ClimateRisk.Pull",
    group: "data",
    kind: "pane",
    label: "Pull",
    tip: "Open the pane at Pull data into sheets: summaries, timeseries, applied layers, exports and money at risk as refreshable tables.",
    icon: "pull",
    section: "summary",
  },
  {
    id: "openConnection",
    controlId: "ClimateRisk.Connection",
    group: "setup",
    kind: "pane",
    label: "Connection",
    tip: "Open the pane at Connection: the service URLs, the API key and the project.",
    icon: "connection",
    section: "connection",
  },
  {
    id: "checkAddin",
    controlId: "ClimateRisk.Check",
    group: "setup",
    kind: "pane",
    label: "Check the add-in",
    tip: "Check the add-in and its connection (version, Excel features, storage, each service URL, clock, cache) and get a report to copy into a support request. The API key is never in it.",
    icon: "check",
    section: "check",
  },
];

/** One keyboard shortcut of shortcuts.json (the manifest's ExtendedOverrides file). */
export interface CommandShortcut {
  action: CommandId;
  /** The action's description Office shows when two add-ins claim one key. */
  name: string;
  /** The key combination on Windows and the web ("Ctrl+Alt+Shift+1"). */
  key: string;
  /** The key combination on a Mac. */
  mac: string;
}

/**
 * An action's name in English: shortcuts.json names each through a resource token
 * ("${resource.refreshSelection_name}") whose default text the file carries (Office's localized
 * shortcut names, src/commands/manifest-locales.ts).
 */
function shortcutName(name: string): string {
  const token = /^\$\{resource\.(.+)\}$/.exec(name)?.[1];
  const defaults: Record<string, { value: string } | undefined> = shortcutsFile.resources.default;
  return token ? (defaults[token]?.value ?? name) : name;
}

/** The shortcuts, read from shortcuts.json itself so the file Office reads and the code never disagree. */
export const COMMAND_SHORTCUTS: readonly CommandShortcut[] = shortcutsFile.shortcuts.map((shortcut) => ({
  action: shortcut.action as CommandId,
  name: shortcutName(shortcutsFile.actions.find((action) => action.id === shortcut.action)?.name ?? shortcut.action),
  key: shortcut.key.default,
  mac: shortcut.key.mac,
}));

/** The command with this id; throws for an unknown id (a programming error). */
export function commandById(id: string): RibbonCommand {
  const found = RIBBON_COMMANDS.find((command) => command.id === id);
  if (!found) throw new Error(`No ribbon command "${id}"`);
  return found;
}

/** The shortcut of a command on this platform, if it has one ("Ctrl+Alt+Shift+1"). */
export function shortcutOf(id: CommandId, mac = false): string | undefined {
  const found = COMMAND_SHORTCUTS.find((shortcut) => shortcut.action === id);
  return found ? (mac ? found.mac : found.key) : undefined;
}

/**
 * Why a key combination breaks Office's rules for add-in shortcuts, or undefined when it keeps
 * them: at least one modifier, Shift never alone, exactly one other key among A-Z, 0-9, "-", "_"
 * and "+" ("Guidelines for custom key combinations", keyboard-shortcuts article above).
 */
export function shortcutProblem(combination: string): string | undefined {
  const parts = combination.split("+");
  // "Ctrl+Shift++" ends in the "+" key: the last empty part and the one before are that key.
  if (combination.endsWith("++")) parts.splice(parts.length - 2, 2, "+");
  const key = parts.pop() ?? "";
  const modifiers = parts;
  const known = new Set(["Ctrl", "Alt", "Shift", "Command", "Option"]);
  const unknown = modifiers.filter((m) => !known.has(m));
  if (unknown.length > 0)
    return `${combination}: ${unknown.join(", ")} is not a modifier (Ctrl, Alt, Shift, Command, Option)`;
  if (modifiers.length === 0) return `${combination}: a shortcut needs at least one modifier`;
  if (modifiers.every((m) => m === "Shift")) return `${combination}: Shift cannot be the only modifier`;
  if (!/^([A-Z0-9]|-|_|\+)$/.test(key)) return `${combination}: the key must be one of A-Z, 0-9, -, _ or +`;
  return undefined;
}
