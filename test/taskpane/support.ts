import { startedForTheseTests, startTestService, type TestService } from "../support/emulator";
import { createFakeExcel, type FakeExcel, type WorkbookSnapshot } from "../../testing/fake-excel";
import type { ExcelRunner, PastedSheet } from "../../src/taskpane/ui/pane-types";
import { syncRangeToPortfolio } from "../../src/taskpane/features/sync/sync-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { RiskEngine } from "../../src/functions/engine/engine";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import { installCustomFunctionsStub } from "../functions/support/custom-functions-stub";
import { FunctionRegistry } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex } from "../../harness/formula/metadata";

/** A test service (test/support/emulator.ts) as the pane tests use it: fast portfolio processing. */
export function startPaneTestService(options: { processingDelayMs?: number } = {}): Promise<TestService> {
  return startTestService({ processingDelayMs: 50, ...options });
}

/** A pane test service (startPaneTestService) for the tests of this file: started before them, closed after. */
export function usePaneTestService(options: { processingDelayMs?: number } = {}): TestService {
  return startedForTheseTests(() => startPaneTestService(options));
}

/**
 * The RISK functions as the pane's tests run them, for the tests of this file: the custom-functions
 * stub installed and an engine of the service's connection (no retries) set as the
 * default before the tests, both undone after them. Call it after the service's own `use…`.
 */
export function useDefaultEngine(service: TestService): { readonly engine: RiskEngine } {
  let engine: RiskEngine | undefined;
  let uninstall: (() => void) | undefined;
  beforeAll(() => {
    uninstall = installCustomFunctionsStub();
    engine = new RiskEngine({ connection: service.connection, maxRetries: 0 });
    setDefaultEngine(engine);
  });
  afterAll(() => {
    setDefaultEngine(undefined);
    uninstall?.();
  });
  return {
    get engine() {
      if (!engine) throw new Error("the default engine is read before beforeAll made it");
      return engine;
    },
  };
}

/**
 * "Sync a range to a portfolio" from the workbook's selection, as the pane runs it, with the test
 * service's client: the options say the portfolio and how the user answers the questions.
 */
export function syncSelection(
  service: Pick<TestService, "client">,
  run: ExcelRunner,
  options: Omit<Parameters<typeof syncRangeToPortfolio>[0], "client" | "run" | "source">,
): ReturnType<typeof syncRangeToPortfolio> {
  return syncRangeToPortfolio({ client: service.client, run, source: { kind: "selection" }, ...options });
}

/**
 * The summary sheet of a portfolio (`demo-portfolio` unless said) for one scenario, pasted as the
 * summary panel does with the test service's client, without the extended summary.
 */
export async function pasteSummarySheet(
  service: Pick<TestService, "client">,
  run: ExcelRunner,
  options: { portfolio?: string; scenario: string },
): Promise<PastedSheet> {
  const [summary] = await pasteSummary({
    client: service.client,
    run,
    portfolio: options.portfolio ?? "demo-portfolio",
    extended: false,
    scenario: options.scenario,
  });
  return summary!;
}

/** A fake workbook and its Excel.run, as the task pane receives it. */
export function newWorkbook(options: { firstSheetName?: string } = {}): { fake: FakeExcel; run: ExcelRunner } {
  const fake = createFakeExcel({ firstSheetName: options.firstSheetName });
  return { fake, run: (batch) => fake.run(batch) };
}

/** Protects a sheet, or lifts its protection, as the analyst would (Review › Protect Sheet). */
export function setSheetProtected(run: ExcelRunner, sheetName: string, on: boolean): Promise<void> {
  return run(async (context) => {
    const protection = context.workbook.worksheets.getItem(sheetName).protection;
    if (on) protection.protect();
    else protection.unprotect();
  });
}

/**
 * A fake workbook that calculates: these RISK functions (name without the `RISK.` prefix → the
 * function) registered in the harness's formula engine, which evaluates the workbook's formulas
 * and resolves their spills as Excel would. `calc.waitForIdle` waits for pending calculation.
 */
export function calculatingWorkbook(functions: Record<string, unknown>): ReturnType<typeof newWorkbook> & {
  calc: FormulaEngine;
} {
  const workbook = newWorkbook();
  const registry = new FunctionRegistry();
  for (const [name, fn] of Object.entries(functions)) registry.register(name, fn as never);
  const calc = new FormulaEngine(workbook.fake, registry, new MetadataIndex());
  workbook.fake.setFormulaEvaluator(calc.evaluator);
  workbook.fake.setSpillResolver((sheet, row, col) => calc.spillOf(sheet, row, col));
  return { ...workbook, calc };
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
