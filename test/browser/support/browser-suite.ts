/**
 * The set-up every browser test file shares, in one call: `useBrowserSuite()` registers jest hooks
 * that launch chromium while the add-in build is found or made (addin-build.ts), serve it
 * (addin-server.ts), optionally start one emulator for the whole file, and after each test close
 * the pages it opened (printing what went wrong on them) and the emulator it started; after the
 * file, the server, the browser and the file's emulator. A test file then says only what is
 * particular to it.
 */
import path from "node:path";
import type { Browser } from "playwright-core";
import type { EmulatorOptions, RunningEmulator } from "../../../emulator/server";
import { addinBuild } from "./addin-build";
import { startAddinServer, type AddinServer } from "./addin-server";
import { browserAvailable, launchBrowser } from "./browser";
import { startBrowserEmulator } from "./emulators";
import { openHarness, type HarnessPage } from "./harness-page";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** Where /emulator/* points while no emulator is behind the server: the discard port, where nothing listens. */
export const NO_EMULATOR_URL = "http://127.0.0.1:9";

/** How long the set-up may take: a build on two busy cores, or waiting for another worker's build. */
const SETUP_TIMEOUT_MS = 240_000;

/** What a browser test file needs beyond the defaults. */
export interface BrowserSuiteOptions {
  /** Build settings read by webpack.config.js (e.g. RISK_REQUIRE_CONNECTION); none: the usual build. */
  buildEnv?: Record<string, string>;
  /**
   * "file": one emulator, started before the first test and behind the server for every test.
   * "test" (the default): none until a test calls `freshEmulator`.
   */
  emulator?: "file" | "test";
}

/** The running pieces of a browser test file; read them inside tests (they exist once beforeAll ran). */
export interface BrowserSuite {
  readonly browser: Browser;
  readonly server: AddinServer;
  /** The emulator behind the server now: the test's fresh one, else the file's. */
  readonly emulator: RunningEmulator;
  /** Start an in-process emulator for this test and put it behind /emulator; closed after the test. */
  freshEmulator(options?: EmulatorOptions): Promise<RunningEmulator>;
  /** Open the harness in a fresh browser context; closed after the test. `demo: false`: an empty workbook. */
  openHarness(options?: { demo?: boolean; pane?: "hidden"; lang?: string }): Promise<HarnessPage>;
}

/** `describe` when chromium is installed, otherwise `describe.skip` after a warning naming the file. */
export function describeWithBrowser(testFile: string): jest.Describe {
  return browserAvailable(path.relative(ROOT, testFile)) ? describe : describe.skip;
}

/** Register the shared set-up and clean-up hooks of a browser test file (call it inside its describe). */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let browser: Browser | undefined;
  let server: AddinServer | undefined;
  let fileEmulator: RunningEmulator | undefined;
  let testEmulator: RunningEmulator | undefined;
  let pages: HarnessPage[] = [];

  beforeAll(async () => {
    // Launch while webpack builds; both are assigned before either can fail, so afterAll cleans up.
    const launching = launchBrowser().then((b) => (browser = b));
    const buildDir = await addinBuild(options.buildEnv).finally(() => launching.catch(() => undefined));
    await launching;
    if (options.emulator === "file") fileEmulator = await startBrowserEmulator();
    server = await startAddinServer(buildDir, fileEmulator?.url ?? NO_EMULATOR_URL);
  }, SETUP_TIMEOUT_MS);

  afterEach(async () => {
    for (const page of pages) {
      if (page.problems.length) console.warn(`page problems:\n${page.problems.join("\n")}`);
      await page.close();
    }
    pages = [];
    await testEmulator?.close();
    testEmulator = undefined;
    server?.setEmulator(fileEmulator?.url ?? NO_EMULATOR_URL);
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
    await fileEmulator?.close();
  });

  const running = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`no ${what}: the browser suite's beforeAll has not run or failed`);
    return value;
  };

  return {
    get browser() {
      return running("browser", browser);
    },
    get server() {
      return running("add-in server", server);
    },
    get emulator() {
      return running("emulator", testEmulator ?? fileEmulator);
    },
    async freshEmulator(emulatorOptions: EmulatorOptions = {}) {
      await testEmulator?.close();
      testEmulator = await startBrowserEmulator(emulatorOptions);
      running("add-in server", server).setEmulator(testEmulator.url);
      return testEmulator;
    },
    async openHarness(harnessOptions = {}) {
      const page = await openHarness(
        running("browser", browser),
        running("add-in server", server).origin,
        harnessOptions,
      );
      pages.push(page);
      return page;
    },
  };
}
