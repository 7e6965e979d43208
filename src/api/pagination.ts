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
   * Streaming: called with each page's items in page order, as soon as the page and every page
   * before it have arrived (later pages stay in flight meanwhile). Pages handed over are not kept:
   * with `onPage` the returned array is empty, so a long list never sits in memory whole.
   */
  onPage?: (items: T[], page: number) => void;
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
  let failure: unknown;
  // Pages are requested up to the horizon first; past it only once those pages show the list goes on.
  // With a size hint, the horizon is the page that must end the list. Without one it is page 1: most
  // lists fit in a page, and reading ahead before page 1 proves otherwise would multiply their cost.
  let horizon: number =
    options.expectedItems !== undefined && options.expectedItems >= 0
      ? Math.floor(options.expectedItems / rows) + 1
      : 1;

  const outerSignal = options.signal;
  const abortAll = () => inFlight.forEach((controller) => controller.abort());
  outerSignal?.addEventListener("abort", abortAll, { once: true });

  const worker = async (): Promise<void> => {
    while (failure === undefined && !outerSignal?.aborted) {
      if (nextPage > lastPage) return;
      // Pages up to the horizon decide whether the hint was short; the loop below goes on if so.
      if (nextPage > horizon) return;
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
            options.onPage(next, delivered);
          }
        }
      } catch (error) {
        if (page > lastPage) continue; // aborted because it lies past the end
        if (failure === undefined) failure = error;
        abortAll();
        return;
      } finally {
        inFlight.delete(page);
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
