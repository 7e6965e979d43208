/**
 * The portfolio map and the risk sheets in a real browser: the harness page with the real task
 * pane against the emulator over HTTP. The map renders with its text alternative, recolours when
 * the hazard changes, selects an asset's row on click (pasting the asset list when no sheet of the
 * portfolio is known), stays usable at 320 px, and draws 5,000 assets while panning and zooming
 * (frame times written to test-output/map-frames.json; the figure, not a pass/fail). The risk
 * matrix, counts chart and scenario comparison sheets land in the fake with their conditional
 * formats and chart. Screenshots go to test-output/screenshots/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { assetsCsv, plausibleAssets } from "../../bench/assets";
import { portfolioWith } from "../emulator/helpers";
import { DEMO_HEADERS } from "../support/emulator";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { SCREENSHOT_DIR } from "./support/browser";
import { selectWithMouse, setSectionOpen, syncSelectionAs, textWhen, values } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";
import { HARNESS_TEST_IDS } from "../../harness/test-ids";

const describeBrowser = describeWithBrowser(__filename);
/** The map canvas, for what runs in the page (which cannot import the test ids). */
const CANVAS = `[data-testid="${TEST_IDS.visual.mapCanvas}"]`;
const PORTFOLIO = "demo-portfolio";

/** Marker colours of the map (PortfolioMap.MARKER_COLOURS) as RGB. */
const RGB: Record<string, [number, number, number]> = {
  LOW: [0x00, 0x61, 0x00],
  MEDIUM: [0xc2, 0x7c, 0x0e],
  HIGH: [0x9c, 0x00, 0x06],
  NONE: [0x8a, 0x88, 0x86],
};

type MapHook = {
  screenPoint(id: string): { x: number; y: number } | null;
  frameTimes(): number[];
  resetFrames(): void;
  view(): { k: number; x: number; y: number };
};

/** The screen point of an asset on the canvas (page coordinates). */
async function assetPoint(page: Page, entityId: string): Promise<{ x: number; y: number }> {
  await page.getByTestId(TEST_IDS.visual.mapCanvas).scrollIntoViewIfNeeded();
  const box = (await page.getByTestId(TEST_IDS.visual.mapCanvas).boundingBox())!;
  const p = await page
    .getByTestId(TEST_IDS.visual.mapCanvas)
    .evaluate((el, id) => (el as unknown as { riskMap: MapHook }).riskMap.screenPoint(id), entityId);
  if (!p) throw new Error(`asset ${entityId} is not on the map`);
  return { x: box.x + p.x, y: box.y + p.y };
}

/** The canvas pixel colour at an asset's centre, after the next frame. */
async function colourAt(page: Page, entityId: string): Promise<[number, number, number]> {
  return page.getByTestId(TEST_IDS.visual.mapCanvas).evaluate(async (el, id) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const canvas = el as HTMLCanvasElement & { riskMap: MapHook };
    const p = canvas.riskMap.screenPoint(id)!;
    const ratio = canvas.width / canvas.clientWidth;
    const d = canvas.getContext("2d")!.getImageData(Math.round(p.x * ratio), Math.round(p.y * ratio), 1, 1).data;
    return [d[0], d[1], d[2]] as [number, number, number];
  }, entityId);
}

function near(a: [number, number, number], b: [number, number, number]): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= 24);
}

async function shot(page: Page, name: string, selector?: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file });
}

async function openMap(page: Page, portfolio: string): Promise<void> {
  await setSectionOpen(page, "connection", false); // collapse: the map comes into view
  await setSectionOpen(page, "visual", true);
  await page.getByTestId(TEST_IDS.visual.visualPortfolio.id).waitFor({ state: "visible", timeout: 20_000 });
  await page.selectOption(`[data-testid="${TEST_IDS.visual.visualPortfolio.id}"]`, portfolio);
  await textWhen(page, TEST_IDS.visual.mapText, (t) => /^Map of /.test(t), 30_000);
  await page.getByTestId(TEST_IDS.visual.mapCanvas).waitFor({ state: "visible", timeout: 20_000 });
  await page.waitForFunction(
    (selector) => Number((document.querySelector(selector) as HTMLElement | null)?.dataset.frames ?? 0) > 0,
    CANVAS,
    { timeout: 20_000 },
  );
  await page.getByTestId(TEST_IDS.visual.mapCanvas).scrollIntoViewIfNeeded();
}

