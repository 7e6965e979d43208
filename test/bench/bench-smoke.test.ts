import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { runBenchmarks, type BenchReport } from "../../bench/bench";
import { renderConsole, renderMarkdown } from "../../bench/report";
import { measureBundle } from "../../bench/scenarios/bundle";
import { ANSWER_MS_PER_MB } from "../../bench/scenarios/weekly-refresh";
import { round } from "../../bench/format";

/**
 * Keeps `npm run bench` from rotting: the same code paths at a tiny scale and latency 0 (the
 * emulator still runs in its own process). Timings are not asserted; what crossed the wire is.
 */
const TINY = {
  searchCells: 50,
  searchPoints: 10,
  naiveSearchCells: 20,
  portfolioAssets: 60,
  naiveSummaryCells: 10,
  naiveWriteRows: 20,
  latencyPoints: 12,
  latencyRuns: 1,
  // The capped run goes at latency 0 too: the smoke test checks what crossed the wire, not time.
  weekly: {
    assets: 30,
    searchCells: 4,
    impactCells: 3,
    series: 8,
    cappedLatencyMs: 0,
    syncRoundTripsMs: [5],
    refreshes: 2,
  },
  // On the real clock: 40 at 20/s is 2 s, 3 at 1/s 3 s.
  geocode: { atTwentyPerSecond: 40, atOnePerSecond: 3, twentyAtOnce: 100 },
};

let report: BenchReport;
beforeAll(async () => {
  report = await runBenchmarks({ latencyMs: 0, scale: TINY, bundle: "skip", browser: false });
}, 120_000);

const result = (id: string) => {
  const found = report.results.find((r) => r.id === id);
  if (!found) throw new Error(`no result ${id}`);
  return found;
};
const check = (id: string, name: string) => result(id).checks.find((c) => c.name.startsWith(name));

test("every scenario but the bundle ran, in order", () => {
  expect(report.results.map((r) => r.id)).toEqual([
    "search",
    "search-column",
    "warm-restart",
    "summary",
    "summary-column",
    "timeseries",
    "sync",
    "applied-layer",
    "summary-paste",
    "timeseries-stream",
    "extended-summary",
    "risk-sheets-paste",
    "export-paste",
    "kinds-refresh",
    "keyed-refresh",
    "weekly-refresh",
    "geocode",
    "search-300-cap32",
    "search-300-rate50",
    "search-300-six",
    "search-40",
  ]);
  expect(report.setup?.assets).toBe(TINY.portfolioAssets);
});

test("search: one request per distinct point, none on recalculation, every cell a value", () => {
  const search = result("search");
  expect(search.requests).toBe(TINY.searchPoints);
  expect(check("search", "second recalculation")?.pass).toBe(true);
  expect(check("search", "every cell")?.pass).toBe(true);
  expect(search.details.naiveRequests).toBe(TINY.naiveSearchCells);
});

test("column forms and the warm restart: requests as docs/benchmarks.md counts them, every row a value", () => {
  expect(result("search-column").requests).toBe(TINY.searchPoints);
  expect(check("search-column", "one spill")?.pass).toBe(true);
  expect(check("search-column", "second recalculation")?.pass).toBe(true);
  expect(check("summary-column", "requests = the summary's pages")?.pass).toBe(true);
  expect(check("summary-column", "one spill")?.pass).toBe(true);
  expect(result("warm-restart").requests).toBe(0);
  expect(check("warm-restart", "every cell")?.pass).toBe(true);
  expect(result("warm-restart").details.storageChars).toBeGreaterThan(0);
});

test("summary: page requests only, naive client one request per cell", () => {
  expect(check("summary", "requests = the summary's pages")?.pass).toBe(true);
  expect(check("summary", "every cell")?.pass).toBe(true);
  expect(result("summary").details.naiveRequests).toBe(TINY.naiveSummaryCells);
});

test("timeseries, sync and pastes wrote what they read", () => {
  const timeseries = result("timeseries");
  expect(timeseries.details.items).toBe(TINY.portfolioAssets);
  expect(check("timeseries", "every sync")?.pass).toBe(true);
  // The naive writer syncs once per row (header included), over the subset it is given.
  expect(timeseries.details.naiveSyncs).toBe(TINY.naiveWriteRows + 1);
  expect(timeseries.naiveNote).toMatch(/extrapolated/);
  // Three pastes are measured and the median reported; the naive target never asks more than 3×.
  expect(String(timeseries.details.pasteWallsMs).split(", ")).toHaveLength(3);
  expect(timeseries.details.pasteWallsMs).toContain(String(Math.round(timeseries.wallMs ?? -1)));
  expect(Number(timeseries.details.speedupTarget)).toBeLessThanOrEqual(3);
  expect(check("sync", "exactly one upload")?.pass).toBe(true);
  expect(result("applied-layer").details.rows).toBe(TINY.portfolioAssets);
  expect(result("summary-paste").details.syncs).toBeGreaterThan(0);
});

