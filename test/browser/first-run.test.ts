/**
 * The first run of a build with no emulator behind it (as a production build is; here a
 * development build made with RISK_REQUIRE_CONNECTION=1 so the harness is in it): the pane opens on
 * the connection form saying what to enter, RISK cells show #N/A "Open the Climate Risk pane to
 * connect", and once a connection is saved a recalculation gives numbers.
 */
import { copyFileSync } from "node:fs";
import { DEMO_API_KEY } from "../../src/shared/vocabulary";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { cell, textWhen, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("first run with nothing configured", () => {
  const suite = useBrowserSuite({ buildEnv: { RISK_REQUIRE_CONNECTION: "1" }, emulator: "file" });

  test("the pane asks for a connection, RISK cells say to open it, and a saved connection brings numbers", async () => {
    const harness = await suite.openHarness();
    const { page } = harness;
    await waitForIdle(page);
    const before = await cell(page, "Demo!D3");
    expect(before.value).toBe("#N/A");
    expect(before.error?.message).toBe("Open the Climate Risk pane to connect");
    await page.getByTestId(TEST_IDS.shell.taskpane).waitFor({ state: "visible", timeout: 20_000 });
    await page.getByTestId(TEST_IDS.connection.firstRun).waitFor();
    expect(await page.getByTestId(TEST_IDS.connection.firstRun).textContent()).toContain(
      "Connect to your climate risk service",
    );
    expect(await page.getByTestId(TEST_IDS.shell.connectionSummary).textContent()).toMatch(/^Not connected/);
    expect(await page.getByTestId(TEST_IDS.connection.baseUrl).inputValue()).toBe("");
    const shot = await screenshot(page, "loop-first-run");
    copyFileSync(shot, docImagePath("loop-first-run"));

    await page.getByTestId(TEST_IDS.connection.baseUrl).fill(`${suite.server.origin}/emulator`);
    await page.getByTestId(TEST_IDS.connection.natureUrl).fill(`${suite.server.origin}/emulator/nature`);
    await page.getByTestId(TEST_IDS.connection.apiKey).fill(DEMO_API_KEY);
    await page.getByTestId(TEST_IDS.connection.test).click();
    await textWhen(page, TEST_IDS.connection.testResult, (t) => t.length > 0, 20_000);
    await page.getByTestId(TEST_IDS.connection.save).click();
    await textWhen(page, TEST_IDS.connection.saveResult, (t) => t.length > 0, 20_000);
    await page.evaluate(() => window.harness?.recalcAll());
    await waitForIdle(page);
    expect(typeof (await cell(page, "Demo!D3")).value).toBe("number");
    expect(harness.problems).toEqual([]); // nothing threw in the page
  }, 90_000);
});
