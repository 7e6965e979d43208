import { AdaptiveLimiter, retryAfterOf, type AttemptOutcome } from "../../src/functions/engine/limiter";

/**
 * The engine's adaptive concurrency limit, driven by hand: tasks are promises the test settles,
 * the service's answers are reported as they would be by the limiter's wrapped fetch, and the
 * clock is jest's.
 */

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

/** A limiter with `waiting` tasks queued behind it; each task runs until the test finishes it. */
function loaded(options: { initial: number; min?: number; max?: number; capMemoryMs?: number }, tasks = 200) {
  const limiter = new AdaptiveLimiter({ min: 1, max: 64, ...options, now: () => Date.now() });
  const finishers: (() => void)[] = [];
  const results = Array.from({ length: tasks }, () =>
    limiter.run(() => new Promise<void>((resolve) => finishers.push(resolve))),
  );
  /** Finishes the oldest running task after the service answered it with `status` in `latencyMs`. */
  const answer = (status: number, latencyMs: number, extra: Partial<AttemptOutcome> = {}) => {
    limiter.observe({ status, latencyMs, inFlightAtSend: limiter.active, sentAt: Date.now() - latencyMs, ...extra });
    finishers.shift()?.();
  };
  return { limiter, results, answer };
}

/** Lets the promise callbacks (task settled → slot freed → next task started) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

test("grows while answers succeed at flat latency, doubling each round trip before any overload", async () => {
  const { limiter, answer } = loaded({ initial: 4 });
  expect(limiter.active).toBe(4);
  for (let i = 0; i < 4; i++) answer(200, 100);
  await settle();
  expect(limiter.limit).toBe(8);
  expect(limiter.active).toBe(8); // waiting tasks started in the new slots
  for (let i = 0; i < 8; i++) answer(200, 100);
  await settle();
  expect(limiter.limit).toBe(16);
});

test("does not grow when nothing waits for a slot", async () => {
  const { limiter, answer } = loaded({ initial: 4 }, 4);
  for (let i = 0; i < 4; i++) answer(200, 100);
  await settle();
  expect(limiter.limit).toBe(4);
});

test("stays within its ceiling", async () => {
  const { limiter, answer } = loaded({ initial: 4, max: 10 });
  for (let i = 0; i < 40; i++) answer(200, 100);
  await settle();
  expect(limiter.limit).toBe(10);
  expect(limiter.active).toBe(10);
});

test("rising latency stops growth and backs off gently, never below where it started", async () => {
  const { limiter, answer } = loaded({ initial: 6 }, 500);
  for (let i = 0; i < 6 + 12; i++) answer(200, 300); // two rounds at 300 ms: 6 → 12 → 24
  await settle();
  const grown = limiter.limit;
  expect(grown).toBeGreaterThanOrEqual(20);
  // The service (or a browser's 6 connections) queues: each round is slower than the baseline.
  const limits: number[] = [];
  // Long enough for a windowed baseline to forget the unloaded latency (it must not).
  for (let round = 0; round < 80; round++) {
    const latency = (300 * Math.max(6, limiter.limit)) / 6;
    for (let i = 0; i < limiter.limit; i++) answer(200, latency);
    await settle();
    limits.push(limiter.limit);
  }
  expect(limits[0]).toBeLessThan(grown);
  expect(limits[0]).toBeGreaterThanOrEqual(Math.floor(grown * 0.9) - 1); // gently, not halved
  expect(Math.min(...limits)).toBeGreaterThanOrEqual(6);
  // Settles about where latency is twice the baseline: the 6 stay busy, a few more wait behind them.
  expect(Math.max(...limits.slice(10))).toBeLessThanOrEqual(13);
});

test("a 503 backs off gently; answers to attempts sent before that back-off do not back off again", async () => {
  const { limiter, answer } = loaded({ initial: 20 });
  answer(503, 100);
  expect(limiter.limit).toBe(18);
  answer(503, 100, { sentAt: Date.now() - 200 }); // sent before the back-off: the same overload
  expect(limiter.limit).toBe(18);
  jest.advanceTimersByTime(10);
  answer(503, 5, { sentAt: Date.now() - 5 });
  expect(limiter.limit).toBe(16);
});

test("learns the cap from a 429 and holds just there, then probes above it once the cap is old", async () => {
  const { limiter, answer } = loaded({ initial: 8, capMemoryMs: 30_000 }, 4000);
  for (const round of [8, 16, 32])
    for (let i = 0; i < round; i++) {
      jest.advanceTimersByTime(100 / round); // a round trip of 100 ms: 8 → 16 → 32 → 64
      answer(200, 100);
    }
  await settle();
  expect(limiter.limit).toBe(64);
  // The service takes 32 at once: the 33rd attempt on the wire was refused.
  answer(429, 100, { inFlightAtSend: 33 });
  answer(429, 100, { inFlightAtSend: 40 }); // the same overshoot: the smallest count wins
  await settle();
  expect(limiter.state().learnedCap).toBe(32);
  expect(limiter.limit).toBeLessThanOrEqual(32);
  // One more refusal above the known cap (late, or a probe): only that attempt waits its Retry-After.
  answer(429, 100, { inFlightAtSend: 34, retryAfterMs: 1000 });
  expect(limiter.state().pausedForMs).toBe(0);
  // Not below what the service served at once over the ramp (Little's law: about 19), not halved to 16.
  expect(limiter.limit).toBeGreaterThanOrEqual(18);
  const regrowFrom = Date.now();
  for (let i = 0; i < 2000 && limiter.active > 0 && Date.now() - regrowFrom < 20_000; i++) {
    jest.advanceTimersByTime(10);
    answer(200, 100);
    await settle();
    expect(limiter.limit).toBeLessThanOrEqual(32);
  }
  expect(limiter.limit).toBe(32); // grew back to the cap and stayed
  jest.advanceTimersByTime(30_000);
  for (let i = 0; i < 64; i++) answer(200, 100);
  await settle();
  expect(limiter.state().learnedCap).toBeUndefined();
  expect(limiter.limit).toBeGreaterThan(32); // the cap may have been raised: probe above it
});

test("a rate limit is found by the throughput served, not the attempts on the wire", async () => {
  const { limiter, answer } = loaded({ initial: 8 }, 3000);
  // 60 answers over the last second at 300 ms each: the service serves about 18 at once.
  for (let i = 0; i < 60; i++) {
    jest.advanceTimersByTime(1000 / 60);
    answer(200, 300);
  }
  await settle();
  expect(limiter.limit).toBe(64);
  answer(429, 300, { inFlightAtSend: 64 });
  expect(limiter.limit).toBeGreaterThanOrEqual(15);
  expect(limiter.limit).toBeLessThanOrEqual(20);
});

test("Retry-After pauses new starts until then; running tasks go on", async () => {
  const { limiter, answer } = loaded({ initial: 4 });
  answer(429, 50, { retryAfterMs: 1000, inFlightAtSend: 4 });
  await settle();
  expect(limiter.active).toBe(3); // the finished task's slot stays empty while paused
  answer(200, 50);
  await settle();
  expect(limiter.active).toBe(2);
  jest.advanceTimersByTime(999);
  await settle();
  expect(limiter.active).toBe(2);
  jest.advanceTimersByTime(1);
  await settle();
  expect(limiter.active).toBe(limiter.limit);
  expect(limiter.state().pausedForMs).toBe(0);
});

test("a waiting task whose signal fires leaves the queue at once and its promise settles", async () => {
  const limiter = new AdaptiveLimiter({ initial: 1, min: 1, max: 1 });
  let finishFirst!: () => void;
  const started: string[] = [];
  const first = limiter.run(() => {
    started.push("first");
    return new Promise<void>((resolve) => (finishFirst = resolve));
  });
  const controller = new AbortController();
  const cancelled = limiter.run(async () => {
    started.push("cancelled");
  }, controller.signal);
  const third = limiter.run(async () => {
    started.push("third");
  });
  expect(limiter.waiting).toBe(2);
  controller.abort(new Error("cell cancelled"));
  await expect(cancelled).rejects.toThrow("cell cancelled"); // settles without waiting for the slot
  expect(limiter.waiting).toBe(1);
  finishFirst();
  await first;
  await third;
  expect(started).toEqual(["first", "third"]);
});

test("a list's pages take turns of the limit ahead of the single tasks waiting, one turn a page", async () => {
  const limiter = new AdaptiveLimiter({ initial: 2, min: 2, max: 2 });
  const started: string[] = [];
  const finish: Array<() => void> = [];
  const task = (name: string) =>
    limiter.run(() => {
      started.push(name);
      return new Promise<void>((resolve) => finish.push(resolve));
    });
  const singles = ["a", "b", "c", "d"].map(task);
  expect(started).toEqual(["a", "b"]);
  // A list's three pages ask for turns while c and d wait: they go first, each taking one turn.
  const pages = [1, 2, 3].map((page) =>
    limiter.pageSlots.acquire().then((release) => {
      started.push(`page ${page}`);
      finish.push(release);
    }),
  );
  const next = async () => {
    finish.shift()!();
    for (let i = 0; i < 6; i++) await Promise.resolve();
  };
  await next(); // a done
  await next(); // b done
  expect(started).toEqual(["a", "b", "page 1", "page 2"]);
  expect(limiter.active).toBe(2); // two pages: the limit counts them as it counts tasks
  await next();
  await next();
  await next();
  await Promise.all(pages);
  expect(started).toEqual(["a", "b", "page 1", "page 2", "page 3", "c", "d"]);
  while (finish.length > 0) await next();
  await Promise.all(singles);
});

test("instrument reports each attempt's status, latency, Retry-After and attempts on the wire", async () => {
  jest.useRealTimers();
  const limiter = new AdaptiveLimiter({ initial: 4, min: 1, max: 8 });
  const seen: AttemptOutcome[] = [];
  const observe = limiter.observe.bind(limiter);
  limiter.observe = (outcome) => {
    seen.push(outcome);
    observe(outcome);
  };
  const fetchOf = limiter.instrument(async () => new Response("{}", { status: 429, headers: { "Retry-After": "2" } }));
  await Promise.all([fetchOf("http://127.0.0.1/a"), fetchOf("http://127.0.0.1/b")]);
  expect(seen.map((o) => [o.status, o.retryAfterMs])).toEqual([
    [429, 2000],
    [429, 2000],
  ]);
  expect(seen.map((o) => o.inFlightAtSend)).toEqual([1, 2]);
  expect(limiter.state().learnedCap).toBe(1);
  expect(limiter.state().pausedForMs).toBeGreaterThan(1900);
});

test("Retry-After is read in seconds or as an HTTP date", () => {
  expect(retryAfterOf("3", 0)).toBe(3000);
  expect(retryAfterOf(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
  expect(retryAfterOf(null, 0)).toBeUndefined();
  expect(retryAfterOf("soon", 0)).toBeUndefined();
});

/**
 * A service on jest's clock, as the emulator limits a key: answers after `latencyMs`; beyond
 * `cap` requests at once, or beyond `rate` requests in one wall-clock second (refused ones count
 * too), a 429 with `Retry-After: 1`. `tasks` loads go through the limiter, each retrying a 429
 * after its Retry-After (as the client does, up to 6 times); the clock runs in 10 ms steps.
 */
