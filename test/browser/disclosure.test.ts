/**
 * Disclosure tables in a real browser: the harness's Assets sheet with a price, a revenue and an
 * adaptation column is synced, the Disclosure section makes the data, Methodology, E1-9, 66(c),
 * IFRS S2 and TCFD sheets, and a refresh keeps a threshold the analyst typed. Screenshots of the
 * pane and of the significant-assets list are the docs' pictures. Skipped when chromium is absent.
 */
import { copyFileSync } from "node:fs";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { setSectionOpen, textWhen, values, waitForIdle } from "./support/harness-page";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("disclosure tables from the harness's Assets sheet", () => {
  const suite = useBrowserSuite();

  test("sync the Assets sheet with values, make the tables, refresh with the analyst's threshold kept", async () => {
    await suite.freshEmulator();
    const { page } = await suite.openHarness();
    await waitForIdle(page);
    // Values (one missing), revenue (one missing) and adaptation beside the demo's asset table.
    const extra = [
      ["label:price", "label:revenue", "label:adapted"],
      ["$12,500,000.00", "3000000", "yes"],
      ["4,200,000.00", "", "no"],
      ["", "900000", "no"],
      ["2750000", "450000", "yes"],
      ["1,100,000.00", "210000", "no"],
      ["8,000,000.00", "1500000", "no"],
    ];
    await page.evaluate((block) => window.harness?.setCells("Assets!F1", block), extra);
    await page.evaluate(() => window.harness?.selectRange("Assets!A1:H7"));
    await setSectionOpen(page, "sync", true);
    await page.getByTestId("sync-portfolio").fill("disclosure_b");
    await page.getByTestId("sync-start").click();
    await textWhen(page, "sync-result", (t) => t.includes("disclosure_b"), 30_000);
    await setSectionOpen(page, "sync", false);

    await setSectionOpen(page, "disclosure", true);
    await page.selectOption('[data-testid="disclosure-portfolio"]', "disclosure_b");
    await page.getByTestId("disclosure-start").click();
    const done = await textWhen(page, "disclosure-result", (t) => t.includes("Wrote"), 60_000);
    expect(done).toContain("for 6 assets");
    expect(done).toContain("“E1-9 disclosure_b”");
    expect(done).toContain("“Methodology disclosure_b”");
    const formulas = await page.evaluate(() => window.harness!.fake.read("E1-9 disclosure_b", "A1:F2", "formulas"));
    expect(formulas[0]![5]).toBe("66(a) assets at material physical risk, any hazard (reporting currency)");
    expect(String(formulas[1]![5])).toMatch(/^=SUMPRODUCT\(/);
    await page.getByTestId("disclosure-result").scrollIntoViewIfNeeded();
    copyFileSync(await screenshot(page, "disclosure-pane"), docImagePath("disclosure-pane"));

    // The analyst lowers the flood threshold; a refresh keeps it and recomputes the 66(c) list.
    const methodology = await values(page, "'Methodology disclosure_b'!A1:C8");
    const flood = methodology.findIndex((row) => row[1] === "flood_potential") + 1;
    await page.evaluate((row) => window.harness?.setCells(`'Methodology disclosure_b'!C${row}`, [[0.001]]), flood);
    await page.getByTestId("disclosure-refresh").click();
    expect(await textWhen(page, "disclosure-refresh-result", (t) => t.includes("Refreshed"), 60_000)).toMatch(
      /^Refreshed 2 sheet\(s\)\./,
    );
    expect((await values(page, `'Methodology disclosure_b'!C${flood}`))[0]![0]).toBe(0.001);
    await page.evaluate(() => window.harness?.activateSheet("Methodology disclosure_b"));
    // Not a docs picture: the harness does not compute INDEX/MATCH (its dataset cells show #NAME?).
    await screenshot(page, "disclosure-methodology");
    await page.evaluate(() => window.harness?.activateSheet("E1-9 66(c) disclosure_b"));
    copyFileSync(await screenshot(page, "disclosure-significant"), docImagePath("disclosure-significant"));
  }, 180_000);
});
