/**
 * Driving harness.html from a test: open it, type into cells through the grid as a user does,
 * paste TSV blocks, and read cells through `window.harness` (harness/harness-api.ts).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { HarnessApi } from "../../../harness/harness-api";
import type { CellInfo } from "../../../harness/workbook-controller";
import { watchPage } from "./browser";
import { TEST_IDS } from "../../../src/taskpane/ui/test-ids";
import { HARNESS_TEST_IDS } from "../../../harness/test-ids";

declare global {
  interface Window {
    harness?: HarnessApi;
  }
}

/** An open harness page and what went wrong on it. */
export interface HarnessPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
  close(): Promise<void>;
}

/**
 * Open the harness in a fresh browser context; `demo: false` starts with an empty workbook,
 * `pane: "hidden"` with the pane closed, `lang` as an Excel in that UI language (`?lang=`).
 */
export async function openHarness(
  browser: Browser,
  origin: string,
  options: { demo?: boolean; pane?: "hidden"; lang?: string } = {},
): Promise<HarnessPage> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const problems = watchPage(page);
  const query = new URLSearchParams();
  if (options.demo === false) query.set("demo", "0");
  if (options.pane) query.set("pane", options.pane); // the pane starts closed, as when a RISK cell starts the runtime
  if (options.lang) query.set("lang", options.lang);
  await page.goto(`${origin}/harness.html${query.size > 0 ? `?${query}` : ""}`);
  await page.waitForFunction(() => window.harness !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.harness?.ready);
  return { context, page, problems, close: () => context.close() };
}

/** Click a cell of the active sheet, type text into it and press Enter, as a user would. */
export async function typeIntoCell(page: Page, address: string, text: string): Promise<void> {
  await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="${address}"]`);
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** Select a cell by clicking it, then paste tab-separated text there (a real paste event). */
export async function pasteAt(page: Page, address: string, tsv: string): Promise<void> {
  await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="${address}"]`);
  await page.evaluate(
    ({ text, gridId }) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      const grid = document.querySelector(`[data-testid="${gridId}"]`) as HTMLElement;
      grid.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { text: tsv, gridId: HARNESS_TEST_IDS.grid },
  );
}

/**
 * The text of the element with this data-testid once `accept` says yes (the page renders on its next
 * turn, and the task pane whenever React does); fails after the timeout showing the last text.
 */
export async function textWhen(
  page: Page,
  testId: string,
  accept: (text: string) => boolean,
  timeoutMs = 15_000,
): Promise<string> {
  const locator = page.getByTestId(testId).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await locator.textContent({ timeout: Math.max(1, deadline - Date.now()) }).catch(() => null)) ?? "";
    if (accept(text)) return text;
    if (Date.now() > deadline)
      throw new Error(`[data-testid="${testId}"] never showed the expected text; last: "${text}"`);
    await page.waitForTimeout(50);
  }
}

/**
 * Opens or closes a pane section and waits until its header says so (`aria-expanded`). A click
 * while a section above is still collapsing can land on whatever has just moved under the
 * pointer on a loaded machine, so the header is clicked again (at most three times) until it
 * reports the wanted state.
 */
export async function setSectionOpen(page: Page, section: string, open: boolean): Promise<void> {
  const header = page.getByTestId(TEST_IDS.shell.sectionHeader(section));
  const wanted = String(open);
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await header.getAttribute("aria-expanded")) === wanted) return;
    await header.click();
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (await header.getAttribute("aria-expanded")) !== wanted)
      await page.waitForTimeout(50);
  }
  if ((await header.getAttribute("aria-expanded")) !== wanted)
    throw new Error(`section "${section}" did not ${open ? "open" : "close"} after three clicks on its header`);
}

/**
 * Select a range with the mouse as a user does: the sheet's tab (when given), the first cell, then
 * a shift-click on the last.
 */
