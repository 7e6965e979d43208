/**
 * Injected faults (latency, random 503s, per-key rate limit with Retry-After) and request
 * statistics; /__emulator/* is never faulted.
 */
import { call } from "./helpers";
import { startTestEmulator } from "../support/emulator";

test("stats count requests per METHOD + route pattern; reset clears counters only", async () => {
  const emu = await startTestEmulator();
  try {
    await call(emu, "GET", "/api/search?lat=1&lng=2");
    await call(emu, "GET", "/api/search?lat=1&lng=3");
    await call(emu, "GET", "/api/portfolios/demo-portfolio/assets");
    await call(emu, "GET", "/api/nowhere");
    const s = (await call(emu, "GET", "/__emulator/stats")).body;
    expect(s.total).toBe(4);
    expect(s.routes["GET /api/search"]).toBe(2);
    expect(s.routes["GET /api/portfolios/:portfolio_name/assets"]).toBe(1);
    await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "stays" } });
    await call(emu, "POST", "/__emulator/stats/reset");
    expect((await call(emu, "GET", "/__emulator/stats")).body).toMatchObject({ total: 0, routes: {} });
    expect((await call(emu, "GET", "/api/portfolios/stays/")).status).toBe(200);
    await call(emu, "POST", "/__emulator/reset");
    expect((await call(emu, "GET", "/api/portfolios/stays/")).status).toBe(404);
    expect((await call(emu, "GET", "/__emulator/stats")).body.total).toBe(1);
  } finally {
    await emu.close();
  }
});

test("stats tell the most requests being answered at once since the last reset", async () => {
  const emu = await startTestEmulator({ latencyMs: 100 });
  try {
    await Promise.all(Array.from({ length: 5 }, (_, i) => call(emu, "GET", `/api/search?lat=1&lng=${i}`)));
    await call(emu, "GET", "/api/search?lat=2&lng=2");
    expect((await call(emu, "GET", "/__emulator/stats")).body.peakInFlight).toBe(5);
    await call(emu, "POST", "/__emulator/stats/reset");
    await call(emu, "GET", "/api/search?lat=2&lng=3");
    await Promise.all(Array.from({ length: 2 }, (_, i) => call(emu, "GET", `/api/search?lat=3&lng=${i}`)));
    expect((await call(emu, "GET", "/__emulator/stats")).body.peakInFlight).toBe(2);
  } finally {
    await emu.close();
  }
});

test("stats count the bytes of the service's answers, streamed ones too, and reset clears them", async () => {
  const emu = await startTestEmulator();
  try {
    await call(emu, "POST", "/__emulator/stats/reset");
    const search = await call(emu, "GET", "/api/search?lat=1&lng=2");
    // A download is streamed in chunks, without a Content-Length.
    const csv = await call(emu, "GET", "/api/portfolios/demo-portfolio/datasets/physical/items/export");
    expect(csv.headers.get("content-length")).toBeNull();
    const bodies = Buffer.byteLength(search.text) + Buffer.byteLength(csv.text);
    const counted = (await call(emu, "GET", "/__emulator/stats")).body.answerBytes;
    // On top of the bodies: each answer's status line and headers (a few hundred bytes), and the
    // streamed one's chunk size lines (about a dozen bytes per 64 KB chunk).
    expect(counted).toBeGreaterThan(bodies);
    expect(counted).toBeLessThan(bodies + 2 * 1_000 + Math.ceil(csv.text.length / 65_536) * 16);
    await call(emu, "POST", "/__emulator/stats/reset");
    expect((await call(emu, "GET", "/__emulator/stats")).body.answerBytes).toBe(0);
  } finally {
    await emu.close();
  }
});

test("latency is added to every service response but not to /__emulator/*", async () => {
  // Told by order, not by a wall-clock ceiling (a stats call once took 239 ms on a loaded CI
  // machine against a ceiling of 100): sent together, the stats answer comes back while the
  // service's answer still waits out its latency.
  const emu = await startTestEmulator({ latencyMs: 1_000 });
  try {
    const answered: string[] = [];
    const t = performance.now();
    const service = call(emu, "GET", "/api/projects/", { project: null }).then(() => {
      answered.push("service");
      return performance.now() - t;
    });
    const stats = call(emu, "GET", "/__emulator/stats").then(() => answered.push("stats"));
    const [serviceMs] = await Promise.all([service, stats]);
    expect(serviceMs).toBeGreaterThanOrEqual(995);
    expect(answered).toEqual(["stats", "service"]);
  } finally {
    await emu.close();
  }
});

