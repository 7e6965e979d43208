import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { ExcelNotAnsweringError, SyncWatchdog } from "../../../src/excel/sync-watchdog";
import { App } from "../../../src/taskpane/shell/App";
import { describeError } from "../../../src/taskpane/ui/describe-error";
import { writeNewSheets } from "../../../src/taskpane/ui/write-new-sheets";
import { createFakeExcel } from "../../../testing/fake-excel";
import { TEST_IDS } from "../../../src/taskpane/ui/test-ids";

/**
 * The pane while Excel does not answer (issue 41): the fake holds a paste's sync pending, the pane
 * says Excel is not answering and offers Wait and Cancel; after Cancel the pane is free, says that
 * the cancelled task waits for Excel, and once Excel answers the paste is undone.
 */
test("a sync held pending: the pane says Excel is not answering, and Cancel leaves the workbook as it was", async () => {
  const fake = createFakeExcel();
  const before = fake.snapshot();
  const watchdog = new SyncWatchdog(30);
  const run = watchdog.runner((batch) => fake.run(batch));
  const pane = () =>
    renderToString(
      <FluentProvider theme={webLightTheme}>
        <App run={run} emptyCache={() => undefined} host={null} watchdog={watchdog} />
      </FluentProvider>,
    );
  expect(pane()).not.toContain(TEST_IDS.shell.excelNotAnswering);

  // Hold the sync that writes: the one that adds the sheet (whatever reads went before it).
  const hold = fake.holdNextSync({ when: (info) => info.operations.includes("add") });
  const pasting = writeNewSheets(run, [{ sheetName: "Summary", header: ["entity_id", "score"], rows: [["a", 0.5]] }]);
  await hold.held;
  await new Promise<void>((resolve) => {
    const stop = watchdog.subscribe(() => {
      if (!watchdog.current.stall) return;
      stop();
      resolve();
    });
  });
  const stalled = pane();
  expect(stalled).toContain(`data-testid="${TEST_IDS.shell.excelNotAnswering}"`);
  expect(stalled).toContain("Excel is not answering");
  expect(stalled).toContain(`data-testid="${TEST_IDS.shell.excelNotAnsweringWait}"`);
  expect(stalled).toContain(`data-testid="${TEST_IDS.shell.excelNotAnsweringCancel}"`);

  watchdog.cancel();
  const error = await pasting.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExcelNotAnsweringError);
  expect(describeError(error).cancelled).toBe(true);
  const waiting = pane();
  expect(waiting).not.toContain(`data-testid="${TEST_IDS.shell.excelNotAnswering}"`);
  expect(waiting).toContain(`data-testid="${TEST_IDS.shell.excelCancelledWaiting}"`);

  hold.release();
  await watchdog.whenIdle();
  expect(fake.snapshot()).toEqual(before);
  expect(pane()).not.toContain(TEST_IDS.shell.excelCancelledWaiting);
});
