/**
 * The jq sandbox's memory limit: jq's WebAssembly heap lies outside the worker's resourceLimits,
 * so the worker refuses to grow it past the cap; the program fails with a memory error and the
 * next program runs in a fresh engine.
 */
import { JqError, JqSandbox } from "../../emulator/jq/sandbox";

const sandbox = new JqSandbox({ timeoutMs: 10_000, maxOutputChars: 1_000_000, maxOutputDepth: 34, maxHeapMb: 128, maxWasmMb: 96 });
afterAll(() => sandbox.close());

test("a program that allocates past the cap fails with a memory error, and the sandbox goes on", async () => {
  const error = await sandbox.run("null", "[range(1e8)] | length").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JqError);
  expect((error as JqError).kind).toBe("memory");
  expect((error as JqError).message).toMatch(/memory limit of 96 MB/);
  await expect(sandbox.run('{"a": 2}', ".a * 21")).resolves.toBe("42");
});

test("a program well inside the cap is unaffected", async () => {
  await expect(sandbox.run("null", "[range(100000)] | length")).resolves.toBe("100000");
});