test("fail-rate answers 503 {errors} at about the given rate, reproducibly per seed, and counts them", async () => {
  const run = async () => {
    const emu = await startTestEmulator({ failRate: 0.3, seed: 7 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) {
        const r = await call(emu, "GET", "/api/projects/", { project: null });
        if (r.status === 503) expect(r.body.errors[0]).toMatch(/unavailable/);
        statuses.push(r.status);
      }
      const stats = (await call(emu, "GET", "/__emulator/stats")).body;
      expect(stats.total).toBe(200);
      expect(stats.faults["503"]).toBe(statuses.filter((s) => s === 503).length);
      return statuses;
    } finally {
      await emu.close();
    }
  };
  const a = await run();
  const failures = a.filter((s) => s === 503).length;
  expect(failures).toBeGreaterThan(35);
  expect(failures).toBeLessThan(85);
  expect(a.every((s) => s === 200 || s === 503)).toBe(true);
  expect(await run()).toEqual(a);
});

test("rate limit: beyond N requests per second per key → 429 with Retry-After; other keys unaffected", async () => {
  const emu = await startTestEmulator({ rateLimit: 5 });
  try {
    // Start right after a second boundary so the burst falls in one window.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => call(emu, "GET", "/api/projects/", { project: null })),
    );
    const limited = burst.filter((r) => r.status === 429);
    expect(limited.length).toBe(3);
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited[0].body.errors[0]).toMatch(/rate limit/);
    expect((await call(emu, "GET", "/api/projects/", { key: "other-key", project: null })).status).toBe(200);
    expect((await call(emu, "GET", "/__emulator/stats")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await call(emu, "GET", "/api/projects/", { project: null })).status).toBe(200);
  } finally {
    await emu.close();
  }
});

test("concurrency cap: beyond N open requests of a key → 429 with Retry-After and CORS headers; a refused one takes no slot", async () => {
  const emu = await startTestEmulator({ concurrencyLimit: 3, latencyMs: 150 });
  try {
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(emu, "GET", "/api/projects/", { project: null, headers: { Origin: "https://localhost:3000" } }),
      ),
    );
    const limited = burst.filter((r) => r.status === 429);
    expect(burst.filter((r) => r.status === 200)).toHaveLength(3);
    expect(limited).toHaveLength(2);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.headers.get("access-control-allow-origin")).toBe("*"); // a browser can read it
    expect(limited[0]!.body.errors[0]).toMatch(/more than 3 requests of this API key at once/);
    // Other keys have slots of their own; once the answers are sent the key's slots are free again.
    const [other, again] = await Promise.all([
      call(emu, "GET", "/api/projects/", { key: "other-key", project: null }),
      call(emu, "GET", "/api/projects/", { project: null }),
    ]);
    expect([other.status, again.status]).toEqual([200, 200]);
    const stats = (await call(emu, "GET", "/__emulator/stats")).body;
    expect(stats.faults["429"]).toBe(2);
    expect(stats.limits).toEqual({ rate: 0, concurrency: 2 });
  } finally {
    await emu.close();
  }
});

test("concurrency cap: a request the client abandons gives its slot back", async () => {
  const emu = await startTestEmulator({ concurrencyLimit: 1, latencyMs: 300 });
  try {
    const controller = new AbortController();
    const abandoned = fetch(`${emu.url}/api/projects/`, {
      headers: { "X-Service-APIKey": "demo-key" },
      signal: controller.signal,
    }).catch(() => "aborted");
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await abandoned).toBe("aborted");
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(emu, "GET", "/api/projects/", { project: null })).status).toBe(200);
  } finally {
    await emu.close();
  }
});

test("a CORS preflight pays the same latency as any request, is counted, and allows the key header", async () => {
  const emu = await startTestEmulator({ latencyMs: 150 });
  try {
    const started = performance.now();
    const res = await fetch(`${emu.url}/api/search?lat=1&lng=2`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://localhost:3000",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-service-apikey",
      },
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/X-Service-APIKey/);
    expect(res.headers.get("access-control-max-age")).toBe("600");
    const stats = (await call(emu, "GET", "/__emulator/stats")).body;
    expect(stats.routes["OPTIONS *"]).toBe(1);
  } finally {
    await emu.close();
  }
});
