/**
 * The analyst's loop in a real browser (harness page, real functions and pane, emulator over HTTP): the
 * formula builder, scoped refresh, pasted sheets with their sources and refresh, and static
 * copies, driven by clicks as a person would, with screenshots of what they see.
 */
import { copyFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { emulatorStats, routeCount } from "../support/emulator";
import { cell, setSectionOpen, textWhen, values, waitForIdle } from "./support/harness-page";
import { RiskClient } from "../../src/api/client";
import { columnLetters as col } from "../../src/shaping/a1";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { importPortfolio } from "../functions/support/emulator";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

/** Screenshot for the test output, also kept in docs/images for docs/taskpane.md. */
async function shot(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, name);
  copyFileSync(file, docImagePath(name));
}

describeBrowser("analyst loop", () => {
  const suite = useBrowserSuite();

  async function open(demo: boolean): Promise<Page> {
    await suite.freshEmulator();
    const { page } = await suite.openHarness({ demo });
    await waitForIdle(page);
    return page;
  }

  const select = (page: Page, address: string) => page.evaluate((a) => window.harness?.selectRange(a), address);
  /** Paste the portfolio's ssp585 summary (without the extended one) from the pane's Summary section. */
  const pasteSummaryFromPane = async (page: Page, portfolio: string) => {
    await setSectionOpen(page, "summary", true);
    await page.selectOption(`[data-testid="${TEST_IDS.summary.portfolio.id}"]`, portfolio);
    await page.selectOption(`[data-testid="${TEST_IDS.summary.scenario}"]`, "ssp585");
    await page.getByTestId(TEST_IDS.summary.extended).click(); // summary only
    await page.getByTestId(TEST_IDS.summary.start).click();
    await textWhen(page, TEST_IDS.summary.task.result, (t) => t.includes("Wrote"), 30_000);
  };

  test("a summary pasted, listed with its sources, an edited cell kept and asked about, the service's value taken back", async () => {
    const page = await open(false);
    await pasteSummaryFromPane(page, "demo-portfolio");
    const sheets = (await page.evaluate(() => window.harness?.sheetNames() as string[])) ?? [];
    expect(sheets).toContain("Climate Risk sources");
    const summarySheet = sheets.find((s) => s.startsWith("Summary"))!;

    await setSectionOpen(page, "pasted", true);
    await page.getByTestId(TEST_IDS.pasted.reload).click();
    await page.getByTestId(TEST_IDS.pasted.item).first().waitFor();
    const listed = await page.getByTestId(TEST_IDS.pasted.list).textContent();
    expect(listed).toContain(`${summarySheet} · Summary · demo-portfolio`);

    // The user edits a cell of the pasted table: the refresh keeps it, lists it and asks.
    const original = (await cell(page, `'${summarySheet}'!C2`)).value;
    await page.evaluate(([s]) => window.harness?.setCell(`'${s}'!C2`, "edited"), [summarySheet]);
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    const asked = await textWhen(page, TEST_IDS.pasted.edited, (t) => t.length > 0, 30_000);
    expect(asked).toContain("C2");
    expect(asked).toContain("edited");
    expect((await cell(page, `'${summarySheet}'!C2`)).value).toBe("edited");
    await page.getByTestId(TEST_IDS.pasted.result).scrollIntoViewIfNeeded();
    await shot(page, "loop-pasted-edited-kept");

    await page.getByTestId(TEST_IDS.pasted.takeService).click();
    const done = await textWhen(page, TEST_IDS.pasted.summary, (t) => t.includes("1 sheet refreshed"), 30_000);
    expect(done).toBe("1 sheet refreshed.");
    expect((await cell(page, `'${summarySheet}'!C2`)).value).toBe(original);
    // The reader's view: the Sources sheet lists service, portfolio, filters, dataset version, time.
    await page.evaluate(() => window.harness?.activateSheet("Climate Risk sources"));
    const sources = await values(page, "'Climate Risk sources'!A1:M2");
    expect(sources[0].slice(0, 3)).toEqual(["Sheet", "Table", "Operation"]);
    expect(sources[1][0]).toBe(summarySheet);
    expect(sources[1][6]).toBe("scenario=ssp585");
    expect(String(sources[1][7])).not.toBe("");
    await page.getByTestId(TEST_IDS.pasted.result).scrollIntoViewIfNeeded();
    await shot(page, "loop-pasted-refreshed");
  }, 90_000);

  test("a sheet the refresh leaves as it was is marked in the pane's list and on the Sources sheet, with why, until it refreshes", async () => {
    const page = await open(false);
    await pasteSummaryFromPane(page, "demo-portfolio");
    const sheets = (await page.evaluate(() => window.harness?.sheetNames() as string[])) ?? [];
    const summarySheet = sheets.find((s) => s.startsWith("Summary"))!;
    // The analyst protects the sheet before sending the workbook on: Excel would refuse every write.
    const protect = (on: boolean) =>
      page.evaluate(
        ([name, protecting]) =>
          window.harness!.fake.run(async (context) => {
            const protection = context.workbook.worksheets.getItem(name).protection;
            if (protecting) protection.protect();
            else protection.unprotect();
          }),
        [summarySheet, on] as const,
      );
    await protect(true);
    await setSectionOpen(page, "pasted", true);
    await page.getByTestId(TEST_IDS.pasted.reload).click();
    await page.getByTestId(TEST_IDS.pasted.item).first().waitFor();
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    const said = await textWhen(page, TEST_IDS.pasted.summary, (t) => t.includes("left unchanged"), 30_000);
    expect(said).toBe("0 sheets refreshed, 1 left unchanged.");
    const mark = await textWhen(page, TEST_IDS.pasted.notRefreshed, (t) => t.length > 0, 30_000);
    expect(mark).toMatch(/^not refreshed at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The reader's view: the Sources sheet's last two columns say when and why.
    await page.evaluate(() => window.harness?.activateSheet("Climate Risk sources"));
    const sources = await values(page, "'Climate Risk sources'!A1:O2");
    expect(sources[0].slice(13)).toEqual(["Not refreshed (UTC)", "Why not refreshed"]);
    expect(`not refreshed at ${String(sources[1][13])}`).toBe(mark);
    expect(String(sources[1][14])).toContain(`Sheet "${summarySheet}" is protected`);
    await select(page, "'Climate Risk sources'!O2");
    await page.getByTestId(TEST_IDS.pasted.list).scrollIntoViewIfNeeded();
    await shot(page, "loop-pasted-not-refreshed");
    // Unprotected, it refreshes, and the marks are gone.
    await protect(false);
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    await textWhen(page, TEST_IDS.pasted.summary, (t) => t === "1 sheet refreshed.", 30_000);
    // The list is read again once the refresh is done.
    await page.getByTestId(TEST_IDS.pasted.notRefreshed).waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId(TEST_IDS.pasted.item).first().waitFor();
    expect((await values(page, "'Climate Risk sources'!N2:O2"))[0]).toEqual(["", ""]);
  }, 90_000);

  test("notes beside a sorted summary stay with their asset when the portfolio loses its first asset and gains one", async () => {
    const emulator = await suite.freshEmulator();
    const client = new RiskClient(
      { baseUrl: emulator.url, natureUrl: `${emulator.url}/nature`, apiKey: DEMO_API_KEY, project: DEMO_PROJECT },
      { maxRetries: 0, timeoutMs: 10_000 },
    );
    const sites = (ids: number[]) =>
      [
        "entity_id,entity_name,lat,lng",
        ...ids.map((i) => `S${i},Site ${i},${(10 + i * 3).toFixed(1)},${(5 + i * 7).toFixed(1)}`),
      ].join("\n");
    await importPortfolio(client, "journey", sites([0, 1, 2, 3, 4, 5]));
    const { page } = await suite.openHarness({ demo: false });
    await waitForIdle(page);
    await pasteSummaryFromPane(page, "journey");
    const sheet = ((await page.evaluate(() => window.harness?.sheetNames() as string[])) ?? []).find((n) =>
      n.startsWith("Summary"),
    )!;
    const header = (await values(page, `'${sheet}'!A1:Z1`))[0].filter((v) => v !== "");
    const rows = 18; // 6 assets × 3 windows
    const ids = (await values(page, `'${sheet}'!B2:B${rows + 1}`)).map(([id]) => String(id));
    const noteCol = col(header.length); // the column right beside the table
    const notes = [["note"], ...ids.map((id) => [`note for ${id}`])];
    await page.evaluate(([s, c, n]) => window.harness?.setCells(`'${s}'!${c}1`, n), [sheet, noteCol, notes] as [
      string,
      string,
      unknown[][],
    ]);
    // Excel includes a column typed right beside a table in it (AutoCorrect, "Include new rows and
    // columns in table"), so a sort moves the notes with their rows; the fake does not expand a
    // table on typing, so the test does what Excel does.
    await page.evaluate(
      ([s, address]) =>
        window.harness?.fake.run(async (context) => {
          context.workbook.worksheets.getItem(s).tables.getItemAt(0).resize(address);
        }),
      [sheet, `A1:${noteCol}${rows + 1}`] as [string, string],
    );
    // The portfolio changes: the first asset removed, one added at the end (every index shifts).
    await importPortfolio(client, "journey", sites([1, 2, 3, 4, 5, 6]));
    // The analyst sorts the table by its first score, highest first.
    const scoreKey = header.findIndex((h) => String(h).endsWith("_risk_score"));
    await page.evaluate(
      ([s, key]) =>
        window.harness?.fake.run(async (context) => {
          context.workbook.worksheets
            .getItem(s as string)
            .tables.getItemAt(0)
            .sort.apply([{ key: key as number, ascending: false }]);
        }),
      [sheet, scoreKey] as const,
    );
    await setSectionOpen(page, "summary", false); // close it: room for the panel
    await setSectionOpen(page, "pasted", true);
    await page.getByTestId(TEST_IDS.pasted.reload).click();
    await page.getByTestId(TEST_IDS.pasted.item).first().waitFor();
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    const done = await textWhen(page, TEST_IDS.pasted.keyed, (t) => t.length > 0, 30_000);
    expect(done).toContain("3 added, 3 removed");
    // Every note is beside its own asset; the new asset's rows are at the end, without notes.
    const after = await values(page, `'${sheet}'!B2:${noteCol}${rows + 1}`);
    for (const line of after) {
      const id = String(line[0]);
      expect(line[line.length - 1]).toBe(id === "S6" ? "" : `note for ${id}`);
    }
    expect(after.slice(-3).map((line) => line[0])).toEqual(["S6", "S6", "S6"]);
    // S0's notes were kept below, in the titled block the pane names.
    const removed = await page.getByTestId(TEST_IDS.pasted.removed).textContent();
    expect(removed).toContain("Removed at refresh on");
    await page.getByTestId(TEST_IDS.pasted.result).scrollIntoViewIfNeeded();
    await shot(page, "taskpane-keyed-refresh");
  }, 120_000);

  test("refresh just the selection: its RISK cells are fetched anew, the others stay cached", async () => {
    const page = await open(true);
    const emu = suite.emulator;
    await select(page, "Demo!B12:C15");
    await setSectionOpen(page, "connection", false); // close it: room for the panel
    await setSectionOpen(page, "scoped-refresh", true);
    await page.getByTestId(TEST_IDS.refresh.scopeOption("selection")).click();
    await page.getByTestId(TEST_IDS.refresh.scopeRecount).click();
    const counted = await textWhen(page, TEST_IDS.refresh.scopeCount, (t) => t.includes("RISK cell"), 20_000);
    expect(counted).toMatch(/^8 RISK cells in scope \(Demo\)/);
    const before = await emulatorStats(emu.url);
    await page.getByTestId(TEST_IDS.refresh.scopeRefresh).click();
    const done = await textWhen(page, TEST_IDS.refresh.scopeDone, (t) => t.length > 0, 30_000);
    expect(done).toContain("Refreshed 8 RISK cells (Demo)");
    await page.getByTestId(TEST_IDS.refresh.scopeDone).scrollIntoViewIfNeeded();
    const after = await emulatorStats(emu.url);
    const summaryRoute = "/api/portfolios/:portfolio_name/datasets/physical/summary";
    expect(routeCount(after, "GET", summaryRoute)).toBeGreaterThan(routeCount(before, "GET", summaryRoute));
    expect(routeCount(after, "GET", "/api/search")).toBe(routeCount(before, "GET", "/api/search"));
    expect(await page.getByTestId(TEST_IDS.shell.usageLine).textContent()).toMatch(
      /^Since start: \d+ requests? sent · \d+ answers? from cache · \d+ failures?$/,
    );
    await shot(page, "loop-scoped-refresh");

    // The whole workbook is not counted first (that reads every formula): Excel recalculates in a
    // fresh pass, and the calls are counted as they come. Every RISK cell is fetched anew.
    await page.getByTestId(TEST_IDS.refresh.scopeOption("workbook")).click();
    expect(await page.getByTestId(TEST_IDS.refresh.scopeCount).textContent()).toMatch(
      /^Every RISK cell of the workbook: Excel finds them as it recalculates/,
    );
    expect(await page.getByTestId(TEST_IDS.refresh.scopeRecount).count()).toBe(0);
    const beforeWhole = await emulatorStats(emu.url);
    await page.getByTestId(TEST_IDS.refresh.scopeRefresh).click();
    const wholeDone = await textWhen(
      page,
      TEST_IDS.refresh.scopeDone,
      (t) => t.startsWith("Refreshed every RISK cell in the workbook"),
      30_000,
    );
    expect(wholeDone).toMatch(/^Refreshed every RISK cell in the workbook: (\d+) of \1 calls answered afresh\.$/);
    const afterWhole = await emulatorStats(emu.url);
    expect(routeCount(afterWhole, "GET", "/api/search")).toBeGreaterThan(routeCount(beforeWhole, "GET", "/api/search"));
    await page.getByTestId(TEST_IDS.refresh.scopeDone).scrollIntoViewIfNeeded();
    await shot(page, "loop-workbook-refresh");
  }, 90_000);

  test("convert the demo sheet to values after confirming, then restore the formulas", async () => {
    const page = await open(true);
    await setSectionOpen(page, "connection", false); // close it: room for the panel
    const formulaBefore = (await cell(page, "Demo!D3")).formula;
    const valueBefore = (await cell(page, "Demo!D3")).value;
    await page.evaluate(() => window.harness?.selectRange("Demo!A1"));
    await setSectionOpen(page, "static", true);
    await page.getByTestId(TEST_IDS.static.scopeOption("sheet")).click();
    await page.getByTestId(TEST_IDS.static.convert).click();
    await page.getByTestId(TEST_IDS.static.confirm).waitFor();
    await page.getByTestId(TEST_IDS.static.confirm).scrollIntoViewIfNeeded();
    expect(await page.getByTestId(TEST_IDS.static.confirm).textContent()).toMatch(
      /Replace \d+ RISK formulas with values\?/,
    );
    await shot(page, "loop-static-confirm");
    await page.getByTestId(TEST_IDS.static.confirmYes).click();
    await textWhen(page, TEST_IDS.static.done, (t) => t.includes("Replaced"), 30_000);
    const converted = await cell(page, "Demo!D3");
    expect(converted.value).toBe(valueBefore);
    expect(String(converted.formula ?? "")).not.toMatch(/^=/);
    await page.getByTestId(TEST_IDS.static.done).scrollIntoViewIfNeeded();
    await shot(page, "loop-static-done");
    await page.getByTestId(TEST_IDS.static.restore).click();
    await textWhen(page, TEST_IDS.static.restoreDone, (t) => t.includes("Restored"), 30_000);
    await waitForIdle(page);
    expect((await cell(page, "Demo!D3")).formula).toBe(formulaBefore);
    expect((await cell(page, "Demo!D3")).value).toBe(valueBefore);
  }, 90_000);

  test("the formula builder: lists from the service, a live preview, Insert into the selected cell", async () => {
    const page = await open(false);
    await setSectionOpen(page, "connection", false); // close it: room for the builder
    await setSectionOpen(page, "builder", true);
    // Bad choices are explained before anything can be inserted.
    expect(await page.getByTestId(TEST_IDS.builder.problems).textContent()).toContain("Portfolio: choose a portfolio.");
    expect(await page.getByTestId(TEST_IDS.builder.insert.id).isDisabled()).toBe(true);

    const pick = async (testId: string, option: string | RegExp) => {
      await page.getByTestId(testId).click();
      await page.getByRole("option", { name: option }).first().click();
    };
    await pick("builder-param-portfolio", "demo-portfolio");
    await pick("builder-param-index", /\(#2\)$/);
    await pick("builder-param-hazard", "wildfire");
    await pick("builder-param-scenario", "ssp585");
    const formula = await page.getByTestId(TEST_IDS.builder.formula).inputValue();
    expect(formula).toBe('=RISK.SUMMARY("demo-portfolio",2,"wildfire","ssp585")');
    const preview = await textWhen(page, TEST_IDS.builder.previewValue, (t) => t.startsWith("Gives now:"), 20_000);
    expect(preview).toMatch(/^Gives now: \d/);
    await select(page, "Sheet1!B2");
    await page.getByTestId(TEST_IDS.builder.insert.id).click();
    expect(await textWhen(page, TEST_IDS.builder.inserted, (t) => t.length > 0, 20_000)).toBe(
      "Inserted into Sheet1!B2.",
    );
    await waitForIdle(page);
    const inserted = await cell(page, "Sheet1!B2");
    expect(inserted.formula).toBe(formula);
    expect(`Gives now: ${inserted.value}`).toBe(preview.replace(/\s*\(.*$/, ""));
    await shot(page, "loop-formula-builder");
  }, 90_000);
});