describeBrowser("portfolio map and risk sheets in the browser", () => {
  const suite = useBrowserSuite();

  test(
    "the map renders with a legend and text alternative, recolours by hazard, " +
      "a click selects the asset's row (pasting the asset list first), and the zoom buttons and keys zoom",
    async () => {
      const emu = await suite.freshEmulator();
      const { page } = await suite.openHarness({ demo: false });
      await openMap(page, PORTFOLIO);

      const summary = (await fetch(
        `${emu.url}/api/portfolios/${PORTFOLIO}/datasets/physical/summary?scenario=ssp585&window=30&rows=250`,
        { headers: DEMO_HEADERS },
      ).then((r) => r.json())) as Array<{
        entity_id: string;
        risk_summaries: Array<{ hazard: string; risk_class: string }>;
      }>;
      const labelOf = (id: string, hazard: string) =>
        summary.find((s) => s.entity_id === id)!.risk_summaries.find((r) => r.hazard === hazard)!.risk_class;
      const count = (hazard: string, label: string) =>
        summary.filter((s) => s.risk_summaries.find((r) => r.hazard === hazard)?.risk_class === label).length;

      // Text alternative: counts per label for the default hazard (flood_potential).
      const text = await page.getByTestId(TEST_IDS.visual.mapText).textContent();
      expect(text).toContain(
        `Map of ${summary.length} assets of ${PORTFOLIO}, flood_potential under ssp585, 30-year window`,
      );
      for (const label of ["HIGH", "MEDIUM", "LOW"])
        expect(text).toContain(`${count("flood_potential", label)} ${label}`);
      expect(await page.getByTestId(TEST_IDS.visual.mapCanvas).getAttribute("aria-label")).toBe(text);
      expect(await page.getByTestId(TEST_IDS.visual.mapLegend).textContent()).toContain(
        `HIGH (${count("flood_potential", "HIGH")})`,
      );

      // Colour change: an asset whose label differs between two hazards changes colour on the canvas.
      const changing = summary.find(
        (s) => labelOf(s.entity_id, "flood_potential") !== labelOf(s.entity_id, "wildfire"),
      )!;
      expect(near(await colourAt(page, changing.entity_id), RGB[labelOf(changing.entity_id, "flood_potential")])).toBe(
        true,
      );
      await shot(page, "map-flood", `[data-testid="${TEST_IDS.shell.section("visual")}"]`);
      await page.selectOption(`[data-testid="${TEST_IDS.visual.visualHazard}"]`, "wildfire");
      await textWhen(page, TEST_IDS.visual.mapText, (t) => t.includes("wildfire under ssp585"));
      expect(await page.getByTestId(TEST_IDS.visual.mapText).textContent()).toContain(
        `${count("wildfire", "HIGH")} HIGH`,
      );
      expect(near(await colourAt(page, changing.entity_id), RGB[labelOf(changing.entity_id, "wildfire")])).toBe(true);

      // Hover shows name, entity_id, score and label.
      const target = summary[3];
      const point = await assetPoint(page, target.entity_id);
      await page.mouse.move(point.x, point.y);
      const tip = await textWhen(page, TEST_IDS.visual.mapTooltip, (t) => t.includes(target.entity_id));
      expect(tip).toMatch(new RegExp(`wildfire: ${labelOf(target.entity_id, "wildfire")} · score \\d\\.\\d{3}`));
      await shot(page, "map-hover", `[data-testid="${TEST_IDS.shell.section("visual")}"]`);

      // Click: no sheet of this portfolio is known → the pane offers to paste the asset list; after
      // the paste the asset's row is selected in it.
      await page.mouse.click(point.x, point.y);
      await textWhen(page, TEST_IDS.visual.mapSelection, (t) => t.includes("No sheet"));
      await page.getByTestId(TEST_IDS.visual.mapPasteAssets).click();
      const selected = await textWhen(page, TEST_IDS.visual.mapSelection, (t) => t.startsWith("Selected"), 30_000);
      const address = await page.evaluate(() => window.harness?.fake.selectionAddress() as string);
      expect(selected).toContain(address);
      const row = (await values(page, address))[0];
      expect(row[0]).toBe(target.entity_id); // the asset list: entity_id, entity_name, lat, lng, label:*
      await shot(page, "map-click-selects-row");

      // Zoom: the buttons and their keys (+ or =, -, 0) zoom about the centre and back to the whole world.
      const zoomIs = (k: number) =>
        page.waitForFunction(
          ({ want, selector }) => {
            const map = (document.querySelector(selector) as unknown as { riskMap?: MapHook })?.riskMap;
            const view = map?.view();
            return (
              view !== undefined && Math.abs(view.k - want) < 1e-9 && (want !== 1 || (view.x === 0 && view.y === 0))
            );
          },
          { want: k, selector: CANVAS },
          { timeout: 5_000 },
        );
      const canvas = page.getByTestId(TEST_IDS.visual.mapCanvas);
      await page.getByTestId(TEST_IDS.visual.mapZoomIn).click();
      await zoomIs(1.5);
      await canvas.press("=");
      await zoomIs(2.25);
      await page.getByTestId(TEST_IDS.visual.mapZoomOut).click();
      await zoomIs(1.5);
      await canvas.press("-");
      await zoomIs(1);
      await canvas.press("+");
      await page.getByTestId(TEST_IDS.visual.mapZoomReset).click();
      await zoomIs(1);
      await canvas.press("+");
      await zoomIs(1.5);
      await canvas.press("0");
      await zoomIs(1);
    },
    90_000,
  );

  test(
    "a click selects the row in the range that was synced to the portfolio; " + "at 320 px the pane still fits",
    async () => {
      await suite.freshEmulator();
      const { page } = await suite.openHarness();
      await page.addStyleTag({ content: "#taskpane-panel { width: 320px !important; }" });
      // Sync the demo workbook's Assets (A1:E7) to a new portfolio with the pane, as a user does.
      await selectWithMouse(page, "A1", "E7", "Assets");
      await syncSelectionAs(page, "map_sync");
      await setSectionOpen(page, "sync", true);
      await page
        .click(`[data-testid="${HARNESS_TEST_IDS.sheetTabs}"] button[data-sheet="Sheet1"]`)
        .catch(() => undefined);

      await openMap(page, "map_sync");
      const assets = await values(page, "Assets!A1:E7");
      const idCol = assets[0].map(String).indexOf("entity_id");
      const id = String(assets[4][idCol]);
      const point = await assetPoint(page, id);
      await page.mouse.click(point.x, point.y);
      await textWhen(page, TEST_IDS.visual.mapSelection, (t) => t.startsWith("Selected"));
      expect(await page.evaluate(() => window.harness?.fake.selectionAddress())).toBe("Assets!A5:E5");

      // Nothing of the map section sticks out of the 320 px pane.
      const sticking = await page.evaluate(
        ({ paneId, sectionId }) => {
          const pane = (document.querySelector(`[data-testid="${paneId}"]`) as HTMLElement).getBoundingClientRect();
          return [...document.querySelectorAll(`[data-testid="${sectionId}"] *`)]
            .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > pane.right + 0.5)
            .map((el) => {
              const testId = el.getAttribute("data-testid");
              const tag = `${el.tagName.toLowerCase()}${testId ? `[${testId}]` : ""}`;
              const name = `${tag}.${String(el.className).slice(0, 40)}`;
              return `${name} right=${Math.round(el.getBoundingClientRect().right)} > ${Math.round(pane.right)}`;
            });
        },
        { paneId: TEST_IDS.shell.taskpane, sectionId: TEST_IDS.shell.section("visual") },
      );
      expect(sticking).toEqual([]);
      await shot(page, "map-320px", `[data-testid="${TEST_IDS.shell.section("visual")}"]`);
    },
    90_000,
  );

  test("5,000 assets: drawn, and pan and zoom frame times recorded", async () => {
    const emu = await suite.freshEmulator();
    await portfolioWith(emu, "map_5000", assetsCsv(plausibleAssets(5000)));
    const { page } = await suite.openHarness({ demo: false });
    await openMap(page, "map_5000");
    expect(await page.getByTestId(TEST_IDS.visual.mapText).textContent()).toMatch(/^Map of 5,000 assets of map_5000/);

    const canvas = page.getByTestId(TEST_IDS.visual.mapCanvas);
    const box = (await canvas.boundingBox())!;
    await canvas.evaluate((el) => (el as unknown as { riskMap: MapHook }).riskMap.resetFrames());
    // Each step: one input, then time until the map has drawn the new frame.
    const latencies: number[] = [];
    const step = async (act: () => Promise<void>) => {
      const before = Number(await canvas.getAttribute("data-frames"));
      const t0 = Date.now();
      await act();
      await page.waitForFunction(
        ({ n, selector }) => Number((document.querySelector(selector) as HTMLElement).dataset.frames) > n,
        { n: before, selector: CANVAS },
        { polling: "raf" },
      );
      latencies.push(Date.now() - t0);
    };
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 10; i++) await step(() => page.mouse.wheel(0, -120));
    await page.mouse.down();
    for (let i = 0; i < 20; i++) await step(() => page.mouse.move(cx + (i % 2 ? 25 : -25), cy + i));
    await page.mouse.up();
    for (let i = 0; i < 10; i++) await step(() => page.mouse.wheel(0, 120));
    // The same inside the page (no test-driver round trip): input event → frame drawn, by rAF.
    const inPage = await canvas.evaluate(async (el) => {
      const c = el as HTMLCanvasElement;
      const rect = c.getBoundingClientRect();
      const out: number[] = [];
      const once = async (fire: () => void) => {
        const before = Number(c.dataset.frames);
        const t0 = performance.now();
        fire();
        while (Number(c.dataset.frames) <= before) await new Promise((r) => requestAnimationFrame(r));
        out.push(performance.now() - t0);
      };
      const at = {
        clientX: rect.left + rect.width / 2,
        clientY: rect.top + rect.height / 2,
        bubbles: true,
        cancelable: true,
      };
      for (let i = 0; i < 10; i++) await once(() => c.dispatchEvent(new WheelEvent("wheel", { ...at, deltaY: -120 })));
      for (let i = 0; i < 20; i++)
        await once(() =>
          c.dispatchEvent(new KeyboardEvent("keydown", { key: i % 2 ? "ArrowLeft" : "ArrowUp", bubbles: true })),
        );
      for (let i = 0; i < 10; i++) await once(() => c.dispatchEvent(new WheelEvent("wheel", { ...at, deltaY: 120 })));
      return out;
    });
    const draws = await canvas.evaluate((el) => (el as unknown as { riskMap: MapHook }).riskMap.frameTimes());
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const pct = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
    const figures = {
      assets: 5000,
      frames: draws.length,
      drawMs: { median: pct(draws, 0.5), p95: pct(draws, 0.95), max: Math.max(...draws) },
      inputToFrameMs: {
        median: pct(latencies, 0.5),
        p95: pct(latencies, 0.95),
        max: Math.max(...latencies),
        note: "playwright input → frame seen, driver round trips included",
      },
      inPageEventToFrameMs: {
        median: pct(inPage, 0.5),
        p95: pct(inPage, 0.95),
        max: Math.max(...inPage),
        note: "event dispatched in the page → frame drawn (rAF), 40 pan/zoom steps",
      },
    };
    mkdirSync(path.resolve(SCREENSHOT_DIR, ".."), { recursive: true });
    writeFileSync(path.resolve(SCREENSHOT_DIR, "..", "map-frames.json"), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`map with 5,000 assets: ${JSON.stringify(figures)}`);
    expect(draws.length).toBeGreaterThanOrEqual(80); // every input drew a frame
    await shot(page, "map-5000", `[data-testid="${TEST_IDS.shell.section("visual")}"]`);
  }, 120_000);

  test("risk matrix with its label chart, and the scenario comparison, as new sheets", async () => {
    await suite.freshEmulator();
    const { page } = await suite.openHarness({ demo: false });
    await openMap(page, PORTFOLIO);
    await page.selectOption(`[data-testid="${TEST_IDS.visual.visualScenario}"]`, "ssp245");
    await textWhen(page, TEST_IDS.visual.mapText, (t) => t.includes("ssp245"));
    await page.getByTestId(TEST_IDS.visual.matrixStart).click();
    const result = await textWhen(page, TEST_IDS.visual.matrix.result, (t) => t.length > 0, 30_000);
    expect(result).toContain(`“Matrix ${PORTFOLIO}”`);
    expect(result).toContain(`“Counts ${PORTFOLIO}”`);
    const matrix = await page.evaluate((name) => {
      const sheet = window.harness!.fake.model.findSheet(name)!;
      return {
        title: sheet.cell(0, 0)?.value,
        header: [0, 1, 2, 3].map((c) => sheet.cell(1, c)?.value),
        cfs: sheet.conditionalFormats.map((c) => c.type),
      };
    }, `Matrix ${PORTFOLIO}`);
    expect(matrix.title).toMatch(/scenario ssp245 · 30-year window/);
    expect(matrix.header).toEqual(["portfolio_index", "entity_id", "entity_name", "cyclone"]);
    expect(matrix.cfs.length).toBeGreaterThanOrEqual(18);
    expect(new Set(matrix.cfs)).toEqual(new Set(["ContainsText"]));
    const chart = await page.evaluate(
      (name) =>
        window
          .harness!.fake.model.findSheet(name)!
          .charts.map((c) => ({ type: c.type, series: c.series.map((s) => s.name) })),
      `Counts ${PORTFOLIO}`,
    );
    expect(chart).toEqual([{ type: "ColumnStacked", series: ["LOW", "MEDIUM", "HIGH"] }]);
    await page.click(`[data-testid="${HARNESS_TEST_IDS.sheetTabs}"] button[data-sheet="Matrix ${PORTFOLIO}"]`);
    // Colours follow edits: the grid recolours a label typed over.
    const cell = page.locator(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="D3"]`);
    await cell.click();
    await page.keyboard.type("HIGH");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (selector) => (document.querySelector(selector)?.getAttribute("style") ?? "").includes("#FFC7CE"),
      `[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="D3"]`,
      { timeout: 10_000 },
    );
    expect(await values(page, `'Matrix ${PORTFOLIO}'!D3`)).toEqual([["HIGH"]]);
    await shot(page, "risk-matrix-sheet");

    await page.getByTestId(TEST_IDS.visual.compareStart).click();
    const compared = await textWhen(page, TEST_IDS.visual.compare.result, (t) => t.length > 0, 30_000);
    expect(compared).toContain("Compare flood_potential");
    const sheetName = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
    const grid = await values(page, `'${sheetName}'!A2:K8`);
    expect(grid[0].slice(3, 11)).toEqual([
      "ssp126_score",
      "ssp126_label",
      "ssp245_score",
      "ssp245_label",
      "ssp585_score",
      "ssp585_label",
      "score_change_ssp126_to_ssp585",
      "label_change_ssp126_to_ssp585",
    ]);
    const changes = grid.slice(1).map((r) => Number(r[9]));
    expect([...changes].sort((a, b) => b - a)).toEqual(changes);
    await shot(page, "scenario-comparison-sheet");
  }, 90_000);
});
