/**
 * Excel not answering, in a real browser (issue 41): the harness's fake holds a sync of the pane
 * pending, as Excel on the web does while its server is busy. After 5 s the pane says Excel is not
 * answering and offers Wait and Cancel; Wait hides the notice until the next 5 s; Cancel ends the
 * task as stopped and the pane says a cancelled task waits for Excel; once Excel answers that line
 * goes. Skipped, with a message saying why, when chromium is not installed.
 */
import type { SyncHold } from "../../testing/fake-excel";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";
import { setSectionOpen } from "./support/harness-page";

const describeBrowser = describeWithBrowser(__filename);

declare global {
  interface Window {
    heldSync?: SyncHold;
  }
}

describeBrowser("Excel not answering", () => {
  const suite = useBrowserSuite();

  test("a held sync: the pane says so, Wait hides it, Cancel stops the task, and the line goes once Excel answers", async () => {
    await suite.freshEmulator({ latencyMs: 0 });
    const { page } = await suite.openHarness({ demo: false });
    // The pasted sheets' list is read from the workbook when its section opens: hold that read.
    await page.evaluate(() => {
      window.heldSync = window.harness?.fake.holdNextSync();
    });
    await setSectionOpen(page, "pasted", true);
    const notice = page.getByTestId(TEST_IDS.shell.excelNotAnswering);
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain("Excel is not answering");

    await page.getByTestId(TEST_IDS.shell.excelNotAnsweringWait).click();
    await notice.waitFor({ state: "detached" });
    await notice.waitFor({ timeout: 15_000 }); // still no answer: asked again after another period

    await page.getByTestId(TEST_IDS.shell.excelNotAnsweringCancel).click();
    await page.getByTestId(TEST_IDS.shell.excelCancelledWaiting).waitFor();
    expect(await notice.count()).toBe(0);
    // The section is not left spinning: its list settles, as stopped (or, in a development build
    // where React runs the effect twice, from the second read, which was not held).
    await page
      .locator(`[data-testid="${TEST_IDS.pasted.listError}"], [data-testid="${TEST_IDS.pasted.none}"]`)
      .first()
      .waitFor();
    if ((await page.getByTestId(TEST_IDS.pasted.listError).count()) > 0)
      expect(await page.getByTestId(TEST_IDS.pasted.listError).textContent()).toContain(
        "Stopped: Excel did not answer",
      );

    await page.evaluate(() => window.heldSync?.release());
    await page.getByTestId(TEST_IDS.shell.excelCancelledWaiting).waitFor({ state: "detached" });
  }, 120_000);
});