test("streaming timeseries and one-scenario extended summary: measured in the same run, every sync under 5 MB", () => {
  const stream = result("timeseries-stream");
  expect(stream.details.items).toBe(TINY.portfolioAssets);
  expect(check("timeseries-stream", "rows = items read")?.pass).toBe(true);
  expect(check("timeseries-stream", "every sync")?.pass).toBe(true);
  expect(Number(stream.details.readMs)).toBeGreaterThan(0);
  expect(Number(stream.details.writeMs)).toBeGreaterThan(0);
  // The bound's parts, and the serial paste it is compared with, were measured in the same run.
  expect(Number(stream.details.fakeWriteMs)).toBeGreaterThan(0);
  expect(Number(stream.details.ownThreadMs)).toBeGreaterThan(0);
  expect(Number(stream.details.serialMs)).toBeGreaterThan(0);
  // Nothing is shaped before the first page: its wait (the loop's idle time until that answer, in
  // the bound's second term) is measured, and is part of the paste's whole read wait. At latency 0
  // on a busy machine the loop may not idle at all before it, so it can round to 0.
  const firstPageWaitMs = Number(stream.details.firstPageWaitMs);
  expect(Number.isFinite(firstPageWaitMs)).toBe(true);
  expect(firstPageWaitMs).toBeGreaterThanOrEqual(0);
  expect(firstPageWaitMs).toBeLessThanOrEqual(Number(stream.details.readWaitMs) + 1);
  expect(
    check("timeseries-stream", "wall ≤ 1.15 × max(read wait, first page's wait + own thread + fake write)"),
  ).toBeDefined();
  const extended = result("extended-summary");
  expect(extended.details.extendedRows).toBe(TINY.portfolioAssets); // one scenario: one row per asset
  expect(check("extended-summary", "every sync")?.pass).toBe(true);
  expect(extended.memory?.rss).toBeGreaterThan(0);
});

test("searches at real latency: one request per point, every row a value, 429s counted", () => {
  for (const id of ["search-300-cap32", "search-300-rate50", "search-300-six", "search-40"]) {
    expect(result(id).requests).toBe(TINY.latencyPoints);
    expect(check(id, "every row a value")?.pass).toBe(true);
  }
  expect(check("search-300-cap32", "fewer than 1 %")?.pass).toBe(true);
});

test("refresh by key: every note beside its own asset, every sync under 5 MB, the record's cost reported", () => {
  expect(check("keyed-refresh", "every note beside its own asset")?.pass).toBe(true);
  expect(check("keyed-refresh", "every sync < 5 MB")?.pass).toBe(true);
  expect(result("keyed-refresh").details.writtenRecordBytesPerCell).toBeGreaterThan(4);
});

