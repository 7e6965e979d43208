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
import { extendedSummaryPage, measureDecode, medianCost, type DecodeCost } from "./machine-speed";
import { setUpPortfolio } from "./portfolio";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const PAGES = 60;

const shown = (cost: DecodeCost) =>
  `decode ${cost.decode.toFixed(1)}, parse ${cost.parse.toFixed(1)}, both ${cost.total.toFixed(1)} ms a MB`;

async function main(): Promise<void> {
  const emulator = await spawnEmulator({ latencyMs: 0 });
  try {
    // The client's own request (its headers, base URL and errors), its answer kept as sent (base64).
    const client = new RiskClient(benchConnection(emulator));
    await setUpPortfolio(client, "calibrate-decode", 250);
    const base64 = await extendedSummaryPage(client, "calibrate-decode");
    console.log(`one page: ${((base64.length * 0.75) / 1e6).toFixed(2)} MB, decoded and parsed ${PAGES} times a round`);
    console.log(`Node ${process.version}: ${shown(medianCost([0, 1, 2].map(() => measureDecode(base64, PAGES))))}`);
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
      const runs: DecodeCost[] = [];
      // A page's own function: the source of `measureDecode`, evaluated there (nothing of Node's crosses).
      for (let i = 0; i < 3; i++)
        runs.push(await page.evaluate(`(${measureDecode.toString()})(${JSON.stringify(base64)}, ${PAGES})`));
      console.log(`Chromium ${browser.version()}: ${shown(medianCost(runs))}`);
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
