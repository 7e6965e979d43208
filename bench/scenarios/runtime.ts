/**
 * The shared runtime with the pane hidden: what the add-in's page costs when Excel loads it only
 * for the RISK functions. A production build (default service: the emulator, through this
 * scenario's own /emulator proxy) runs in Debian's chromium with its document reporting
 * `visibilityState: "hidden"`, as Excel desktop's web view of a closed pane does (office.js will
 * not run outside Office in a frame, so a hidden iframe cannot play Excel on the web here); the
 * same page shown is the comparison. Measured per run: bytes the page loaded (the add-in's
 * scripts, raw and gzipped, and everything from the add-in's origin), main-thread script time and
 * JS heap after a garbage collection (Chrome DevTools Protocol Performance metrics), and the time
 * from the page's start to the first RISK.SEARCH value (the function the page associated, called
 * as soon as it exists).
 * Medians of three runs. Figures, not a pass/fail.
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import type { Check, ScenarioResult } from "../context";
import { fmt } from "../format";
import { buildForSizes } from "./bundle";

const ROOT = resolve(__dirname, "../..");
const OFFICE_JS_DIR = join(ROOT, "node_modules", "@microsoft", "office-js", "dist");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const RUNS = 3;

/** One run's figures. */
export interface RuntimeRun {
  /** Bytes of the add-in's own scripts the page loaded (raw, gzipped at level 9). */
  addinScriptBytes: number;
  addinScriptGzip: number;
  /** Every response body the page loaded from the add-in's origin (office.js comes from Microsoft's CDN). */
  allBytes: number;
  /** Scripts loaded, by file name. */
  scripts: string[];
  /** Main-thread script time (ms) until 2 s after the first value. */
  scriptMs: number;
  /** JS heap in use after a garbage collection (MB). */
  heapMb: number;
  /** Page start to the first RISK.SEARCH value (ms). */
  firstValueMs: number;
}

/** Serves the build, office.js (for the CDN URL) and the /emulator proxy on 127.0.0.1. */
async function serve(dir: string, emulatorUrl: string): Promise<{ origin: string; close(): Promise<void> }> {
  const target = new URL(emulatorUrl);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname.startsWith("/emulator/")) {
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: url.pathname.slice("/emulator".length) + url.search,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", () => response.writeHead(502).end());
      request.pipe(upstream);
      return;
    }
    const base = url.pathname.startsWith("/office-js/") ? OFFICE_JS_DIR : dir;
    const relative = url.pathname.startsWith("/office-js/") ? url.pathname.slice(11) : url.pathname.slice(1);
    const file = resolve(base, decodeURIComponent(relative));
    if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    const type = file.endsWith(".html") ? "text/html" : file.endsWith(".js") ? "text/javascript" : "application/json";
    response.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The document of a closed pane: hidden, as the web view reports it. */
const HIDDEN_PANE = `Object.defineProperty(Document.prototype, "visibilityState", { get: () => "hidden" });
Object.defineProperty(Document.prototype, "hidden", { get: () => true });`;

/** Calls RISK.SEARCH as soon as the page associated it, and notes when its value came. */
const FIRST_VALUE_PROBE = `(() => {
  const poll = () => {
    const search = window.CustomFunctions?._association?.mappings?.SEARCH;
    if (!search) return setTimeout(poll, 2);
    Promise.resolve(search(51.5, -0.12, "floods", "30yr", null, null, { address: "Sheet1!A1", onCanceled: null }))
      .then((value) => { window.__firstValue = { ms: performance.now(), value }; },
            (error) => { window.__firstValue = { ms: performance.now(), error: String(error && error.message || error) }; });
  };
  poll();
})();`;

async function measureOnce(
  browser: Browser,
  origin: string,
  dir: string,
  pane: "hidden" | "shown",
): Promise<RuntimeRun> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route("https://appsforoffice.microsoft.com/**", (route) => {
      const name = new URL(route.request().url()).pathname.split("/").pop() ?? "office.js";
      return route.fulfill({ path: join(OFFICE_JS_DIR, name) });
    });
    if (pane === "hidden") await page.addInitScript(HIDDEN_PANE);
    await page.addInitScript(FIRST_VALUE_PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(`${origin}/taskpane.html`);
    const frame = page.mainFrame();
    const first = (await (
      await frame.waitForFunction(() => (window as unknown as { __firstValue?: unknown }).__firstValue, null, {
        timeout: 60_000,
        polling: 20,
      })
    ).jsonValue()) as { ms: number; value?: unknown; error?: string };
    // SEARCH answers a 1x1 array (it takes ranges and spills one result per row).
    const score = Array.isArray(first.value) ? (first.value as unknown[][])[0]?.[0] : first.value;
    if (first.error !== undefined || typeof score !== "number")
      throw new Error(`RISK.SEARCH gave ${first.error ?? JSON.stringify(first.value)} instead of a score`);
    // Whatever the page loads after the first value (the UI chunk, when it loads one) counts too.
    await page.waitForTimeout(2_000);
    const resources = await frame.evaluate(() =>
      [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((entry) => ({
        name: entry.name,
        bytes: (entry as PerformanceResourceTiming).encodedBodySize,
      })),
    );
    await cdp.send("HeapProfiler.collectGarbage");
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    const ours = resources.filter((r) => r.name.startsWith(origin) && /\/[^/]+\.js$/.test(new URL(r.name).pathname));
    const scripts = ours.map((r) => new URL(r.name).pathname.slice(1)).filter((f) => !f.startsWith("office-js/"));
    return {
      addinScriptBytes: scripts.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0),
      addinScriptGzip: scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0),
      allBytes: resources.reduce((sum, r) => sum + r.bytes, 0),
      scripts,
      scriptMs: metric("ScriptDuration") * 1000,
      heapMb: metric("JSHeapUsedSize") / 1024 / 1024,
      firstValueMs: first.ms,
    };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The medians of three runs with the pane hidden and with it shown. */
