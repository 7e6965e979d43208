import { RiskEngine } from "../../src/functions/engine/engine";
import { search } from "../../src/functions/formulas/search";
import { summary } from "../../src/functions/formulas/summary";
import { createInvocation } from "../../testing/invocation";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { searchAnswer, sendJson, startFakeService, type FakeService } from "./support/fake-service";

/**
 * The engine over real HTTP against a small fake service: de-duplication, bounded concurrency,
 * caching and refresh, failures that reach every waiting cell, time limits and cancellation.
 */

let uninstall: () => void;
beforeAll(() => {
  uninstall = installCustomFunctionsStub();
});
afterAll(() => uninstall());

const services: FakeService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function searchService(delayMs: number) {
  const service = await startFakeService(async (request, res) => {
    if (request.path !== "/api/search") return sendJson(res, { errors: ["no route"] }, 404);
    await delay(delayMs);
    sendJson(res, searchAnswer(Number(request.query.get("lat")), Number(request.query.get("lng"))));
  });
  services.push(service);
  return service;
}

function points(count: number): [number, number][] {
  return Array.from({ length: count }, (_, i) => [((i * 7) % 170) - 85 + i / 1000, ((i * 13) % 350) - 175]);
}

describe("batching and de-duplication", () => {
  test("cells asking for the same point share one request; distinct points run at most `concurrency` at once", async () => {
    const service = await searchService(20);
    const engine = new RiskEngine({ connection: service.connection, maxConcurrency: 3 });
    const where = points(30);
    const calls = where.flatMap(([lat, lng]) =>
      ["floods", "wildfire", "cyclones", "heatwaves", "drought"].map((hazard) => ({ lat, lng, hazard })),
    );
    const values = await Promise.all(
      calls.map((c) => search(engine, c.lat, c.lng, c.hazard, "30yr", null, null, createInvocation())),
    );

    expect(service.count("/api/search")).toBe(30);
    expect(service.peakOpen).toBeLessThanOrEqual(3);
    expect(service.peakOpen).toBeGreaterThan(1);
    calls.forEach((c, i) => {
      const expected = searchAnswer(c.lat, c.lng).features[0]!.properties.physical_risk_exposure.local["30yr"].find(
        (e) => e.hazard === c.hazard,
      )!;
      expect(values[i]).toEqual([[expected.score]]);
    });
    const stats = engine.stats();
    expect(stats).toMatchObject({ calls: 150, loads: 30, joined: 120, requests: 30, inFlight: 0, queued: 0 });
  });

  test("a second recalculation sends nothing; refresh() makes the next one fetch again", async () => {
    const service = await searchService(1);
    const engine = new RiskEngine({ connection: service.connection });
    const recalc = () =>
      Promise.all(points(20).map(([lat, lng]) => search(engine, lat, lng, "floods", 15, "background", "label")));
    const first = await recalc();
    expect(service.count("/api/search")).toBe(20);

    const second = await recalc();
    expect(service.count("/api/search")).toBe(20);
    expect(second).toEqual(first);
    expect(engine.stats().cacheHits).toBe(20);

    engine.refresh();
    await recalc();
    expect(service.count("/api/search")).toBe(40);
  });

  test("results expire after the time to live", async () => {
    const service = await searchService(1);
    const engine = new RiskEngine({ connection: service.connection, ttlMs: 60 });
    await search(engine, 10, 20, "floods", "30yr", null, null);
    await search(engine, 10, 20, "floods", "30yr", null, null);
    expect(service.count("/api/search")).toBe(1);
    await delay(100);
    await search(engine, 10, 20, "floods", "30yr", null, null);
    expect(service.count("/api/search")).toBe(2);
  });

  test("the cache key holds the connection: another service is asked, not answered from the first one's data", async () => {
    const first = await searchService(1);
    const second = await searchService(1);
    let current = first.connection;
    const engine = new RiskEngine({ connection: () => current });
    await search(engine, 1, 2, "floods", "30yr", null, null);
    current = second.connection;
    await search(engine, 1, 2, "floods", "30yr", null, null);
    expect(first.count("/api/search")).toBe(1);
    expect(second.count("/api/search")).toBe(1);
  });
});

