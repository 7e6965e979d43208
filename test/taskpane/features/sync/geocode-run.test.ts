/**
 * Asking a geocoder over real HTTP (the emulator's stand-in on 127.0.0.1): both formats, only the
 * address fields in the URL and the key never in one, each failure named (401, 429, 5xx, a timeout,
 * an unreachable host), what was found kept, a cancelled run resumed from the cache.
 */
import { startTestGeocoder } from "../../../support/emulator";
import type { RunningGeocoder } from "../../../../emulator/geocoder/server";
import { memoryStorage } from "../../../../src/shared/connection";
import type { GeocoderSettings } from "../../../../src/shared/geocoder-connection";
import { addressRows } from "../../../../src/taskpane/features/sync/model/geocode/address-rows";
import { GeocodeCache } from "../../../../src/taskpane/features/sync/geocode-cache";
import { geocodeRows, GeocoderFailure } from "../../../../src/taskpane/features/sync/geocode-run";

const SHEET = [
  ["Site", "Address", "Country", "Owner"],
  ["HQ", "10 Downing Street, London", "GB", "secret-owner"],
  ["Shop", "Rue de Rivoli, Paris", "France", "secret-owner"],
  ["Depot", "Springfield", "US", "secret-owner"],
  ["Office", "Bavaria", "DE", "secret-owner"],
];
const rows = addressRows(SHEET, "Sites!A1:D5").rows;

let geocoder: RunningGeocoder;
beforeEach(async () => {
  geocoder = await startTestGeocoder({ apiKey: "geo-secret-key" });
});
afterEach(() => geocoder.close());

const settings = (over: Partial<GeocoderSettings> = {}): GeocoderSettings => ({
  kind: "pelias",
  url: geocoder.url,
  apiKey: "geo-secret-key",
  perSecond: 100,
  concurrency: 4,
  ...over,
});
const fresh = () => new GeocodeCache(memoryStorage());

test.each(["pelias", "nominatim"] as const)(
  "%s: each row's places, precision from the format, the key only in a header",
  async (kind) => {
    const run = await geocodeRows({ settings: settings({ kind, email: "ops@example.com" }), rows, cache: fresh() });
    expect(run.stopped).toBeUndefined();
    expect(run.outcomes.map((o) => [o.row.sheetRow, o.places?.[0]?.precision, o.places?.length])).toEqual([
      [2, "address", 1],
      [3, "street", 1],
      [4, "city", 2],
      [5, "region", 1],
    ]);
    const hq = run.outcomes[0]!.places![0]!;
    expect(hq.lat).toBeCloseTo(51.5, 1);
    expect(hq.lng).toBeCloseTo(-0.13, 1);
    expect(hq.country).toBe("GB");
    expect(hq.confidence === undefined).toBe(kind === "nominatim");
    const sent = geocoder.requests.join("\n");
    expect(sent).not.toMatch(/geo-secret-key|secret-owner|Site|HQ/);
    expect(sent).toContain(kind === "pelias" ? "boundary.country=GB" : "countrycodes=gb");
    if (kind === "nominatim") expect(sent).toContain("email=ops%40example.com");
  },
);

test("a refused key stops the run, named, without the key in the message", async () => {
  const run = await geocodeRows({ settings: settings({ apiKey: "wrong-key-123" }), rows, cache: fresh() });
  expect(run.stopped).toBeInstanceOf(GeocoderFailure);
  const failure = run.stopped as GeocoderFailure;
  expect([failure.kind, failure.status]).toEqual(["unauthorized", 401]);
  expect(failure.message).toMatch(/refused the key \(401\)/);
  expect(failure.message).not.toContain("wrong-key-123");
  expect(run.outcomes).toEqual([]);
});

