/**
 * A keyed refresh that widens a pasted table, in a real browser (harness page, real task pane,
 * emulator over HTTP): a vector layer applied to a portfolio is pasted, the analyst types notes
 * beside it, then the layer is replaced by a file whose features carry other properties (one
 * gone, two new). "Refresh pasted sheets" adds the new columns at the right of the service's,
 * keeps the one no longer returned with what it holds, moves the notes right with their rows, and
 * the pane lists both. The screenshot goes to docs/taskpane.md.
 */
import { copyFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { setSectionOpen, textWhen, values, waitForIdle } from "./support/harness-page";
import { RiskClient } from "../../src/api/client";
import { columnLetters as col } from "../../src/shaping/a1";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { importPortfolio } from "../functions/support/emulator";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

const SITES = [
  { id: "W1", lat: 48.85, lng: 2.35 },
  { id: "W2", lat: 45.76, lng: 4.83 },
  { id: "W3", lat: 52.52, lng: 13.4 },
  { id: "W4", lat: 53.55, lng: 9.99 },
];

/** One point feature on each site, with the properties `of` gives it. */
function survey(of: (site: (typeof SITES)[number], i: number) => Record<string, unknown>) {
  return {
    type: "FeatureCollection",
    features: SITES.map((site, i) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [site.lng, site.lat] },
      properties: of(site, i),
    })),
  };
}

async function shot(page: Page, name: string): Promise<void> {
  copyFileSync(await screenshot(page, name), docImagePath(name));
}

describeBrowser("a keyed refresh that widens a table", () => {
  const suite = useBrowserSuite();

  test("new columns are added at the right of the service's, a column no longer returned is kept, notes stay with their row, and the pane says so", async () => {
    const emulator = await suite.freshEmulator();
    const client = new RiskClient(
      { baseUrl: emulator.url, natureUrl: `${emulator.url}/nature`, apiKey: DEMO_API_KEY, project: DEMO_PROJECT },
      { maxRetries: 0, timeoutMs: 10_000 },
    );
    await importPortfolio(
      client,
      "warehouses",
      ["entity_id,entity_name,lat,lng", ...SITES.map((s) => `${s.id},Warehouse ${s.id},${s.lat},${s.lng}`)].join("\n"),
    );
    await client.compositions.createVector({
      name: "site-survey",
      geojson: survey((s, i) => ({ flood_class: i % 2 === 0 ? "HIGH" : "LOW", surveyed_by: `team ${i + 1}` })),
    });

    const { page } = await suite.openHarness({ demo: false });
    await waitForIdle(page);
    await setSectionOpen(page, "layer", true);
    await page.getByTestId(TEST_IDS.layer.vectorReload).click();
    const layer = page.locator(`[data-testid="${TEST_IDS.layer.vector}"] option`, { hasText: "site-survey" });
    await layer.waitFor({ state: "attached", timeout: 15_000 });
    await page.selectOption(`[data-testid="${TEST_IDS.layer.vector}"]`, (await layer.getAttribute("value")) ?? "");
    await page.selectOption(`[data-testid="${TEST_IDS.layer.portfolio.id}"]`, "warehouses");
    await page.getByTestId(TEST_IDS.layer.start).click();
    const wrote = await textWhen(page, TEST_IDS.layer.task.result, (t) => t.includes("Wrote"), 30_000);
    const sheet = /to sheet “(.+)”/.exec(wrote)![1];
    const header = (await values(page, `'${sheet}'!A1:Z1`))[0].filter((v) => v !== "").map(String);
    expect(header.slice(-2)).toEqual(["flood_class", "surveyed_by"]);
    // The analyst's notes in the column right beside the table, one per warehouse.
    const noteCol = col(header.length);
    const ids = (await values(page, `'${sheet}'!B2:B5`)).map(([id]) => String(id));
    await page.evaluate(([s, c, n]) => window.harness?.setCells(`'${s}'!${c}1`, n), [
      sheet,
      noteCol,
      [["note"], ...ids.map((id) => [`visit ${id} in May`])],
    ] as [string, string, unknown[][]]);

    // The layer is replaced by a new survey: surveyed_by gone, heat_class and insured_value new.
    await client.compositions.updateVector({
      name: "site-survey",
      geojsonText: JSON.stringify(
        survey((_, i) => ({
          flood_class: i % 2 === 0 ? "MEDIUM" : "LOW",
          heat_class: "HIGH",
          insured_value: 1000 * (i + 1),
        })),
      ),
      fileName: "site-survey-v2.geojson",
    });

    await setSectionOpen(page, "layer", false); // room for the pasted sheets panel
    await setSectionOpen(page, "pasted", true);
    await page.getByTestId(TEST_IDS.pasted.reload).click();
    await page.getByTestId(TEST_IDS.pasted.item).first().waitFor();
    await page.getByTestId(TEST_IDS.pasted.refresh).click();
    const added = await textWhen(page, TEST_IDS.pasted.columnsAdded, (t) => t.length > 0, 30_000);
    expect(added).toContain("heat_class");
    expect(added).toContain("insured_value");
    const kept = await textWhen(page, TEST_IDS.pasted.columnsUnserved, (t) => t.length > 0);
    expect(kept).toContain("surveyed_by");

    // The sheet: the recorded columns in place (surveyed_by with what it held), the new ones at the
    // right of them, the notes moved right beside their own warehouse.
    const width = header.length + 2;
    const after = await values(page, `'${sheet}'!A1:${col(width)}5`);
    expect(after[0]).toEqual([...header, "heat_class", "insured_value", "note"]);
    const at = (name: string) => after[0].indexOf(name);
    for (const line of after.slice(1)) {
      const i = SITES.findIndex((s) => s.id === line[1]);
      expect(line[at("flood_class")]).toBe(i % 2 === 0 ? "MEDIUM" : "LOW");
      expect(line[at("surveyed_by")]).toBe(`team ${i + 1}`);
      expect(Number(line[at("insured_value")])).toBe(1000 * (i + 1));
      expect(line[at("note")]).toBe(`visit ${String(line[1])} in May`);
    }
    await page.getByTestId(TEST_IDS.pasted.result).scrollIntoViewIfNeeded();
    await shot(page, "taskpane-keyed-widen");
  }, 120_000);
});
