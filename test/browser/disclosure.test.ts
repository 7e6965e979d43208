/**
 * Disclosure tables in a real browser: the harness's Assets sheet with a price, a revenue and an
 * adaptation column is synced, the Disclosure section makes the data, Methodology, E1-9, 66(c),
 * IFRS S2 and TCFD sheets, and a refresh keeps a threshold the analyst typed; "Refresh pasted
 * sheets" finds a table made with fixed ranges and offers its upgrade; the pane's final
 * workbook is recalculated by LibreOffice (when installed) and checked. Screenshots of the
 * pane and of the significant-assets list are the docs' pictures. Skipped when chromium is absent.
 */
import { copyFileSync, existsSync } from "node:fs";
import type { WorkbookSnapshot } from "../../testing/fake-excel";
import { SOFFICE_PATH, recalculateInLibreOffice } from "../support/libreoffice";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { setSectionOpen, syncSelectionAs, textWhen, values, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

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
    await syncSelectionAs(page, "disclosure_b");
    await setSectionOpen(page, "sync", false);

    await setSectionOpen(page, "disclosure", true);
    await page.selectOption(`[data-testid="${TEST_IDS.disclosure.portfolio.id}"]`, "disclosure_b");
    await page.getByTestId(TEST_IDS.disclosure.start).click();
    const done = await textWhen(page, TEST_IDS.disclosure.task.result, (t) => t.includes("Wrote"), 60_000);
    expect(done).toContain("for 6 assets");
    expect(done).toContain("“E1-9 disclosure_b”");
    expect(done).toContain("“Methodology disclosure_b”");
    const formulas = await page.evaluate(() => window.harness!.fake.read("E1-9 disclosure_b", "A1:F2", "formulas"));
    expect(formulas[0]![5]).toBe("66(a) assets at material physical risk, any hazard (reporting currency)");
    expect(String(formulas[1]![5])).toMatch(/^=SUMPRODUCT\(/);
    await page.getByTestId(TEST_IDS.disclosure.task.result).scrollIntoViewIfNeeded();
    copyFileSync(await screenshot(page, "disclosure-pane"), docImagePath("disclosure-pane"));

    // The analyst lowers the flood threshold; a refresh keeps it and recomputes the 66(c) list.
    const methodology = await values(page, "'Methodology disclosure_b'!A1:C8");
    const flood = methodology.findIndex((row) => row[1] === "flood_potential") + 1;
    await page.evaluate((row) => window.harness?.setCells(`'Methodology disclosure_b'!C${row}`, [[0.001]]), flood);
    await page.getByTestId(TEST_IDS.disclosure.refresh.id).click();
    expect(await textWhen(page, TEST_IDS.disclosure.refresh.result, (t) => t.includes("Refreshed"), 60_000)).toMatch(
      /^Refreshed 2 sheet\(s\)\./,
    );
    expect((await values(page, `'Methodology disclosure_b'!C${flood}`))[0]![0]).toBe(0.001);

    // A workbook made before the formulas named the data table: an E1-9 figure of its first row (the
    // row the refresh looks at) over a fixed range.
    // Any refresh says so and offers the upgrade, which puts the table's column back: here the
    // refresh of every pasted sheet, from "Pasted sheets & sources", which runs the disclosure's steps too.
    await page.evaluate(async () => {
      await window.harness!.fake.run(async (context) => {
        const cell = context.workbook.worksheets.getItem("E1-9 disclosure_b").getRange("R2");
        cell.formulas = [["=SUMPRODUCT(('Disclosure data disclosure_b'!$D$2:$D$55=$A2)*1)"]];
        await context.sync();
      });
    });
    await setSectionOpen(page, "disclosure", false);
    await setSectionOpen(page, "pasted", true);
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    await page.waitForSelector(
      `[data-testid="${TEST_IDS.pasted.task.result}"], [data-testid="${TEST_IDS.pasted.task.error}"]`,
    );
    const failed = await page.$(`[data-testid="${TEST_IDS.pasted.task.error}"]`);
    if (failed) throw new Error(`refresh failed: ${await failed.textContent()}`);
    expect(await textWhen(page, TEST_IDS.pasted.followUp, (t) => t.includes("Upgrade them"), 60_000)).toMatch(
      /"E1-9 disclosure_b" were made before the tables followed their data: they read rows 2 to 55/,
    );
    await page.getByTestId(TEST_IDS.pasted.offer.id).click();
    expect(await textWhen(page, TEST_IDS.pasted.offer.result, (t) => t.includes("Upgraded"), 60_000)).toContain(
      '"E1-9 disclosure_b"',
    );
    const upgraded = await page.evaluate(() => window.harness!.fake.read("E1-9 disclosure_b", "R2", "formulas"));
    expect(upgraded[0]![0]).toBe("=SUMPRODUCT((Disclosure_data_disclosure_b[scenario]=$A2)*1)");

    // The pane's final workbook, recalculated by LibreOffice: every E1-9 amount at material risk
    // (any hazard) and each coverage equal a computation from the data sheet's rows as pasted (the
    // emulator's answers) and the Methodology's thresholds as the analyst left them.
    if (existsSync(SOFFICE_PATH)) {
      const snapshot = (await page.evaluate(() => window.harness!.fake.snapshot())) as WorkbookSnapshot;
      const book = await recalculateInLibreOffice(snapshot);
      const table = (sheet: string) => {
        const [header = [], ...rows] = book.rows(sheet).filter((r) => r.some((c) => c !== ""));
        return rows.map((r) => Object.fromEntries(header.map((h, c) => [h, r[c] ?? ""])));
      };
      const thresholds = new Map(
        table("Methodology disclosure_b")
          .filter((r) => r.section === "Materiality threshold")
          .map((r) => [r.item!, Number(r.value)]),
      );
      const data = table("Disclosure data disclosure_b");
      const e19 = table("E1-9 disclosure_b").filter((r) => r["window (years)"] !== "#N/A");
      expect(e19).toHaveLength(6); // three scenarios × medium and long; the short term is #N/A
      for (const row of e19) {
        const mine = data.filter((d) => d.scenario === row.scenario && d.window === row["window (years)"]);
        const atRisk = mine.filter((d) =>
          [...thresholds].some(([h, t]) => d[`${h}_risk_score`] !== "" && Number(d[`${h}_risk_score`]) > t),
        );
        const amount = atRisk.filter((d) => d.value !== "").reduce((sum, d) => sum + Number(d.value), 0);
        expect(Number(row["66(a) assets at material physical risk, any hazard (reporting currency)"])).toBeCloseTo(
          amount,
          4,
        );
        expect(Number(row["coverage: assets"])).toBe(6);
        expect(Number(row["66(a) assets at material risk, any hazard (count)"])).toBe(atRisk.length);
      }
    }
    await page.evaluate(() => window.harness?.activateSheet("Methodology disclosure_b"));
    // Not a docs picture: the harness does not compute INDEX/MATCH (its dataset cells show #NAME?).
    await screenshot(page, "disclosure-methodology");
    await page.evaluate(() => window.harness?.activateSheet("E1-9 66(c) disclosure_b"));
    copyFileSync(await screenshot(page, "disclosure-significant"), docImagePath("disclosure-significant"));
  }, 180_000);
});