async function serve(options: {
  rate?: number;
  cap?: number;
  latencyMs: number;
  tasks: number;
  initial?: number;
  /** Every this-many-th request the limits let through fails with a 503 (no Retry-After). */
  failEvery?: number;
}) {
  // The same phase of the service's one-second windows in every test, whatever ran before.
  jest.setSystemTime(1_700_000_000_000);
  const limiter = new AdaptiveLimiter({ initial: options.initial ?? 6, min: 2, max: 64, now: () => Date.now() });
  let open = 0;
  const windowCounts = new Map<number, number>();
  const sends: number[] = [];
  let refused = 0;
  const service: typeof fetch = () => {
    sends.push(Date.now());
    const second = Math.floor(Date.now() / 1000);
    const inWindow = (windowCounts.get(second) ?? 0) + 1;
    windowCounts.set(second, inWindow);
    const overCap = options.cap !== undefined && open >= options.cap;
    const overRate = options.rate !== undefined && inWindow > options.rate;
    if (!overCap) open++;
    // Read at each request: a test may start the failures part-way.
    const fails = !overCap && !overRate && options.failEvery !== undefined && sends.length % options.failEvery === 0;
    return new Promise((resolve) =>
      setTimeout(() => {
        if (!overCap) open--;
        if (overCap || overRate) refused++;
        resolve(
          overCap || overRate
            ? new Response("{}", { status: 429, headers: { "Retry-After": "1" } })
            : new Response("{}", { status: fails ? 503 : 200 }),
        );
      }, options.latencyMs),
    );
  };
  const fetchOf = limiter.instrument(service);
  let done = 0;
  const results = Array.from({ length: options.tasks }, () =>
    limiter.run(async () => {
      for (let attempt = 0; ; attempt++) {
        const response = await fetchOf("http://127.0.0.1/api/search");
        if ((response.status !== 429 && response.status !== 503) || attempt === 6) {
          done++;
          return response.status;
        }
        await new Promise((resolve) => setTimeout(resolve, response.status === 429 ? 1000 : 50));
      }
    }),
  );
  const started = Date.now();
  /** Runs the clock until every load settled or `limitMs` passed; the longest time with no attempt sent. */
  const runUntilDone = async (limitMs: number) => {
    while (done < options.tasks && Date.now() - started < limitMs) {
      jest.advanceTimersByTime(10);
      await settle();
    }
    const gaps = sends.slice(1).map((at, i) => at - sends[i]!);
    return { wallMs: Date.now() - started, longestSilenceMs: Math.max(0, ...gaps) };
  };
  return { limiter, results, runUntilDone, sent: () => sends.length, refused: () => refused };
}

