/**
 * Task pane bootstrap: tiny on purpose. In the shared runtime this page runs whenever Excel needs
 * the RISK functions, pane shown or not. The functions chunk has already registered RISK.* by the
 * time this runs; this file then
 *  - associates the Climate Risk tab's actions at once (src/commands/register.ts), before any UI,
 *    so a button or a shortcut works while the pane is hidden (its work is a chunk loaded on first use);
 *  - loads the React UI chunk only when the pane is shown: at once when it is (opening the pane is
 *    what started the runtime: never a blank pane), else when Office says it became visible
 *    (Office.addin.onVisibilityModeChanged, "Show or hide the task pane of your Office Add-in",
 *    https://learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in) or the page itself
 *    becomes visible;
 *  - keeps Restore formulas and Explain enabled only where they apply, where RibbonApi 1.1 exists.
 */
import { officeCommandHost, ribbonUpdater, watchPaneVisibility, watchSelection } from "../../commands/office";
import { pageCommands } from "../../commands/page";
import { paneChannel } from "../../commands/pane-channel";
import { registerCommands } from "../../commands/register";
import { ActiveCellWatcher, RibbonState } from "../../commands/ribbon-state";
import { hasStaticCopy, readSelectedCellAddress, readSelectedCellFacts } from "../../excel/ribbon-context";
import { excelRunner } from "./excel-runner";

// The ribbon's updater is connected once Office is ready (requirement checks are reliable only then).
pageCommands.state = new RibbonState(null);
const host = officeCommandHost();
if (host) {
  pageCommands.runtime = registerCommands({
    host,
    channel: paneChannel,
    state: pageCommands.state,
    handlers: () =>
      import(/* webpackChunkName: "ribbon-commands" */ "./ribbon-commands").then((m) => m.ribbonHandlers()),
  });
}

/**
 * Whether the pane is on screen: a closed pane's web view reports its document hidden (Excel
 * desktop), or keeps it in a frame of no size (Excel on the web). Anything else counts as shown,
 * so a pane that is visible never waits for an event that may not come.
 */
function paneShownNow(root: HTMLElement): boolean {
  if (document.visibilityState === "hidden") return false;
  return window.innerWidth > 0 && window.innerHeight > 0 && root.getClientRects().length > 0;
}

// onReady's own promise is not needed: the callback does the work.
void Office.onReady((info) => {
  const root = document.getElementById("root");
  if (!root) return;
  let mounted = false;
  const mount = () => {
    if (mounted) return;
    mounted = true;
    // A chunk that fails to load (a dropped connection to the add-in's host) says so in the pane
    // instead of leaving it blank.
    import(/* webpackChunkName: "taskpane-ui" */ "./mount").then(
      ({ mountTaskpane }) => mountTaskpane(root, { host: info.host ?? null }),
      (error: unknown) => {
        mounted = false;
        root.textContent = `The task pane could not load (${error instanceof Error ? error.message : String(error)}). Close and reopen it.`;
      },
    );
  };
  const shown = (visible: boolean) => {
    paneChannel.setVisible(visible);
    if (visible) mount();
  };
  shown(paneShownNow(root));
  void watchPaneVisibility(shown);
  const recheck = () => {
    if (paneShownNow(root)) shown(true);
  };
  document.addEventListener("visibilitychange", recheck);
  window.addEventListener("resize", recheck);

  const run = excelRunner();
  const state = pageCommands.state;
  state.connect(ribbonUpdater());
  if (!run || !state.supported) return;
  pageCommands.recheckStaticCopy = async () => {
    try {
      await state.apply({ "static-copy": await run((context) => hasStaticCopy(context)) });
    } catch {
      // No workbook to read now: the button keeps its state, and a click says what Restore can do.
    }
  };
  void pageCommands.recheckStaticCopy();
  const watcher = new ActiveCellWatcher({
    readAddress: () => run((context) => readSelectedCellAddress(context)),
    readFacts: () => run((context) => readSelectedCellFacts(context)),
    state,
  });
  void watcher.check();
  void watchSelection(() => watcher.selectionChanged());
});
