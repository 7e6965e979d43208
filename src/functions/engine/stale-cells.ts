/**
 * The cells showing an old value or an error after a failed load (service unreachable, 5xx or 429
 * after retries, timeout), for the task pane's list with "Retry these". The engine records per
 * cell and per data key; a cell's entries are dropped as soon as it is evaluated again, so a
 * recalculation that succeeds empties the list.
 */

import { readA1 } from "../../shaping/a1";

/** What a cell shows for one failed load. */
export interface StaleMark {
  /** "old value": the last good value is shown (setting "keep"); "error": the error is shown. */
  showing: "old value" | "error";
  /** When the value shown (or the last good one, for an error) was fetched; undefined when never. */
  fetchedAt?: number;
  /** Why the refresh failed, in the words the cell's error uses. */
  reason: string;
}

/** One line of the list: a cell and the oldest data it shows. */
export interface StaleCell extends StaleMark {
  /** The cell's address as Excel gives it, e.g. "Sheet1!C2". */
  address: string;
  /** Data keys behind the cell that failed (engine cache keys without the connection: cache-key.ts). */
  keys: string[];
}

/** Sheet names compared as people read them: "Sheet2" before "Sheet10", case aside. */
const SHEET_NAMES = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/**
 * Lines sorted by sheet (SHEET_NAMES), then row, then column. An address that is not A1 (none is,
 * from Excel) keeps its place after the rest.
 */
function sortInReadingOrder(lines: StaleCell[]): StaleCell[] {
  const places = new Map(lines.map((line) => [line, readA1(line.address)]));
  return lines.sort((a, b) => {
    const pa = places.get(a);
    const pb = places.get(b);
    if (!pa || !pb) return pa ? -1 : pb ? 1 : 0;
    return SHEET_NAMES.compare(pa.sheet ?? "", pb.sheet ?? "") || pa.row - pb.row || pa.col - pb.col;
  });
}

export class StaleCells {
  private readonly cells = new Map<string, Map<string, StaleMark>>();
  /** The evaluation (its cancellation object) each cell was last seen in. */
  private readonly evaluations = new Map<string, object>();
  private readonly listeners = new Set<() => void>();
  /** The list as last computed; dropped on every change, so unchanged reads return the same array. */
  private snapshot: readonly StaleCell[] | undefined;

  /** A load of `cell` in evaluation `evaluation` began: a new evaluation forgets the cell's old marks. */
  touch(cell: string, evaluation: object): void {
    if (this.evaluations.get(cell) === evaluation) return;
    this.evaluations.set(cell, evaluation);
    if (this.cells.delete(cell)) this.emit();
  }

  record(cell: string, key: string, mark: StaleMark): void {
    let marks = this.cells.get(cell);
    if (!marks) this.cells.set(cell, (marks = new Map()));
    marks.set(key, mark);
    this.emit();
  }

  /**
   * The cells in the list in reading order: by sheet name, then row, then column. Not in the order
   * they failed: loads fail concurrently, so that order changes from one refresh to the next and an
   * analyst comparing two lists would see cells move. The same array until the list changes, so a
   * React view can read it with useSyncExternalStore.
   */
  list(): readonly StaleCell[] {
    return (this.snapshot ??= this.compute());
  }

  private compute(): StaleCell[] {
    const lines = [...this.cells].map(([address, marks]): StaleCell => {
      const all = [...marks.values()];
      const error = all.find((mark) => mark.showing === "error");
      const times = all.map((mark) => mark.fetchedAt).filter((t): t is number => t !== undefined);
      return {
        address,
        showing: error ? "error" : "old value",
        fetchedAt: times.length === all.length && times.length > 0 ? Math.min(...times) : undefined,
        reason: (error ?? all[0]!).reason,
        keys: [...marks.keys()],
      };
    });
    return sortInReadingOrder(lines);
  }

  get size(): number {
    return this.cells.size;
  }

  clear(): void {
    this.cells.clear();
    this.evaluations.clear();
    this.emit();
  }

  /** Be told when the list changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    this.snapshot = undefined;
    for (const listener of this.listeners) listener();
  }
}