test("a rate limit is paced: close to its rate, few 429s, and starts never stop once a Retry-After has passed", async () => {
  // 20 per second at 300 ms: 6 at once is 20/s, 7 overruns it; 600 loads take at least 30 s.
  const service = await serve({ rate: 20, latencyMs: 300, tasks: 600 });
  const { wallMs, longestSilenceMs } = await service.runUntilDone(120_000);
  await expect(Promise.all(service.results)).resolves.toEqual(Array(600).fill(200));
  expect(wallMs).toBeLessThan(1.2 * 30_000);
  expect(service.refused()).toBeLessThan(0.25 * 600);
  // Every Retry-After is 1 s: never longer without an attempt sent than an answer and its Retry-After.
  expect(longestSilenceMs).toBeLessThanOrEqual(300 + 1_000 + 20);
});

test("under a rate limit, a share of requests failing with 503 does not slow the pace", async () => {
  // 20 per second at 300 ms. Once the limit is paced, one request in ten starts failing (and is
  // retried): were each 503 to lower the pace, it would fall to a crawl and leave loads waiting.
  const options: Parameters<typeof serve>[0] = { rate: 20, latencyMs: 300, tasks: 900 };
  const service = await serve(options);
  await service.runUntilDone(15_000);
  const paced = service.limiter.state().pacePerSecond;
  expect(paced).toBeGreaterThan(15);
  options.failEvery = 10;
  const { wallMs } = await service.runUntilDone(120_000);
  await expect(Promise.all(service.results)).resolves.toEqual(Array(900).fill(200));
  expect(service.limiter.state().pacePerSecond).toBeGreaterThan(0.8 * paced!);
  // 900 loads and their retries at 20/s: at least 45 s, about 48 s with the 503s' retries.
  expect(wallMs).toBeLessThan(1.3 * 48_000);
});