test("a 429 waits for its Retry-After, then goes on; without one, backs off", async () => {
  geocoder.fault({ status: 429, retryAfter: 1, count: 1 });
  const started = performance.now();
  const run = await geocodeRows({ settings: settings({ concurrency: 1 }), rows, cache: fresh() });
  expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  expect(run.outcomes.every((o) => o.places)).toBe(true);
  geocoder.fault({ status: 429, count: 7 });
  const stuck = await geocodeRows({
    settings: settings({ concurrency: 1 }),
    rows: rows.slice(0, 1),
    cache: fresh(),
    maxRetries: 1,
  });
  expect((stuck.stopped as GeocoderFailure).kind).toBe("rate-limited");
});

test("a 5xx is retried, then the row is named and the run goes on", async () => {
  geocoder.fault({ status: 503, count: 3 });
  const run = await geocodeRows({ settings: settings({ concurrency: 1, perSecond: 1000 }), rows, cache: fresh() });
  expect(run.stopped).toBeUndefined();
  expect(run.outcomes[0]!.failure?.message).toMatch(/failed \(503\)/);
  expect(run.outcomes.slice(1).every((o) => o.places)).toBe(true);
}, 15_000);

test("a timeout is named per row", async () => {
  geocoder.fault({ hang: true, count: 1 });
  const run = await geocodeRows({
    settings: settings({ concurrency: 1 }),
    rows: rows.slice(0, 2),
    cache: fresh(),
    timeoutMs: 300,
  });
  expect(run.outcomes[0]!.failure?.kind).toBe("timeout");
  expect(run.outcomes[0]!.failure?.message).toMatch(/did not answer within/);
  expect(run.outcomes[1]!.places).toHaveLength(1);
});

test("an unreachable geocoder stops the run with the CORS-or-network message", async () => {
  const url = geocoder.url;
  await geocoder.close();
  const run = await geocodeRows({ settings: { ...settings(), url }, rows, cache: fresh() });
  expect((run.stopped as GeocoderFailure).message).toMatch(
    /Could not reach the geocoder .*, or it refuses this add-in's origin/,
  );
  geocoder = await startTestGeocoder();
});

test("cancelled, what was found is kept; the next run asks only the rest, at most `concurrency` at once", async () => {
  const cache = fresh();
  const controller = new AbortController();
  const first = await geocodeRows({
    settings: settings({ concurrency: 1, perSecond: 20 }),
    rows,
    cache,
    signal: controller.signal,
    onRow: (_, done) => done === 2 && controller.abort(),
  });
  expect(first.stopped).toBe("cancelled");
  expect(first.outcomes.map((o) => o.row.sheetRow)).toEqual([2, 3]);
  const asked = geocoder.requests.length;
  const second = await geocodeRows({ settings: settings({ concurrency: 2 }), rows, cache });
  expect(second.outcomes.map((o) => Boolean(o.cached))).toEqual([true, true, false, false]);
  expect(geocoder.requests.length - asked).toBe(2);
  expect(geocoder.maxInFlight).toBeLessThanOrEqual(2);
});

test("the cache keeps within its budget, least recently used first, and a store that refuses leaves the run going", async () => {
  const storage = memoryStorage();
  const place = { lat: 1, lng: 2, label: "x".repeat(200), precision: "city" as const, source: "g" };
  const small = new GeocodeCache(storage, 2_000);
  for (let i = 0; i < 20; i++) await small.set(`k${i}`, [place]);
  await small.get("k0"); // used again: kept over the others
  await small.flush();
  const stored = (await storage.getItem("climate-risk.geocode-cache"))!;
  expect(stored.length).toBeLessThanOrEqual(2_000);
  const reread = new GeocodeCache(storage, 2_000);
  expect(await reread.get("k0")).toEqual([place]);
  expect(await reread.get("k1")).toBeUndefined();
  const refusing = { ...memoryStorage(), setItem: async () => Promise.reject(new Error("QuotaExceededError")) };
  const full = new GeocodeCache(refusing);
  const run = await geocodeRows({ settings: settings(), rows: rows.slice(0, 1), cache: full });
  expect(run.outcomes[0]!.places).toHaveLength(1);
});
