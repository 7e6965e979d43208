/**
 * What decoding and parsing the service's answers costs the add-in's thread, per MB, in Node (the
 * bench's add-in) and in Chromium (the engine of Excel's WebView2): `npx tsx bench/calibrate-decode.ts`.
 * One page of the emulator's extended summary (250 assets, one scenario) is decoded with a
 * TextDecoder and parsed 60 times, as `decodeBody` does (about three scenarios' extended summary of a
 * 5,000-asset portfolio), keeping every parsed page as a refresh holds its answers; median of three
 * rounds. For weighing the weekly refresh's bound (bench/history/weekly-refresh.md); not part of
 * `npm run bench`. Chromium is skipped, saying so, when it is not installed.
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { RiskClient } from "../src/api/client";
import { benchConnection, spawnEmulator } from "./emulator-process";
import { setUpPortfolio } from "./portfolio";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const PAGES = 60;

/** ms a MB of decoding, parsing and both, for `pages` decodes of `base64`'s bytes (runs in Node and in the page). */
function measure(base64: string, pages: number): { decode: number; parse: number; total: number } {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const decoder = new TextDecoder("utf-8");
  const kept: unknown[] = [];
  let decode = 0;
  let parse = 0;
  const started = performance.now();
  for (let i = 0; i < pages; i++) {
    const a = performance.now();
    const text = decoder.decode(bytes);
    const b = performance.now();
    kept.push(JSON.parse(text));
    decode += b - a;
    parse += performance.now() - b;
  }
  const mb = (bytes.length * pages) / 1e6;
  return { decode: decode / mb, parse: parse / mb, total: (performance.now() - started) / mb };
}

function medianOf(runs: Array<ReturnType<typeof measure>>): string {
  const median = (pick: (r: ReturnType<typeof measure>) => number) =>
    runs
      .map(pick)
      .sort((x, y) => x - y)
      [Math.floor(runs.length / 2)]!.toFixed(1);
  return `decode ${median((r) => r.decode)}, parse ${median((r) => r.parse)}, both ${median((r) => r.total)} ms a MB`;
}

async function main(): Promise<void> {
  const emulator = await spawnEmulator({ latencyMs: 0 });
  try {
    // The client's own request (its headers, base URL and errors), its answer kept as bytes.
    const client = new RiskClient(benchConnection(emulator));
    await setUpPortfolio(client, "calibrate-decode", 250);
    const bytes = Buffer.from(
      await client.transport.get<Uint8Array>(
        "bench.extendedSummaryPage",
        "/portfolios/calibrate-decode/datasets/physical/summary",
        undefined,
        { query: { extended: "true", scenario: "ssp126", page: 1, rows: 250 }, responseType: "bytes" },
      ),
    );
    const base64 = bytes.toString("base64");
    console.log(`one page: ${(bytes.length / 1e6).toFixed(2)} MB, decoded and parsed ${PAGES} times a round`);
    console.log(`Node ${process.version}: ${medianOf([0, 1, 2].map(() => measure(base64, PAGES)))}`);
    if (!existsSync(CHROMIUM)) {
      console.log(`Chromium: skipped (${CHROMIUM} is not installed; apt install chromium)`);
      return;
    }
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    });
    try {
      const page = await browser.newPage();
      const runs: Array<ReturnType<typeof measure>> = [];
      // A page's own function: the source of `measure`, evaluated there (nothing of Node's crosses).
      for (let i = 0; i < 3; i++)
        runs.push(await page.evaluate(`(${measure.toString()})(${JSON.stringify(base64)}, ${PAGES})`));
      console.log(`Chromium ${browser.version()}: ${medianOf(runs)}`);
    } finally {
      await browser.close();
    }
  } finally {
    await emulator.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
