/**
 * The add-in in a real browser: the harness page (harness.html) with the real functions bundle and
 * the real task pane, against the emulator over HTTP. One development build serves every scenario;
 * each scenario gets a fresh emulator and a fresh browser context, and saves a screenshot under
 * test-output/screenshots/. Skipped, with a message saying why, when chromium is not installed.
 */
import Papa from "papaparse";
import { screenshot } from "./support/browser";
import { NO_EMULATOR_URL, describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { DEMO_HEADERS, emulatorStats, methodCount, routeCount } from "../support/emulator";
import { startProcessEmulator } from "./support/emulators";
import {
  cell,
  cells,
  pasteAt,
  pullDemoTimeseries,
  selectWithMouse,
  setSectionOpen,
  syncSelectionAs,
  textWhen,
  typeIntoCell,
  values,
  waitForIdle,
} from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";
import { HARNESS_TEST_IDS } from "../../harness/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("browser harness", () => {
  const suite = useBrowserSuite();

  test(
    "the page a newcomer opens shows the demo workbook " + "with numbers from the emulator and the task pane",
    async () => {
      await suite.freshEmulator();
      const { page } = await suite.openHarness();
      await waitForIdle(page);

      expect(await page.getByTestId(HARNESS_TEST_IDS.banner).textContent()).toContain("not Excel");
      const searchCells = (await cells(page, "Demo!D3:F7")).flat();
      const summaryCells = (await cells(page, "Demo!B12:C15")).flat();
      for (const c of [...searchCells, ...summaryCells]) {
        expect(c.formula).toMatch(/^=RISK\.(SEARCH|SUMMARY)\(/);
        expect(c.error).toBeUndefined();
        expect(c.value).not.toBe("");
      }
      expect(searchCells.filter((c) => typeof c.value === "number").length).toBe(10);
      for (const c of searchCells.filter((x) => typeof x.value === "string"))
        expect(["LOW", "MEDIUM", "HIGH"]).toContain(c.value);
      // The grid shows what the fake holds.
      expect(await page.locator(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="D3"]`).textContent()).toBe(
        searchCells[0].text,
      );
      expect(await page.getByTestId(HARNESS_TEST_IDS.sheetTabs).textContent()).toContain("Assets");
      await page.getByTestId(TEST_IDS.shell.taskpane).waitFor({ state: "visible", timeout: 20_000 });
      await screenshot(page, "harness-demo");
    },
  );

  test(
    "(a) coordinates and RISK.SEARCH formulas typed in: " + "values appear, one search request per distinct point",
    async () => {
      const emu = await suite.freshEmulator();
      const { page } = await suite.openHarness({ demo: false });

      const points: Array<[number, number]> = [
        [51.5074, -0.1278],
        [48.8566, 2.3522],
        [40.4168, -3.7038],
        [52.52, 13.405],
        [41.9028, 12.4964],
        [59.3293, 18.0686],
        [37.9838, 23.7275],
        [38.7223, -9.1393],
      ];
      const rows = [...points, points[0], points[3], points[3], points[7]]; // 12 rows, 8 distinct points
      await pasteAt(page, "A1", ["lat\tlng", ...rows.map(([lat, lng]) => `${lat}\t${lng}`)].join("\n"));
      expect((await cell(page, "A13")).value).toBe(points[7][0]);

      // The first formula typed through the grid and formula bar, the rest as a block.
      await typeIntoCell(page, "C2", '=RISK.SEARCH(A2,B2,"floods","15yr")');
      const typed = await cell(page, "C2");
      expect(typed.formula).toBe('=RISK.SEARCH(A2,B2,"floods","15yr")');
      expect(typed.value === "#BUSY!" || typeof typed.value === "number").toBe(true);
      const formulas = rows.map((_, i) => [
        ...(i === 0 ? [] : [`=RISK.SEARCH(A${i + 2},B${i + 2},"floods","15yr")`]),
        `=RISK.SEARCH($A${i + 2},$B${i + 2},"wildfire","30yr",,"label")`,
      ]);
      await page.evaluate((block) => {
        window.harness?.setCell("D2", block[0][0]);
        window.harness?.setCells("C3", block.slice(1));
      }, formulas);
      await page.evaluate(() => window.harness?.setCell("F2", '=RISK.SEARCH(A2,B2,"")'));
      await waitForIdle(page);

      const floods = (await cells(page, `C2:C${rows.length + 1}`)).map((r) => r[0]);
      const labels = (await cells(page, `D2:D${rows.length + 1}`)).map((r) => r[0]);
      for (const c of floods) expect(typeof c.value).toBe("number");
      for (const c of labels) expect(["LOW", "MEDIUM", "HIGH"]).toContain(c.value);
      // Same point, same value; and the value is what the service says for that point.
      expect(floods[8].value).toBe(floods[0].value);
      const stats = await emulatorStats(emu.url);
      expect(routeCount(stats, "GET", "/api/search")).toBe(points.length);

      const answer = await fetch(`${emu.url}/api/search?lat=${points[1][0]}&lng=${points[1][1]}`, {
        headers: DEMO_HEADERS,
      }).then(
        (r) =>
          r.json() as Promise<{
            features: Array<{
              properties: {
                physical_risk_exposure: { local: Record<string, Array<{ hazard: string; score: number }>> };
              };
            }>;
          }>,
      );
      const expected = answer.features[0].properties.physical_risk_exposure.local["15yr"].find(
        (s) => s.hazard === "floods",
      )?.score;
      expect(floods[1].value).toBe(expected);

      // An empty hazard spills a table of every hazard across the cells to the right and below.
      const spill = await cells(page, "F2:J8");
      expect(spill[0].map((c) => c.value)).toEqual(["hazard", "score_15yr", "label_15yr", "score_30yr", "label_30yr"]);
      expect(spill[1][0].spilledFrom).toBeDefined();
      expect(spill.slice(1).map((r) => r[0].value)).toEqual(expect.arrayContaining(["floods", "wildfire"]));

      await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="C3"]`);
      await screenshot(page, "a-search-formulas");

      // "Refresh all" in the task pane empties the functions' cache and recalculates every RISK cell:
      // one new search per distinct point, and the same numbers come back.
      await setSectionOpen(page, "refresh", true);
      await page.getByTestId(TEST_IDS.refresh.all).click();
      await page.getByTestId(TEST_IDS.refresh.recalculating).waitFor({ state: "visible" });
      await waitForIdle(page);
      await screenshot(page, "a-refresh-all");
      // +1: the check above.
      expect(routeCount(await emulatorStats(emu.url), "GET", "/api/search")).toBe(points.length * 2 + 1);
      expect((await cells(page, `C2:C${rows.length + 1}`)).map((r) => r[0].value)).toEqual(floods.map((c) => c.value));

      // Typing a new latitude recalculates the formulas that read it: one search for the new point.
      await typeIntoCell(page, "A2", "10.5");
      await waitForIdle(page);
      expect(routeCount(await emulatorStats(emu.url), "GET", "/api/search")).toBe(points.length * 2 + 2);
      const moved = await cell(page, "C2");
      expect(typeof moved.value).toBe("number");
      expect(moved.value).not.toBe(floods[0].value);
      expect((await cell(page, "C10")).value).toBe(floods[8].value); // the other London row is unchanged
    },
  );

  test(
    "(b) a range of assets synced to a new portfolio through the task pane; " + "then RISK.SUMMARY cells fill in",
    async () => {
      const emu = await suite.freshEmulator();
      const { page } = await suite.openHarness();
      await waitForIdle(page);

      // Select the demo assets on the Assets sheet with the mouse: its tab, A1, then shift-click E7.
      await selectWithMouse(page, "A1", "E7", "Assets");
      expect(await page.evaluate(() => window.harness?.fake.selectionAddress())).toBe("Assets!A1:E7");
      const assetsBefore = await values(page, "Assets!A1:E7");
      const writesBefore = methodCount(await emulatorStats(emu.url), ["POST", "PUT", "DELETE"]);

      const done = await syncSelectionAs(page, "harness_sync_b");
      expect(await page.getByTestId(TEST_IDS.sync.done).count()).toBe(1);
      expect(done).toMatch(/harness_sync_b/);
      const stats = await emulatorStats(emu.url);
      expect(routeCount(stats, "POST", "/api/portfolios/")).toBe(1);
      expect(routeCount(stats, "POST", "/api/portfolios/:portfolio_name/assets/import/")).toBe(1);
      expect(methodCount(stats, ["POST", "PUT", "DELETE"]) - writesBefore).toBe(2);
      expect(await values(page, "Assets!A1:E7")).toEqual(assetsBefore); // a sync never changes the sheet

      // A new sheet of RISK.SUMMARY formulas over the new portfolio, one row per asset.
      await page.click(`[data-testid="${HARNESS_TEST_IDS.addSheet}"]`);
      const sheet = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
      const rows = Array.from({ length: 6 }, (_, i) => [
        i,
        `=RISK.SUMMARY("harness_sync_b",A${i + 2},"flood_potential")`,
        `=RISK.SUMMARY("harness_sync_b",A${i + 2},"wildfire",,,"class")`,
      ]);
      await page.evaluate(
        ([name, block]) =>
          window.harness?.setCells(`${name}!A1`, [["index", "flood score", "wildfire class"], ...block]),
        [sheet, rows] as const,
      );
      await waitForIdle(page);
      const got = await cells(page, `${sheet}!A2:C7`);

      const summary = (await fetch(
        `${emu.url}/api/portfolios/harness_sync_b/datasets/physical/summary?scenario=ssp245&window=30&rows=250`,
        {
          headers: DEMO_HEADERS,
        },
      ).then((r) => r.json())) as Array<{
        portfolio_index: number;
        risk_summaries: Array<{ hazard: string; risk_score: number; risk_class: string }>;
      }>;
      for (const [i, row] of got.entries()) {
        const item = summary.find((s) => s.portfolio_index === i);
        expect(row[1].error).toBeUndefined();
        expect(row[1].value).toBe(item?.risk_summaries.find((h) => h.hazard === "flood_potential")?.risk_score);
        expect(row[2].value).toBe(item?.risk_summaries.find((h) => h.hazard === "wildfire")?.risk_class);
      }
      await screenshot(page, "b-sync-then-summary");
    },
    60_000,
  );

  test("(c) timeseries pulled into a new sheet, then an applied layer into another", async () => {
    const emu = await suite.freshEmulator();
    const { page } = await suite.openHarness({ demo: false });

    const tsSheet = await pullDemoTimeseries(page);
    expect(await page.evaluate(() => window.harness?.fake.activeSheetName())).toBe(tsSheet);

    const items = (await fetch(
      `${emu.url}/api/portfolios/demo-portfolio/datasets/physical/items?hazard=wildfire&indicator` +
        `=unified_prob&scenario=ssp585&measure=mid&rows=250`,
      { headers: DEMO_HEADERS },
    ).then((r) => r.json())) as Array<{
      portfolio_index: number;
      entity_id: string;
      risk_exposure: Record<string, number>;
    }>;
    const used = await page.evaluate((name) => window.harness?.usedRange(name) as string, tsSheet);
    const table = await values(page, used);
    const header = table[0].map(String);
    expect(table.length - 1).toBe(items.length);
    const year =
      Object.keys(items[0].risk_exposure).find((y) => y === "2050") ?? Object.keys(items[0].risk_exposure)[0];
    const yearCol = header.indexOf(year);
    const idCol = header.indexOf("entity_id");
    expect(yearCol).toBeGreaterThan(idCol);
    const row = table.find((r) => r[idCol] === items[3].entity_id) as unknown[];
    expect(row[yearCol]).toBe(items[3].risk_exposure[year]); // numbers stay numbers
    await screenshot(page, "c-timeseries-sheet");

    await setSectionOpen(page, "layer", true);
    const vectors = (await fetch(`${emu.url}/api/compositions/vector`, { headers: DEMO_HEADERS }).then((r) =>
      r.json(),
    )) as Array<{
      id: string | number;
      name: string;
    }>;
    const vector = vectors.find((v) => v.name === "demo-losses") ?? vectors[0];
    await page.selectOption(`[data-testid="${TEST_IDS.layer.vector}"]`, String(vector.id));
    await page.selectOption(`[data-testid="${TEST_IDS.layer.portfolio.id}"]`, "demo-portfolio");
    const sheetsBeforeLayer = await page.evaluate(() => window.harness?.sheetNames() as string[]);
    await page.getByTestId(TEST_IDS.layer.start).click();
    await textWhen(page, TEST_IDS.layer.task.result, (t) => t.length > 0, 30_000);
    const layerSheet = (await page.evaluate(() => window.harness?.sheetNames() as string[])).find(
      (n) => !sheetsBeforeLayer.includes(n),
    ) as string;
    expect(layerSheet).toBeDefined();
    const applied = (await fetch(`${emu.url}/api/compositions/vector/${vector.id}/apply?portfolio=demo-portfolio`, {
      headers: DEMO_HEADERS,
    }).then((r) => r.json())) as { csv: string };
    const csv = Papa.parse<string[]>(applied.csv.trim(), { skipEmptyLines: true }).data;
    const layerTable = await values(
      page,
      await page.evaluate((name) => window.harness?.usedRange(name) as string, layerSheet),
    );
    expect(layerTable[0].map(String)).toEqual(csv[0]);
    expect(layerTable.length).toBe(csv.length);
    expect(await page.evaluate(() => window.harness?.sheetNames() as string[])).toEqual(
      expect.arrayContaining([tsSheet, layerSheet]),
    );
    await screenshot(page, "c-applied-layer-sheet");
  }, 60_000);

  test(
    "(d) a bad range lists its problems with cell addresses, " + "selects a cell on click, and sends nothing",
    async () => {
      const emu = await suite.freshEmulator();
      const { page } = await suite.openHarness({ demo: false });
      const rows = [
        ["entity_id", "entity_name", "lat", "lng"],
        ["S-1", "Good site", "51.5", "-0.12"],
        ["S-2", "Too far north", "95", "10"],
        ["S-1", "Duplicate id", "40", "3"],
        ["S-4", "No longitude", "41", ""],
        ["S-5", "Text latitude", "abc", "12"],
      ];
      await pasteAt(page, "A1", rows.map((r) => r.join("\t")).join("\n"));
      await selectWithMouse(page, "A1", "D6");
      await setSectionOpen(page, "sync", true);
      await page.getByTestId(TEST_IDS.sync.portfolio).fill("bad_range_d");
      const before = await emulatorStats(emu.url);
      await page.getByTestId(TEST_IDS.sync.start).click();
      await page.getByTestId(TEST_IDS.sync.problems.id).waitFor({ state: "visible", timeout: 15_000 });
      const addresses = await page.$$eval(`[data-testid="${TEST_IDS.sync.problems.item}"]`, (items) =>
        items.map((i) => i.getAttribute("data-address") ?? ""),
      );
      const local = addresses.map((a) => a.split("!").pop());
      expect(local).toEqual(expect.arrayContaining(["C3", "D5", "C6"]));
      expect(local.some((a) => a === "A4" || a === "A2")).toBe(true); // the duplicate entity id
      const texts = await page.$$eval(`[data-testid="${TEST_IDS.sync.problems.item}"]`, (items) =>
        items.map((i) => i.textContent ?? ""),
      );
      expect(texts.join("\n")).toMatch(/C3/);

      // Clicking an address selects that cell in the workbook.
      await page
        .locator(
          `[data-testid="${TEST_IDS.sync.problems.item}"][data-address$="C6"] [data-testid="${TEST_IDS.sync.problems.link}"]`,
        )
        .click();
      await page.waitForFunction(() => window.harness?.fake.selectionAddress().endsWith("!C6"));
      expect(await textWhen(page, HARNESS_TEST_IDS.cellMessage, () => true)).toBeDefined();
      expect(await page.getByTestId(HARNESS_TEST_IDS.nameBox).inputValue()).toBe("C6");

      await page.waitForTimeout(300);
      const after = await emulatorStats(emu.url);
      expect(after.total).toBe(before.total); // nothing was sent
      const probe = await fetch(`${emu.url}/api/portfolios/bad_range_d/`, {
        headers: DEMO_HEADERS,
      });
      expect(probe.status).toBe(404);
      await screenshot(page, "d-bad-range-problems");
    },
  );

  test(
    "(e) the emulator stops mid-recalculation: " + "every cell ends with an error and its message, none stays #BUSY!",
    async () => {
      const crashing = await startProcessEmulator(["--latency", "1500"]);
      suite.server.setEmulator(crashing.url);
      const { page } = await suite.openHarness({ demo: false });

      const block = Array.from({ length: 10 }, (_, i) => [
        10 + i,
        20 + i,
        `=RISK.SEARCH(A${i + 1},B${i + 1},"floods","30yr")`,
      ]);
      await page.evaluate((rows) => window.harness?.setCells("A1", rows), block);
      const busy = (await cells(page, "C1:C10")).flat().filter((c) => c.value === "#BUSY!").length;
      expect(busy).toBe(10);
      await crashing.crash();
      await waitForIdle(page, 60_000);

      const results = (await cells(page, "C1:C10")).flat();
      for (const c of results) {
        expect(c.value).not.toBe("#BUSY!");
        expect(c.error?.code).toBe("#N/A");
        expect(c.error?.message).toMatch(/risk service/i);
      }
      await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="C1"]`);
      expect(await textWhen(page, HARNESS_TEST_IDS.cellMessage, (text) => text.startsWith("C1:"))).toMatch(
        /^C1: #N\/A .*risk service/i,
      );
      expect(
        await page.locator(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="C1"]`).getAttribute("title"),
      ).toMatch(/^#N\/A .*risk service/i);
      await screenshot(page, "e-emulator-stopped");
    },
    90_000,
  );

  test(
    "a column formula over ranges spills; " +
      "when the service goes away the pane lists the cell and Retry these brings fresh values",
    async () => {
      const running = await suite.freshEmulator();
      const { page } = await suite.openHarness({ demo: false });
      await page.evaluate(() =>
        window.harness?.setCells("Sheet1!A1", [
          ["City", "Lat", "Lng"],
          ["London", 51.5074, -0.1278],
          ["Mumbai", 19.076, 72.8777],
          ["", "", ""],
          ["Miami", 25.7617, -80.1918],
        ]),
      );
      await typeIntoCell(page, "D2", '=RISK.SEARCH(B2:B5,C2:C5,"floods","30yr")');
      await waitForIdle(page);
      const first = await cells(page, "Sheet1!D2:D5");
      expect(first.map(([c]) => typeof c!.value)).toEqual(["number", "number", "string", "number"]);
      expect(first[2]![0]!.value).toBe("");
      expect(first[3]![0]!.spilledFrom).toBe("Sheet1!D2");
      expect(routeCount(await emulatorStats(running.url), "GET", "/api/search")).toBe(3);

      // The service goes away; with "keep the last good value", Refresh all leaves the numbers and lists the cell.
      await setSectionOpen(page, "last-good", true);
      await page.getByTestId(TEST_IDS.lastGood.failurePolicyKeep).click();
      suite.server.setEmulator(NO_EMULATOR_URL);
      await setSectionOpen(page, "refresh", true);
      await page.getByTestId(TEST_IDS.refresh.all).click();
      await page.getByTestId(TEST_IDS.lastGood.staleCell).first().waitFor({ state: "visible", timeout: 30_000 });
      await waitForIdle(page);
      expect(await values(page, "Sheet1!D2:D5")).toEqual(first.map(([c]) => [c!.value]));
      expect(await page.getByTestId(TEST_IDS.lastGood.staleCell).getAttribute("data-address")).toBe("Sheet1!D2");
      expect(await page.getByTestId(TEST_IDS.lastGood.staleCell).getAttribute("data-showing")).toBe("old value");
      expect(await page.getByTestId(TEST_IDS.lastGood.staleCell).textContent()).toMatch(
        /shows its last good value, fetched .*risk service failed \(HTTP 502\)/,
      );
      await setSectionOpen(page, "connection", false); // fold it, so the list shows beside the grid
      await page.getByTestId(TEST_IDS.lastGood.staleRetry.id).scrollIntoViewIfNeeded();
      await screenshot(page, "f-last-good-values");

      // Back again: Retry these recalculates the listed cell and the list empties.
      suite.server.setEmulator(running.url);
      await page.getByTestId(TEST_IDS.lastGood.staleRetry.id).click();
      await page.getByTestId(TEST_IDS.lastGood.staleNone).waitFor({ state: "visible", timeout: 30_000 });
      await waitForIdle(page);
      expect(await values(page, "Sheet1!D2:D5")).toEqual(first.map(([c]) => [c!.value]));
    },
    120_000,
  );
});
