/**
 * Invalidation, the engine's part: after a portfolio's assets are replaced, the RISK.* data of
 * that portfolio answers from the 10-minute cache until the pane drops those entries. Against the
 * emulator over HTTP, with the loaders the functions use.
 */
import { RiskEngine } from "../../src/functions/engine/engine";
import {
  dataChangeMatcher,
  natureSubprojects,
  portfolioAssets,
  portfolioList,
  portfolioSummary,
} from "../../src/functions/data-loaders";
import { formatDataKey } from "../../src/functions/engine/cache-key";
import { LastGoodCache, MemoryStorage } from "../../src/functions/engine/last-good-cache";
import { importPortfolio } from "./support/emulator";
import { startTestService, type TestService } from "../support/emulator";

let fixture: TestService;
let engine: RiskEngine;
const signal = () => new AbortController().signal;

beforeAll(async () => {
  fixture = await startTestService({ processingDelayMs: 30 });
  engine = new RiskEngine({ connection: fixture.connection, maxRetries: 0 });
});
afterAll(() => fixture.emulator.close());

const sites = (prefix: string, n: number, lat0: number) =>
  [
    "entity_id,entity_name,lat,lng",
    ...Array.from({ length: n }, (_, i) => `${prefix}${i},Site ${i},${lat0 + i * 7},${10 + i * 13}`),
  ].join("\n");

test("a re-synced portfolio answers from the cache until invalidated; then from the service; other portfolios stay cached", async () => {
  await importPortfolio(fixture.client, "inv-a", sites("A", 3, -40));
  await importPortfolio(fixture.client, "inv-b", sites("B", 2, 5));
  const before = await portfolioSummary(engine, "inv-a", "ssp585", 30, signal());
  await portfolioSummary(engine, "inv-b", "ssp585", 30, signal());
  expect(before.size).toBe(3);

  await importPortfolio(fixture.client, "inv-a", sites("N", 5, 30)); // the service now holds other assets
  expect((await portfolioSummary(engine, "inv-a", "ssp585", 30, signal())).size).toBe(3); // the bug: old numbers

  const dropped = engine.invalidate(dataChangeMatcher({ kind: "portfolio", portfolio: "inv-a" }));
  expect(dropped).toBe(1);
  const stats = engine.stats();
  const after = await portfolioSummary(engine, "inv-a", "ssp585", 30, signal());
  expect(after.size).toBe(5);
  const fresh = await fixture.client.datasets.summary("inv-a", { scenario: "ssp585", window: 30 }).all();
  expect(after.get(0)!.get("wildfire")!.risk_score).toBe(
    fresh[0].risk_summaries.find((s) => s.hazard === "wildfire")!.risk_score,
  );
  expect(after.get(0)!.get("wildfire")!.risk_score).not.toBe(before.get(0)!.get("wildfire")!.risk_score);

  await portfolioSummary(engine, "inv-b", "ssp585", 30, signal());
  const later = engine.stats();
  expect(later.loads - stats.loads).toBe(1); // inv-a only
  expect(later.cacheHits - stats.cacheHits).toBe(1); // inv-b from the cache
});

test("a load under way when its data changes finishes for its callers but is not cached", async () => {
  await importPortfolio(fixture.client, "inv-c", sites("C", 2, 0));
  const running = portfolioAssets(engine, "inv-c", signal());
  engine.invalidate(dataChangeMatcher({ kind: "portfolio", portfolio: "inv-c" }));
  expect(await running).toHaveLength(2);
  const loads = engine.stats().loads;
  await portfolioAssets(engine, "inv-c", signal());
  expect(engine.stats().loads).toBe(loads + 1);
});

test("the portfolio list and the nature list are dropped by the changes that alter them", async () => {
  await portfolioList(engine, signal());
  await natureSubprojects(engine, signal());
  expect(engine.invalidate(dataChangeMatcher({ kind: "nature" }))).toBe(1);
  expect(engine.invalidate(dataChangeMatcher({ kind: "portfolio", portfolio: "anything" }))).toBe(1); // the list
});

test("which keys a change names", () => {
  const portfolio = dataChangeMatcher({ kind: "portfolio", portfolio: "sites" });
  for (const key of [
    "summary|sites|ssp585|30",
    "extended|sites|ssp126",
    "items|sites|wildfire|ssp585|unified_prob|mid",
    "assets|sites",
    "layer|7|sites",
    formatDataKey({ kind: "layer", vector: "a|b", portfolio: "sites" }),
    "portfolios",
  ]) {
    expect(portfolio(key) ? key : `not ${key}`).toBe(key);
  }
  for (const key of [
    "summary|sites2|ssp585|30",
    "assets|site",
    "layer|sites|other",
    "search|1|2",
    "projects",
    "nature|subprojects",
  ]) {
    expect(portfolio(key) ? `matched ${key}` : key).toBe(key);
  }
  const nature = dataChangeMatcher({ kind: "nature" });
  expect(nature("nature|subprojects")).toBe(true);
  expect(nature("nature|export|abc")).toBe(false);
});

test("with a persistent cache, an invalidated portfolio reaches the service instead of the copy kept on disk", async () => {
  const persistent = new RiskEngine({
    connection: fixture.connection,
    maxRetries: 0,
    lastGood: new LastGoodCache(new MemoryStorage()),
  });
  await importPortfolio(fixture.client, "inv-p", sites("P", 2, -10));
  expect((await portfolioSummary(persistent, "inv-p", "ssp585", 30, signal())).size).toBe(2);
  await persistent.flushPersistent();

  await importPortfolio(fixture.client, "inv-p", sites("Q", 4, 20));
  persistent.invalidate(dataChangeMatcher({ kind: "portfolio", portfolio: "inv-p" }));
  const requests = persistent.stats().requests;
  expect((await portfolioSummary(persistent, "inv-p", "ssp585", 30, signal())).size).toBe(4);
  expect(persistent.stats().persistentHits).toBe(0);
  expect(persistent.stats().requests).toBeGreaterThan(requests);
});
