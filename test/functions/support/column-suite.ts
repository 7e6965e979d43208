/**
 * The set-up the column-form suites share: the custom-functions stub, an emulator over HTTP and an
 * engine without retries or cached errors, made the default (the functions use it), reset before
 * each test; and the shapes Excel passes to and shows from a matrix function.
 */
import { setDefaultEngine } from "../../../src/functions/engine/default-engine";
import { RiskEngine } from "../../../src/functions/engine/engine";
import { HarnessCustomFunctionError } from "../../../harness/custom-functions-registry";
import { createInvocation, type FakeInvocation } from "../../../testing/invocation";
import { installCustomFunctionsStub } from "./custom-functions-stub";
import { type TestService, startTestService } from "../../support/emulator";

/** An invocation from a cell of column D. */
export const inv = (): FakeInvocation => createInvocation("Sheet1!D2");
/** A range of one column, as Excel passes it: one row per value. */
export const column = (...values: unknown[]): unknown[][] => values.map((value) => [value]);
/** A single value, as Excel passes it to a matrix parameter. */
export const one = (value: unknown): unknown[][] => [[value]];

/** What a spilled element shows: its value, or `{code, message}` for an error value. */
export function shown(rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((cell) => (cell instanceof HarnessCustomFunctionError ? { code: cell.code, message: cell.message } : cell)),
  );
}

/** The running pieces; read them inside tests (they exist once beforeAll ran). */
export interface ColumnSuite {
  readonly fixture: TestService;
  readonly engine: RiskEngine;
}

/** Registers the hooks of a column-form suite (call at the top level of the test file). */
export function useColumnSuite(): ColumnSuite {
  let fixture: TestService | undefined;
  let engine: RiskEngine | undefined;
  let uninstall: () => void = () => undefined;
  beforeAll(async () => {
    uninstall = installCustomFunctionsStub();
    fixture = await startTestService();
    engine = new RiskEngine({ connection: fixture.connection, maxRetries: 0, errorTtlMs: 0 });
    setDefaultEngine(engine);
  });
  afterAll(async () => {
    setDefaultEngine(undefined);
    uninstall();
    await fixture?.emulator.close();
  });
  beforeEach(async () => {
    engine!.refresh();
    await fixture!.resetStats();
  });
  return {
    get fixture() {
      return fixture!;
    },
    get engine() {
      return engine!;
    },
  };
}
