/**
 * A service that does not answer the add-in's origin (CORS), in a real browser (issue 42): the
 * emulator refuses every origin but one the harness is not. Reached directly, "Check the add-in"
 * and Test connection say the service is reachable but does not answer this add-in's origin,
 * naming the harness's origin. Reached through the shipped nginx configuration
 * (deploy/nginx/climate-risk-addin.conf, serving the built add-in and forwarding /risk-api/ and
 * /risk-nature/ to the service over verified TLS), everything works end to end: the check, a sync,
 * RISK cells and a paste. The nginx part is skipped with a message when nginx is not installed.
 */
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { emulatorStats, routeCount } from "../support/emulator";
import { serverBinary, startProxiedService } from "../support/reverse-proxy";
import { addinBuild } from "./support/addin-build";
import { docImagePath, screenshot } from "./support/browser";
import { describeWithBrowser, useBrowserSuite } from "./support/browser-suite";
import {
  cell,
  cells,
  openHarness,
  pullDemoTimeseries,
  selectWithMouse,
  setSectionOpen,
  syncSelectionAs,
  textWhen,
  values,
  waitForIdle,
} from "./support/harness-page";
import type { Page } from "playwright-core";
import { TEST_IDS } from "../../src/taskpane/ui/test-ids";
import { HARNESS_TEST_IDS } from "../../harness/test-ids";

const describeBrowser = describeWithBrowser(__filename);
/** The only origin the emulator answers: not the harness's, nor nginx's. */
const ALLOWED_ORIGIN = "https://addin.example.com";
const nginxInstalled = serverBinary("nginx") !== undefined;
if (!nginxInstalled)
  console.warn(
    "SKIPPED the nginx scenario (test/browser/same-origin-proxy.test.ts): nginx is not installed " +
      "(apt-get install -y nginx-light)",
  );

/** Types a connection into the pane's Connection section and saves it. */
async function saveConnection(page: Page, baseUrl: string, natureUrl: string): Promise<void> {
  await setSectionOpen(page, "connection", true);
  await page.getByTestId(TEST_IDS.connection.baseUrl).fill(baseUrl);
  await page.getByTestId(TEST_IDS.connection.natureUrl).fill(natureUrl);
  await page.getByTestId(TEST_IDS.connection.apiKey).fill(DEMO_API_KEY);
  await page.getByTestId(TEST_IDS.connection.save).click();
  await textWhen(page, TEST_IDS.connection.saveResult, (t) => t.length > 0, 20_000);
}

/** Runs "Check the add-in" from the pane and returns its report. */
async function checkReport(page: Page): Promise<string> {
  await setSectionOpen(page, "check", true);
  const report = page.getByTestId(TEST_IDS.check.report);
  await report.waitFor({ timeout: 30_000 });
  return report.inputValue();
}