export async function selectWithMouse(page: Page, from: string, to: string, sheet?: string): Promise<void> {
  if (sheet) await page.click(`[data-testid="${HARNESS_TEST_IDS.sheetTabs}"] button[data-sheet="${sheet}"]`);
  await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="${from}"]`);
  await page.click(`[data-testid="${HARNESS_TEST_IDS.grid}"] td[data-cell="${to}"]`, { modifiers: ["Shift"] });
}

/** Type a portfolio name into the open Sync section and start "Sync to portfolio" on the selection. */
export async function startSync(page: Page, portfolio: string): Promise<void> {
  await page.getByTestId(TEST_IDS.sync.portfolio).fill(portfolio);
  await page.getByTestId(TEST_IDS.sync.start).click();
}

/**
 * Sync the workbook's selection to a new portfolio from the pane's Sync section (opened first),
 * and wait for the success message, which names the portfolio; its text.
 */
export async function syncSelectionAs(page: Page, portfolio: string): Promise<string> {
  await setSectionOpen(page, "sync", true);
  await startSync(page, portfolio);
  return textWhen(page, TEST_IDS.sync.task.result, (t) => t.includes(portfolio), 30_000);
}

/** Wait until no formula calculates any more. */
export async function waitForIdle(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.evaluate((ms) => window.harness?.waitForIdle(ms), timeoutMs);
}

/** What a cell holds and shows. */
export function cell(page: Page, address: string): Promise<CellInfo> {
  return page.evaluate((a) => (window.harness as HarnessApi).getCell(a), address);
}

/** Values of a range. */
export function values(page: Page, address: string): Promise<unknown[][]> {
  return page.evaluate((a) => (window.harness as HarnessApi).getValues(a), address);
}

/** Every cell of a range, row by row. */
export function cells(page: Page, address: string): Promise<CellInfo[][]> {
  return page.evaluate((a) => {
    const api = window.harness as HarnessApi;
    const [sheet, local] = a.includes("!") ? a.split("!") : [undefined, a];
    const [from, to = from] = local.split(":");
    const col = (s: string) =>
      s
        .replace(/\d+/g, "")
        .split("")
        .reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
    const row = (s: string) => Number(s.replace(/\D+/g, "")) - 1;
    const letters = (c: number) => {
      let n = c + 1;
      let out = "";
      while (n > 0) {
        out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
        n = Math.floor((n - 1) / 26);
      }
      return out;
    };
    const out: CellInfo[][] = [];
    for (let r = row(from); r <= row(to); r++) {
      const line: CellInfo[] = [];
      for (let c = col(from); c <= col(to); c++)
        line.push(api.getCell(`${sheet ? `${sheet}!` : ""}${letters(c)}${r + 1}`));
      out.push(line);
    }
    return out;
  }, address);
}

/**
 * Pulls the demo portfolio's wildfire timeseries (unified_prob, ssp585, mid) into a new sheet
 * through the pane's Timeseries section, as a user does; returns the new sheet's name.
 */
export async function pullDemoTimeseries(page: Page): Promise<string> {
  await setSectionOpen(page, "timeseries", true);
  await page.selectOption(`[data-testid="${TEST_IDS.timeseries.portfolio.id}"]`, "demo-portfolio");
  await page.selectOption(`[data-testid="${TEST_IDS.timeseries.hazard}"]`, "wildfire");
  await page.selectOption(`[data-testid="${TEST_IDS.timeseries.indicator}"]`, "unified_prob");
  await page.selectOption(`[data-testid="${TEST_IDS.timeseries.scenario}"]`, "ssp585");
  await page.selectOption(`[data-testid="${TEST_IDS.timeseries.measure}"]`, "mid");
  const sheetsBefore = await page.evaluate(() => window.harness?.sheetNames() as string[]);
  await page.getByTestId(TEST_IDS.timeseries.start).click();
  await textWhen(page, TEST_IDS.timeseries.task.result, (t) => t.length > 0, 30_000);
  const added = (await page.evaluate(() => window.harness?.sheetNames() as string[])).find(
    (n) => !sheetsBefore.includes(n),
  );
  if (added === undefined) throw new Error("the timeseries pull added no sheet");
  return added;
}