describe("portfolio datasets", () => {
  test("600 SUMMARY cells over one portfolio cost the summary's pages, each cell answered from one index", async () => {
    const assets = 600;
    const service = await startFakeService((request, res) => {
      const page = Number(request.query.get("page"));
      const rows = Number(request.query.get("rows"));
      const items = [];
      for (let i = (page - 1) * rows; i < Math.min(assets, page * rows); i++) {
        items.push({
          portfolio_name: "p1",
          portfolio_index: i,
          entity_name: `e${i}`,
          entity_id: `${i}`,
          window: Number(request.query.get("window")),
          window_start_year: 2025,
          scenario: request.query.get("scenario"),
          risk_summaries: [
            { hazard: "flood_potential", risk_class: i % 2 ? "HIGH" : "LOW", risk_score: i / 1000 },
            { hazard: "wildfire", risk_class: "LOW", risk_score: i / 2000 },
          ],
        });
      }
      sendJson(res, items);
    });
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, readAhead: 2 });
    const scores = await Promise.all(
      Array.from({ length: assets }, (_, i) => summary(engine, "p1", i, "floods", null, null, null)),
    );
    const classes = await Promise.all(
      Array.from({ length: assets }, (_, i) => summary(engine, "p1", i, "flood_potential", "SSP245", 30, "class")),
    );

    // The single-cell form of the column functions is a 1×1 array (see columns.ts).
    expect(scores).toEqual(Array.from({ length: assets }, (_, i) => [[i / 1000]]));
    expect(classes[1]).toEqual([["HIGH"]]);
    // Pages 1-3 hold 250, 250, 100 items; with a read-ahead of 2 at most one page past the end is asked.
    expect(service.seen.every((r) => r.path === "/api/portfolios/p1/datasets/physical/summary")).toBe(true);
    const pages = service.seen.map((r) => Number(r.query.get("page"))).sort();
    expect(pages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(pages.length).toBeLessThanOrEqual(4);
    expect(
      service.seen.every(
        (r) => r.query.get("rows") === "250" && r.query.get("scenario") === "ssp245" && r.query.get("window") === "30",
      ),
    ).toBe(true);

    const missing = await cellError(summary(engine, "p1", assets, "floods", null, null, null));
    expect(missing).toEqual({ code: "#N/A", message: `No asset with index ${assets} in "p1"` });
    expect(service.seen.length).toBe(pages.length);
  });
});

describe("every call settles", () => {
  test("a failed load rejects every cell waiting on it, and the failure is kept only briefly", async () => {
    const service = await startFakeService((_request, res) => sendJson(res, { errors: ["boom"] }, 500));
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, maxRetries: 0, errorTtlMs: 80 });
    const errors = await Promise.all(
      Array.from({ length: 50 }, () => cellError(search(engine, 5, 5, "floods", "30yr", null, null))),
    );
    expect(service.count("/api/search")).toBe(1);
    expect(new Set(errors.map((e) => `${e.code} ${e.message}`))).toEqual(
      new Set(["#N/A The risk service failed (HTTP 500); recalculate to retry"]),
    );

    await cellError(search(engine, 5, 5, "floods", "30yr", null, null));
    expect(service.count("/api/search")).toBe(1);
    await delay(120);
    await cellError(search(engine, 5, 5, "floods", "30yr", null, null));
    expect(service.count("/api/search")).toBe(2);
    expect(engine.stats().failures).toBe(2);
  });

  test("a server that never answers yields error values within the time limit", async () => {
    const service = await startFakeService(() => undefined); // accepts, never answers
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, timeoutMs: 250, maxRetries: 0 });
    const started = Date.now();
    const errors = await Promise.all(
      points(12).map(([lat, lng]) => cellError(search(engine, lat, lng, "wildfire", "15yr", null, null))),
    );
    const elapsed = Date.now() - started;
    expect(
      errors.every(
        (e) => e.code === "#N/A" && e.message === "The risk service did not answer in time; recalculate to retry",
      ),
    ).toBe(true);
    expect(elapsed).toBeLessThan(2000);
  });

  test("the engine deadline ends the wait even when a single attempt may take longer, and aborts the request", async () => {
    const service = await startFakeService(() => undefined);
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, timeoutMs: 30_000, deadlineMs: 200 });
    const started = Date.now();
    const error = await cellError(search(engine, 1, 1, "floods", "30yr", null, null));
    expect(error.message).toBe("The risk service did not answer in time; recalculate to retry");
    expect(Date.now() - started).toBeLessThan(1500);
    await waitFor(() => service.closedEarly === 1);
    expect(engine.stats().aborted).toBe(1);
  });

  test("a load waiting for its turn is not late: a queue longer than the deadline still fills every cell", async () => {
    const service = await searchService(60);
    const engine = new RiskEngine({ connection: service.connection, maxConcurrency: 1, deadlineMs: 200 });
    const started = Date.now();
    const values = await Promise.all(
      points(8).map(([lat, lng]) => search(engine, lat, lng, "floods", "30yr", null, null)),
    );
    expect(Date.now() - started).toBeGreaterThan(400); // eight loads one after another, past the deadline
    expect(values.every((v) => typeof v[0]![0] === "number")).toBe(true);
    expect(engine.stats()).toMatchObject({ requests: 8, aborted: 0, failures: 0 });
  });

  test("retries of a 503 are counted and the cell gets the value", async () => {
    let calls = 0;
    const service = await startFakeService((request, res) => {
      calls++;
      if (calls === 1) return sendJson(res, { errors: ["busy"] }, 503);
      sendJson(res, searchAnswer(Number(request.query.get("lat")), Number(request.query.get("lng"))));
    });
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, baseRetryDelayMs: 10 });
    const value = await search(engine, 3, 4, "drought", "30yr", null, null);
    expect(typeof value[0]![0]).toBe("number");
    expect(engine.stats()).toMatchObject({ requests: 2, retries: 1 });
  });
});

