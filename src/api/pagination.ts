import { AbortedError } from "./errors";
import type { CallOptions } from "./http";

/** The service's page-size limit (docs/service.md#pagination). */
export const MAX_ROWS = 250;

/** Fetches one page; `page` starts at 1. */
export type PageFetcher<T> = (page: number, rows: number, call: CallOptions) => Promise<T[]>;

export interface ReadAllOptions<T = unknown> extends CallOptions {
  /** Page size, capped at 250 (default 250). */
  rows?: number;
  /** How many pages may be in flight at once (default 4). */
  readAhead?: number;
  /**
   * How many items the caller expects, when it knows (e.g. a portfolio's asset count). The reader
   * then requests no page past the one that must end the list, unless the guess proves short.
   */
  expectedItems?: number;
  /** Called after each page arrives, in arrival order. */
  onProgress?: (progress: { pagesRead: number; itemsRead: number }) => void;
  /**
   * Slots shared with other reads (every list one refresh reads): a page waits for a free slot
   * before it is requested, so reads together never have more pages in flight than the slots,
   * while a long list takes the slots the others leave free.
   */
  slots?: SlotSource;
  /**
   * Streaming: called with each page's items in page order, as soon as the page and every page
   * before it have arrived (later pages stay in flight meanwhile). Pages handed over are not kept:
   * with `onPage` the returned array is empty, so a long list never sits in memory whole.
   *
   * When it returns a promise (the page's writing), the read keeps pace with it: no page is
   * requested more than {@link pagesAheadOfConsumer} pages past the last one whose promise has
   * settled. A reject fails the read. The read ends when its last page arrives: awaiting the
   * writing of the pages handed over is the caller's.
   */
  onPage?: (items: T[], page: number) => void | Promise<unknown>;
}

/**
 * A list the service returns in pages. `for await (const item of list)` walks every item, one page
 * at a time; `list.pages()` walks pages; `list.all()` reads every page with read-ahead.
 * Reading stops at the first page shorter than `rows`, or an empty page (docs/service.md#pagination).
 */
export class PagedList<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly defaults: { rows?: number } & CallOptions = {},
  ) {}

  /** Pages one after another, each awaited before the next is requested. */
  async *pages(call: CallOptions & { rows?: number } = {}): AsyncGenerator<T[], void, undefined> {
    const rows = clampRows(call.rows ?? this.defaults.rows);
    const options = {
      signal: call.signal ?? this.defaults.signal,
      timeoutMs: call.timeoutMs ?? this.defaults.timeoutMs,
    };
    for (let page = 1; ; page++) {
      const items = await this.fetchPage(page, rows, options);
      if (items.length > 0) yield items;
      if (items.length < rows) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page;
  }

  /** Every item, in order, with up to `readAhead` pages in flight. */
  all(options: ReadAllOptions<T> = {}): Promise<T[]> {
    return readAllPages(this.fetchPage, {
      ...options,
      rows: options.rows ?? this.defaults.rows,
      signal: options.signal ?? this.defaults.signal,
      timeoutMs: options.timeoutMs ?? this.defaults.timeoutMs,
    });
  }
}

/** What a read takes its slots from (`ReadAllOptions.slots`): a RequestSlots, or one of its priorities. */
export interface SlotSource {
  /** Requests in flight at most over every read of the slots. */
  readonly size: number;
  /**
   * Resolves with the function that gives the slot back once one is free; rejects with
   * AbortedError when `signal` fires first (the read is over: no slot is taken).
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
}

/**
 * A limit on requests in flight shared by several reads (`ReadAllOptions.slots`). A free slot goes
 * to the waiting read of the lowest priority number (`withPriority`; the plain slots are 0), and
 * among equals to the one that asked first: a refresh that writes its sheets in order gives the
 * sheet written next its pages first, so its writing can begin while the later sheets read.
 */
export class RequestSlots implements SlotSource {
  private active = 0;
  private readonly queue: Array<{ priority: number; start: () => void }> = [];