export async function measureRuntime(
  emulatorUrl: string,
  options: { dir?: string; log?: (message: string) => void } = {},
): Promise<Record<"hidden" | "shown", RuntimeRun>> {
  const build = buildForSizes(options.dir, { RISK_DEFAULT_SERVICE_URL: "/emulator" });
  const server = await serve(build.dir, emulatorUrl);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const out = {} as Record<"hidden" | "shown", RuntimeRun>;
    for (const pane of ["hidden", "shown"] as const) {
      const runs: RuntimeRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        runs.push(await measureOnce(browser, server.origin, build.dir, pane));
        options.log?.(`runtime, pane ${pane}: run ${i + 1} first value ${Math.round(runs[i]!.firstValueMs)} ms`);
      }
      const pick = (key: keyof RuntimeRun) => median(runs.map((r) => r[key] as number));
      out[pane] = {
        addinScriptBytes: pick("addinScriptBytes"),
        addinScriptGzip: pick("addinScriptGzip"),
        allBytes: pick("allBytes"),
        scripts: runs[0]!.scripts,
        scriptMs: pick("scriptMs"),
        heapMb: pick("heapMb"),
        firstValueMs: pick("firstValueMs"),
      };
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
    build.cleanup();
  }
}

/** Scenario "runtime": the shared runtime's cost with the pane hidden, against the pane shown. */
export async function runtimeScenario(emulatorUrl: string, log?: (message: string) => void): Promise<ScenarioResult> {
  // BENCH_RUNTIME_BUILD: measure that production build (built with RISK_DEFAULT_SERVICE_URL=/emulator) as it is.
  const { hidden, shown } = await measureRuntime(emulatorUrl, { log, dir: process.env.BENCH_RUNTIME_BUILD });
  const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
  const checks: Check[] = [
    {
      name: "pane hidden: no task pane UI chunk loaded",
      pass: !hidden.scripts.some((s) => s.startsWith("taskpane-ui")),
      detail: hidden.scripts.join(", "),
    },
  ];
  const details: Record<string, number | string> = {};
  for (const [pane, run] of Object.entries({ hidden, shown })) {
    details[`${pane}: add-in scripts raw`] = run.addinScriptBytes;
    details[`${pane}: add-in scripts gzip`] = run.addinScriptGzip;
    details[`${pane}: bytes from the add-in's origin`] = run.allBytes;
    details[`${pane}: script ms`] = Math.round(run.scriptMs);
    details[`${pane}: heap MB`] = Number(run.heapMb.toFixed(1));
    details[`${pane}: first RISK value ms`] = Math.round(run.firstValueMs);
    details[`${pane}: scripts`] = run.scripts.join(" ");
  }
  return {
    id: "runtime",
    scenario: "Shared runtime with the pane hidden (chromium, production build)",
    requests: null,
    requestNote:
      `hidden: ${kb(hidden.addinScriptGzip)} gz of add-in scripts, ${Math.round(hidden.scriptMs)} ms script, ` +
      `${fmt(hidden.heapMb, 1)} MB heap; shown: ${kb(shown.addinScriptGzip)} gz, ${Math.round(shown.scriptMs)} ms, ` +
      `${fmt(shown.heapMb, 1)} MB`,
    wallMs: Math.round(hidden.firstValueMs),
    boundMs: null,
    boundNote: `first RISK value: ${Math.round(hidden.firstValueMs)} ms hidden, ${Math.round(shown.firstValueMs)} ms shown`,
    naiveMs: null,
    memory: null,
    target: "pane hidden: the UI chunk is not loaded",
    status: checks.every((c) => c.pass) ? "PASS" : "MISS",
    checks,
    details,
  };
}
