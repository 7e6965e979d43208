import { RiskEngine, type EngineOptions } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import { LastGoodCache, MemoryStorage } from "../../src/functions/engine/last-good-cache";
import * as TypedRISK from "../../src/functions/functions";
import { createInvocation } from "../../testing/invocation";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { asExcelCalls } from "./support/excel-calls";
import { startTestService, type TestService } from "../support/emulator";

/**
 * Last good values over HTTP: the persistent cache across a simulated restart of
 * Excel's runtime (a new engine over the same storage), the failure policy when the emulator is
 * gone, the list of stale cells, "Retry these", "Clear cache", and connections kept apart.
 */

const RISK = asExcelCalls(TypedRISK);
let uninstall: () => void;
const POINTS = [
  [51.5, -0.12],
  [19.07, 72.87],
  [25.76, -80.19],
] as const;

beforeAll(() => {
  uninstall = installCustomFunctionsStub();
});
afterAll(() => {
  setDefaultEngine(undefined);
  uninstall();
});

/** A "runtime": an engine as the add-in makes one, over a storage that outlives it. */
function startRuntime(fixture: TestService, storage: MemoryStorage, options: Partial<EngineOptions> = {}): RiskEngine {
  const engine = new RiskEngine({
    connection: fixture.connection,
    maxRetries: 0,
    lastGood: new LastGoodCache(storage),
    ...options,
  });
  setDefaultEngine(engine);
  return engine;
}

/** Three single cells and one column formula, as a sheet would hold them. */
async function recalculate() {
  const cells = await Promise.all(
    POINTS.map(([lat, lng], i) =>
      RISK.search(lat, lng, "floods", "30yr", null, null, createInvocation(`Sheet1!C${i + 2}`)).then(
        (value) => ({ value }),
        async (error: unknown) => ({ error: await cellError(Promise.reject(error)) }),
      ),
    ),
  );
  return cells;
}

test(
  "RISK.TIMESERIES after a restart answers from the persistent cache, " +
    "also from series an earlier version stored as plain records",
  async () => {
    const fixture = await startTestService();
    try {
      const storage = new MemoryStorage();
      const series = () =>
        RISK.timeseries("demo-portfolio", 4, "wildfire", "ssp585", null, null, createInvocation("Sheet1!E2"));
      const first = startRuntime(fixture, storage);
      const before = await series();
      expect(before.length).toBeGreaterThan(50);
      await first.flushPersistent();

      startRuntime(fixture, storage); // Excel restarted: memory is empty, storage is not
      await fixture.resetStats();
      expect(await series()).toEqual(before);
      expect(await fixture.routes()).toEqual({});

      // The same entries as the version before SeriesValues wrote them: each series a plain record.
      let rewritten = 0;
      for (const [key, text] of storage.items) {
        if (!text.includes('"$type":"SeriesValues"')) continue;
        const asBefore = JSON.parse(text, (_field, value: unknown) =>
          value && typeof value === "object" && (value as { $type?: string }).$type === "SeriesValues"
            ? (value as { record: unknown }).record
            : value,
        ) as unknown;
        storage.items.set(key, JSON.stringify(asBefore));
        rewritten++;
      }
      expect(rewritten).toBe(1);
      startRuntime(fixture, storage);
      expect(await series()).toEqual(before);
      expect(await fixture.routes()).toEqual({});
    } finally {
      await fixture.close();
    }
  },
);

test("after a restart, unchanged cells answer from the persistent cache with 0 requests; the key is never stored", async () => {
  const fixture = await startTestService();
  try {
    const storage = new MemoryStorage();
    const first = startRuntime(fixture, storage);
    const before = await recalculate();
    expect(before.every((cell) => "value" in cell)).toBe(true);
    await first.flushPersistent();
    await fixture.resetStats();

    const second = startRuntime(fixture, storage); // Excel restarted: memory is empty, storage is not
    expect(await recalculate()).toEqual(before);
    expect(await fixture.routes()).toEqual({});
    expect(second.stats()).toMatchObject({ requests: 0, persistentHits: 3 });
    expect([...storage.items.values()].join("\n")).not.toContain(fixture.connection.apiKey);

    // Another connection (another key) never sees these values: it asks the service.
    startRuntime(fixture, storage, { connection: { ...fixture.connection, apiKey: "demo-key-2" } });
    await fixture.resetStats();
    await RISK.search(51.5, -0.12, "floods", "30yr", null, null, createInvocation("Sheet1!C2")).catch(() => undefined);
    expect((await fixture.routes())["GET /api/search"]).toBe(1);
  } finally {
    await fixture.emulator.close();
  }
});