describe("cancellation", () => {
  test("a cancelled cell stops waiting; the request is aborted only when no cell waits for it", async () => {
    const service = await startFakeService(() => undefined);
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection });
    const first = createInvocation("A1");
    const second = createInvocation("A2");
    const a = cellError(search(engine, 7, 8, "floods", "30yr", null, null, first));
    const b = cellError(search(engine, 7, 8, "cyclones", "30yr", null, null, second));
    await waitFor(() => service.open === 1);

    first.cancel();
    expect(await a).toEqual({ code: "#N/A", message: "Cancelled" });
    await delay(50);
    expect(service.closedEarly).toBe(0); // A2 still waits
    expect(engine.stats().inFlight).toBe(1);

    second.cancel();
    expect((await b).message).toBe("Cancelled");
    await waitFor(() => service.closedEarly === 1);
    expect(engine.stats()).toMatchObject({ aborted: 1, inFlight: 0 });
    expect(service.count("/api/search")).toBe(1);
  });

  test("a load cancelled before it was sent is never sent", async () => {
    const service = await searchService(1);
    const engine = new RiskEngine({ connection: service.connection, batchWindowMs: 30 });
    const invocation = createInvocation();
    const pending = cellError(search(engine, 1, 1, "floods", "30yr", null, null, invocation));
    invocation.cancel();
    expect((await pending).message).toBe("Cancelled");
    await delay(60);
    expect(service.seen.length).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await delay(10);
  }
}

