/**
 * Which Climate Risk buttons are enabled, where the host lets the add-in say so (RibbonApi 1.1,
 * checked at run time by office.ts; it cannot be declared in the manifest). Restore formulas needs
 * a static copy in the workbook; Explain needs the active cell to hold a RISK formula (or a cell
 * one spilled into) or a score of a pasted sheet. Everything else is always enabled.
 *
 * "Enable and Disable Add-in Commands"
 * (https://learn.microsoft.com/office/dev/add-ins/design/disable-add-in-commands): requestUpdate
 * only queues a request and the ribbon may not repaint, so the add-in keeps the state it believes
 * in and a command's handler checks it first (register.ts); a click on a button that should have
 * been disabled is answered with why, and the state is asked for again. Office-free: the update
 * function, the timers and the workbook reads are given.
 */
import { RISK_CALL } from "../shaping/risk-formula";
import { RIBBON_COMMANDS, RIBBON_GROUPS, RIBBON_TAB, type CommandContext, type CommandId } from "./catalogue";

/** What the workbook says about the contexts buttons depend on. */
export type RibbonFacts = Record<CommandContext, boolean>;

/** The shape Office.ribbon.requestUpdate takes (Office.RibbonUpdaterData), without the Office types. */
export interface RibbonUpdate {
  tabs: { id: string; groups: { id: string; controls: { id: string; enabled: boolean }[] }[] }[];
}

/** Why a command is not available, for a click the ribbon should not have allowed. */
export const CONTEXT_REASONS: Record<CommandContext, string> = {
  "static-copy": "This workbook has no static copy: there are no replaced formulas to restore.",
  "explainable-cell": "The active cell holds no RISK formula and no score of a pasted sheet: select one, then Explain.",
};

/** The update that sets each listed command's button to its state. */
export function ribbonUpdate(states: ReadonlyMap<CommandId, boolean>): RibbonUpdate {
  const groups = RIBBON_GROUPS.map((group) => ({
    id: group.controlId,
    controls: RIBBON_COMMANDS.filter((c) => c.group === group.id && states.has(c.id)).map((c) => ({
      id: c.controlId,
      enabled: states.get(c.id)!,
    })),
  })).filter((group) => group.controls.length > 0);
  return { tabs: [{ id: RIBBON_TAB.id, groups }] };
}

/**
 * The buttons' believed state and the requests that change it. Every button starts enabled, as
 * the manifest declares them (no `<Enabled>false</Enabled>`: see the comment there).
 */
export class RibbonState {
  private readonly believed = new Map<CommandId, boolean>(RIBBON_COMMANDS.map((c) => [c.id, true]));
  private facts: RibbonFacts | undefined;
  /** The last update that failed (e.g. HostRestartNeeded after an upgrade), for the health check. */
  lastError: string | undefined;

  /** @param update Office.ribbon.requestUpdate where RibbonApi 1.1 exists, else null (buttons stay enabled). */
  constructor(private update: ((data: RibbonUpdate) => Promise<void>) | null) {}

  /**
   * Sets the update function once Office can say whether RibbonApi 1.1 exists: its requirement
   * checks are reliable only after Office.onReady, while the actions are associated before.
   */
  connect(update: ((data: RibbonUpdate) => Promise<void>) | null): void {
    this.update = update;
  }

  /** Whether the host lets the add-in enable and disable buttons. */
  get supported(): boolean {
    return this.update !== null;
  }

  /** Whether the add-in believes the command's button is enabled. */
  isEnabled(id: CommandId): boolean {
    return this.believed.get(id) ?? true;
  }

  /** Why the command's button is disabled, or undefined when it is enabled. */
  reasonDisabled(id: CommandId): string | undefined {
    if (this.isEnabled(id)) return undefined;
    const context = RIBBON_COMMANDS.find((c) => c.id === id)?.context;
    return context ? CONTEXT_REASONS[context] : undefined;
  }

