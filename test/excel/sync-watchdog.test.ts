/**
 * The watch on every sync (src/excel/sync-watchdog.ts) against the fake holding a sync pending, as
 * Excel on the web does while its server is busy: the stall is reported, Wait and Cancel do what
 * they say, and a paste cancelled while its sync is pending is whole or absent whether that sync
 * answers later (applied or not) or never does.
 */
import { ExcelNotAnsweringError, SyncWatchdog, type WatchState } from "../../src/excel/sync-watchdog";
import { writeSheetsAtomically, type NewSheetSpec } from "../../src/excel/write-sheets";
import { createFakeExcel, type FakeExcel } from "../../testing/fake-excel";

const STALL_MS = 40;

/** Resolves at the watchdog's next state for which `test` holds (told by the watchdog, no polling). */
function stateWhere(watchdog: SyncWatchdog, test: (state: WatchState) => boolean): Promise<WatchState> {
  return new Promise((resolve) => {
    if (test(watchdog.current)) return resolve(watchdog.current);
    const stop = watchdog.subscribe(() => {
      if (!test(watchdog.current)) return;
      stop();
      resolve(watchdog.current);
    });
  });
}

/** A paste of 300 rows written in chunks of about 3 KB: a dozen syncs. */
const SPEC: NewSheetSpec = {
  sheetName: "Summary",
  header: ["entity_id", "score"],
  rows: Array.from({ length: 300 }, (_, i) => [`asset-${i}`, i / 300]),
};

function paste(fake: FakeExcel, watchdog: SyncWatchdog): Promise<unknown> {
  return watchdog.runner((batch) => fake.run(batch))((context) =>
    writeSheetsAtomically(context, [SPEC], { maxRequestBytes: 3_000 }),
  );
}

/** Lets every pending callback run (to show that something did not happen). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the watch on Excel's syncs", () => {
  it("says nothing of syncs that answer, and reports one that does not after its time", async () => {
    const fake = createFakeExcel();
    const watchdog = new SyncWatchdog(STALL_MS);
    const states: WatchState[] = [];
    watchdog.subscribe(() => states.push(watchdog.current));
    await paste(fake, watchdog);
    expect(states).toEqual([]);
    expect(fake.sheetNames()).toContain("Summary");

    const hold = fake.holdNextSync();
    const reading = watchdog.runner((batch) => fake.run(batch))(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Summary").getRange("A1");
      sheet.load("values");
      await context.sync();
      return sheet.values;
    });
    await hold.held;
    const stalled = await stateWhere(watchdog, (s) => s.stall !== undefined);
    expect(stalled.stall?.syncs).toBe(1);

    // Wait: the notice goes, and comes back after another period if Excel still does not answer.
    watchdog.wait();
    expect(watchdog.current.stall).toBeUndefined();
    await stateWhere(watchdog, (s) => s.stall !== undefined);

    hold.release();
    await expect(reading).resolves.toEqual([["entity_id"]]);
    expect(watchdog.current.stall).toBeUndefined();
  });

  it.each([
    ["held before Excel applied it", false],
    ["applied by Excel, its answer held", true],
  ])(
    "Cancel while a paste's sync is %s: the pane is freed at once, and when Excel answers the paste is undone",
    async (_, applied) => {
      const fake = createFakeExcel();
      const before = fake.snapshot();
      const watchdog = new SyncWatchdog(STALL_MS);
      // The fourth sync: the sheet exists (hidden) and its first chunks are written.
      const fourth = fake.syncCount + 4;
      const held = fake.holdNextSync({ applied, when: (info) => info.index === fourth });
      const pasting = paste(fake, watchdog);
      await held.held;
      await stateWhere(watchdog, (s) => s.stall !== undefined);
      watchdog.cancel();
      await expect(pasting).rejects.toBeInstanceOf(ExcelNotAnsweringError);
      expect(watchdog.current).toEqual({ stall: undefined, cancelledWaiting: 1 });
      // Nothing more is sent while Excel does not answer.
      const sent = fake.syncCount;
      await settle();
      expect(fake.syncCount).toBe(sent);

      held.release();
      await watchdog.whenIdle();
      expect(fake.snapshot()).toEqual(before);
      expect(watchdog.current.cancelledWaiting).toBe(0);
    },
  );

  it("Cancel while a sync never answers: nothing more is sent and no half-written sheet is shown", async () => {
    const fake = createFakeExcel();
    const visibleBefore = fake.snapshot().sheets.filter((s) => s.visibility === "Visible");
    const watchdog = new SyncWatchdog(STALL_MS);
    const third = fake.syncCount + 3;
    fake.holdNextSync({ applied: true, when: (info) => info.index === third }); // never released
    const pasting = paste(fake, watchdog);
    await stateWhere(watchdog, (s) => s.stall !== undefined);
    watchdog.cancel();
    await expect(pasting).rejects.toBeInstanceOf(ExcelNotAnsweringError);
    const sent = fake.syncCount;
    await settle();
    expect(fake.syncCount).toBe(sent);
    // The sheet being written stays hidden: the analyst sees the workbook as it was.
    expect(fake.snapshot().sheets.filter((s) => s.visibility === "Visible")).toEqual(visibleBefore);
    expect(watchdog.current.cancelledWaiting).toBe(1);
  });

  it("Cancel while the paste's last sync is pending and Excel then answers: whole or absent, never half", async () => {
    const fake = createFakeExcel();
    const before = fake.snapshot();
    const watchdog = new SyncWatchdog(STALL_MS);
    // The last sync shows the sheet and activates it.
    const hold = fake.holdNextSync({ applied: true, when: (info) => info.operations.includes("activate") });
    const pasting = paste(fake, watchdog);
    await hold.held;
    await stateWhere(watchdog, (s) => s.stall !== undefined);
    watchdog.cancel();
    await expect(pasting).rejects.toBeInstanceOf(ExcelNotAnsweringError);
    hold.release();
    await watchdog.whenIdle();
    const after = fake.snapshot();
    const summary = after.sheets.find((s) => s.name === "Summary");
    if (summary) {
      expect(summary.visibility).toBe("Visible");
      expect(summary.cells.filter(([address]) => address.startsWith("Summary!A")).length).toBe(SPEC.rows.length + 1);
    } else expect(after).toEqual(before);
  });
});
