/**
 * The add-in in the browser harness playing an older Excel: the fake's requirement level is set
 * to Windows Version 2101 (no ExcelApi 1.13) through `window.harness.fake`, and the real task pane,
 * over the real office.js, syncs a selection with a merged name. It must ask for the cell the merge
 * left empty instead of failing on the merged-areas call or importing a blank; at the newest level
 * the same selection names the merged area. Nothing is sent either way. Saves screenshots.
 */
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { screenshot } from "./support/browser";
import { emulatorStats, methodCount } from "../support/emulator";
import { setSectionOpen, textWhen, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("browser harness at an older requirement level", () => {
  const suite = useBrowserSuite();

  test("a merged name: Excel 2101 asks to fill the empty cell, the newest Excel names the merge", async () => {
    const emulator = await suite.freshEmulator();
    const harness = await suite.openHarness({ demo: false });
    const { page } = harness;
    await waitForIdle(page);
    const writesBefore = methodCount(await emulatorStats(emulator.url), ["POST", "PUT", "DELETE"]);
    const sites = [
      ["entity_id", "entity_name", "lat", "lng", "label:country"],
      ["S-1", "Depot", 51.5074, -0.1278, "GB"],
      ["S-2", "", 48.8566, 2.3522, "FR"],
      ["S-3", "Port", 6.5244, 3.3792, "NG"],
    ];

    // Windows Version 2101: ExcelApi 1.12. office.js's isSetSupported answers for the fake too.
    const supported = await page.evaluate((rows) => {
      const harness = window.harness!;
      const sheet = harness.fake.activeSheetName();
      harness.setCells(`${sheet}!A1`, rows);
      harness.fake.merge(sheet, "B2:B3");
      harness.fake.setSelection(sheet, "A1:E4");
      harness.fake.setRequirementLevel({ ExcelApi: "1.12", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" });
      return Office.context.requirements.isSetSupported("ExcelApi", "1.13");
    }, sites);
    expect(supported).toBe(false);

    await setSectionOpen(page, "sync", true);
    await page.getByTestId(TEST_IDS.sync.portfolio).fill("old_excel_merge");
    await page.getByTestId(TEST_IDS.sync.start).click();
    const oldList = await textWhen(page, TEST_IDS.sync.problems.id, (t) => t.length > 0, 30_000);
    expect(oldList).toContain(
      "entity_name in B3 is empty, and this version of Excel cannot tell an empty cell from part of a merged one",
    );
    expect(await page.getByTestId(TEST_IDS.sync.problems.item).count()).toBe(1);
    await screenshot(page, "requirement-level-2101-merged-name");

    // The newest Excel (every set): the merged area itself is named.
    await page.evaluate(() => window.harness?.fake.setRequirementLevel(undefined));
    await page.getByTestId(TEST_IDS.sync.start).click();
    const newList = await textWhen(page, TEST_IDS.sync.problems.id, (t) => t.includes("Merged cells at B2:B3"), 30_000);
    expect(newList).not.toContain("cannot tell an empty cell");
    await screenshot(page, "requirement-level-newest-merged-name");

    expect(methodCount(await emulatorStats(emulator.url), ["POST", "PUT", "DELETE"]) - writesBefore).toBe(0);
    expect(harness.problems).toEqual([]);
  }, 120_000);
});
