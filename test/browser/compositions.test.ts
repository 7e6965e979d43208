/**
 * The compositions panel in a real browser (harness page, real task pane bundle) against the
 * emulator over HTTP: run a UDF to preview its layer, edit a UDF's equation and
 * replace a layer's content with a new file, each by name as production publishes them; a program
 * jq cannot compile is shown and changes nothing. Screenshots under test-output/screenshots/.
 */
import { DEMO_HEADERS } from "../support/emulator";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { screenshot } from "./support/browser";
import { setSectionOpen, textWhen } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);

describeBrowser("compositions panel", () => {
  const suite = useBrowserSuite({ emulator: "file" });

  const api = async (path: string) =>
    (await fetch(`${suite.emulator.url}/api/compositions${path}`, { headers: DEMO_HEADERS })).json();

  test(
    "run a UDF to preview its layer, edit its equation, " + "replace a layer's file; a bad program changes nothing",
    async () => {
      const { page } = await suite.openHarness({ demo: false });
      await setSectionOpen(page, "compositions", true);
      await page.getByTestId(TEST_IDS.compositions.udf(2).item).waitFor({ state: "visible", timeout: 20_000 });
      const layerFeatures = ((await api("/vector/1")) as { geojson: { features: unknown[] } }).geojson.features.length;

      // Run (preview): the resulting layer's count, property names and first rows; nothing stored.
      const vectorsBefore = ((await api("/vector")) as unknown[]).length;
      await page.getByTestId(TEST_IDS.compositions.udfRun(2).id).click();
      const summary = await textWhen(page, TEST_IDS.compositions.udfPreview(2).summary, (t) => t.length > 0, 20_000);
      expect(summary).toContain(`${layerFeatures} features`);
      expect(summary).toMatch(/properties: .*loss_wildfire_bsln.*value/);
      expect(await page.locator(`[data-testid="${TEST_IDS.compositions.udfPreview(2).rows}"] tbody tr`).count()).toBe(
        Math.min(5, layerFeatures),
      );
      expect(((await api("/vector")) as unknown[]).length).toBe(vectorsBefore);
      await page.getByTestId(TEST_IDS.compositions.udfPreview(2).id).scrollIntoViewIfNeeded();
      await screenshot(page, "compositions-run-preview");

      // Edit: the form starts from the stored equation and says a rename is delete + create.
      await page.getByTestId(TEST_IDS.compositions.udfEdit(2).id).click();
      const operation = page.getByTestId(TEST_IDS.compositions.udfEdit(2).operation);
      await operation.waitFor({ state: "visible", timeout: 15_000 });
      const stored = ((await api("/udf/2")) as { equation: { operation: string } }).equation.operation;
      expect(await operation.inputValue()).toBe(stored);
      expect(await page.getByTestId(TEST_IDS.compositions.udfEdit(2).note).textContent()).toMatch(
        /To rename, create it again under the new name, then delete this one/,
      );

      await operation.fill(".loss_flood_bsln +");
      await page.getByTestId(TEST_IDS.compositions.udfEdit(2).submit).click();
      expect(await textWhen(page, TEST_IDS.compositions.udfEdit(2).error, (t) => t.length > 0)).toMatch(
        /could not process/i,
      );
      expect(((await api("/udf/2")) as { equation: { operation: string } }).equation.operation).toBe(stored);

      await operation.fill(".loss_flood_bsln * 2");
      await page.getByTestId(TEST_IDS.compositions.udfEdit(2).submit).click();
      expect(await textWhen(page, TEST_IDS.compositions.udfEdit(2).result, (t) => t.length > 0)).toMatch(/updated/);
      expect(((await api("/udf/2")) as { equation: { operation: string } }).equation.operation).toBe(
        ".loss_flood_bsln * 2",
      );
      // The preview of the old equation goes: it no longer matches. (The edit's result and the list's
      // new revision are two renders, so wait for it rather than count at once.)
      await page.getByTestId(TEST_IDS.compositions.udfPreview(2).id).waitFor({ state: "detached", timeout: 5_000 });
      expect(await page.getByTestId(TEST_IDS.compositions.udfPreview(2).id).count()).toBe(0);
      await page.getByTestId(TEST_IDS.compositions.udfEdit(2).result).scrollIntoViewIfNeeded();
      await screenshot(page, "compositions-edit-udf");

      // Update a layer: a new .geojson file replaces the content of the layer of that name.
      await page.getByTestId(TEST_IDS.compositions.vectorUpdate(1).id).click();
      await page.getByTestId(TEST_IDS.compositions.vectorUpdate(1).note).waitFor({ state: "visible" });
      const replacement = {
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            geometry: { type: "Point", coordinates: [2.35, 48.85] },
            properties: { loss_flood_bsln: 7 },
          },
        ],
      };
      await page.setInputFiles(`[data-testid="${TEST_IDS.compositions.vectorUpdate(1).file}"]`, {
        name: "losses-v2.geojson",
        mimeType: "application/geo+json",
        buffer: Buffer.from(JSON.stringify(replacement)),
      });
      await page.getByTestId(TEST_IDS.compositions.vectorUpdate(1).submit).click();
      expect(await textWhen(page, TEST_IDS.compositions.vectorUpdate(1).result, (t) => t.length > 0)).toMatch(
        /Layer “demo-losses” updated/,
      );
      const updated = (await api("/vector/1")) as {
        name: string;
        geojson: { features: Array<{ properties: Record<string, unknown> }> };
      };
      expect(updated.name).toBe("demo-losses");
      expect(updated.geojson.features.map((f) => f.properties)).toEqual([{ loss_flood_bsln: 7 }]);

      // The edited UDF now runs over the new content.
      await page.getByTestId(TEST_IDS.compositions.udfRun(2).id).click();
      expect(
        await textWhen(page, TEST_IDS.compositions.udfPreview(2).summary, (t) => t.includes("1 feature;"), 20_000),
      ).toMatch(/properties: loss_flood_bsln, value/);
      expect(
        await page
          .locator(`[data-testid="${TEST_IDS.compositions.udfPreview(2).rows}"] tbody tr`)
          .first()
          .textContent(),
      ).toBe("714");
      await page.getByTestId(TEST_IDS.compositions.vectorUpdate(1).result).scrollIntoViewIfNeeded();
      await screenshot(page, "compositions-update-vector");
    },
    120_000,
  );
});
