/**
 * From a sheet of addresses only to a synced portfolio, in a real browser (the task pane, the Excel
 * fake, the emulator and the geocoder stand-in over HTTP, the stand-in cross-origin): the geocoder
 * is entered under Connection; the pane names the host, the columns and the rows before sending; a
 * 429 without CORS headers reads as "could not reach the geocoder, or it refuses this add-in's
 * origin" and Resume goes on; the preview shows precision, confidence and flags before anything is
 * written (its screenshot is the docs' picture); accepting writes the coordinates, and the sync
 * sends the precision as a label. The geocoder key is in no cell and no request URL. Skipped when
 * chromium is absent.
 */
import { copyFileSync } from "node:fs";
import { DEMO_HEADERS, startTestGeocoder } from "../support/emulator";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import { docImagePath, screenshot } from "./support/browser";
import { setSectionOpen, textWhen, values, waitForIdle } from "./support/harness-page";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";

const describeBrowser = describeWithBrowser(__filename);
const KEY = "browser-geo-key-41d2";

describeBrowser("addresses to coordinates", () => {
  const suite = useBrowserSuite();

  test("consent, a refused first answer, resume, preview, accept, sync", async () => {
    const emu = await suite.freshEmulator();
    const geocoder = await startTestGeocoder({ apiKey: KEY });
    try {
      const { page } = await suite.openHarness({ demo: false });
      const sheet = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
      const block = [
        ["entity_id", "Address", "Country"],
        ["hq", "10 Downing Street, London", "GB"],
        ["shop", "Rue de Rivoli, Paris", "France"],
        ["twin", "Springfield", "US"],
        ["lab", "Unter den Linden 5, Berlin", "DE"],
      ];
      await page.evaluate(([name, b]) => window.harness?.setCells(`${name}!A1`, b), [sheet, block] as const);

      // The geocoder, entered under Connection (open by default): none was preset.
      expect(await page.getByTestId(TEST_IDS.geocoder.saved).textContent()).toMatch(
        /^None: addresses are sent nowhere/,
      );
      await page.getByTestId(TEST_IDS.geocoder.url).fill(geocoder.url);
      await page.getByTestId(TEST_IDS.geocoder.key).fill(KEY);
      await page.getByTestId(TEST_IDS.geocoder.rate).fill("20");
      await page.getByTestId(TEST_IDS.geocoder.save).click();
      const host = new URL(geocoder.url).host;
      await textWhen(page, TEST_IDS.geocoder.saved, (t) => t.includes(`sent to ${host} (pelias)`));
      await setSectionOpen(page, "connection", false); // close it: room for the preview

      await page.evaluate((name) => window.harness?.selectRange(`${name}!A1:C5`), sheet);
      await setSectionOpen(page, "sync", true);
      await page.getByTestId(TEST_IDS.sync.geocodeFind).click();
      const consent = await textWhen(page, TEST_IDS.sync.geocodeConsentWhat, (t) => t.length > 0, 20_000);
      expect(consent).toContain(
        `${host} receives the columns Address, Country of 4 rows (${sheet}!A1:C5), nothing else.`,
      );
      expect(geocoder.requests).toEqual([]); // nothing sent before the analyst agrees

      // The first answer is a 429 without CORS headers: the browser sees a network failure.
      geocoder.fault({ status: 429, cors: "none", count: 1 });
      await page.getByTestId(TEST_IDS.sync.geocodeSend).click();
      const stopped = await textWhen(page, TEST_IDS.sync.geocodeStopped, (t) => t.length > 0, 20_000);
      expect(stopped).toMatch(/Could not reach the geocoder .+, or it refuses this add-in's origin/);
      expect((await values(page, `${sheet}!A1:C5`)).flat()).toEqual(block.flat()); // nothing written
      await page.getByTestId(TEST_IDS.sync.geocodeResume).click();
      const summary = await textWhen(page, TEST_IDS.sync.geocodeSummary, (t) => t.startsWith("4 of 4 found"), 20_000);
      expect(summary).toMatch(/^4 of 4 found, 1 flagged/);
      const rows = await page
        .getByTestId(TEST_IDS.sync.geocodePreviewRow)
        .evaluateAll((els) => els.map((el) => [el.getAttribute("data-row"), el.getAttribute("data-flags")]));
      expect(rows).toEqual([
        ["2", ""],
        ["3", ""],
        ["4", "ambiguous,low confidence,coarser than street"],
        ["5", ""],
      ]);
      expect(await page.getByTestId(TEST_IDS.sync.geocodePrecision).allInnerTexts()).toEqual([
        "address",
        "street",
        "city",
        "address",
      ]);
      await page.getByTestId(TEST_IDS.sync.geocodeSummary).evaluate((el) => el.scrollIntoView({ block: "start" }));
      copyFileSync(await screenshot(page, "geocode-preview"), docImagePath("geocode-preview"));
      expect((await values(page, `${sheet}!A1:C5`)).flat()).toEqual(block.flat()); // still nothing written

      await page.getByTestId(TEST_IDS.sync.geocodeWriteFlagged).click();
      await page.getByTestId(TEST_IDS.sync.geocodeAccept).click();
      const written = await textWhen(page, TEST_IDS.sync.geocodeWritten, (t) => t.length > 0, 20_000);
      expect(written).toContain("Coordinates written for 4 rows");
      const sheetValues = await values(page, `${sheet}!A1:I5`);
      expect(sheetValues[0]).toEqual([
        "entity_id",
        "Address",
        "Country",
        "lat",
        "lng",
        "label:geocoder",
        "label:geocode_precision",
        "label:geocode_confidence",
        "label:geocoded_on",
      ]);
      expect(sheetValues[1]!.slice(5, 8)).toEqual([host, "address", 0.95]);

      // Nothing went to the risk service until the analyst syncs the (now selected) grown range.
      await page.getByTestId(TEST_IDS.sync.portfolio).fill("geocoded_sites");
      await page.getByTestId(TEST_IDS.sync.start).click();
      await textWhen(page, TEST_IDS.sync.mappingConfirm, (t) => t.includes("Nothing is sent until you say so"), 30_000);
      await page.getByTestId(TEST_IDS.sync.mappingSend).click();
      await textWhen(page, TEST_IDS.sync.task.result, (t) => t.includes("geocoded_sites"), 60_000);
      const assets = (await fetch(`${emu.url}/api/portfolios/geocoded_sites/assets`, { headers: DEMO_HEADERS }).then(
        (r) => r.json(),
      )) as Array<{ entity_id: string; labels: Record<string, string> }>;
      expect(assets.map((a) => [a.entity_id, a.labels.geocode_precision])).toEqual([
        ["hq", "address"],
        ["shop", "street"],
        ["twin", "city"],
        ["lab", "address"],
      ]);
      const workbook = await page.evaluate(() => JSON.stringify(window.harness?.fake.snapshot()));
      expect(workbook).not.toContain(KEY);
      expect(geocoder.requests.join("\n")).not.toContain(KEY);
      await waitForIdle(page);
    } finally {
      await geocoder.close();
    }
  }, 180_000);
});