  /** `size`: requests in flight at most. */
  constructor(readonly size: number) {}

  acquire(signal?: AbortSignal): Promise<() => void> {
    return this.acquireAt(0, signal);
  }

  /** The same slots, for reads that go before those of a higher number when both wait. */
  withPriority(priority: number): SlotSource {
    return { size: this.size, acquire: (signal) => this.acquireAt(priority, signal) };
  }

  private acquireAt(priority: number, signal: AbortSignal | undefined): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(slotAborted());
    const release = this.releaser();
    if (this.active < this.size && this.queue.length === 0) {
      this.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        priority,
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          this.active++;
          resolve(release);
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(slotAborted());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // After every waiter of the same or a lower number: first come, first served among equals.
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.priority > priority) at--;
      this.queue.splice(at, 0, waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      // Handed on a microtask later: a read that releases its slot asks again at once for its next
      // page, and must find its place in the queue first. Handed on at once, every free slot went
      // to a later sheet's read while the sheet to be written next still had pages to read (a
      // refresh's default summary read the extended summary's 20 heavy pages in between).
      queueMicrotask(() => {
        if (this.active < this.size) this.queue.shift()?.start();
      });
    };
  }
}

function slotAborted(): AbortedError {
  return new AbortedError("reading pages was cancelled", { operation: "readAllPages" });
}

/**
 * How many pages a streaming read (`onPage` returning a promise) may hold past the last page its
 * consumer has finished: in flight, arrived or waiting their turn. When Excel writes slower than
 * the service answers (Excel on the web, a busy workbook), reading on regardless piled up every
 * parsed page not yet written: about 4.5 MB of objects for a page of 250 series of 121 years, so a
 * paste's whole read in the pane's memory. Twice the read-ahead keeps the reads going while a page
 * is written (a paste at 40 ms showed no gain from more, and lost time with less).
 */
export function pagesAheadOfConsumer(readAhead: number): number {
  return 2 * readAhead;
}

/** Clamps a requested page size into the service's 1..250. */
export function clampRows(rows: number | undefined): number {
  if (rows === undefined || !Number.isFinite(rows)) return MAX_ROWS;
  return Math.min(MAX_ROWS, Math.max(1, Math.floor(rows)));
}

/**
 * Reads every page with up to `readAhead` requests in flight and returns the items in page order.
 * Page 1 goes alone (unless `expectedItems` says more are needed): a list that fits in it costs one
 * request. Once a short page shows where the list ends, no later page is requested and later pages
 * still in flight are aborted. The first failure aborts the rest and rejects.
 */
