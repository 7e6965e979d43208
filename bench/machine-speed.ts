/**
 * How fast this machine does the add-in's own heaviest work outside Excel's batches: decoding and
 * parsing the service's answers, in ms a MB. The weekly refresh's bound counts this work at a stated
 * pace (ANSWER_MS_PER_MB), not this machine's, and none of the add-in's other work, so its wall ÷
 * bound follows the machine's speed (the same code measured × 1.13 and × 1.33 an hour apart, before
 * the answers were counted: bench/history/weekly-refresh.md). The weekly refresh
 * measures this right before each refresh, so each ratio in bench/results.md comes with the speed
 * it was measured at; `bench/calibrate-decode.ts` measures the same in Node and in Chromium.
 */
import type { RiskClient } from "../src/api/client";

/** ms a MB of decoding, parsing and both. */
export interface DecodeCost {
  decode: number;
  parse: number;
  total: number;
}

/**
 * ms a MB of `pages` decodes of `base64`'s bytes with a TextDecoder, each then parsed, every parsed
 * page kept as a refresh holds its answers (as `decodeBody` does). Self-contained (no import, no
 * closure) so that a browser page can evaluate its source.
 */
export function measureDecode(base64: string, pages: number): DecodeCost {
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

/** The median of each figure over `runs` (each figure on its own). */
export function medianCost(runs: readonly DecodeCost[]): DecodeCost {
  const median = (pick: (r: DecodeCost) => number) =>
    runs.map(pick).sort((x, y) => x - y)[Math.floor(runs.length / 2)]!;
  return { decode: median((r) => r.decode), parse: median((r) => r.parse), total: median((r) => r.total) };
}

/**
 * One page of a portfolio's extended summary (up to 250 assets of one scenario, about 2 MB at 250),
 * as the service sent it, base64: the answers that weigh most in the weekly refresh.
 */
export async function extendedSummaryPage(client: RiskClient, portfolio: string): Promise<string> {
  const bytes = await client.transport.get<Uint8Array>(
    "bench.extendedSummaryPage",
    `/portfolios/${encodeURIComponent(portfolio)}/datasets/physical/summary`,
    undefined,
    { query: { extended: "true", scenario: "ssp126", page: 1, rows: 250 }, responseType: "bytes" },
  );
  return Buffer.from(bytes).toString("base64");
}

/**
 * This machine's decoding and parsing now, ms a MB: the median of five rounds of at least
 * `megabytes` each of `page`. The pace of this machine moves from second to second (the same
 * rounds, back to back in a quiet process, spread ±25 %), so it takes many short rounds' median. The
 * page's copies are garbage afterwards: collect before timing anything else.
 */
export function decodeSpeedNow(page: string, megabytes = 10): DecodeCost {
  const pageMb = (page.length * 0.75) / 1e6;
  const pages = Math.max(1, Math.ceil(megabytes / Math.max(pageMb, 1e-6)));
  return medianCost([0, 1, 2, 3, 4].map(() => measureDecode(page, pages)));
}