test("RISK.IMPACT cells over an extended summary larger than the persistent cache still reopen with 0 requests", async () => {
  const fixture = await startTestService();
  try {
    // The demo portfolio's extended summary of one scenario is about 420,000 characters: with a
    // bound of 100,000 it cannot be kept whole (as 5,000 assets' 40 million cannot in 8 million).
    const maxChars = 100_000;
    const storage = new MemoryStorage();
    // One load at a time: the cells' own entries take no turn, so they never wait behind the load they wait for.
    const runtime = () =>
      startRuntime(fixture, storage, {
        lastGood: new LastGoodCache(storage, { maxChars }),
        concurrency: 1,
        minConcurrency: 1,
        maxConcurrency: 1,
        failurePolicy: "keep last good",
      });
    const cells = (): Promise<unknown[]> =>
      Promise.all(
        [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
          RISK.impact("demo-portfolio", i, "flood", "ssp585", "2050", null, createInvocation(`Impact!B${i + 2}`)),
        ),
      );
    const first = runtime();
    const before = await cells();
    expect(before.flat(2).every((value) => typeof value === "number")).toBe(true);
    expect((await fixture.routes())["GET /api/portfolios/:portfolio_name/datasets/physical/summary"]).toBeGreaterThan(
      0,
    );
    await first.flushPersistent();
    const usage = await first.persistentUsage();
    expect(usage!.chars).toBeLessThan(10_000); // 8 cells' values, not the dataset
    await fixture.resetStats();

    const reopened = runtime(); // Excel restarted: memory is empty, storage is not
    expect(await cells()).toEqual(before);
    expect(await fixture.routes()).toEqual({});
    expect(reopened.stats()).toMatchObject({ requests: 0, persistentHits: 8 });

    // The service gone after "Refresh all": each cell keeps its own last good value and is listed.
    await fixture.emulator.close();
    reopened.refresh();
    expect(await cells()).toEqual(before);
    expect(reopened.staleCells.list().map((line) => line.address)).toHaveLength(8);
  } finally {
    await fixture.emulator.close();
  }
});

test("with the service gone, a cell's metric is its own last good value: shown as old, listed, and not kept as fresh", async () => {
  const fixture = await startTestService();
  try {
    // The default bound: the demo portfolio's whole summary would fit, and is still not kept (it is
    // not for 5,000 assets, so storing it would only cost a serialisation at every refresh).
    const storage = new MemoryStorage();
    const engine = startRuntime(fixture, storage, { failurePolicy: "keep last good" });
    const cell = () => RISK.impact("demo-portfolio", 3, "flood", "ssp585", "2050", null, createInvocation("Impact!B5"));
    const before = await cell();
    await engine.flushPersistent();
    const stored = [...storage.items.values()].find((text) => text.includes("extended-asset|"));
    expect(stored).toBeDefined();
    expect([...storage.items.values()].every((text) => text.length < 2_000)).toBe(true);
    await fixture.emulator.close();
    engine.refresh(); // "Refresh all" with the service gone: the cell's own last good value answers
    expect(await cell()).toEqual(before);
    expect(engine.staleCells.list().map((line) => line.address)).toEqual(["Impact!B5"]);
    await engine.flushPersistent();
    // The cell's own entry keeps the time it was really fetched: it was not stored again as new.
    expect([...storage.items.values()].find((text) => text.includes("extended-asset|"))).toBe(stored);
  } finally {
    await fixture.emulator.close();
  }
});

test("Refresh all reaches the service: persistent entries no longer answer as fresh", async () => {
  const fixture = await startTestService();
  try {
    const engine = startRuntime(fixture, new MemoryStorage());
    await recalculate();
    await engine.flushPersistent();
    engine.refresh(); // what "Refresh all" calls before Excel recalculates
    await fixture.resetStats();
    await recalculate();
    expect((await fixture.routes())["GET /api/search"]).toBe(3);
    expect(engine.stats().persistentHits).toBe(0);
  } finally {
    await fixture.emulator.close();
  }
});

test("Refresh all sends its requests without reading last good values first, and still shows them when the service fails it", async () => {
  const fixture = await startTestService({ latencyMs: 300 });
  const storage = new MemoryStorage();
  const entryReads = jest.spyOn(storage, "getItem");
  const countEntryReads = () => entryReads.mock.calls.filter(([key]) => !key.endsWith(".index")).length;
  try {
    const engine = startRuntime(fixture, storage, { failurePolicy: "keep last good" });
    const good = await recalculate();
    await engine.flushPersistent();

    // A refresh that succeeds reads no stored entry: nothing would use it.
    entryReads.mockClear();
    engine.refresh();
    expect(await recalculate()).toEqual(good);
    expect(countEntryReads()).toBe(0);
    await engine.flushPersistent();

    // A refresh the service does not answer in time: each load looks its last good value up then.
    const late = startRuntime(fixture, storage, { failurePolicy: "keep last good", deadlineMs: 50 });
    late.refresh();
    entryReads.mockClear();
    expect(await recalculate()).toEqual(good);
    expect(countEntryReads()).toBe(3);
    expect(late.staleCells.list().map((cell) => cell.showing)).toEqual(["old value", "old value", "old value"]);

    // A refresh with the service gone: the same.
    await fixture.emulator.close();
    const gone = startRuntime(fixture, storage, { failurePolicy: "keep last good" });
    gone.refresh();
    expect(await recalculate()).toEqual(good);
    expect(gone.stats().keptLastGood).toBe(3);
  } finally {
    await fixture.emulator.close().catch(() => undefined);
  }
});

