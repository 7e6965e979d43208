/**
 * Debian's chromium driven by playwright-core, for the browser tests. When the browser is missing
 * the tests are skipped with a warning saying why (npm test still runs everything else); the CI
 * script installs it with apt. Tests never install a browser.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** The browser the tests drive; CHROMIUM_PATH overrides Debian's location. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Flags for a quiet, sandbox-free headless chromium in containers (see DEVELOPERS.md). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Where scenario screenshots go: test-output/screenshots/<scenario>.png (gitignored). */
export const SCREENSHOT_DIR = path.resolve(__dirname, "..", "..", "..", "test-output", "screenshots");

/** True when the browser exists; otherwise prints why the browser tests are skipped. */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  console.warn(
    `SKIPPED browser tests (${suite}): no browser at ${CHROMIUM_PATH}. ` +
      "Install Debian's chromium (apt-get install -y chromium; .ci/run does this) or set CHROMIUM_PATH to run them.",
  );
  return false;
}

/**
 * Launch chromium. playwright starts it with a fresh temporary --user-data-dir of its own (and
 * removes it on close); each test then opens a new context, so no storage leaks between scenarios.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, timeout: 60_000 });
}

/**
 * Where a picture the docs show is written: docs/images/<name>.png when UPDATE_DOC_IMAGES=1 (a
 * deliberate refresh of the docs' pictures), else test-output/screenshots/docs/, so an ordinary
 * test run leaves the working tree as it was.
 */
export function docImagePath(name: string): string {
  const dir =
    process.env.UPDATE_DOC_IMAGES === "1"
      ? path.resolve(__dirname, "..", "..", "..", "docs", "images")
      : path.join(SCREENSHOT_DIR, "docs");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

/** Save a full-page screenshot named after the scenario; returns its path. */
export async function screenshot(page: Page, scenario: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${scenario}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Collects the page's uncaught errors and console errors, to show when a test fails. */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // Failed requests show up in the tests' own assertions (and are expected when a service is down).
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      problems.push(`console.error: ${message.text()}`);
  });
  return problems;
}
