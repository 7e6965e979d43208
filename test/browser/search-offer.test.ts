/**
 * A column of many new search points in a real browser: while the RISK.SEARCH column loads, the
 * pane's usage line says how far it is and how long is left; then "Sync a range to a portfolio"
 * offers the sheet's 400 points as a new portfolio, with both times and the caveat, and accepting
 * makes the portfolio; the formula builder makes the same offer once the analyst has inserted a
 * RISK.SEARCH column over many points. Skipped, with a message saying why, when chromium is not
 * installed.
 */
import { DEMO_HEADERS } from "../support/emulator";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { screenshot } from "./support/browser";
import { setSectionOpen, textWhen, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("many search points: progress and the faster path offered", () => {
  const suite = useBrowserSuite();

  test("the usage line counts the column's loads; the offer names a new portfolio and accepting makes it", async () => {
    const emu = await suite.freshEmulator({ latencyMs: 150 });
    const { page } = await suite.openHarness({ demo: false });
    const sheet = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
    const points = Array.from({ length: 400 }, (_, i) => [10 + i / 100, 20 + i / 100]);
    await page.evaluate(([name, block]) => window.harness?.setCells(`${name}!A1`, block), [sheet, points] as const);

    await page.evaluate(
      (name) => window.harness?.setCell(`${name}!D1`, '=RISK.SEARCH(A1:A400,B1:B400,"floods","30yr")'),
      sheet,
    );
    const progress = await textWhen(page, TEST_IDS.shell.usageProgress, (t) => / \/ 400 loaded · /.test(t), 20_000);
    expect(progress).toMatch(/^RISK cells: \d+ \/ 400 loaded · (about .+ left|estimating the time left)$/);
    await waitForIdle(page, 120_000);
    expect(await page.getByTestId(TEST_IDS.shell.usageProgress).count()).toBe(0); // gone once nothing is pending

    await setSectionOpen(page, "sync", true);
    await page.getByTestId(TEST_IDS.sync.searchOffer.check.id).click();
    const timing = await textWhen(page, TEST_IDS.sync.searchOffer.timing, (t) => t.length > 0, 20_000);
    expect(timing).toMatch(new RegExp(`^Searching 400 points: about .+ As portfolio "${sheet}_points": about `));
    expect(await page.getByTestId(TEST_IDS.sync.searchOffer.caveat).textContent()).toMatch(/The numbers will differ/);
    await screenshot(page, "search-offer");

    await page.getByTestId(TEST_IDS.sync.searchOffer.accept).click();
    const done = await textWhen(page, TEST_IDS.sync.searchOffer.done, (t) => t.length > 0, 60_000);
    expect(done).toContain(`${sheet}_points holds the 400 points`);
    const assets = (await fetch(`${emu.url}/api/portfolios/${sheet}_points/assets?rows=250&page=2`, {
      headers: DEMO_HEADERS,
    }).then((r) => r.json())) as Array<{ entity_id: string }>;
    expect(assets.map((a) => a.entity_id).at(-1)).toBe("P400");
  }, 180_000);

  test("the formula builder offers the faster path after a RISK.SEARCH column over many points is inserted", async () => {
    await suite.freshEmulator({ latencyMs: 40 });
    const { page } = await suite.openHarness({ demo: false });
    const sheet = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
    const points = Array.from({ length: 350 }, (_, i) => [30 + i / 100, 40 + i / 100]);
    await page.evaluate(([name, block]) => window.harness?.setCells(`${name}!A1`, block), [sheet, points] as const);

    await setSectionOpen(page, "connection", false); // close it: room for the builder
    await setSectionOpen(page, "builder", true);
    expect(await page.getByTestId(TEST_IDS.builder.searchOffer.id).count()).toBe(0); // not for RISK.SUMMARY
    await page.getByTestId(TEST_IDS.builder.function).click();
    await page.getByTestId(TEST_IDS.builder.functionOption("SEARCH")).click();
    await page.getByTestId(TEST_IDS.builder.searchOffer.id).waitFor();
    expect(await page.getByTestId(TEST_IDS.builder.searchOffer.made).count()).toBe(0); // nothing offered before a check

    await page.getByTestId(TEST_IDS.builder.formula).fill('=RISK.SEARCH(A1:A350,B1:B350,"floods","30yr")');
    await page.evaluate((name) => window.harness?.selectRange(`${name}!D1`), sheet);
    await page.getByTestId(TEST_IDS.builder.insert.id).click();
    expect(await textWhen(page, TEST_IDS.builder.inserted, (t) => t.length > 0, 20_000)).toBe(
      `Inserted into ${sheet}!D1.`,
    );
    // No click: the insert itself checks the sheet again, and its 350 points are worth the offer.
    const timing = await textWhen(page, TEST_IDS.builder.searchOffer.timing, (t) => t.length > 0, 30_000);
    expect(timing).toMatch(new RegExp(`^Searching 350 points: about .+ As portfolio "${sheet}_points": about `));
    expect(await page.getByTestId(TEST_IDS.builder.searchOffer.caveat).textContent()).toMatch(
      /The numbers will differ/,
    );
    expect(await page.getByTestId(TEST_IDS.builder.searchOffer.accept).textContent()).toBe(
      `Sync 350 points as ${sheet}_points`,
    );
    await waitForIdle(page, 120_000);
  }, 180_000);
});
