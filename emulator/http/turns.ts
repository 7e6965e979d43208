/**
 * Work on the server's thread that grows with an input (a 5,000-asset export, a layer of 70,000
 * features applied to a portfolio) gives the event loop back between slices, so no request holds
 * up another key's for more than a slice. A slice ends after SLICE_MS; the loop then lets I/O and
 * timers run (setImmediate) before the work goes on.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** Longest run of work between two turns of the event loop. */
export const SLICE_MS = 10;

/** Measures the current slice; `pace()` at each step of a long loop ends it once it is long enough. */
export class TurnClock {
  private sliceStart = performance.now();

  /** Resolves at once within the slice; past it, after other work has had a turn. */
  async pace(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}

/** The items of `source`, giving the event loop back whenever producing them took a slice. */
export async function* paced<T>(source: Iterable<T>): AsyncGenerator<T> {
  const clock = new TurnClock();
  for (const item of source) {
    yield item;
    await clock.pace();
  }
}
