/**
 * The ribbon commands without Office: every catalogue command is associated once, a click
 * completes its event, a failure while the pane is hidden opens the pane at its section and is
 * recorded for the pane, a pasted-sheets refresh that left edited tables alone asks for a look,
 * and a button the ribbon should have disabled answers why and asks for the state again.
 */
import { RIBBON_COMMANDS, type CommandId } from "../../src/commands/catalogue";
import { PaneChannel } from "../../src/commands/pane-channel";
import { registerCommands, type CommandHandler, type CommandHost } from "../../src/commands/register";
import { ActiveCellWatcher, RibbonState, ribbonUpdate, type RibbonUpdate } from "../../src/commands/ribbon-state";

function setUp(handlers: Partial<Record<CommandId, CommandHandler>>, options: { ribbon?: boolean } = {}) {
  const associated = new Map<string, (event?: unknown) => unknown>();
  let shown = 0;
  const channel = new PaneChannel();
  const host: CommandHost = {
    associate: (id, run) => {
      expect(associated.has(id)).toBe(false);
      associated.set(id, run);
    },
    showPane: async () => {
      shown++;
      channel.setVisible(true);
    },
  };
  const updates: RibbonUpdate[] = [];
  const state = new RibbonState(options.ribbon === false ? null : async (data) => void updates.push(data));
  const runtime = registerCommands({ host, handlers: async () => handlers, channel, state, now: () => 1 });
  const click = async (id: CommandId) => {
    let completed = 0;
    await associated.get(id)!({ completed: () => completed++ });
    return completed;
  };
  return { associated, channel, state, runtime, updates, click, shown: () => shown };
}

describe("ribbon commands", () => {
  it("associates every command of the tab and every shortcut action, once", () => {
    const { associated, runtime } = setUp({});
    expect([...associated.keys()]).toEqual(RIBBON_COMMANDS.map((c) => c.id));
    expect(runtime.associated).toEqual(RIBBON_COMMANDS.map((c) => c.id));
  });

  it("runs a refresh without the pane and completes the click's event", async () => {
    const { click, channel, shown } = setUp({
      refreshSheet: async () => ({ message: "Refreshed 40 RISK cells on Demo" }),
    });
    expect(await click("refreshSheet")).toBe(1);
    expect(shown()).toBe(0);
    expect(channel.outcomes[0]).toMatchObject({ command: "refreshSheet", status: "done", trigger: "ribbon" });
    expect(channel.pending).toBeUndefined();
  });

  it("opens the hidden pane at the section of a failure, with its message", async () => {
    const { click, channel, shown } = setUp({
      refreshSelection: async () => {
        throw new Error("The selection has no RISK formulas: nothing was refreshed.");
      },
    });
    expect(await click("refreshSelection")).toBe(1);
    expect(shown()).toBe(1);
    expect(channel.pending).toMatchObject({
      section: "scoped-refresh",
      outcome: { status: "failed", message: "The selection has no RISK formulas: nothing was refreshed." },
    });
  });

  it("does not pull an open pane around: the failure shows in its outcome line", async () => {
    const { associated, channel, shown } = setUp({
      refreshWorkbook: async () => {
        throw new Error("The service did not answer.");
      },
    });
    channel.setVisible(true);
    await associated.get("refreshWorkbook")!(); // a shortcut: no event
    expect(shown()).toBe(0);
    expect(channel.outcomes[0]).toMatchObject({ status: "failed", trigger: "shortcut" });
  });

  it("asks for a look when pasted sheets were refreshed but edited tables were left alone", async () => {
    const { click, channel, shown } = setUp({
      refreshPastedSheets: async () => ({
        message: "Refreshed 1 of 2 pasted sheets.",
        attention: ['Sheet "Summary" has cells you edited (C4): it was left as it was.'],
      }),
    });
    await click("refreshPastedSheets");
    expect(shown()).toBe(1);
    expect(channel.pending?.outcome).toMatchObject({ status: "attention", section: "pasted" });
    expect(channel.pending?.outcome?.details).toEqual([
      'Sheet "Summary" has cells you edited (C4): it was left as it was.',
    ]);
  });

  it("a command without a handler fails with a sentence instead of doing nothing", async () => {
    const { click, channel } = setUp({});
    await click("convertToValues");
    expect(channel.outcomes[0]).toMatchObject({
      status: "failed",
      message: "Convert to values is not available in this page.",
    });
  });

  it("pane commands open the pane at their section", async () => {
    const { click, channel, shown } = setUp({});
    await click("openBuilder");
    expect(shown()).toBe(1);
    expect(channel.pending?.section).toBe("builder");
  });

  it("runs a command once while a second click comes during the first", async () => {
    let calls = 0;
    let finish: () => void = () => undefined;
    const { click } = setUp({
      refreshSheet: () => {
        calls++;
        return new Promise((resolve) => (finish = () => resolve({ message: "done" })));
      },
    });
    const first = click("refreshSheet");
    const second = click("refreshSheet");
    await Promise.resolve();
    await Promise.resolve();
    finish();
    await Promise.all([first, second]);
    expect(calls).toBe(1);
  });

  it("answers a click on a button it believes disabled, and asks Office for the state again", async () => {
    const { click, channel, state, updates } = setUp({ restoreFormulas: async () => ({ message: "Restored" }) });
    await state.apply({ "static-copy": false });
    expect(updates).toHaveLength(1);
    await click("restoreFormulas");
    expect(channel.outcomes[0]).toMatchObject({ status: "failed", message: expect.stringMatching(/no static copy/) });
    expect(updates).toHaveLength(2);
  });
});

