/**
 * The jq sandbox's limits. Memory: jq's WebAssembly heap lies outside the worker's resourceLimits,
 * so the worker refuses to grow it past the cap; the program fails with a memory error and the
 * next program runs in a fresh engine. Output depth and size are bounded inside jq before anything
 * is printed; the host's environment and paths stay unseen; an engine failure replaces the engine.
 * Tenants (API keys) share the workers: one holds at most all but one, and waiting jobs are served
 * round-robin by tenant.
 */
import { JqError, JqSandbox } from "../../emulator/jq/sandbox";

const LIMITS = { timeoutMs: 10_000, maxOutputChars: 1_000_000, maxOutputDepth: 34, maxHeapMb: 128, maxWasmMb: 96 };
const sandbox = new JqSandbox(LIMITS);
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

test("the host stays unseen: env and $ENV are {}, input_filename and the origins null", async () => {
  await expect(
    sandbox.run("{}", "[env, $ENV, input_filename, get_jq_origin, get_prog_origin, get_search_list, $ENV._]"),
  ).resolves.toBe("[{},{},null,null,null,[],null]");
});

test("debug and stderr pass their input through; jq's errors keep the program's own line numbers", async () => {
  await expect(sandbox.run('{"a": 1}', '.a | debug | debug("x") | stderr | . + 1')).resolves.toBe("2");
  const error = (await sandbox.run("{}", ".a |\n.b |||").catch((e: unknown) => e)) as JqError;
  expect(error.kind).toBe("jq");
  expect(error.message).toMatch(/syntax error.*line 2:\n\.b \|\|\|/s);
  expect(error.message).not.toMatch(/__sandbox|def env/);
  const first = (await sandbox.run("{}", ".a |||").catch((e: unknown) => e)) as JqError;
  expect(first.message).toMatch(/syntax error.*line 1:\n\.a \|\|\|/s);
  expect(first.message).not.toMatch(/__sandbox|def env/);
});

test("$__loc__ gives the program's own line numbers", async () => {
  await expect(sandbox.run("null", "$__loc__.line")).resolves.toBe("1");
  await expect(sandbox.run("null", ".\n| $__loc__.line")).resolves.toBe("2");
  await expect(sandbox.run("null", "# a comment first\n$__loc__.line")).resolves.toBe("2");
});

test("an output nesting past the limit is refused before jq prints it, and the engine goes on", async () => {
  const error = (await sandbox.run("0", "reduce range(100) as $i (0; [.])").catch((e: unknown) => e)) as JqError;
  expect([error.kind, error.message]).toEqual([
    "jq",
    expect.stringMatching(/output nests deeper than the limit of 34 levels/),
  ]);
  await expect(sandbox.run("0", "reduce range(34) as $i (0; [.]) | length")).resolves.toBe("1");
  await expect(sandbox.run('{"a": 2}', ".a * 21")).resolves.toBe("42");
});

test("output past the character limit is refused before it is printed", async () => {
  const error = (await sandbox
    .run("null", 'range(100000) | "xxxxxxxxxxxxxxxxxxxx"')
    .catch((e: unknown) => e)) as JqError;
  expect([error.kind, error.message]).toEqual([
    "jq",
    expect.stringMatching(/output exceeds the limit of 1000000 characters/),
  ]);
});

test("a failure inside the engine is reported in jq's terms and the engine is replaced", async () => {
  const error = (await sandbox
    .run("0", "reduce range(100) as $i (0; [.]) | tojson | length")
    .catch((e: unknown) => e)) as JqError;
  expect(error.kind).toBe("crash");
  expect(error.message).toMatch(/failed inside the jq engine .* the engine was restarted/);
  expect(error.message).not.toMatch(/out of bounds|Aborted/);
  for (let i = 0; i < 3; i++) await expect(sandbox.run('{"a": 2}', ".a * 21")).resolves.toBe("42");
});

describe("tenants share the workers fairly", () => {
  /** A program that keeps a worker busy until the time limit stops it. */
  const BUSY = "last(range(1e12))";

  test("one tenant holds at most all workers but one: another tenant's program answers while its long ones run", async () => {
    const pool = new JqSandbox({ ...LIMITS, timeoutMs: 1500, workers: 2 });
    try {
      const settled: string[] = [];
      const long = [1, 2, 3].map((n) =>
        pool.run("null", BUSY, "heavy").then(
          () => settled.push(`heavy ${n} answered`),
          (e: JqError) => settled.push(`heavy ${n} ${e.kind}`),
        ),
      );
      const quick = pool.run('{"a": 2}', ".a * 21", "light").then((out) => settled.push(`light ${out}`));
      await Promise.all([...long, quick]);
      // The light tenant's program is not queued behind the heavy tenant's three.
      expect(settled[0]).toBe("light 42");
      expect(settled.slice(1)).toEqual(["heavy 1 timeout", "heavy 2 timeout", "heavy 3 timeout"]);
    } finally {
      await pool.close();
    }
  }, 20_000);

  test("waiting jobs are served round-robin by tenant, not in arrival order", async () => {
    const pool = new JqSandbox({ ...LIMITS, workers: 1 });
    try {
      const order: string[] = [];
      const job = (tenant: string, n: number) =>
        pool.run(String(n), ".", tenant).then((out) => order.push(`${tenant}${out}`));
      // The one worker is busy with C's job while A queues three and then B two.
      const jobs = [job("C", 0), job("A", 1), job("A", 2), job("A", 3), job("B", 1), job("B", 2)];
      await Promise.all(jobs);
      expect(order).toEqual(["C0", "A1", "B1", "A2", "B2", "A3"]);
    } finally {
      await pool.close();
    }
  });
});
