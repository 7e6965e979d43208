import { createFakeExcel } from "../../testing/fake-excel";
import { FunctionRegistry } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex } from "../../harness/formula/metadata";

/**
 * Cells of Excel's own functions in the harness: it does not calculate them and shows #NAME? with
 * why. A recalculation leaves such a cell as it is (no churn over a million of them), so these
 * check that a cell turning into one, or out of one, still shows what it should: a pending RISK
 * call is cancelled, a spill is cleared, and a RISK formula typed over one is called again.
 */

function harness() {
  const fake = createFakeExcel();
  const registry = new FunctionRegistry();
  const calls: Array<{ args: unknown[]; resolve: (value: unknown) => void; cancelled: boolean }> = [];
  // Without metadata the harness takes a function's length less the invocation as its parameters.
  registry.register("SCORE", ((id: unknown, invocation: { onCanceled?: () => void }) => {
    return new Promise((resolve) => {
      const call = { args: [id], resolve, cancelled: false };
      invocation.onCanceled = () => (call.cancelled = true);
      calls.push(call);
    });
  }) as never);
  registry.register("ROWS", (() => Promise.resolve([[1], [2], [3]])) as never);
  const engine = new FormulaEngine(fake, registry, new MetadataIndex());
  fake.setFormulaEvaluator(engine.evaluator);
  const sheet = () => fake.model.findSheet("Sheet1")!;
  const shown = (address: string) => fake.read("Sheet1", address)[0]![0];
  return { fake, engine, calls, sheet, shown };
}

test("a cell of Excel's own functions shows #NAME? and why, the same after every recalculation", () => {
  const { fake, engine, sheet, shown } = harness();
  fake.setValues("Sheet1", "A1", [["=SUM(B1:B2)"]]);
  for (let i = 0; i < 3; i++) {
    expect(shown("A1")).toBe("#NAME?");
    expect(engine.errorAt(sheet(), 0, 0)?.message).toMatch(/not Excel's own functions/);
    fake.recalculate();
  }
});

test("a pending RISK call typed over with Excel's own function is cancelled, and comes back when typed again", async () => {
  const { fake, engine, calls, sheet, shown } = harness();
  fake.setValues("Sheet1", "A1", [['=RISK.SCORE("a")']]);
  expect(shown("A1")).toBe("#BUSY!");
  expect(calls).toHaveLength(1);
  fake.setValues("Sheet1", "A1", [["=MAX(1,2)"]]);
  expect(calls[0]!.cancelled).toBe(true);
  expect(shown("A1")).toBe("#NAME?");
  fake.recalculate();
  expect(shown("A1")).toBe("#NAME?");
  // The cancelled call's late answer shows nowhere.
  calls[0]!.resolve(7);
  await Promise.resolve();
  expect(shown("A1")).toBe("#NAME?");

  fake.setValues("Sheet1", "A1", [['=RISK.SCORE("b")']]);
  expect(calls).toHaveLength(2);
  expect(calls[1]!.args).toEqual(["b"]);
  expect(engine.errorAt(sheet(), 0, 0)).toBeUndefined();
  calls[1]!.resolve(42);
  await new Promise((resolve) => setImmediate(resolve));
  expect(shown("A1")).toBe(42);
});

test("a spilled result whose anchor becomes Excel's own function is cleared, and the cell stays cleared", async () => {
  const { fake, shown } = harness();
  fake.setValues("Sheet1", "C1", [["=RISK.ROWS()"]]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(fake.read("Sheet1", "C1:C3")).toEqual([[1], [2], [3]]);
  fake.setValues("Sheet1", "C1", [["=COUNT(1)"]]);
  expect(fake.read("Sheet1", "C1:C3")).toEqual([["#NAME?"], [""], [""]]);
  fake.recalculate();
  expect(shown("C1")).toBe("#NAME?");
  expect(fake.read("Sheet1", "C2:C3")).toEqual([[""], [""]]);
});