test("a stale persistent entry is not served as fresh", async () => {
  const fixture = await startTestService();
  try {
    const storage = new MemoryStorage();
    const first = startRuntime(fixture, storage, { ttlMs: 0 });
    await recalculate();
    await first.flushPersistent();
    await fixture.resetStats();
    startRuntime(fixture, storage, { ttlMs: 0 });
    await recalculate();
    expect((await fixture.routes())["GET /api/search"]).toBe(3);
  } finally {
    await fixture.emulator.close();
  }
});

test("when the service is gone: the error by default, the last good value by setting; the cells are listed; a good refresh clears the list", async () => {
  const fixture = await startTestService();
  const storage = new MemoryStorage();
  let connection = fixture.connection;
  const engine = startRuntime(fixture, storage, { ttlMs: 0, errorTtlMs: 60_000, connection: () => connection });
  const good = await recalculate();
  const fetchedBefore = Date.now();
  await engine.flushPersistent();
  await fixture.emulator.close(); // the service is unreachable now

  const failed = await recalculate();
  for (const cell of failed)
    expect(cell).toEqual({
      error: { code: "#N/A", message: "Cannot reach the risk service: open the Climate Risk pane to connect" },
    });
  const listed = engine.staleCells.list();
  expect(listed.map((cell) => [cell.address, cell.showing])).toEqual([
    ["Sheet1!C2", "error"],
    ["Sheet1!C3", "error"],
    ["Sheet1!C4", "error"],
  ]);
  expect(listed[0]!.fetchedAt).toBeLessThanOrEqual(fetchedBefore);

  engine.failurePolicy = "keep last good";
  expect(engine.retryStale()).toEqual(["Sheet1!C2", "Sheet1!C3", "Sheet1!C4"]);
  expect(await recalculate()).toEqual(good); // the last good values are shown
  expect(engine.staleCells.list().map((cell) => cell.showing)).toEqual(["old value", "old value", "old value"]);
  expect(engine.stats().keptLastGood).toBe(3);

  // The service is back (a new emulator has a new address, so the connection follows it, as the
  // pane's connection store would; its values are the same seeded ones).
  const back = await startTestService();
  try {
    connection = back.connection;
    engine.retryStale();
    await recalculate();
    expect(engine.staleCells.list()).toEqual([]);
  } finally {
    await back.emulator.close();
  }
});

test('a load past its deadline is an outage too: with "keep last good" the cells show their last good values', async () => {
  const fixture = await startTestService({ latencyMs: 400 });
  try {
    const storage = new MemoryStorage();
    const filling = startRuntime(fixture, storage, { ttlMs: 0 });
    const good = await recalculate();
    await filling.flushPersistent();
    const late = startRuntime(fixture, storage, { ttlMs: 0, deadlineMs: 50, failurePolicy: "keep last good" });
    expect(await recalculate()).toEqual(good);
    expect(late.staleCells.list().map((cell) => [cell.showing, cell.reason])).toEqual(
      Array(3).fill(["old value", "The risk service did not answer in time; recalculate to retry"]),
    );
  } finally {
    await fixture.emulator.close();
  }
});

test("a column formula lists its cell once; Clear cache empties memory, storage and the list", async () => {
  const fixture = await startTestService();
  const storage = new MemoryStorage();
  const engine = startRuntime(fixture, storage, { ttlMs: 0 });
  const lats = POINTS.map((p) => [p[0]]);
  const lngs = POINTS.map((p) => [p[1]]);
  const good = await RISK.search(lats, lngs, [["floods"]], [["30yr"]], null, null, createInvocation("Sheet1!D2"));
  await engine.flushPersistent();
  expect((await engine.persistentUsage())!.entries).toBe(3);
  await fixture.emulator.close();
  engine.failurePolicy = "keep last good";
  expect(await RISK.search(lats, lngs, [["floods"]], [["30yr"]], null, null, createInvocation("Sheet1!D2"))).toEqual(
    good,
  );
  expect(engine.staleCells.list()).toMatchObject([
    { address: "Sheet1!D2", showing: "old value", keys: expect.arrayContaining([expect.stringContaining("search|")]) },
  ]);

  await engine.clearCache();
  expect(engine.staleCells.list()).toEqual([]);
  expect(storage.items.size).toBe(0);
  expect(engine.stats().cacheEntries).toBe(0);
});