describeBrowser("a service that does not answer the add-in's origin", () => {
  const suite = useBrowserSuite();

  test("reached directly: the connection test and the check say CORS and name the add-in's origin", async () => {
    const emu = await suite.freshEmulator({ allowedOrigins: [ALLOWED_ORIGIN] });
    const { page } = await suite.openHarness({ demo: false });
    const origin = suite.server.origin;
    const host = new URL(emu.baseUrl).host;
    const sentence =
      `the service at ${host} is reachable but does not answer this add-in's origin, ${origin} (CORS): ` +
      `use a same-origin path or ask the provider to allow ${origin}`;

    await setSectionOpen(page, "connection", true);
    await page.getByTestId(TEST_IDS.connection.baseUrl).fill(emu.baseUrl);
    await page.getByTestId(TEST_IDS.connection.natureUrl).fill(emu.natureUrl);
    await page.getByTestId(TEST_IDS.connection.apiKey).fill(DEMO_API_KEY);
    await page.getByTestId(TEST_IDS.connection.test).click();
    const shown = await textWhen(page, TEST_IDS.connection.testError, (t) => t.length > 0, 20_000);
    expect(shown).toBe(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);

    await saveConnection(page, emu.baseUrl, emu.natureUrl);
    await setSectionOpen(page, "connection", false);
    const report = await checkReport(page);
    expect(report).toContain(`Risk service ${emu.baseUrl}/api/projects/: NO ANSWER: ${sentence}`);
    expect(report).toContain(`Nature service ${emu.natureUrl}/superprojects: NO ANSWER: ${sentence}`);
    expect(report).not.toContain(DEMO_API_KEY);
    // Above the report, what to do, without scrolling through it.
    const banner = await page.getByTestId(TEST_IDS.check.noAnswer).textContent();
    expect(banner).toContain(`Risk service (${emu.baseUrl}/api/projects/): ${sentence}`);
    expect(banner).toContain(`Nature service (${emu.natureUrl}/superprojects): ${sentence}`);

    await screenshot(page, "check-cors-refused");
    // For docs/deploying.md: the check's section down to the message, scrolled to the pane's top.
    await page
      .getByTestId(TEST_IDS.shell.section("check"))
      .evaluate((element) => element.scrollIntoView({ block: "start" }));
    const section = (await page.getByTestId(TEST_IDS.shell.section("check")).boundingBox())!;
    const message = (await page.getByTestId(TEST_IDS.check.noAnswer).boundingBox())!;
    await page.screenshot({
      path: docImagePath("check-cors-refused"),
      clip: { x: section.x, y: section.y, width: section.width, height: message.y + message.height + 12 - section.y },
    });
  }, 90_000);

  (nginxInstalled ? test : test.skip)(
    "through the shipped nginx configuration on the add-in's own origin: check, sync, RISK cells and a paste",
    async () => {
      const emu = await suite.freshEmulator({ allowedOrigins: [ALLOWED_ORIGIN] });
      const { proxy, service, close } = await startProxiedService("nginx", emu.url, { root: await addinBuild() });
      const harness = await openHarness(suite.browser, proxy.origin);
      const { page } = harness;
      try {
        await saveConnection(page, "/risk-api", "/risk-nature");
        // The path is the add-in host's own URL, shown as such.
        expect(await page.getByTestId(TEST_IDS.connection.savedNotice).textContent()).toBe(
          `Saved connection: ${proxy.origin}/risk-api · project ${DEMO_PROJECT}`,
        );
        await page.getByTestId(TEST_IDS.connection.test).click();
        expect(await textWhen(page, TEST_IDS.connection.testResult, (t) => t.length > 0, 20_000)).toMatch(
          /^Connected: the key may use 1 project\.Nature service: 1 superproject\./,
        );
        await setSectionOpen(page, "connection", false);

        const report = await checkReport(page);
        expect(report).toMatch(new RegExp(`Risk service ${proxy.origin}/risk-api/api/projects/: HTTP 200 in \\d+ ms`));
        expect(report).toMatch(
          new RegExp(`Nature service ${proxy.origin}/risk-nature/superprojects: HTTP 200 in \\d+ ms`),
        );
        // nginx passes the service's own Date on, and on the page's own origin the page may read it.
        expect(report).toMatch(/Server clock: in step with this machine/);
        expect(await page.getByTestId(TEST_IDS.check.noAnswer).count()).toBe(0);
        await setSectionOpen(page, "check", false);

        // RISK cells: the demo workbook's formulas, recalculated over the saved connection.
        await page.evaluate(() => window.harness?.recalcAll());
        await waitForIdle(page);
        expect(typeof (await cell(page, "Demo!D3")).value).toBe("number");

        // A sync of the Assets range to a new portfolio, then RISK.SUMMARY cells over it.
        await selectWithMouse(page, "A1", "E7", "Assets");
        await syncSelectionAs(page, "proxied_sync");
        await setSectionOpen(page, "sync", false);
        await page.click(`[data-testid="${HARNESS_TEST_IDS.addSheet}"]`);
        const sheet = await page.evaluate(() => window.harness?.fake.activeSheetName() as string);
        await page.evaluate(
          (name) =>
            window.harness?.setCells(`${name}!A1`, [
              [0, `=RISK.SUMMARY("proxied_sync",A1,"flood_potential")`],
              [1, `=RISK.SUMMARY("proxied_sync",A2,"flood_potential")`],
            ]),
          sheet,
        );
        await waitForIdle(page);
        for (const [, summary] of await cells(page, `${sheet}!A1:B2`)) {
          expect(summary.error).toBeUndefined();
          expect(typeof summary.value).toBe("number");
        }

        // A paste: a timeseries of the demo portfolio into a new sheet.
        const pasted = await pullDemoTimeseries(page);
        const table = await values(page, await page.evaluate((n) => window.harness?.usedRange(n) as string, pasted));
        expect(table.length).toBeGreaterThan(50); // a header and the demo portfolio's 52 assets
        await screenshot(page, "same-origin-proxy-paste");

        // Every request went through nginx to the https service: with the key, without Origin.
        expect(service.requests.length).toBeGreaterThan(5);
        for (const request of service.requests) {
          expect(request.headers["x-service-apikey"]).toBe(DEMO_API_KEY);
          expect(request.headers.origin).toBeUndefined();
        }
        expect(routeCount(await emulatorStats(emu.url), "OPTIONS *")).toBe(0); // same origin: no preflight
        expect(proxy.logs()).toMatch(/risk-api\/api\/projects/);
        expect(proxy.logs()).not.toContain(DEMO_API_KEY);
        expect(harness.problems).toEqual([]);
        await screenshot(page, "same-origin-proxy-done");
      } finally {
        await harness.close();
        await close();
      }
    },
    180_000,
  );
});
