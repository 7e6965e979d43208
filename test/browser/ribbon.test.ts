/**
 * The Climate Risk tab as an analyst uses it, in the browser harness: the tab is drawn from
 * manifest.xml, and a click or a shortcut runs the function the page associated with the action,
 * as Excel does. With the pane closed a refresh runs without loading the pane's UI, and a failure
 * opens the pane at its message; the builder opens from its shortcut; Explain and Restore follow
 * the workbook; "Check the add-in" gives a report without the key. Skipped when chromium is absent.
 */
import { RIBBON_COMMANDS } from "../../src/commands/catalogue";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { textWhen, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";
import { HARNESS_TEST_IDS } from "../../harness/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("the Climate Risk tab in the browser harness", () => {
  const suite = useBrowserSuite({ emulator: "file" });

  test("with the pane closed: a refresh runs without the pane's UI, and a failure opens the pane at its message", async () => {
    const { page } = await suite.openHarness({ pane: "hidden" });
    const chunks: string[] = [];
    page.on("request", (request) => chunks.push(new URL(request.url()).pathname));
    await waitForIdle(page);
    expect(await page.evaluate(() => window.harness!.ribbon.associated())).toEqual(RIBBON_COMMANDS.map((c) => c.id));
    expect(await page.getByTestId(HARNESS_TEST_IDS.ribbon).getByRole("button").count()).toBe(RIBBON_COMMANDS.length);
    expect(await page.getByTestId(TEST_IDS.shell.taskpane).count()).toBe(0);

    const callsBefore = await page.evaluate(() => window.harness!.functionCalls());
    await page.evaluate(() => window.harness!.fake.setSelection("Demo", "A1"));
    await page.getByTestId(HARNESS_TEST_IDS.ribbonButton("ClimateRisk.RefreshSheet")).click();
    await page.waitForFunction(
      () => window.harness!.ribbon.calls().some((c) => c.id === "refreshSheet" && c.completed),
      null,
      {
        timeout: 30_000,
      },
    );
    await waitForIdle(page);
    expect(await page.evaluate(() => window.harness!.functionCalls())).toBeGreaterThan(callsBefore);
    expect(await page.evaluate(() => window.harness!.ribbon.paneVisible())).toBe(false);
    expect(await page.getByTestId(TEST_IDS.shell.taskpane).count()).toBe(0);
    expect(chunks.filter((p) => p.includes("taskpane-ui"))).toEqual([]);
    expect(chunks.some((p) => p.includes("ribbon-commands"))).toBe(true);

    // A shortcut pressed on the grid with no RISK cell selected: the pane opens at the refresh section and says why.
    await page.evaluate(() => window.harness!.fake.setSelection("Assets", "A1"));
    await page.locator(".grid").focus();
    await page.keyboard.press("Control+Alt+Shift+Digit1");
    expect(await textWhen(page, TEST_IDS.shell.commandOutcome, (t) => t.includes("no RISK formulas"), 30_000)).toMatch(
      /Selection \(shortcut\).*The selection has no RISK formulas: nothing was refreshed\./s,
    );
    expect(await page.evaluate(() => window.harness!.ribbon.paneVisible())).toBe(true);
    await page
      .getByTestId(TEST_IDS.shell.section("scoped-refresh"))
      .getByTestId(TEST_IDS.refresh.scopeChoice)
      .waitFor({ timeout: 10_000 });
  }, 120_000);

  test("builder from its shortcut, Explain and Restore by context, Convert from the tab, and Check the add-in", async () => {
    const { page } = await suite.openHarness();
    await waitForIdle(page);
    await page.getByTestId(TEST_IDS.shell.taskpane).waitFor();
    // No static copy yet; the active cell holds no RISK formula.
    await page.evaluate(() => window.harness!.fake.setSelection("Assets", "A1"));
    await page.waitForFunction(() => !window.harness!.ribbon.enabled("ClimateRisk.Explain"), null, { timeout: 10_000 });
    expect(await page.getByTestId(HARNESS_TEST_IDS.ribbonButton("ClimateRisk.RestoreFormulas")).isDisabled()).toBe(
      true,
    );
    await page.evaluate(() => window.harness!.fake.setSelection("Demo", "E3"));
    await page.waitForFunction(() => window.harness!.ribbon.enabled("ClimateRisk.Explain"), null, { timeout: 10_000 });

    await page.locator(".grid").focus();
    await page.keyboard.press("Control+Alt+Shift+KeyB");
    await page.waitForFunction(
      () => window.harness!.ribbon.calls().some((c) => c.id === "openBuilder" && c.trigger === "shortcut"),
      null,
      { timeout: 10_000 },
    );
    await page.getByTestId(TEST_IDS.builder.function).waitFor({ timeout: 10_000 });

    // Convert the selected RISK cell to values from the tab: Restore becomes available, and puts it back.
    const formula = await page.evaluate(() => window.harness!.getCell("Demo!E3").formula);
    expect(formula).toMatch(/^=RISK\./);
    await page.getByTestId(HARNESS_TEST_IDS.ribbonButton("ClimateRisk.ConvertToValues")).click();
    await page.waitForFunction(() => window.harness!.ribbon.enabled("ClimateRisk.RestoreFormulas"), null, {
      timeout: 10_000,
    });
    expect(await page.evaluate(() => window.harness!.getCell("Demo!E3").formula)).toBeFalsy();
    await page.getByTestId(HARNESS_TEST_IDS.ribbonButton("ClimateRisk.RestoreFormulas")).click();
    await page.waitForFunction(() => !window.harness!.ribbon.enabled("ClimateRisk.RestoreFormulas"), null, {
      timeout: 10_000,
    });
    expect(await page.evaluate(() => window.harness!.getCell("Demo!E3").formula)).toBe(formula);

    await page.getByTestId(HARNESS_TEST_IDS.ribbonButton("ClimateRisk.Check")).click();
    const report = page.getByTestId(TEST_IDS.check.report);
    await report.waitFor({ timeout: 30_000 });
    const text = await report.inputValue();
    expect(text).toMatch(/Climate Risk add-in check/);
    expect(text).toMatch(/RibbonApi 1\.1: present/);
    expect(text).toMatch(/Ribbon and shortcut actions associated: 12/);
    expect(text).toMatch(/Risk service .*: HTTP 200 in \d+ ms/);
    expect(text).not.toContain("demo-key");
    await page.evaluate(() => window.harness!.fake.setSelection("Demo", "E3"));
    await screenshot(page, "ribbon-tab-check");
    await page.screenshot({ path: docImagePath("harness-ribbon-tab") });
  }, 120_000);
});
