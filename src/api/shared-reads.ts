/**
 * Lists read once and shared by every reader that needs the same one (the paste kinds of one paste,
 * the sheets of one refresh), within a budget of request slots (pagination.ts `RequestSlots`).
 */
import type { RiskClient } from "./client";
import type { ReadAllOptions, RequestSlots, SlotSource } from "./pagination";
import type { ExtendedSummaryItem, SummaryItem } from "./types";

/**
 * Lists read once per paste or per "Refresh pasted sheets" and shared by every sheet that needs the
 * same one: the extended summary of a scenario is both a pasted sheet's data and one of the
 * financial impact sheets' inputs (about 8,000 characters per asset), and the risk matrix and its
 * label counts are shaped from one summary read. Keyed by the request; it lives as long as one
 * paste or refresh (dropped when done), so it is not a cache: the next refresh reads everything
 * again. Reads go with the paste's or refresh's own signal, so one sheet giving up on its read (the
 * financial impact stops its other scenarios at the first failure) never cancels another's.
 */
export class SharedReads {
  /**
   * `slots`: pages in flight at most over every list read through these reads (a refresh's);
   * `lists`: the lists read so far, shared with the views `forSheet` makes.
   */
  constructor(
    private readonly client: RiskClient,
    private readonly signal?: AbortSignal,
    private readonly allSlots?: RequestSlots,
    private readonly slots: SlotSource | undefined = allSlots,
    private readonly lists = new Map<string, Promise<unknown>>(),
  ) {}

  /**
   * The same reads for the `index`-th sheet a refresh writes: its pages take free slots before
   * those of later sheets, so the sheet written next is read first (a list another sheet already
   * started keeps its place).
   */
  forSheet(index: number): SharedReads {
    return new SharedReads(this.client, this.signal, this.allSlots, this.allSlots?.withPriority(index), this.lists);
  }

  /**
   * How a list of about `expectedItems` items is read: with shared slots and a known length, every
   * page up to the expected end may be in flight (the slots bound the whole; none is asked past
   * the end but the one that shows it); else `readAhead` pages at a time (a list of unknown length
   * reads ahead no further than that past its end).
   */
  reading(readAhead: number, expectedItems?: number): Pick<ReadAllOptions, "readAhead" | "slots" | "expectedItems"> {
    if (!this.slots) return { readAhead, expectedItems };
    const known = expectedItems !== undefined && expectedItems > 0;
    return { readAhead: known ? Math.max(readAhead, this.slots.size) : readAhead, slots: this.slots, expectedItems };
  }

  /**
   * The extended summary of one scenario (or of every scenario when none is given), read once;
   * `assets`: how many the portfolio is expected to have (one item each), when known.
   */
  extendedSummary(
    portfolio: string,
    scenario: string | undefined,
    assets?: number,
  ): Promise<readonly ExtendedSummaryItem[]> {
    return this.once(["extended-summary", portfolio, scenario ?? null], () =>
      this.client.datasets
        .extendedSummary(portfolio, scenario ? { scenario } : {})
        .all({ signal: this.signal, ...this.reading(4, assets) }),
    );
  }

  /** The summary for `query`, read once; `read` reads it with the shared signal and reading. */
  summary(
    portfolio: string,
    query: Record<string, unknown>,
    read: (
      signal: AbortSignal | undefined,
      reading: Pick<ReadAllOptions, "readAhead" | "slots">,
    ) => Promise<SummaryItem[]>,
  ): Promise<readonly SummaryItem[]> {
    return this.once(["summary", portfolio, query], () => read(this.signal, this.reading(4)));
  }

  /**
   * One request of a sheet's read that is not a page of a list (a dataset's version and digest),
   * in one of the same slots: the refresh's requests in flight stay within its slots, never one
   * past them beside a full set of pages. Without slots, simply `read()`.
   */
  async inSlot<T>(read: () => Promise<T>): Promise<T> {
    if (!this.slots) return read();
    const release = await this.slots.acquire(this.signal);
    try {
      return await read();
    } finally {
      release();
    }
  }

  /**
   * Any other read the sheets of one paste or refresh share, read once: `request` names it (the
   * timeseries' items shaped into both its sheets, an export's ZIP for each of its files' sheets);
   * `read` reads it with the shared signal.
   */
  once<T>(request: unknown[], read: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const key = JSON.stringify(request);
    let list = this.lists.get(key) as Promise<T> | undefined;
    if (!list) {
      list = read(this.signal);
      // A rejection nobody awaits yet (the sheet that started the read was refused meanwhile) is not unhandled.
      list.catch(() => undefined);
      this.lists.set(key, list);
    }
    return list;
  }
}
