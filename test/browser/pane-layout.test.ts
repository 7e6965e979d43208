/**
 * The task pane's table of contents in a real browser at Excel's narrowest pane (320 px): the
 * sections under four headings, the search that narrows them (and opens the one it leaves), and
 * sections that keep their state when collapsed or searched away, so a sync still running is not
 * cancelled by tidying the pane. Screenshots go to docs/images for docs/taskpane.md.
 */
import type { Locator, Page } from "playwright-core";
import { DEMO_HEADERS } from "../support/emulator";
import { docImagePath, screenshot } from "./support/browser";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { selectWithMouse, setSectionOpen, startSync, textWhen, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

/** A screenshot of the pane alone, also kept in docs/images. */
async function paneShot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await page.getByTestId(TEST_IDS.shell.taskpane).screenshot({ path: docImagePath(name) });
}

/** The ids of the sections a user can see now, in order. */
async function visibleSections(page: Page): Promise<string[]> {
  const headers: Locator = page.locator('[data-testid^="section-"][data-testid$="-header"]');
  const ids: string[] = [];
  for (const header of await headers.all()) {
    if (await header.isVisible()) ids.push((await header.getAttribute("data-testid"))!.slice(8, -7));
  }
  return ids;
}

describeBrowser("task pane layout at 320 px", () => {
  const suite = useBrowserSuite();

  async function open(): Promise<Page> {
    const { page } = await suite.openHarness();
    await page.addStyleTag({ content: "#taskpane-panel { width: 320px !important; }" });
    await page.setViewportSize({ width: 1440, height: 1400 }); // the whole pane in one screenshot
    await waitForIdle(page);
    return page;
  }

  test("four group headings; a search narrows the sections, opens the one it leaves, and says when none match", async () => {
    await suite.freshEmulator();
    const page = await open();
    const headings = await page.locator(`[data-testid^="${TEST_IDS.shell.group("")}"] h2`).allTextContents();
    expect(headings.map((h) => h.toLowerCase())).toEqual([
      "set up",
      "formulas",
      "pull data into sheets",
      "portfolios and layers",
    ]);
    expect(await visibleSections(page)).toHaveLength(21);
    await setSectionOpen(page, "connection", false); // close the connection form
    await paneShot(page, "pane-groups");
    // README's picture: the demo workbook's RISK cells beside the grouped pane, at a laptop's size.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: docImagePath("harness") });
    await page.setViewportSize({ width: 1440, height: 1400 });

    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("stale");
    await page.getByTestId(TEST_IDS.lastGood.failurePolicy).waitFor({ state: "visible" });
    expect(await visibleSections(page)).toEqual(["last-good"]);
    expect(await page.getByTestId(TEST_IDS.shell.group("formulas")).isVisible()).toBe(true);
    expect(await page.getByTestId(TEST_IDS.shell.group("pull")).isVisible()).toBe(false);
    await paneShot(page, "pane-search");

    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("refresh");
    expect(await visibleSections(page)).toEqual(["changes", "refresh", "scoped-refresh", "pasted"]);

    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("no such task");
    expect(await textWhen(page, TEST_IDS.shell.sectionSearchEmpty, (t) => t.length > 0)).toContain("no such task");
    expect(await visibleSections(page)).toEqual([]);

    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("");
    expect(await visibleSections(page)).toHaveLength(21);
  }, 60_000);

  test("a sync keeps running when its section is collapsed and searched away; a form keeps what was typed", async () => {
    // Processing takes 2 s, so the sync is still waiting for risk data when the section closes.
    const emulator = await suite.freshEmulator({ processingDelayMs: 2000 });
    const page = await open();

    // What was typed survives a collapse and a search that hides the section.
    await page.getByTestId(TEST_IDS.connection.baseUrl).fill("https://risk.example.com/api");
    await page.getByTestId(TEST_IDS.shell.sectionHeader("connection")).click();
    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("map");
    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("");
    await page.getByTestId(TEST_IDS.shell.sectionHeader("connection")).click();
    expect(await page.getByTestId(TEST_IDS.connection.baseUrl).inputValue()).toBe("https://risk.example.com/api");

    // Sync the demo Assets sheet, then tidy the pane away while it runs.
    await selectWithMouse(page, "A1", "E7", "Assets");
    await setSectionOpen(page, "sync", true);
    await startSync(page, "kept_running");
    await page.getByTestId(TEST_IDS.sync.task.progress).waitFor({ state: "visible" });
    await page.getByTestId(TEST_IDS.shell.sectionHeader("sync")).click();
    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("stale");
    expect(await visibleSections(page)).toEqual(["last-good"]);

    // The sync finishes out of sight; reopening the section shows its outcome.
    await page.getByTestId(TEST_IDS.sync.done).waitFor({ state: "attached", timeout: 30_000 });
    await page.getByTestId(TEST_IDS.shell.sectionSearch).fill("");
    await page.getByTestId(TEST_IDS.shell.sectionHeader("sync")).click();
    expect(await textWhen(page, TEST_IDS.sync.task.result, (t) => t.length > 0)).toMatch(/kept_running/);
    expect(await page.getByTestId(TEST_IDS.sync.task.result).isVisible()).toBe(true);
    const assets = (await (
      await fetch(`${emulator.url}/api/portfolios/kept_running/assets`, { headers: DEMO_HEADERS })
    ).json()) as unknown[];
    expect(assets).toHaveLength(6);
  }, 90_000);
});