test("an attempt waiting for its turn at the pace is rejected as soon as its request is aborted", async () => {
  const service = await serve({ rate: 20, latencyMs: 300, tasks: 600 });
  await service.runUntilDone(10_000);
  // Paced, with the turns of the loads still waiting reserved ahead of this attempt's.
  expect(service.limiter.state().pacePerSecond).toBeDefined();
  const fetchOf = service.limiter.instrument(() => Promise.resolve(new Response("{}")));
  const controller = new AbortController();
  const waiting = fetchOf("http://127.0.0.1/api/search", { signal: controller.signal });
  const outcome = waiting.then(
    () => "sent",
    (error: unknown) => (error as { name?: string }).name,
  );
  controller.abort();
  await settle();
  await expect(outcome).resolves.toBe("AbortError");
});

test("under a run of 429s it never stops starting requests once the Retry-After has passed", async () => {
  // A second rate limit of 1 per second: nearly every attempt is refused, again and again.
  const service = await serve({ rate: 1, latencyMs: 50, tasks: 40 });
  const { longestSilenceMs } = await service.runUntilDone(60_000);
  expect(service.sent()).toBeGreaterThan(40);
  expect(longestSilenceMs).toBeLessThanOrEqual(50 + 1_000 + 20);
  await expect(Promise.all(service.results)).resolves.toHaveLength(40); // every load settled
});

test("a concurrency cap is held, not taken for a rate limit: its 429s at the learned cap pause nothing", async () => {
  // 32 at once at 300 ms; the first overshoot (slow start) overruns it by far.
  const service = await serve({ cap: 32, latencyMs: 300, tasks: 3000, initial: 6 });
  const { wallMs } = await service.runUntilDone(120_000);
  await expect(Promise.all(service.results)).resolves.toEqual(Array(3000).fill(200));
  expect(service.limiter.state().pacePerSecond).toBeUndefined();
  expect(service.limiter.state().learnedCap).toBeLessThanOrEqual(32);
  expect(wallMs).toBeLessThan((1.2 * 3000 * 300) / 32);
  expect(service.refused()).toBeLessThan(0.02 * 3000);
});

test("a 429 within the counts' noise of a learned cap neither pauses the others nor shows a rate limit", async () => {
  const { limiter, answer } = loaded({ initial: 8 }, 2000);
  for (const round of [8, 16, 32])
    for (let i = 0; i < round; i++) {
      jest.advanceTimersByTime(300 / round); // a round trip of 300 ms: 8 → 16 → 32 → 64
      answer(200, 300);
    }
  await settle();
  answer(429, 300, { inFlightAtSend: 37 }); // the first overshoot: a cap of 36 (the client's count runs ahead)
  expect(limiter.state().learnedCap).toBe(36);
  // Answers at about 33 at once (the service's true cap is 32), then refusals at 35 and 34, each a new overshoot.
  for (const inFlight of [35, 34]) {
    for (let i = 0; i < 250; i++) {
      jest.advanceTimersByTime(9); // 110 a second at 300 ms: 33 at once
      answer(200, 300);
    }
    answer(429, 300, { inFlightAtSend: inFlight, retryAfterMs: 1000 });
    expect(limiter.state().pausedForMs).toBe(0);
  }
  expect(limiter.state().learnedCap).toBe(33);
  expect(limiter.state().pacePerSecond).toBeUndefined();
});
