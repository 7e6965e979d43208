import { search, summary } from "../../../../src/functions/functions";
import {
  countScope,
  refreshScope,
  refreshWorkbookByRecalculation,
} from "../../../../src/taskpane/features/refresh/scoped-refresh-actions";
import { calculatingWorkbook, usePaneTestService, useDefaultEngine } from "../../support";
import { emulatorStats, routeCount, type EmulatorStats } from "../../../support/emulator";
import { englishTranslator } from "../../../../src/i18n/translator";
import { wordsOf } from "../../../../src/taskpane/ui/i18n";
import { message } from "../../../../src/i18n/messages";
import { RiskEngine } from "../../../../src/functions/engine/engine";
import { describeError } from "../../../../src/taskpane/ui/describe-error";

/**
 * Refresh with a scope: only the RISK cells of the selection / active sheet / workbook (optionally
 * only those showing errors) are loaded afresh; every other cell keeps its cached result. Real
 * functions, real engine, the harness's calculation over the Excel fake, the emulator over HTTP.
 */

const service = usePaneTestService();
const risk = useDefaultEngine(service);

const SUMMARY_ROUTE = "GET /api/portfolios/:portfolio_name/datasets/physical/summary";

/** Requests to the search routes so far. */
const searchRoutes = (s: EmulatorStats) =>
  Object.entries((s.routes ?? {}) as Record<string, number>)
    .filter(([k]) => k.includes("search"))
    .reduce((n, [, v]) => n + v, 0);

async function workbook() {
  const { fake, run, calc } = calculatingWorkbook({ SUMMARY: summary, SEARCH: search });
  fake.addSheet("Other");
  fake.setValues("Sheet1", "A1:A3", [
    ['=RISK.SUMMARY("demo-portfolio",0,"heatwave","ssp585",30,"score")'],
    ['=RISK.SUMMARY("demo-portfolio",1,"heatwave","ssp585",30,"score")'],
    ["plain text"],
  ]);
  fake.setValues("Sheet1", "C1", [['=RISK.SUMMARY("no-such-portfolio",0,"heatwave","ssp585",30,"score")']]);
  fake.setValues("Other", "A1", [['=RISK.SEARCH(51.5,-0.1,"floods","30yr","local","score")']]);
  await calc.waitForIdle(20_000);
  return { fake, run, calc };
}

test("the selection's RISK cells are loaded afresh; other cells keep their cached results", async () => {
  const { fake, run, calc } = await workbook();
  const before = await emulatorStats(service.emulator);
  fake.setSelection("Sheet1", "A1:A3");
  expect(await countScope(run, "selection", false)).toEqual({ cells: 2, sheets: ["Sheet1"] });
  const progress: string[] = [];
  const result = await refreshScope({
    run,
    engine: risk.engine,
    scope: "selection",
    onlyErrors: false,
    quietMs: 200,
    onProgress: (p) => progress.push(wordsOf(englishTranslator, p.message)),
  });
  await calc.waitForIdle(20_000);
  expect(result).toMatchObject({ riskCells: 2, sheets: ["Sheet1"] });
  expect(result.answered).toBeGreaterThanOrEqual(2);
  expect(progress.at(-1)).toMatch(/Refreshing 2 RISK cells: 2 re-entered, \d+ answered/);
  const after = await emulatorStats(service.emulator);
  expect(routeCount(after, SUMMARY_ROUTE)).toBeGreaterThan(routeCount(before, SUMMARY_ROUTE)); // fetched again
  expect(searchRoutes(after)).toBe(searchRoutes(before)); // the other sheet's cell stayed cached
  expect(typeof fake.read("Sheet1", "A1")[0][0]).toBe("number");

  // Now without a fresh pass: a plain recalculation of the same cells is answered from the cache.
  const cached = await emulatorStats(service.emulator);
  fake.setValues("Sheet1", "A1", [['=RISK.SUMMARY("demo-portfolio",0,"heatwave","ssp585",30,"score")']]);
  await calc.waitForIdle(20_000);
  expect(routeCount(await emulatorStats(service.emulator), SUMMARY_ROUTE)).toBe(routeCount(cached, SUMMARY_ROUTE));
});