test("weekly refresh: every cell a value, pasted sheets refreshed by key, the change reported, 0 requests on reopening", () => {
  const weekly = result("weekly-refresh");
  for (const [run, limit] of [
    ["0 ms", 1.2],
    ["0 ms, 5 ms a sync", 1.3],
    ["0 ms, cap 32", 1.2],
  ] as const) {
    expect(check("weekly-refresh", `${run}: every cell shows a value`)?.pass).toBe(true);
    expect(check("weekly-refresh", `${run}: every pasted sheet refreshed`)?.pass).toBe(true);
    expect(check("weekly-refresh", `${run}: What changed names the changed assets only`)?.pass).toBe(true);
    expect(check("weekly-refresh", `${run}: reopened, 0 requests`)?.pass).toBe(true);
    expect(check("weekly-refresh", `${run}: whole refresh ≤ ${limit} × bound`)).toBeDefined();
  }
  // Syncs counted per step, with the fewest their bytes need; the round-trip run waited on its syncs.
  expect(check("weekly-refresh", "syncs: each step ≤ 2 × the fewest")).toBeDefined();
  expect(Number(weekly.details.RefreshpastedsheetsSyncs)).toBeGreaterThanOrEqual(
    Number(weekly.details.RefreshpastedsheetsFewestSyncs),
  );
  expect(Number(weekly.details.sync5msRefreshpastedsheetsSyncWaitMs)).toBeGreaterThan(0);
  // The answers' bytes counted, their decoding and parsing in the bound at the stated pace.
  const answerBytes = Number(weekly.details.RefreshpastedsheetsAnswerBytes);
  expect(answerBytes).toBeGreaterThan(0);
  expect(weekly.details.RefreshpastedsheetsAnswersMs).toBe(round((answerBytes / 1e6) * ANSWER_MS_PER_MB));
  expect(Number(weekly.details.RatioWithoutAnswers)).toBeGreaterThan(Number(weekly.details.Ratio));
  // The add-in thread's busy time: measured, and within the step's wall.
  const busy = Number(weekly.details.RefreshpastedsheetsThreadBusyMs);
  expect(busy).toBeGreaterThan(0);
  expect(busy).toBeLessThanOrEqual(Number(weekly.details.RefreshpastedsheetsMs) + 1);
  // Each run measured its refreshes and reports the median one's ratio among them.
  for (const prefix of ["", "sync5ms", "capped"]) {
    expect(weekly.details[`${prefix}Refreshes`]).toBe(TINY.weekly.refreshes);
    const ratios = String(weekly.details[`${prefix}RefreshRatios`]).split(", ").map(Number);
    expect(ratios).toHaveLength(TINY.weekly.refreshes);
    expect(ratios[Number(weekly.details[`${prefix}MedianRefresh`]) - 1]).toBe(weekly.details[`${prefix}Ratio`]);
    // Each ratio comes with the machine's pace at decoding and parsing answers just before it.
    const paces = String(weekly.details[`${prefix}RefreshDecodeMsPerMb`]).split(", ").map(Number);
    expect(paces).toHaveLength(TINY.weekly.refreshes);
    for (const pace of paces) expect(pace).toBeGreaterThan(0);
  }
  expect(check("weekly-refresh", "0 ms: whole refresh")?.detail).toMatch(/ × [\d.]+ at [\d.]+ ms a MB/);
  // The workbook lived in its own thread: its heap measured there, Excel's time is that thread's work.
  expect(weekly.details.WorkbookHeap).toBeGreaterThan(0);
  expect(weekly.details.AddinPeakHeap).toBe(weekly.details.PeakHeap);
  expect(Number(weekly.details.RefreshpastedsheetsExcelMs)).toBeGreaterThan(0);
  expect(Number(weekly.details.RefreshpastedsheetsBatchSpanMs)).toBeGreaterThan(0);
  // 1 % of 30 assets rounds to one changed asset; the three steps each sent requests.
  expect(weekly.details.changedAssets).toBe(1);
  expect(weekly.details.summaryCells).toBe(6 * TINY.weekly.assets);
  expect(Number(weekly.details.RefreshallRequests)).toBeGreaterThan(0);
  expect(Number(weekly.details.RefreshpastedsheetsRequests)).toBeGreaterThan(0);
  expect(Number(weekly.details.WhatchangedRequests)).toBeGreaterThan(0);
  expect(String(weekly.details.Routes)).toMatch(/GET \/api\/search \d+/);
  expect(Number(weekly.details.MaxSyncBytes)).toBeGreaterThan(0);
  expect(weekly.memory?.rss).toBeGreaterThan(0);
});

test("the report has a row and a status for every scenario", () => {
  const markdown = renderMarkdown(report);
  for (const r of report.results) expect(markdown).toContain(`| ${r.scenario.replace(/\|/g, "\\|")} |`);
  expect(markdown).toMatch(/\| Scenario \| Requests \| Wall \| Bound \| Wall ÷ bound \| Naive \|/);
  expect(renderConsole(report).split("\n")).toHaveLength(report.results.length + 1);
});

test("bundle sizes: raw and gzipped per script, lazy chunks counted as task pane UI", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-smoke-"));
  try {
    const functions = "function f(){return 1}\n".repeat(500);
    writeFileSync(join(dir, "functions.js"), functions);
    writeFileSync(join(dir, "runtime.js"), "var r=1;");
    writeFileSync(join(dir, "taskpane.js"), "var t=1;");
    writeFileSync(join(dir, "ui.0a1b2c3d.js"), "var u=2;");
    writeFileSync(join(dir, "functions.js.map"), "{}");
    const sizes = measureBundle(dir);
    expect(sizes.map((s) => s.file)).toEqual(["functions.js", "runtime.js", "taskpane.js", "ui.0a1b2c3d.js"]);
    expect(sizes[0].raw).toBe(Buffer.byteLength(functions));
    expect(sizes[0].gzip).toBe(gzipSync(functions, { level: 9 }).length);
    expect(sizes[3].role).toMatch(/lazily/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("first pastes and the kinds' refresh: every sheet refreshed, an export's files from one download", () => {
  expect(result("risk-sheets-paste").requests).toBeGreaterThan(0);
  expect(result("export-paste").details.files).toBeGreaterThan(1);
  const refresh = result("kinds-refresh");
  expect(refresh.details.refreshed).toBe(refresh.details.sheets);
  expect(refresh.details.exportRequests).toBe(1);
});
