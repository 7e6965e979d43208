import { memoryStorage } from "../../src/shared/connection";
import type { GeocoderSettings } from "../../src/shared/geocoder-connection";
import { GeocodeCache } from "../../src/taskpane/features/sync/geocode-cache";
import { geocodeRows } from "../../src/taskpane/features/sync/geocode-run";
import type { AddressRow } from "../../src/taskpane/features/sync/model/geocode/address-rows";
import { estimateMs } from "../../src/taskpane/features/sync/model/geocode/pace";
import { spawnGeocoder } from "../emulator-process";
import { statusOf, type BenchContext, type Check, type ScenarioResult } from "../context";
import { fmt, round } from "../format";

/** Distinct addresses the stand-in's gazetteer places (a house number in a known city). */
function addresses(count: number, offset: number): AddressRow[] {
  return Array.from({ length: count }, (_, i) => ({
    index: i + 1,
    sheetRow: i + 2,
    shown: `${offset + i} Bench Road, Berlin`,
    query: { text: `${offset + i} Bench Road, Berlin`, country: "DE" },
  }));
}

interface Case {
  name: string;
  count: number;
  perSecond: number;
  concurrency: number;
  latencyMs: number;
}

interface CaseResult {
  elapsedMs: number;
  estimateMs: number;
  timedLatencyMs: number;
  found: number;
  maxInFlight: number;
}

/**
 * One run as the pane makes it: 20 addresses first time the answers' latency (the pane keeps
 * the last one timed per geocoder), then the estimate it would show, then the run on the real clock.
 */
async function runCase(c: Case, offset: number): Promise<CaseResult> {
  const geocoder = await spawnGeocoder(c.latencyMs);
  try {
    const settings: GeocoderSettings = {
      kind: "pelias",
      url: geocoder.url,
      perSecond: c.perSecond,
      concurrency: c.concurrency,
    };
    const cache = new GeocodeCache(memoryStorage());
    const warm = await geocodeRows({
      settings: { ...settings, perSecond: 1000 },
      rows: addresses(20, offset - 50),
      cache,
    });
    const timedLatencyMs = warm.latencyMs ?? c.latencyMs;
    const estimate = estimateMs(c.count, {
      perSecond: c.perSecond,
      concurrency: c.concurrency,
      latencyMs: timedLatencyMs,
    });
    const started = performance.now();
    const run = await geocodeRows({ settings, rows: addresses(c.count, offset), cache });
    const elapsedMs = performance.now() - started;
    return {
      elapsedMs,
      estimateMs: estimate,
      timedLatencyMs,
      found: run.outcomes.filter((o) => o.places && o.places.length > 0).length,
      maxInFlight: await geocoder.maxInFlight(),
    };
  } finally {
    geocoder.stop();
  }
}

/**
 * Geocoding at an honest pace (issue 39), against the geocoder stand-in in its own process (as
 * the emulator runs) on the real clock: the estimate the pane shows before starting is within 10 %
 * of the time taken over 1,000 addresses at 20 requests a second and over 60 at one a second; with
 * 20 requests at once and 100 ms latency, 5,000 addresses take at most 1.2 × ⌈5,000 / 20⌉ × 100 ms.
 */
export async function geocodeScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { atTwentyPerSecond, atOnePerSecond, twentyAtOnce } = ctx.scale.geocode;
  const count = (n: number) => n.toLocaleString("en-US");
  const cases: Case[] = [
    {
      name: `${count(atTwentyPerSecond)} at 20/s`,
      count: atTwentyPerSecond,
      perSecond: 20,
      concurrency: 4,
      latencyMs: ctx.latencyMs,
    },
    {
      name: `${count(atOnePerSecond)} at 1/s`,
      count: atOnePerSecond,
      perSecond: 1,
      concurrency: 1,
      latencyMs: ctx.latencyMs,
    },
    {
      name: `${count(twentyAtOnce)}, 20 at once, 100 ms`,
      count: twentyAtOnce,
      perSecond: 1000,
      concurrency: 20,
      latencyMs: 100,
    },
  ];
  const results: CaseResult[] = [];
  for (const [i, c] of cases.entries()) {
    ctx.log(`geocode: ${c.name}…`);
    results.push(await runCase(c, 100_000 * (i + 1)));
  }
  const within = (r: CaseResult) => Math.abs(r.estimateMs - r.elapsedMs) / r.elapsedMs;
  const boundMs = 1.2 * Math.ceil(twentyAtOnce / 20) * 100;
  const [a, b, c] = results as [CaseResult, CaseResult, CaseResult];
  const describe = (r: CaseResult) =>
    `estimate ${fmt(r.estimateMs / 1000)} s, took ${fmt(r.elapsedMs / 1000)} s (${fmt(within(r) * 100)} % off; latency timed ${fmt(r.timedLatencyMs)} ms), ${r.found} found, at most ${r.maxInFlight} at once`;
  const checks: Check[] = [
    {
      name: `estimate within 10 %: ${cases[0]!.name}`,
      pass: within(a) <= 0.1 && a.found === atTwentyPerSecond,
      detail: describe(a),
    },
    {
      name: `estimate within 10 %: ${cases[1]!.name}`,
      pass: within(b) <= 0.1 && b.found === atOnePerSecond && b.maxInFlight === 1,
      detail: describe(b),
    },
    {
      name: `${count(twentyAtOnce)} with 20 at once, 100 ms: ≤ 1.2 × ⌈${twentyAtOnce}/20⌉ × 100 ms`,
      pass: c.elapsedMs <= boundMs && c.found === twentyAtOnce && c.maxInFlight <= 20,
      detail: `${fmt(c.elapsedMs / 1000)} s of ${fmt(boundMs / 1000)} s; ${describe(c)}`,
    },
  ];
  return {
    id: "geocode",
    scenario: "Geocoding at the endpoint's pace (stand-in in its own process, real clock)",
    requests: null,
    requestNote: `requests go to the geocoder stand-in, not the emulator: ${count(atTwentyPerSecond)} + ${count(atOnePerSecond)} + ${count(twentyAtOnce)}, and 3 × 20 to time the latency`,
    wallMs: a.elapsedMs + b.elapsedMs + c.elapsedMs,
    boundMs,
    boundNote: `${count(twentyAtOnce)} addresses, 20 at once, 100 ms: 1.2 × ⌈${count(twentyAtOnce)} / 20⌉ × 100 ms`,
    naiveMs: null,
    memory: null,
    target: "estimate within 10 % (1,000 at 20/s; 60 at 1/s); 5,000 at 20 at once within 1.2 × the bound",
    status: statusOf(checks),
    checks,
    details: Object.fromEntries(
      results.flatMap((r, i) => [
        [`case${i + 1}ElapsedMs`, round(r.elapsedMs)],
        [`case${i + 1}EstimateMs`, round(r.estimateMs)],
        [`case${i + 1}LatencyMs`, round(r.timedLatencyMs)],
      ]),
    ),
  };
}
