/**
 * Money at risk, sync diffs, explanations and changes in a real browser: the harness page (real
 * functions bundle, real task pane, the Excel fake) against the emulator over HTTP. A re-sync shows
 * its diff before replacing; a RISK cell, and a cell a column formula spilled into, are explained;
 * the Financial impact sheets are written with their missing-value list; a snapshot and compare
 * reports a flip. Screenshots in test-output/screenshots. Skipped when chromium is absent.
 */
import { copyFileSync } from "node:fs";
import { RiskClient } from "../../src/api/client";
import { importPortfolio } from "../functions/support/emulator";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { setSectionOpen, syncSelectionAs, textWhen, values, waitForIdle } from "./support/harness-page";
import { demoConnection } from "../support/emulator";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("money at risk, diffs, explain and changes in the browser harness", () => {
  const suite = useBrowserSuite();

  test("a re-sync shows what changes (moved with km, relabelled, added) before the user confirms", async () => {
    await suite.freshEmulator();
    const { page } = await suite.openHarness();
    await waitForIdle(page);
    await page.evaluate(() => window.harness?.fake.setSelection("Assets", "A1:E7"));
    await syncSelectionAs(page, "diff_b");

    const assets = await values(page, "Assets!A1:E7");
    const edited = assets.map((row, r) =>
      r === 1
        ? [row[0], row[1], Number(row[2]) + 0.05, row[3], row[4]]
        : r === 2
          ? [row[0], row[1], row[2], row[3], "XX"]
          : row,
    );
    edited.push(["NEW-1", "New site", 10.5, 20.5, "ZZ"]);
    await page.evaluate((block) => window.harness?.setCells("Assets!A1", block), edited);
    await page.evaluate(() => window.harness?.fake.setSelection("Assets", "A1:E8"));
    await page.getByTestId(TEST_IDS.sync.start).click();
    const summary = await textWhen(page, TEST_IDS.sync.diffSummary, (t) => t.includes("added"), 30_000);
    expect(summary).toBe("1 added · 0 removed · 1 moved · 1 relabelled · 4 unchanged");
    await page.locator(`[data-testid="${TEST_IDS.sync.diffCategory("moved").id}"] summary`).click();
    await page.locator(`[data-testid="${TEST_IDS.sync.diffCategory("relabelled").id}"] summary`).click();
    expect(await page.getByTestId(TEST_IDS.sync.diffCategory("moved").item).innerText()).toMatch(/5\.6 km/);
    expect(await page.getByTestId(TEST_IDS.sync.diffCategory("relabelled").item).innerText()).toMatch(
      /country “.*” → “XX”/,
    );
    await screenshot(page, "sync-diff-confirmation");
    await page.getByTestId(TEST_IDS.sync.confirmKeep).click();
    await textWhen(page, TEST_IDS.sync.declined, (t) => t.includes("keeps its assets"));
  }, 90_000);

  test(
    "Explain a RISK.SUMMARY cell of the demo sheet and a cell its column formula spilled into; " +
      "Financial impact sheets with the missing price listed",
    async () => {
      const emu = await suite.freshEmulator();
      const client = new RiskClient(demoConnection(emu));
      await importPortfolio(
        client,
        "impact_b",
        "entity_id,entity_name,lat,lng,label:country,label:price\nP1,Paris,48.85,2.35,FR," +
          "1000000\nB1,Berlin,52.52,13.4,DE,\nH1,Hamburg,53.55,9.99,DE,400000",
      );
      const { page } = await suite.openHarness();
      await waitForIdle(page);

      const demoTop = await page.evaluate(() => {
        const h = window.harness!;
        const found = h.fake
          .read("Demo", "B1:B30", "formulas")
          .findIndex((r) => String(r[0]).startsWith("=RISK.SUMMARY"));
        return found + 1;
      });
      await page.evaluate((row) => window.harness?.fake.setSelection("Demo", `B${row}`), demoTop);
      await setSectionOpen(page, "explain", true);
      await page.getByTestId(TEST_IDS.explain.start).click();
      expect(await textWhen(page, TEST_IDS.explain.line("thresholds"), (t) => t.length > 0)).toMatch(
        /LOW below 0\.01, MEDIUM up to 0\.05/,
      );
      expect(await page.getByTestId(TEST_IDS.explain.line("window")).innerText()).toMatch(/2025-2054/);
      await page.getByTestId(TEST_IDS.explain.line("dataset")).scrollIntoViewIfNeeded();
      await screenshot(page, "explain-summary-cell");
      // A cell the demo sheet's column formula (G3) spilled into: explained as its own row, Miami's.
      await page.evaluate(() => window.harness?.fake.setSelection("Demo", "G5"));
      await page.getByTestId(TEST_IDS.explain.start).click();
      expect(await textWhen(page, TEST_IDS.explain.line("spill"), (t) => t.includes("G5"))).toContain(
        'Demo!G5 is row 3 of the spill of =RISK.SEARCH(B3:B7,C3:C7,"floods","30yr") in G3',
      );
      expect(await page.getByTestId(TEST_IDS.explain.line("arguments")).innerText()).toContain(
        "lat 25.7617, lng -80.1918",
      );
      await page.getByTestId(TEST_IDS.explain.line("spill")).scrollIntoViewIfNeeded();
      copyFileSync(await screenshot(page, "explain-spilled-cell"), docImagePath("explain-spilled-cell"));
      await setSectionOpen(page, "explain", false);

      await setSectionOpen(page, "impact", true);
      await page.selectOption(`[data-testid="${TEST_IDS.impact.portfolio.id}"]`, "impact_b");
      await page.getByTestId(TEST_IDS.impact.rollup).fill("country");
      await page.getByTestId(TEST_IDS.impact.start).click();
      expect(await textWhen(page, TEST_IDS.impact.task.result, (t) => t.includes("Wrote"), 30_000)).toMatch(
        /for 3 assets, values from label:price/,
      );
      expect(await page.getByTestId(TEST_IDS.impact.problemsItem).first().getAttribute("data-address")).toBe(
        "'Impact data impact_b'!E3",
      );
      await screenshot(page, "financial-impact");
    },
    90_000,
  );

  test(
    "What changed: a snapshot of the demo summary cells, " +
      "the portfolio re-imported with two assets swapped, Refresh all, compare",
    async () => {
      const emu = await suite.freshEmulator();
      const client = new RiskClient(demoConnection(emu));
      const { page } = await suite.openHarness();
      await waitForIdle(page);
      const assets = await client.portfolios.assets("demo-portfolio").all();
      const summary = await client.datasets.summary("demo-portfolio", { scenario: "ssp245", window: 30 }).all();
      const flood = (i: number) =>
        summary.find((s) => s.portfolio_index === i)!.risk_summaries.find((r) => r.hazard === "flood_potential")!
          .risk_class;
      const other = assets.find((a) => flood(a.portfolio_index) !== flood(0))!;

      const row = await page.evaluate(
        () =>
          window
            .harness!.fake.read("Demo", "B1:B30", "formulas")
            .findIndex((r) => String(r[0]).startsWith("=RISK.SUMMARY")) + 1,
      );
      await page.evaluate((r) => window.harness?.fake.setSelection("Demo", `B${r}:C${r + 3}`), row);
      await setSectionOpen(page, "changes", true);
      await page.getByTestId(TEST_IDS.changes.threshold).fill("0.001");
      await page.getByTestId(TEST_IDS.changes.snapshot.id).click();
      await textWhen(page, TEST_IDS.changes.snapshot.result, (t) => t.includes("8 cells"));

      // Asset 0 takes the place of an asset with another flood label.
      const sorted = [...assets].sort((a, b) => a.portfolio_index - b.portfolio_index);
      const lines = sorted
        .map((a) => (a.portfolio_index === 0 ? { ...a, lat: other.lat, lng: other.lng } : a))
        .map((a) => `${a.entity_id},${a.lat},${a.lng}`);
      await importPortfolio(client, "demo-portfolio", ["entity_id,lat,lng", ...lines].join("\n"));
      await setSectionOpen(page, "refresh", true);
      await page.getByTestId(TEST_IDS.refresh.all).click();
      await textWhen(page, TEST_IDS.refresh.task.result, (t) => t.length > 0, 30_000);
      await waitForIdle(page);
      // On a loaded machine the full recalculation may still be under way: compare once the
      // snapshot's cells hold values again (not #BUSY! or an error value).
      await page.waitForFunction(
        (r) =>
          window
            .harness!.fake.read("Demo", `B${r}:C${r + 3}`)
            .flat()
            .every((v) => typeof v === "number" || (typeof v === "string" && !v.startsWith("#"))),
        row,
        { timeout: 30_000 },
      );
      await setSectionOpen(page, "refresh", false);
      await page.getByTestId(TEST_IDS.changes.compare).click();
      const text = await textWhen(page, TEST_IDS.changes.summary, (t) => t.length > 0, 30_000);
      expect(text).toContain(`1 asset flipped to ${flood(other.portfolio_index)} for flood_potential under ssp245`);
      expect(text).toContain("Listed in “Changes”");
      await page.getByTestId(TEST_IDS.changes.summary).scrollIntoViewIfNeeded();
      await screenshot(page, "what-changed");
    },
    90_000,
  );
});