describe("adaptive concurrency", () => {
  /** A search service that serves `cap` requests at once and answers the others 429 with Retry-After: 1. */
  async function cappedService(cap: number, delayMs: number) {
    let serving = 0;
    let peakServing = 0;
    let refused = 0;
    const service = await startFakeService(async (request, res) => {
      if (serving >= cap) {
        refused++;
        res.setHeader("retry-after", "1");
        return sendJson(res, { errors: ["too many at once"] }, 429);
      }
      serving++;
      peakServing = Math.max(peakServing, serving);
      await delay(delayMs);
      serving--;
      sendJson(res, searchAnswer(Number(request.query.get("lat")), Number(request.query.get("lng"))));
    });
    services.push(service);
    return {
      service,
      get peakServing() {
        return peakServing;
      },
      get refused() {
        return refused;
      },
    };
  }

  test("more than 6 at once when the service keeps up", async () => {
    const uncapped = await cappedService(1000, 100);
    const engine = new RiskEngine({ connection: uncapped.service.connection });
    const values = await Promise.all(
      points(300).map(([lat, lng]) => search(engine, lat, lng, "floods", "30yr", null, null)),
    );
    expect(values.every((v) => typeof v[0]![0] === "number")).toBe(true);
    expect(uncapped.service.count("/api/search")).toBe(300);
    // Grown past where it started (how far depends on how flat latency stays on a busy machine).
    expect(uncapped.peakServing).toBeGreaterThan(8);
    expect(engine.stats().concurrency).toBeGreaterThan(8);
  });

  test("a cell cancelled while its load waits for a slot settles at once; the load leaves the queue unsent", async () => {
    const service = await startFakeService(() => undefined); // hangs: the first load holds the only slot
    services.push(service);
    const engine = new RiskEngine({ connection: service.connection, maxConcurrency: 1 });
    const holding = createInvocation("A1");
    const waiting = createInvocation("A2");
    const first = cellError(search(engine, 1, 1, "floods", "30yr", null, null, holding));
    const second = cellError(search(engine, 2, 2, "floods", "30yr", null, null, waiting));
    await waitFor(() => service.open === 1 && engine.stats().queued === 1);
    waiting.cancel();
    expect((await second).message).toBe("Cancelled");
    expect(engine.stats()).toMatchObject({ queued: 0, inFlight: 1 });
    holding.cancel();
    expect((await first).message).toBe("Cancelled");
    await waitFor(() => service.closedEarly === 1);
    expect(service.seen.map((r) => r.query.get("lat"))).toEqual(["1"]);
  });

  test("learns a cap of 8 from the 429s: every cell gets its value, few requests are refused", async () => {
    const capped = await cappedService(8, 40);
    const engine = new RiskEngine({ connection: capped.service.connection, baseRetryDelayMs: 10 });
    const values = await Promise.all(
      points(200).map(([lat, lng]) => search(engine, lat, lng, "floods", "30yr", null, null)),
    );
    expect(values.every((v) => typeof v[0]![0] === "number")).toBe(true);
    expect(capped.peakServing).toBe(8);
    expect(capped.refused).toBeGreaterThan(0);
    expect(capped.refused).toBeLessThan(20); // of 200 requests: learned, not hammered
    const stats = engine.stats();
    expect(stats.learnedCap).toBeGreaterThanOrEqual(7);
    expect(stats.learnedCap).toBeLessThanOrEqual(8);
    expect(stats.failures).toBe(0);
  });

  test("a floor and ceiling equal make the limit fixed", async () => {
    const capped = await cappedService(1000, 20);
    const engine = new RiskEngine({ connection: capped.service.connection, minConcurrency: 4, maxConcurrency: 4 });
    await Promise.all(points(60).map(([lat, lng]) => search(engine, lat, lng, "floods", "30yr", null, null)));
    expect(capped.peakServing).toBe(4);
    expect(engine.stats().concurrency).toBe(4);
  });
});

describe("progress", () => {
  test("counts a burst's loads done and pending and estimates the time left at the present pace", async () => {
    const service = await searchService(50);
    const engine = new RiskEngine({ connection: service.connection, minConcurrency: 4, maxConcurrency: 4 });
    expect(engine.progress()).toMatchObject({ pending: 0, done: 0, total: 0, estimateMs: 0 });
    const all = Promise.all(points(20).map(([lat, lng]) => search(engine, lat, lng, "floods", "30yr", null, null)));
    await delay(20);
    const early = engine.progress();
    expect(early).toMatchObject({ pending: 20, done: 0, total: 20, estimateMs: undefined }); // no answer yet
    await waitFor(() => engine.progress().done >= 8);
    const midway = engine.progress();
    expect(midway.total).toBe(20);
    expect(midway.done + midway.pending).toBe(20);
    // 12 or fewer left, 4 at once, ~50 ms each: about 3 rounds of 50 ms (generous for a busy machine).
    expect(midway.estimateMs).toBeGreaterThanOrEqual(Math.ceil(midway.pending / 4) * 45);
    expect(midway.estimateMs).toBeLessThan(Math.ceil(midway.pending / 4) * 1000);
    await all;
    expect(engine.progress()).toMatchObject({ pending: 0, done: 20, total: 20, estimateMs: 0 });
    // The next burst counts afresh.
    await search(engine, 80, 80, "floods", "30yr", null, null);
    expect(engine.progress()).toMatchObject({ pending: 0, done: 1, total: 1 });
  });
});
