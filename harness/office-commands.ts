/**
 * The harness's stand-ins for the Office APIs the ribbon commands use, so a click on the drawn tab
 * or a shortcut runs exactly what Excel would run: the function the page associated with the
 * action id (Office.actions.associate), called with an event whose `completed()` must be called
 * (a click) or with none (a shortcut). Also Office.addin's pane calls and visibility event (the
 * pane beside the grid is shown and hidden), Office.ribbon.requestUpdate (the drawn buttons follow
 * it), and the selection event (DocumentSelectionChanged, from the grid's selection).
 *
 * Installed synchronously when the harness script runs, before the functions and the task pane
 * bootstrap: the bootstrap associates the actions as the page loads. office.js's own
 * Office.actions.associate (and a real host's) still receives every call.
 */
import type { FakeExcel } from "../testing/fake-excel";

/** A function the page associated with an action id. */
type ActionFunction = (event?: unknown) => unknown;

/** The ribbon update shape (Office.RibbonUpdaterData). */
interface RibbonUpdate {
  tabs: { id: string; groups?: { id: string; controls?: { id: string; enabled?: boolean }[] }[] }[];
}

/** What the rest of the harness (the drawn tab, the API, the tests) uses of the stand-ins. */
export class OfficeCommandsStandIn {
  private readonly actions = new Map<string, ActionFunction>();
  private readonly visibilityHandlers = new Set<(message: { visibilityMode: string }) => void>();
  private readonly selectionHandlers = new Set<() => void>();
  private readonly enabled = new Map<string, boolean>();
  private readonly ribbonListeners = new Set<() => void>();
  /** Calls of each action, by id (clicks and shortcuts). */
  readonly calls: { id: string; trigger: "click" | "shortcut"; completed: boolean }[] = [];
  private paneShown: boolean;

  constructor(
    private readonly pane: HTMLElement | null,
    initiallyShown: boolean,
  ) {
    this.paneShown = initiallyShown;
    if (pane) pane.hidden = !initiallyShown;
  }

  /** Action ids the page associated, in order. */
  associatedActions(): string[] {
    return [...this.actions.keys()];
  }

  associate(id: string, fn: ActionFunction): void {
    this.actions.set(id, fn);
  }

  /**
   * Runs an action as Excel does: a click passes an event and waits for `completed()`; a shortcut
   * passes nothing. Resolves when the action's promise settles.
   */
  async invoke(id: string, trigger: "click" | "shortcut"): Promise<void> {
    const fn = this.actions.get(id);
    if (!fn) throw new Error(`No function is associated with the action "${id}"`);
    const call = { id, trigger, completed: false };
    this.calls.push(call);
    const event = trigger === "click" ? { source: { id }, completed: () => void (call.completed = true) } : undefined;
    await fn(event);
  }

  get paneVisible(): boolean {
    return this.paneShown;
  }

  /** Office.addin.showAsTaskpane / hide: the panel beside the grid, and the visibility event. */
  setPaneVisible(visible: boolean): void {
    if (visible === this.paneShown) return;
    this.paneShown = visible;
    if (this.pane) this.pane.hidden = !visible;
    for (const handler of this.visibilityHandlers) handler({ visibilityMode: visible ? "Taskpane" : "Hidden" });
  }

  /** Whether the drawn button of a control is enabled (true until requestUpdate says otherwise). */
  isEnabled(controlId: string): boolean {
    return this.enabled.get(controlId) ?? true;
  }

  /** Be told when requestUpdate changed a button. */
  onRibbonChange(listener: () => void): () => void {
    this.ribbonListeners.add(listener);
    return () => this.ribbonListeners.delete(listener);
  }

  /** Installs the stand-ins into the page's Office object (office.js's, or a new one). */
  install(target: Record<string, unknown>): void {
    const office = (target.Office ?? (target.Office = {})) as Record<string, unknown>;
    const actions = (office.actions ?? (office.actions = {})) as Record<string, unknown>;
    const original = typeof actions.associate === "function" ? (actions.associate as ActionFunction) : undefined;
    actions.associate = (id: string, fn: ActionFunction) => {
      this.associate(id, fn);
      try {
        (original as ((id: string, fn: ActionFunction) => void) | undefined)?.call(actions, id, fn);
      } catch {
        // office.js outside Office has nothing to associate with; the stand-in is what counts
      }
    };
    // Office.actions.getShortcuts is left out: the harness plays a host without KeyboardShortcuts 1.1.
    const addin = (office.addin ?? (office.addin = {})) as Record<string, unknown>;
    addin.showAsTaskpane = async () => this.setPaneVisible(true);
    addin.hide = async () => this.setPaneVisible(false);
    addin.onVisibilityModeChanged = async (handler: (message: { visibilityMode: string }) => void) => {
      this.visibilityHandlers.add(handler);
      return async () => void this.visibilityHandlers.delete(handler);
    };
    const ribbon = (office.ribbon ?? (office.ribbon = {})) as Record<string, unknown>;
    ribbon.requestUpdate = async (data: RibbonUpdate) => {
      for (const tab of data.tabs)
        for (const group of tab.groups ?? [])
          for (const control of group.controls ?? [])
            if (typeof control.enabled === "boolean") this.enabled.set(control.id, control.enabled);
      for (const listener of this.ribbonListeners) listener();
    };
  }

  /**
   * Office.context.document.addHandlerAsync for DocumentSelectionChanged, fed by the fake's
   * selection changes (once the fake exists: Office.context is only complete after onReady).
   */
  connectSelection(target: Record<string, unknown>, fake: FakeExcel): void {
    const office = target.Office as { context?: Record<string, unknown> } | undefined;
    const context = office?.context;
    if (!context) return;
    const document = (context.document ?? {}) as Record<string, unknown>;
    document.addHandlerAsync = (
      _eventType: unknown,
      handler: () => void,
      callback?: (result: { status: string }) => void,
    ) => {
      this.selectionHandlers.add(handler);
      callback?.({ status: "succeeded" });
    };
    try {
      context.document = document;
    } catch {
      // a fixed getter returned the object itself: it now has the handler
    }
    fake.onChange((changes) => {
      if (changes.some((change) => change.kind === "selection"))
        for (const handler of this.selectionHandlers) handler();
    });
  }
}
