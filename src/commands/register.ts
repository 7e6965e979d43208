/**
 * The Climate Risk tab's commands in the shared runtime: each action id of catalogue.ts is
 * associated with a function (Office.actions.associate, "Add custom keyboard shortcuts to your
 * Office Add-ins", https://learn.microsoft.com/office/dev/add-ins/design/keyboard-shortcuts), the
 * same for a click, a shortcut and the pane. Registered as the page loads, beside the functions and
 * before any UI, so a button works while the pane is hidden and its UI not loaded.
 *
 * The outcome always reaches the analyst (add-ins have no notification API): it is recorded on the
 * pane channel, which the pane shows beside its usage line; when the pane is hidden, a failure, or
 * an outcome that needs a look (a pasted table left alone because cells were edited), opens it at
 * its section (Office.addin.showAsTaskpane). Office-free: the host is given (office.ts binds Office).
 */
import { RIBBON_COMMANDS, commandById, type CommandId, type RibbonCommand } from "./catalogue";
import type { CommandOutcome, PaneChannel } from "./pane-channel";
import type { RibbonState } from "./ribbon-state";

/** What a `run` command's handler reports. */
export interface CommandReport {
  /** One sentence: what was done ("Refreshed 40 RISK cells on Demo"). */
  message: string;
  /** What the analyst must look at: each refused table or skipped cell. Non-empty opens the pane. */
  attention?: string[];
}

/** Runs one command's work. Throws (with a sentence) when nothing could be done. */
export type CommandHandler = (signal: AbortSignal) => Promise<CommandReport>;

/** What registering needs of Office. */
export interface CommandHost {
  /** Office.actions.associate. */
  associate(actionId: string, run: (event?: unknown) => unknown): void;
  /** Office.addin.showAsTaskpane. */
  showPane(): Promise<void>;
}

/** How a command was started. */
export type CommandTrigger = CommandOutcome["trigger"];

/** The registered commands. */
export interface CommandRuntime {
  /** Runs a command as a click would (the pane and the harness call this too). */
  run(id: CommandId, trigger?: CommandTrigger): Promise<CommandOutcome>;
  /** The action ids associated with Office, in catalogue order. */
  readonly associated: readonly CommandId[];
}

/** An event Office passes to an ExecuteFunction (Office.AddinCommands.Event), or nothing for a shortcut. */
interface CommandEvent {
  completed?: () => void;
}

/**
 * Associates every command of the catalogue. `handlers` supplies the work of each `run` command
 * (from the task pane's actions, loaded when first needed); `pane` commands open the pane at their
 * section. A command without a handler fails with a sentence, never silently.
 */
export function registerCommands(options: {
  host: CommandHost;
  handlers: () => Promise<Partial<Record<CommandId, CommandHandler>>>;
  channel: PaneChannel;
  state: RibbonState;
  now?: () => number;
}): CommandRuntime {
  const { host, channel, state } = options;
  const now = options.now ?? Date.now;
  const running = new Map<CommandId, Promise<CommandOutcome>>();

  const outcomeOf = (
    command: RibbonCommand,
    trigger: CommandTrigger,
    status: CommandOutcome["status"],
    message: string,
    details: string[] = [],
  ): CommandOutcome => ({
    command: command.id,
    label: command.label,
    status,
    message,
    details,
    section: command.section,
    trigger,
    at: now(),
  });

  /** Records the outcome; one that needs the analyst opens the pane at its section when hidden. */
  const report = async (outcome: CommandOutcome): Promise<CommandOutcome> => {
    channel.record(outcome);
    if (outcome.status === "done") return outcome;
    channel.request(outcome.section, outcome);
    if (!channel.visible) {
      try {
        await host.showPane();
      } catch (error) {
        // The pane cannot be shown (a host without the shared runtime's addin API): the outcome
        // stays recorded and requested, and the pane shows it the next time it opens.
        console.error(
          `Climate Risk: ${outcome.label}: ${outcome.message} (the pane could not be opened: ${String(error)})`,
        );
      }
    }
    return outcome;
  };

  const execute = async (command: RibbonCommand, trigger: CommandTrigger): Promise<CommandOutcome> => {
    const disabled = state.reasonDisabled(command.id);
    if (disabled) {
      // The ribbon did not repaint after requestUpdate: say why, and ask for the state again.
      void state.reassert();
      return report(outcomeOf(command, trigger, "failed", disabled));
    }
    if (command.kind === "pane") {
      channel.request(command.section);
      try {
        await host.showPane();
        return outcomeOf(command, trigger, "done", `Opened the pane at ${command.label}.`);
      } catch (error) {
        return report(outcomeOf(command, trigger, "failed", `The pane could not be opened: ${messageOf(error)}`));
      }
    }
    try {
      const handler = (await options.handlers())[command.id];
      if (!handler) throw new Error(`${command.label} is not available in this page.`);
      const result = await handler(new AbortController().signal);
      const attention = result.attention ?? [];
      return report(
        outcomeOf(command, trigger, attention.length > 0 ? "attention" : "done", result.message, attention),
      );
    } catch (error) {
      // A handler may list what it could not do (each pasted sheet left alone) on the error.
      const details = (error as { details?: unknown })?.details;
      const lines = Array.isArray(details) ? details.map(String) : [];
      return report(outcomeOf(command, trigger, "failed", messageOf(error), lines));
    }
  };

  const run = (id: CommandId, trigger: CommandTrigger = "pane"): Promise<CommandOutcome> => {
    const command = commandById(id);
    const already = running.get(id);
    // A second click while the first runs does not start the work twice.
    if (already) return already;
    const started = execute(command, trigger).finally(() => running.delete(id));
    running.set(id, started);
    return started;
  };

  for (const command of RIBBON_COMMANDS) {
    host.associate(command.id, (event?: unknown) => {
      const office = event as CommandEvent | undefined;
      // A click passes an event that must be completed; a shortcut passes none.
      const trigger: CommandTrigger = typeof office?.completed === "function" ? "ribbon" : "shortcut";
      return run(command.id, trigger).finally(() => office?.completed?.());
    });
  }
  return { run, associated: RIBBON_COMMANDS.map((c) => c.id) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