test("a selection on a protected sheet: Excel's refusal is said with what to do, and nothing changed", async () => {
  const { fake, run } = await workbook();
  await run(async (context) => {
    context.workbook.worksheets.getItem("Sheet1").protection.protect();
  });
  fake.setSelection("Sheet1", "A1:A3");
  const before = fake.snapshot();
  const error = await refreshScope({
    run,
    engine: risk.engine,
    scope: "selection",
    onlyErrors: false,
    quietMs: 50,
  }).catch((e: unknown) => e);
  expect(describeError(error).title).toBe(
    "Excel refused the change: a sheet or the workbook is protected. Unprotect it (Review › Unprotect Sheet or Protect Workbook), then try again.",
  );
  expect(fake.snapshot()).toEqual(before);
});

test("only cells showing errors, across the workbook", async () => {
  const { fake, run } = await workbook();
  expect(String(fake.read("Sheet1", "C1")[0][0])).toMatch(/^#/);
  expect(await countScope(run, "workbook", true)).toEqual({ cells: 1, sheets: ["Sheet1"] });
  expect(await countScope(run, "workbook", false)).toEqual({ cells: 4, sheets: ["Sheet1", "Other"] });
  const result = await refreshScope({ run, engine: risk.engine, scope: "workbook", onlyErrors: true, quietMs: 200 });
  expect(result.riskCells).toBe(1);
});

test("a selection without RISK formulas, or a cancelled refresh, says so and changes nothing", async () => {
  const { fake, run } = await workbook();
  fake.setSelection("Sheet1", "A3");
  const before = fake.snapshot();
  await expect(refreshScope({ run, engine: risk.engine, scope: "selection", onlyErrors: false })).rejects.toThrow(
    "The selection has no RISK formulas: nothing was refreshed.",
  );
  fake.setSelection("Other", "D5:F9");
  await expect(countScope(run, "selection", false)).resolves.toEqual({ cells: 0, sheets: [] });
  fake.setSelection("Sheet1", "A3");
  expect(fake.snapshot()).toEqual(before);
  const cancelled = new AbortController();
  cancelled.abort();
  await expect(
    refreshScope({ run, engine: risk.engine, scope: "workbook", onlyErrors: false, signal: cancelled.signal }),
  ).rejects.toThrow(/Cancelled: 0 of 4 cells/);
});

test("the whole workbook by recalculation (the ribbon's Workbook): one request to Excel, nothing read, every RISK cell loaded afresh", async () => {
  const { fake, run, calc } = await workbook();
  const before = await emulatorStats(service.emulator);
  const syncsBefore = fake.syncs.length;
  const progress: string[] = [];
  const result = await refreshWorkbookByRecalculation({
    run,
    engine: risk.engine,
    quietMs: 200,
    onProgress: (p) => progress.push(wordsOf(englishTranslator, p.message)),
  });
  await calc.waitForIdle(20_000);
  // Nothing of the workbook read: one request, Excel's recalculation.
  const syncs = fake.syncs.slice(syncsBefore);
  expect(syncs).toHaveLength(1);
  expect(syncs[0].responseBytes + syncs[0].requestBytes).toBeLessThan(1_000);
  // The four RISK cells ran again and were answered afresh, the other sheet's search included.
  expect(result.calls).toBeGreaterThanOrEqual(4);
  expect(result.answered).toBe(result.calls);
  expect(progress.at(-1)).toBe(
    `Excel is recalculating the workbook: ${result.calls} RISK calls, ${result.answered} answered`,
  );
  const after = await emulatorStats(service.emulator);
  expect(routeCount(after, SUMMARY_ROUTE)).toBeGreaterThan(routeCount(before, SUMMARY_ROUTE));
  expect(searchRoutes(after)).toBeGreaterThan(searchRoutes(before));
  expect(englishTranslator.format(message("refresh.run.workbookDone", { count: 4, answered: 4 }))).toBe(
    "Refreshed every RISK cell in the workbook: 4 of 4 calls answered afresh.",
  );
});

test("the whole workbook by recalculation: a RISK call Excel makes after the quiet time is answered afresh, not from the cache the refresh replaced", async () => {
  const { fake, run, calc } = await workbook();
  // The other sheet's search is cached; its cell goes, so the recalculation does not call it.
  fake.setValues("Other", "A1", [[""]]);
  await calc.waitForIdle(20_000);
  const result = await refreshWorkbookByRecalculation({ run, engine: risk.engine, quietMs: 200 });
  await calc.waitForIdle(20_000);
  expect(result.calls).toBeGreaterThanOrEqual(3);
  // The refresh has said it is done; now Excel calls the search (as it would a cell over another
  // RISK cell's result, recalculated late on a large workbook): the service is asked again.
  const before = await emulatorStats(service.emulator);
  fake.setValues("Other", "A1", [['=RISK.SEARCH(51.5,-0.1,"floods","30yr","local","score")']]);
  await calc.waitForIdle(20_000);
  expect(searchRoutes(await emulatorStats(service.emulator))).toBeGreaterThan(searchRoutes(before));
  expect(typeof fake.read("Other", "A1")[0][0]).toBe("number");
});

test("the whole workbook by recalculation: Excel's first RISK call after the quiet time is waited for, not taken for a workbook without any", async () => {
  // Excel calculates the workbook's other formulas first: its first RISK call comes late.
  let lateMs = 0;
  const lateSummary = async (...args: unknown[]) => {
    if (lateMs > 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
    return (summary as (...a: unknown[]) => unknown)(...args);
  };
  // The harness passes as many arguments as the function declares.
  Object.defineProperty(lateSummary, "length", { value: summary.length });
  const { fake, run, calc } = calculatingWorkbook({ SUMMARY: lateSummary, SEARCH: search });
  fake.setValues("Sheet1", "A1:A2", [
    ['=RISK.SUMMARY("demo-portfolio",0,"heatwave","ssp585",30,"score")'],
    ['=RISK.SUMMARY("demo-portfolio",1,"heatwave","ssp585",30,"score")'],
  ]);
  await calc.waitForIdle(20_000);
  lateMs = 400;
  const result = await refreshWorkbookByRecalculation({ run, engine: risk.engine, quietMs: 100, firstCallMs: 10_000 });
  expect(result.calls).toBe(2);
  expect(result.answered).toBe(2);
});

test("the whole workbook by recalculation: none to refresh, or cancelled before Excel was asked, says so", async () => {
  const { fake, run } = calculatingWorkbook({ SUMMARY: summary, SEARCH: search });
  fake.setValues("Sheet1", "A1:B1", [["plain text", "=1+1"]]);
  // An engine that never saw a RISK call says so after the quiet time; one that did (this file's
  // earlier workbooks) waits for Excel's first call up to `firstCallMs`.
  const unused = new RiskEngine({ connection: service.connection, maxRetries: 0 });
  await expect(refreshWorkbookByRecalculation({ run, engine: unused, quietMs: 100 })).rejects.toThrow(
    "The workbook has no RISK formulas: nothing was refreshed.",
  );
  await expect(
    refreshWorkbookByRecalculation({ run, engine: risk.engine, quietMs: 100, firstCallMs: 300 }),
  ).rejects.toThrow("The workbook has no RISK formulas: nothing was refreshed.");
  const cancelled = new AbortController();
  cancelled.abort();
  const syncsBefore = fake.syncs.length;
  await expect(refreshWorkbookByRecalculation({ run, engine: risk.engine, signal: cancelled.signal })).rejects.toThrow(
    "Cancelled before Excel recalculated: every cell keeps its value.",
  );
  expect(fake.syncs.length).toBe(syncsBefore);
});
