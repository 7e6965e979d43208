import { startTestService, type TestService } from "../support/emulator";
import { createFakeExcel, type FakeExcel, type WorkbookSnapshot } from "../../testing/fake-excel";
import type { ExcelRunner } from "../../src/taskpane/ui/pane-types";

/**
 * A test service (test/support/emulator.ts) as the pane tests use it: fast processing, and clients
 * over drainingFetch, so a cancelled paste behaves on the wire as it does in a browser.
 */
export function startPaneTestService(options: { processingDelayMs?: number } = {}): Promise<TestService> {
  return startTestService({ processingDelayMs: 50, ...options, fetch: drainingFetch });
}

/**
 * Node's fetch leaves the server a half-open keep-alive socket when a request is aborted (as
 * read-ahead does past the last page), and the emulator's close then waits about 70 s for it.
 * Test clients therefore let an aborted request finish on the wire and drain its body, while the
 * caller still sees the abort at once: the service sees complete requests, the action under test
 * sees a cancellation exactly as in a browser.
 */
export const drainingFetch: typeof fetch = (input, init) => {
  const original = input instanceof Request ? input : new Request(input, init);
  const signal = init?.signal ?? original.signal;
  const detached = new Request(original, { signal: null });
  const pending = fetch(detached);
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => {
      reject(signal?.reason ?? new DOMException("This operation was aborted", "AbortError"));
      pending.then((response) => response.arrayBuffer()).catch(() => undefined);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (response) => {
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted) return;
        resolve(response);
      },
      (error: unknown) => {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
};

/** A fake workbook and its Excel.run, as the task pane receives it. */
export function newWorkbook(options: { firstSheetName?: string } = {}): { fake: FakeExcel; run: ExcelRunner } {
  const fake = createFakeExcel({ firstSheetName: options.firstSheetName });
  return { fake, run: (batch) => fake.run(batch) };
}

/**
 * The workbook as its user sees it: the snapshot without the add-in's very hidden store sheets
 * (a successful sync records in one where the portfolio's assets are, for the map).
 */
export function userSheetsOf(fake: FakeExcel): WorkbookSnapshot {
  const snapshot = fake.snapshot();
  return { ...snapshot, sheets: snapshot.sheets.filter((s) => s.visibility !== "VeryHidden") };
}

/** Total requests whose route key contains `fragment` (e.g. "POST /api/portfolios"). */
export function countRequests(stats: object, fragment: string): number {
  let total = 0;
  const walk = (value: unknown, key: string) => {
    if (typeof value === "number" && key.includes(fragment)) total += value;
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(stats, "");
  return total;
}
