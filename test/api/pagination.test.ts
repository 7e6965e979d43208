import { AbortedError, RiskClient, ServerError, readAllPages } from "../../src/api";
import { RequestSlots } from "../../src/api/pagination";
import { SharedReads } from "../../src/api/shared-reads";
import { RecordingServer, queryOf, sendJson } from "../support/recording-server";

/** A server holding `total` assets, paged exactly as docs/service.md#pagination says. */
async function assetServer(
  total: number,
  options: { delayMs?: number; failPage?: number; delayOfPage?: (page: number) => number } = {},
): Promise<RecordingServer> {
  return new RecordingServer(async (req, res) => {
    const query = queryOf(req);
    const page = Number(query.get("page") ?? 1);
    const rows = Number(query.get("rows") ?? 50);
    if (rows > 250) return sendJson(res, 400, { errors: ["rows must be at most 250"] });
    const delayMs = options.delayOfPage?.(page) ?? options.delayMs;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (page === options.failPage) return sendJson(res, 500, { errors: ["boom"] });
    const start = (page - 1) * rows;
    const items = Array.from({ length: Math.max(0, Math.min(rows, total - start)) }, (_, i) => ({
      portfolio_index: start + i,
    }));
    sendJson(res, 200, items);
  }).start();
}

let server: RecordingServer;
afterEach(async () => server?.close());

function client(): RiskClient {
  return new RiskClient(
    { baseUrl: server.url, natureUrl: `${server.url}/nature`, apiKey: "k", project: "demo" },
    { maxRetries: 0 },
  );
}
const pagesRequested = () => server.requests.map((r) => Number(queryOf(r).get("page")));

describe("for await over pages", () => {
  it("reads 120 items with rows 50 as pages of 50, 50, 20 and sends no fourth request", async () => {
    server = await assetServer(120);
    const indexes: number[] = [];
    for await (const asset of client().portfolios.assets("p", { rows: 50 })) indexes.push(asset.portfolio_index);
    expect(indexes).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(pagesRequested()).toEqual([1, 2, 3]);
    expect(server.requests.every((r) => queryOf(r).get("rows") === "50")).toBe(true);
  });

  it("stops after one empty page for an empty list", async () => {
    server = await assetServer(0);
    const seen: unknown[] = [];
    for await (const asset of client().portfolios.assets("p")) seen.push(asset);
    expect(seen).toEqual([]);
    expect(pagesRequested()).toEqual([1]);
  });

  it("reads one more (empty) page when the list holds exactly `rows` items", async () => {
    server = await assetServer(50);
    const pages: number[] = [];
    for await (const page of client().portfolios.assets("p", { rows: 50 }).pages()) pages.push(page.length);
    expect(pages).toEqual([50]);
    expect(pagesRequested()).toEqual([1, 2]);
  });

  it("caps rows at 250 whatever the caller asks", async () => {
    server = await assetServer(10);
    await client().portfolios.assets("p", { rows: 1000 }).all();
    expect(queryOf(server.requests[0]).get("rows")).toBe("250");
  });
});

