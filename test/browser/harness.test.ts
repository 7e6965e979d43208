/**
 * The add-in in a real browser: the harness page (harness.html) with the real functions bundle and
 * the real task pane, against the emulator over HTTP. One development build serves every scenario;
 * each scenario gets a fresh emulator and a fresh browser context, and saves a screenshot under
 * test-output/screenshots/. Skipped, with a message saying why, when chromium is not installed.
 */
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { RunningEmulator } from "../../emulator/server";
import { buildAddin, startAddinServer, type AddinServer } from "./support/addin-server";
import { browserAvailable, launchBrowser, screenshot } from "./support/browser";
import { emulatorStats, routeCount, startProcessEmulator, startTestEmulator } from "./support/emulators";
import { cell, cells, openHarness, pasteAt, textWhen, typeIntoCell, waitForIdle, type HarnessPage } from "./support/harness-page";

const describeBrowser = browserAvailable("test/browser/harness.test.ts") ? describe : describe.skip;
/** A development build to reuse instead of building (e.g. `npm run build:dev` output), for quick local runs. */
const reusedBuild = process.env.HARNESS_BUILD_DIR;

describeBrowser("browser harness", () => {
  let buildDir: string;
  let browser: Browser;
  let server: AddinServer;
  let emulator: RunningEmulator | undefined;
  let harness: HarnessPage | undefined;

  beforeAll(async () => {
    // Launch while webpack builds; both are assigned before either can fail, so afterAll cleans up.
    const launching = launchBrowser().then((b) => (browser = b));
    const building = reusedBuild ? Promise.resolve(reusedBuild) : buildAddin();
    buildDir = await building.finally(() => launching.catch(() => undefined));
    await launching;
    server = await startAddinServer(buildDir, "http://127.0.0.1:9");
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await browser?.close();
    if (buildDir && !reusedBuild) rmSync(buildDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    if (harness && harness.problems.length) console.warn(`page problems:\n${harness.problems.join("\n")}`);
    await harness?.close();
    harness = undefined;
    await emulator?.close();
    emulator = undefined;
  });

  async function freshEmulator(options: Parameters<typeof startTestEmulator>[0] = {}): Promise<RunningEmulator> {
    emulator = await startTestEmulator(options);
    server.setEmulator(emulator.url);
    return emulator;
  }

  test("the page a newcomer opens shows the demo workbook with numbers from the emulator and the task pane", async () => {
    await freshEmulator();
    harness = await openHarness(browser, server.origin);
    const { page } = harness;
    await waitForIdle(page);

    expect(await page.getByTestId("harness-banner").textContent()).toContain("not Excel");
    const searchCells = (await cells(page, "Demo!D3:F7")).flat();
    const summaryCells = (await cells(page, "Demo!B12:C15")).flat();
    for (const c of [...searchCells, ...summaryCells]) {
      expect(c.formula).toMatch(/^=RISK\.(SEARCH|SUMMARY)\(/);
      expect(c.error).toBeUndefined();
      expect(c.value).not.toBe("");
    }
    expect(searchCells.filter((c) => typeof c.value === "number").length).toBe(10);
    for (const c of searchCells.filter((x) => typeof x.value === "string")) expect(["LOW", "MEDIUM", "HIGH"]).toContain(c.value);
    // The grid shows what the fake holds.
    expect(await page.locator('[data-testid="grid"] td[data-cell="D3"]').textContent()).toBe(searchCells[0].text);
    expect(await page.getByTestId("sheet-tabs").textContent()).toContain("Assets");
    await page.getByTestId("taskpane").waitFor({ state: "visible", timeout: 20_000 });
    await screenshot(page, "harness-demo");
  });

  test("(a) coordinates and RISK.SEARCH formulas typed in: values appear, one search request per distinct point", async () => {
    const emu = await freshEmulator();
    harness = await openHarness(browser, server.origin, { demo: false });
    const { page } = harness;

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
    expect(["#BUSY!", expect.any(Number)]).toContainEqual((await cell(page, "C2")).value);
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
      headers: { "X-Service-APIKey": "demo-key", "X-Service-Project": "demo" },
    }).then((r) => r.json() as Promise<{ features: Array<{ properties: { physical_risk_exposure: { local: Record<string, Array<{ hazard: string; score: number }>> } } }> }>);
    const expected = answer.features[0].properties.physical_risk_exposure.local["15yr"].find((s) => s.hazard === "floods")?.score;
    expect(floods[1].value).toBe(expected);

    // An empty hazard spills a table of every hazard across the cells to the right and below.
    const spill = await cells(page, "F2:J8");
    expect(spill[0].map((c) => c.value)).toEqual(["hazard", "score_15yr", "label_15yr", "score_30yr", "label_30yr"]);
    expect(spill[1][0].spilledFrom).toBeDefined();
    expect(spill.slice(1).map((r) => r[0].value)).toEqual(expect.arrayContaining(["floods", "wildfire"]));

    await page.click('[data-testid="grid"] td[data-cell="C3"]');
    await screenshot(page, "a-search-formulas");
  });

  test("(e) the emulator stops mid-recalculation: every cell ends with an error and its message, none stays #BUSY!", async () => {
    const crashing = await startProcessEmulator(["--latency", "1500"]);
    server.setEmulator(crashing.url);
    harness = await openHarness(browser, server.origin, { demo: false });
    const { page } = harness;

    const block = Array.from({ length: 10 }, (_, i) => [10 + i, 20 + i, `=RISK.SEARCH(A${i + 1},B${i + 1},"floods","30yr")`]);
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
    await page.click('[data-testid="grid"] td[data-cell="C1"]');
    expect(await textWhen(page, "cell-message", (text) => text.startsWith("C1:"))).toMatch(/^C1: #N\/A .*risk service/i);
    expect(await page.locator('[data-testid="grid"] td[data-cell="C1"]').getAttribute("title")).toMatch(/^#N\/A .*risk service/i);
    await screenshot(page, "e-emulator-stopped");
  }, 90_000);
});