export async function readAllPages<T>(fetchPage: PageFetcher<T>, options: ReadAllOptions<T> = {}): Promise<T[]> {
  const rows = clampRows(options.rows);
  const readAhead = Math.max(1, Math.floor(options.readAhead ?? 4));
  const pages = new Map<number, T[]>();
  const inFlight = new Map<number, AbortController>();
  let lastPage = Number.POSITIVE_INFINITY; // the first page known to be short
  let nextPage = 1;
  let itemsRead = 0;
  let delivered = 0; // with onPage: pages handed over so far (1..delivered)
  let consumed = 0; // with onPage: pages whose consumer has finished (1..consumed)
  const aheadOfConsumer = pagesAheadOfConsumer(readAhead);
  // Workers waiting for the consumer to make room.
  const consumerWaiters: Array<() => void> = [];
  const wakeConsumerWaiters = () => consumerWaiters.splice(0).forEach((wake) => wake());
  let failure: unknown;
  // Pages are requested up to the horizon first; past it only once those pages show the list goes on.
  // With a size hint, the horizon is the page that must end the list. Without one it is page 1: most
  // lists fit in a page, and reading ahead before page 1 proves otherwise would multiply their cost.
  let horizon: number =
    options.expectedItems !== undefined && options.expectedItems >= 0
      ? Math.floor(options.expectedItems / rows) + 1
      : 1;

  const outerSignal = options.signal;
  const abortAll = () => {
    inFlight.forEach((controller) => controller.abort());
    wakeConsumerWaiters();
  };
  const fail = (error: unknown) => {
    if (failure === undefined) failure = error;
    abortAll();
  };
  outerSignal?.addEventListener("abort", abortAll, { once: true });

  // Past the end, past the horizon (whose pages decide whether the hint was short; the loop below
  // goes on if so), or stopped.
  const done = () =>
    failure !== undefined || outerSignal?.aborted === true || nextPage > lastPage || nextPage > horizon;
  // A page is requested only while the consumer is at most `aheadOfConsumer` pages behind it.
  const noRoom = () => options.onPage !== undefined && nextPage > consumed + aheadOfConsumer;
  // Hands a page to onPage; when that returns a promise, the page counts as consumed once it settles.
  // Either way the workers waiting for room are woken: left waiting, they never ended, nor the read.
  const consume = (items: T[], page: number) => {
    const writing = options.onPage!(items, page);
    if (!(writing instanceof Promise)) {
      consumed = page;
      wakeConsumerWaiters();
      return;
    }
    writing.then(() => {
      consumed = Math.max(consumed, page);
      wakeConsumerWaiters();
    }, fail);
  };
  const worker = async (): Promise<void> => {
    while (!done()) {
      if (noRoom()) {
        await new Promise<void>((wake) => consumerWaiters.push(wake));
        continue;
      }
      let release: (() => void) | undefined;
      if (options.slots) {
        try {
          release = await options.slots.acquire(outerSignal);
        } catch {
          return; // cancelled while waiting: the end of the read says so
        }
        // The list may have ended, or failed, while this worker waited.
        if (done()) {
          release();
          return;
        }
        // Or other workers may have taken the pages the consumer has room for.
        if (noRoom()) {
          release();
          continue;
        }
      }
      const page = nextPage++;
      const controller = new AbortController();
      inFlight.set(page, controller);
      try {
        const items = await fetchPage(page, rows, { signal: controller.signal, timeoutMs: options.timeoutMs });
        if (page > lastPage) continue; // past the end found meanwhile: discard
        pages.set(page, items);
        itemsRead += items.length;
        if (items.length < rows && page < lastPage) {
          lastPage = page;
          for (const [other, otherController] of inFlight) if (other > page) otherController.abort();
        }
        options.onProgress?.({ pagesRead: delivered + pages.size, itemsRead });
        if (options.onPage) {
          while (delivered < lastPage && pages.has(delivered + 1)) {
            const next = pages.get(delivered + 1)!;
            pages.delete(++delivered);
            consume(next, delivered);
          }
        }
      } catch (error) {
        if (page > lastPage) continue; // aborted because it lies past the end
        fail(error);
        return;
      } finally {
        inFlight.delete(page);
        release?.();
      }
    }
  };

  try {
    // Workers that returned at the horizon are restarted until the end is known.
    while (failure === undefined && nextPage <= lastPage && !outerSignal?.aborted) {
      await Promise.all(Array.from({ length: readAhead }, worker));
      if (lastPage !== Number.POSITIVE_INFINITY) break;
      horizon = Number.POSITIVE_INFINITY;
    }
  } finally {
    outerSignal?.removeEventListener("abort", abortAll);
  }
  if (outerSignal?.aborted) {
    throw failure instanceof AbortedError
      ? failure
      : new AbortedError("reading pages was cancelled", { operation: "readAllPages" });
  }
  if (failure !== undefined) throw failure;

  const result: T[] = [];
  for (let page = 1; page <= lastPage; page++) {
    const items = pages.get(page);
    if (items) for (const item of items) result.push(item);
  }
  return result;
}
