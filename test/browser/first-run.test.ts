/**
 * The first run of a build with no emulator behind it (as a production build is; here a
 * development build made with RISK_REQUIRE_CONNECTION=1 so the harness is in it): the pane opens on
 * the connection form saying what to enter, RISK cells show #N/A "Open the Climate Risk pane to
 * connect", and once a connection is saved a recalculation gives numbers.
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import type { RunningEmulator } from "../../emulator/server";
import { buildAddin, startAddinServer, type AddinServer } from "./support/addin-server";
import { browserAvailable, launchBrowser, screenshot } from "./support/browser";
import { startTestEmulator } from "./support/emulators";
import { cell, openHarness, textWhen, waitForIdle, type HarnessPage } from "./support/harness-page";

const describeBrowser = browserAvailable("test/browser/first-run.test.ts") ? describe : describe.skip;

describeBrowser("first run with nothing configured", () => {
  let buildDir: string;
  let browser: Browser;
  let server: AddinServer;
  let emulator: RunningEmulator;
  let harness: HarnessPage | undefined;

  beforeAll(async () => {
    const launching = launchBrowser().then((b) => (browser = b));
    // Read by webpack.config.js: a development build (with the harness) that starts unconnected.
    buildDir = await buildAddin({ RISK_REQUIRE_CONNECTION: "1" }).finally(() => launching.catch(() => undefined));
    await launching;
    emulator = await startTestEmulator();
    server = await startAddinServer(buildDir, emulator.url);
  }, 240_000);

  afterAll(async () => {
    if (harness && harness.problems.length) console.warn(`page problems:\n${harness.problems.join("\n")}`);
    await harness?.close();
    await server?.close();
    await browser?.close();
    await emulator?.close();
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  test("the pane asks for a connection, RISK cells say to open it, and a saved connection brings numbers", async () => {
    harness = await openHarness(browser, server.origin);
    const { page } = harness;
    await waitForIdle(page);
    const before = await cell(page, "Demo!D3");
    expect(before.value).toBe("#N/A");
    expect(before.error?.message).toBe("Open the Climate Risk pane to connect");
    await page.getByTestId("taskpane").waitFor({ state: "visible", timeout: 20_000 });
    await page.getByTestId("connection-first-run").waitFor();
    expect(await page.getByTestId("connection-first-run").textContent()).toContain(
      "Connect to your climate risk service",
    );
    expect(await page.getByTestId("connection-summary").textContent()).toMatch(/^Not connected/);
    expect(await page.getByTestId("connection-base-url").inputValue()).toBe("");
    const shot = await screenshot(page, "loop-first-run");
    mkdirSync(path.resolve(__dirname, "..", "..", "docs", "images"), { recursive: true });
    copyFileSync(shot, path.resolve(__dirname, "..", "..", "docs", "images", "loop-first-run.png"));

    await page.getByTestId("connection-base-url").fill(`${server.origin}/emulator`);
    await page.getByTestId("connection-nature-url").fill(`${server.origin}/emulator/nature`);
    await page.getByTestId("connection-api-key").fill("demo-key");
    await page.getByTestId("connection-test").click();
    await textWhen(page, "connection-test-result", (t) => t.length > 0, 20_000);
    await page.getByTestId("connection-save").click();
    await textWhen(page, "connection-save-result", (t) => t.length > 0, 20_000);
    await page.evaluate(() => window.harness?.recalcAll());
    await waitForIdle(page);
    expect(typeof (await cell(page, "Demo!D3")).value).toBe("number");
    expect(harness.problems).toEqual([]); // nothing threw in the page
  }, 90_000);
});
