/**
 * How ribbon commands and the task pane talk in the shared runtime: whether the pane is shown, the
 * section a command asked the pane to open (with the message it must show there), and the outcome
 * of each command. Add-ins have no notification API, so this is how an outcome reaches the analyst:
 * the pane shows the latest outcomes beside its usage line when it is open, and a failure while it
 * is hidden opens it at the failure's section (register.ts). Nothing here touches Office.
 */

/** What a command did, as the pane shows it. */
export interface CommandOutcome {
  /** The command's id (catalogue.ts). */
  command: string;
  /** The button's label, for the pane's line ("Refresh · Sheet"). */
  label: string;
  /** `done`: it worked; `attention`: it worked but the analyst must look (refused tables, skipped cells); `failed`. */
  status: "done" | "attention" | "failed";
  message: string;
  /** Lines under the message: each refused table or skipped cell. */
  details: string[];
  /** The pane section the outcome belongs to. */
  section: string;
  /** What started it. */
  trigger: "ribbon" | "shortcut" | "pane";
  /** Milliseconds since the epoch. */
  at: number;
}

/** A section the pane is asked to open, with the outcome to show there, if any. */
export interface PaneRequest {
  section: string;
  outcome?: CommandOutcome;
  /** Increases with each request, so asking twice for one section is still seen. */
  serial: number;
}

/** How many outcomes the channel keeps (the pane lists the newest first). */
const KEPT_OUTCOMES = 20;

/** The channel between commands and the pane (one per page: {@link paneChannel}). */
export class PaneChannel {
  private visibleNow = false;
  private requested: PaneRequest | undefined;
  private serial = 0;
  private readonly outcomeList: CommandOutcome[] = [];
  private readonly listeners = new Set<() => void>();

  /** Whether the pane is shown, as far as the page was told (Office.addin.onVisibilityModeChanged). */
  get visible(): boolean {
    return this.visibleNow;
  }

  setVisible(visible: boolean): void {
    if (visible === this.visibleNow) return;
    this.visibleNow = visible;
    this.emit();
  }

  /** Asks the pane to open `section` (and show `outcome` there); a pane not mounted yet reads it when it mounts. */
  request(section: string, outcome?: CommandOutcome): PaneRequest {
    this.requested = { section, outcome, serial: ++this.serial };
    this.emit();
    return this.requested;
  }

  /** The newest request, until the pane takes it. */
  get pending(): PaneRequest | undefined {
    return this.requested;
  }

  /** The pane acknowledges a request (it opened the section); later reads see none. */
  take(serial: number): void {
    if (this.requested?.serial === serial) this.requested = undefined;
  }

  /** Records an outcome (newest first). */
  record(outcome: CommandOutcome): void {
    this.outcomeList.unshift(outcome);
    this.outcomeList.length = Math.min(this.outcomeList.length, KEPT_OUTCOMES);
    this.emit();
  }

  /** The outcomes recorded, newest first. */
  get outcomes(): readonly CommandOutcome[] {
    return this.outcomeList;
  }

  /** Be told of every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The page's one channel: the shared runtime is one page, so commands and the pane share it. */
export const paneChannel = new PaneChannel();