describe("bulk read with read-ahead", () => {
  it("keeps K pages in flight, returns items in order, and requests nothing after a short page once known", async () => {
    server = await assetServer(1130, { delayMs: 40 });
    let maxInFlight = 0;
    let inFlight = 0;
    const fetchDirect = async (page: number, rows: number) => {
      const response = await fetch(`${server.url}/api/portfolios/p/assets?page=${page}&rows=${rows}`);
      return (await response.json()) as Array<{ portfolio_index: number }>;
    };
    const items = await readAllPages(
      async (page, rows) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await fetchDirect(page, rows);
        } finally {
          inFlight -= 1;
        }
      },
      { rows: 250, readAhead: 3 },
    );
    expect(items.map((i) => i.portfolio_index)).toEqual(Array.from({ length: 1130 }, (_, i) => i));
    expect(maxInFlight).toBe(3);
    // 5 pages (250 × 4 + 130) with 3 in flight: two rounds, plus at most 2 speculative pages.
    const pages = pagesRequested();
    expect(Math.max(...pages)).toBeLessThanOrEqual(7);
    expect(new Set(pages).size).toBe(pages.length);
    // maxInFlight proves the overlap; how much time it saves is a figure of `npm run bench`, not
    // an assertion here (a loaded CI machine would make a wall-clock bound flaky).
  });

  it("reads a list that fits in one page with one request, however deep the read-ahead", async () => {
    server = await assetServer(52);
    const items = await client().portfolios.assets("p").all({ readAhead: 6 });
    expect(items).toHaveLength(52);
    expect(pagesRequested()).toEqual([1]);
  });

  it("with the expected item count, requests exactly the pages that hold the list", async () => {
    server = await assetServer(1000);
    const items = await client().portfolios.assets("p").all({ readAhead: 6, expectedItems: 1000 });
    expect(items).toHaveLength(1000);
    expect(pagesRequested().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it("goes on past a low guess of the item count", async () => {
    server = await assetServer(800);
    const items = await client().portfolios.assets("p").all({ readAhead: 2, expectedItems: 100 });
    expect(items.map((i) => i.portfolio_index)).toEqual(Array.from({ length: 800 }, (_, i) => i));
  });

  it("reports progress and rejects with the first page error", async () => {
    server = await assetServer(2000, { failPage: 3 });
    const progress: number[] = [];
    const error = await client()
      .portfolios.assets("p")
      .all({ readAhead: 1, onProgress: (p) => progress.push(p.pagesRead) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(progress).toEqual([1, 2]);
    expect(pagesRequested()).toEqual([1, 2, 3]);
  });

  it("stops cleanly when the caller aborts", async () => {
    server = await assetServer(5000, { delayMs: 30 });
    const controller = new AbortController();
    const pending = client().portfolios.assets("p").all({ readAhead: 2, signal: controller.signal });
    setTimeout(() => controller.abort(), 45);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    // Requests sent before the abort may reach the server a little later on a loaded machine:
    // count once they have landed, then check that nothing more comes.
    await new Promise((r) => setTimeout(r, 100));
    const sent = server.requests.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests.length).toBe(sent);
    expect(sent).toBeLessThan(10);
  });
});

describe("reads sharing request slots", () => {
  it("never have more pages in flight together than the slots; the long list takes the slots the short one leaves", async () => {
    server = await assetServer(5000, { delayMs: 20 });
    const slots = new RequestSlots(6);
    const assets = client().portfolios.assets("p");
    const [long, short] = await Promise.all([
      assets.all({ readAhead: 6, slots, expectedItems: 5000 }),
      client().portfolios.assets("p").all({ readAhead: 6, slots, expectedItems: 500 }),
    ]);
    expect(long.map((i) => i.portfolio_index)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(short).toHaveLength(5000); // a short guess: it goes on to the end
    expect(server.peakInFlight).toBe(6);
    // The long list: its 20 pages and the empty one that ends it, none more; the short guess may
    // read ahead past its end, as a list of unknown length does (at most readAhead − 1 pages).
    expect(server.requests.length).toBeGreaterThanOrEqual(2 * 21);
    expect(server.requests.length).toBeLessThanOrEqual(2 * 21 + 5);
  });

  it("a refresh's single requests (a dataset's version) wait for a slot beside its pages: never one past the slots", async () => {
    server = await assetServer(5000, { delayMs: 20 });
    const shared = new SharedReads(client(), undefined, new RequestSlots(4));
    const list = client()
      .portfolios.assets("p")
      .all({ ...shared.forSheet(1).reading(4, 5000) });
    // Asked while the list's pages hold every slot: it waits for one, the server sees at most 4.
    const firstPage = async () => {
      for await (const page of client().portfolios.assets("p", { rows: 10 }).pages()) return page.length;
      return 0;
    };
    const singles = Array.from({ length: 6 }, () => shared.forSheet(0).inSlot(firstPage));
    const [assets, ...read] = await Promise.all([list, ...singles]);
    expect(assets).toHaveLength(5000);
    expect(read).toEqual([10, 10, 10, 10, 10, 10]);
    expect(server.peakInFlight).toBe(4);
  });

  it("a free slot goes to the waiting read of the lowest priority number, whatever the order they asked in", async () => {
    const slots = new RequestSlots(1);
    const order: string[] = [];
    const first = await slots.acquire();
    // Each takes its turn, then gives the slot back at once.
    const turn = (priority: number, name: string) =>
      slots
        .withPriority(priority)
        .acquire()
        .then((release) => {
          order.push(name);
          release();
        });
    const waiters = [turn(2, "sheet 3"), turn(1, "sheet 2 (a)"), turn(1, "sheet 2 (b)"), turn(0, "sheet 1")];
    first();
    await Promise.all(waiters);
    expect(order).toEqual(["sheet 1", "sheet 2 (a)", "sheet 2 (b)", "sheet 3"]);
  });

  it("the sheet written first reads every page before a later sheet's read takes a slot", async () => {
    // Each of its reads asks for a slot again as soon as it gives one back: the free slot must go to
    // it, not to the later sheet's read that was waiting (the refresh's summary waited 0.4 s so).
    server = await assetServer(2500, { delayMs: 10 });
    const shared = new SharedReads(client(), undefined, new RequestSlots(2));
    const [first, later] = await Promise.all([
      client()
        .portfolios.assets("first")
        .all({ ...shared.forSheet(0).reading(2, 2500) }),
      client()
        .portfolios.assets("later")
        .all({ ...shared.forSheet(1).reading(2, 2500) }),
    ]);
    expect(first).toHaveLength(2500);
    expect(later).toHaveLength(2500);
    const lists = server.requests.map((r) => (r.url.includes("/first/") ? "first" : "later"));
    const firstDone = lists.lastIndexOf("first");
    expect(firstDone).toBeGreaterThanOrEqual(10);
    expect(lists.slice(0, firstDone + 1)).toEqual(lists.slice(0, firstDone + 1).map(() => "first"));
    expect(server.peakInFlight).toBe(2);
  });

  it("a read cancelled while waiting for a slot takes none, and the other reads go on", async () => {
    server = await assetServer(3000, { delayMs: 20 });
    const slots = new RequestSlots(2);
    const controller = new AbortController();
    const other = client().portfolios.assets("p").all({ readAhead: 2, slots, expectedItems: 3000 });
    const cancelled = client()
      .portfolios.assets("p")
      .all({ readAhead: 2, slots, expectedItems: 3000, signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(AbortedError);
    expect(await other).toHaveLength(3000);
    expect(server.peakInFlight).toBeLessThanOrEqual(2);
  });
});

describe("streaming pages in order (onPage)", () => {
  it("hands every page over in page order even when later pages arrive first, and keeps none", async () => {
    // Page 1 is slowest, so pages 2..4 arrive before it; onPage must still see 1, 2, 3, 4, 5.
    server = await assetServer(230, { delayOfPage: (page) => (page === 1 ? 120 : 10) });
    const seen: Array<[number, number]> = [];
    const result = await client()
      .portfolios.assets("p", { rows: 50 })
      .all({
        readAhead: 4,
        expectedItems: 230,
        onPage: (items, page) => void seen.push([page, items[0].portfolio_index]),
      });
    expect(seen).toEqual([
      [1, 0],
      [2, 50],
      [3, 100],
      [4, 150],
      [5, 200],
    ]);
    expect(result).toEqual([]);
  });

  it("ends when a page slow to come holds the others past the window, the consumer taking pages at once", async () => {
    // Page 1 is slow: pages 2..8 arrive and wait for it, so the workers find no room (2 × read-ahead
    // past the last page handed over) and wait. When page 1 comes, onPage takes every page at once
    // (it returns nothing): the waiting workers must be woken to read on and to end, or the read
    // never settled (a paste's progress stuck at its first page).
    server = await assetServer(1000, { delayOfPage: (page) => (page === 1 ? 150 : 5) });
    const handedOver: number[] = [];
    await client()
      .portfolios.assets("p", { rows: 50 })
      .all({ readAhead: 4, expectedItems: 1000, onPage: (_items, page) => void handedOver.push(page) });
    expect(handedOver).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(Math.max(...pagesRequested())).toBe(21);
  });
});

describe("streaming pages at the consumer's pace (onPage returns a promise)", () => {
  it("requests no page more than twice the read-ahead past the last page written, and reads on as pages are written", async () => {
    server = await assetServer(50 * 20);
    const finishWriting: Array<() => void> = [];
    const written: number[] = [];
    const reading = client()
      .portfolios.assets("p", { rows: 50 })
      .all({
        readAhead: 2,
        expectedItems: 1000,
        onPage: (_items, page) =>
          new Promise<void>((resolve) => finishWriting.push(() => (written.push(page), resolve()))),
      });
    const settle = async () => {
      // Let requests made so far reach the server and their answers come back.
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await settle();
    // Nothing written yet: pages 1..4 (2 × read-ahead) requested, no more.
    expect(Math.max(...pagesRequested())).toBe(4);
    // Page 1 written: one more page may be requested.
    finishWriting.shift()!();
    await settle();
    expect(Math.max(...pagesRequested())).toBe(5);
    // The rest written as they come: every page read, each once.
    let finished = false;
    void reading.then(() => (finished = true));
    while (!finished) {
      if (finishWriting.length > 0) finishWriting.shift()!();
      else await new Promise((r) => setTimeout(r, 5));
    }
    // The read ends when its last page arrives; writing what is handed over is the caller's to await.
    while (finishWriting.length > 0) finishWriting.shift()!();
    expect([...pagesRequested()].sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    // 20 full pages, then the empty page 21 that ends the list, handed over like the others.
    expect(written).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it("fails the read when writing a page fails, and requests nothing more", async () => {
    server = await assetServer(50 * 20);
    const reading = client()
      .portfolios.assets("p", { rows: 50 })
      .all({
        readAhead: 2,
        expectedItems: 1000,
        onPage: (_items, page) => (page === 2 ? Promise.reject(new Error("sheet full")) : Promise.resolve()),
      });
    await expect(reading).rejects.toThrow("sheet full");
    const requested = pagesRequested().length;
    await new Promise((r) => setTimeout(r, 50));
    expect(pagesRequested().length).toBe(requested);
    expect(requested).toBeLessThanOrEqual(6);
  });
});
