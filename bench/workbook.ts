import { createFakeExcel, type FakeExcel } from "../testing/fake-excel";
import type { PhysicalItem } from "../src/api/types";
import { StreamingSheets } from "../src/excel/stream-sheets";
import { SERIES_KINDS, TidyTimeseriesBuilder } from "../src/shaping/tidy-timeseries";
import type { CellValue } from "../src/shaping/types";
import type { ExcelRunner } from "../src/taskpane/ui/pane-types";

/** A fake workbook whose `run` also adds up the time spent inside it (the write phase of a paste). */
export interface TimedWorkbook {
  fake: FakeExcel;
  run: ExcelRunner;
  /** Milliseconds during which at least one `run` was under way (overlapping batches count once). */
  runMs(): number;
  /** performance.now() when `run` was first entered, or undefined. */
  firstRunAt(): number | undefined;
  /** Whether a `run` is under way now (its time is being counted). */
  inRun(): boolean;
}

export function timedWorkbook(): TimedWorkbook {
  const fake = createFakeExcel();
  let total = 0;
  let first: number | undefined;
  // Batches may overlap (a read of one sheet while another is written): the time inside Excel is
  // the union of their spans, not the sum, or overlapping work would count twice.
  let active = 0;
  let busySince = 0;
  const run: ExcelRunner = async (batch) => {
    const started = performance.now();
    first ??= started;
    if (active++ === 0) busySince = started;
    try {
      return await fake.run(batch);
    } finally {
      if (--active === 0) total += performance.now() - busySince;
    }
  };
  const runMs = () => total + (active > 0 ? performance.now() - busySince : 0);
  return { fake, run, runMs, firstRunAt: () => first, inRun: () => active > 0 };
}

/** Sync statistics of a fake workbook: how many, the largest request, and the fake's own time. */
export function syncFigures(fake: FakeExcel): {
  syncs: number;
  maxRequestBytes: number;
  totalRequestBytes: number;
  /** Milliseconds the fake worked inside its syncs (Excel's part of the writing). */
  busyMs: number;
} {
  let max = 0;
  let totalBytes = 0;
  let busyMs = 0;
  for (const sync of fake.syncs) {
    max = Math.max(max, sync.requestBytes);
    totalBytes += sync.requestBytes;
    busyMs += sync.busyMs;
  }
  return { syncs: fake.syncs.length, maxRequestBytes: max, totalRequestBytes: totalBytes, busyMs };
}

/**
 * The naive writer: a new sheet, then one `values` write and one sync per row (header included),
 * as code that loops over rows calling `context.sync()` does. Returns the rows written.
 */
export async function writeRowByRow(
  run: ExcelRunner,
  sheetName: string,
  header: readonly string[],
  rows: readonly CellValue[][],
): Promise<number> {
  return run(async (context) => {
    const sheet = context.workbook.worksheets.add(sheetName);
    const all = [header as CellValue[], ...rows];
    for (let r = 0; r < all.length; r++) {
      sheet.getRangeByIndexes(r, 0, 1, all[r].length).values = [all[r] as (string | number | boolean)[]];
      await context.sync();
    }
    return rows.length;
  });
}

/**
 * Writes already-read timeseries items page by page through the streaming writer into a fresh
 * workbook, as the paste does but with nothing read meanwhile: the "write alone" time.
 */
export async function writeTimeseriesAlone(items: readonly PhysicalItem[], pageRows: number): Promise<void> {
  await writeTimeseries(timedWorkbook().run, items, pageRows);
}

/** Writes timeseries items page by page through the paste's streaming writer into new sheets. */
export async function writeTimeseries(
  run: ExcelRunner,
  items: readonly PhysicalItem[],
  pageRows: number,
): Promise<void> {
  await run(async (context) => {
    const builder = new TidyTimeseriesBuilder();
    const writer = await StreamingSheets.open(
      context,
      SERIES_KINDS.map((k) => ({ sheetName: `Write ${k}` })),
    );
    for (let start = 0; start < items.length; start += pageRows) {
      const rows = builder.add(items.slice(start, start + pageRows));
      for (const [i, kind] of SERIES_KINDS.entries()) await writer.append(i, rows[kind]);
    }
    await writer.finish(SERIES_KINDS.map((k) => builder.header(k)));
  });
}