  /**
   * Applies what the workbook says (only the facts given change): requests an update for the
   * buttons whose state changes, and believes the new state once Office has queued it. Without
   * RibbonApi 1.1 nothing is requested and every button stays enabled.
   */
  async apply(facts: Partial<RibbonFacts>): Promise<void> {
    this.facts = { "static-copy": true, "explainable-cell": true, ...this.facts, ...facts };
    if (!this.update) return;
    const changes = new Map<CommandId, boolean>();
    for (const command of RIBBON_COMMANDS) {
      if (!command.context) continue;
      const wanted = this.facts[command.context];
      if (wanted !== this.isEnabled(command.id)) changes.set(command.id, wanted);
    }
    if (changes.size > 0) await this.send(changes);
  }

  /** Asks again for every context button's believed state (after a click the ribbon should not have allowed). */
  async reassert(): Promise<void> {
    if (!this.update) return;
    const states = new Map<CommandId, boolean>();
    for (const command of RIBBON_COMMANDS) if (command.context) states.set(command.id, this.isEnabled(command.id));
    await this.send(states);
  }

  private async send(states: Map<CommandId, boolean>): Promise<void> {
    try {
      await this.update!(ribbonUpdate(states));
      for (const [id, enabled] of states) this.believed.set(id, enabled);
      this.lastError = undefined;
    } catch (error) {
      // The buttons keep their state: believe what they show. HostRestartNeeded means the add-in
      // was upgraded with other commands and Excel must restart (article above, "Error handling").
      const code = (error as { code?: unknown })?.code;
      this.lastError =
        code === "HostRestartNeeded"
          ? "The add-in was updated: save your work and restart Excel to refresh its buttons."
          : `The ribbon could not be updated: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

/** What the active cell holds, as far as Explain is concerned. */
export interface ActiveCellFacts {
  /** "Sheet1!B2". */
  address: string;
  /** The cell's formula, or its spill parent's when it is a cell a formula spilled into. */
  formula: string;
  /** The cell is in the data rows of a sheet the pane pasted (summary scores and labels). */
  pastedScore: boolean;
}

/** Whether Explain can explain the active cell: a RISK formula (its own cell or a spilled one) or a pasted score. */
export function explainable(cell: ActiveCellFacts): boolean {
  return RISK_CALL.test(cell.formula) || cell.pastedScore;
}

/** Timers, injectable so tests run without waiting. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How long selection changes must pause before the active cell is read. */
export const ACTIVE_CELL_DEBOUNCE_MS = 300;

/**
 * Reacts to selection changes for Explain's button: debounced (a drag across cells reads the
 * workbook once, when it stops), and only when the active cell changed (extending a selection
 * from the same cell reads nothing more). Calls `read` at most once at a time.
 */
export class ActiveCellWatcher {
  private timer: unknown;
  private lastAddress: string | undefined;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly options: {
      /** The active cell's address, cheaply (one small read). */
      readAddress: () => Promise<string>;
      /** The facts of the active cell. */
      readFacts: () => Promise<ActiveCellFacts>;
      state: RibbonState;
      timers?: Timers;
      debounceMs?: number;
    },
  ) {}

  /** A selection changed (Office's DocumentSelectionChanged). */
  selectionChanged(): void {
    const timers = this.options.timers ?? globalThis;
    timers.clearTimeout(this.timer as ReturnType<typeof setTimeout>);
    this.timer = timers.setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, this.options.debounceMs ?? ACTIVE_CELL_DEBOUNCE_MS);
  }

  /** Reads the active cell now (at start, and after the debounce); resolves when the state is applied. */
  check(): Promise<void> {
    // One read at a time: a check asked for while one runs waits for it, then reads again.
    const previous = this.reading ?? Promise.resolve();
    const next = previous.then(() => this.read());
    this.reading = next.finally(() => {
      if (this.reading === next) this.reading = undefined;
    });
    return next;
  }

  private async read(): Promise<void> {
    try {
      const address = await this.options.readAddress();
      if (address === this.lastAddress) return;
      const facts = await this.options.readFacts();
      this.lastAddress = facts.address;
      await this.options.state.apply({ "explainable-cell": explainable(facts) });
    } catch {
      // No workbook to read (closing, a cell in edit mode): the button keeps its state, and the
      // click's own check (register.ts) still answers with what Explain can do.
    }
  }
}