describe("ribbon state", () => {
  it("requests only changes, for the context buttons, with the manifest's tab, group and control ids", async () => {
    const updates: RibbonUpdate[] = [];
    const state = new RibbonState(async (data) => void updates.push(data));
    await state.apply({ "static-copy": true, "explainable-cell": true });
    expect(updates).toEqual([]); // every button starts enabled, as the manifest declares
    await state.apply({ "explainable-cell": false });
    expect(updates).toEqual([ribbonUpdate(new Map([["openExplain", false]]))]);
    expect(updates[0]).toEqual({
      tabs: [
        {
          id: "ClimateRisk.Tab",
          groups: [{ id: "ClimateRisk.Formulas", controls: [{ id: "ClimateRisk.Explain", enabled: false }] }],
        },
      ],
    });
    expect(state.isEnabled("openExplain")).toBe(false);
    expect(state.isEnabled("restoreFormulas")).toBe(true);
  });

  it("keeps the believed state when Office refuses the update, and says why", async () => {
    const state = new RibbonState(async () => {
      throw Object.assign(new Error("restart"), { code: "HostRestartNeeded" });
    });
    await state.apply({ "static-copy": false });
    expect(state.isEnabled("restoreFormulas")).toBe(true);
    expect(state.lastError).toMatch(/restart Excel/);
  });

  it("without RibbonApi 1.1 every button stays enabled", async () => {
    const state = new RibbonState(null);
    await state.apply({ "static-copy": false, "explainable-cell": false });
    expect(RIBBON_COMMANDS.every((c) => state.isEnabled(c.id))).toBe(true);
  });

  it("reads the active cell once per pause in selection changes, and only when it moved", async () => {
    jest.useFakeTimers();
    try {
      const state = new RibbonState(async () => undefined);
      let address = "Demo!B2";
      const reads: string[] = [];
      const watcher = new ActiveCellWatcher({
        readAddress: async () => address,
        readFacts: async () => {
          reads.push(address);
          return {
            address,
            formula: address === "Demo!B2" ? '=RISK.SEARCH(1,2,"floods","30yr")' : "",
            pastedScore: false,
          };
        },
        state,
      });
      for (let i = 0; i < 5; i++) watcher.selectionChanged();
      await jest.advanceTimersByTimeAsync(400);
      expect(reads).toEqual(["Demo!B2"]);
      expect(state.isEnabled("openExplain")).toBe(true);
      watcher.selectionChanged(); // same active cell (a selection extended from it)
      await jest.advanceTimersByTimeAsync(400);
      expect(reads).toEqual(["Demo!B2"]);
      address = "Demo!A1";
      watcher.selectionChanged();
      await jest.advanceTimersByTimeAsync(400);
      expect(reads).toEqual(["Demo!B2", "Demo!A1"]);
      expect(state.isEnabled("openExplain")).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("the catalogue and the pane", () => {
  it("opens only sections the pane has", async () => {
    const { FEATURES } = await import("../../src/taskpane/features");
    const sections = new Set(FEATURES.map((feature) => feature.id));
    expect(RIBBON_COMMANDS.filter((command) => !sections.has(command.section)).map((c) => c.id)).toEqual([]);
  });
});
