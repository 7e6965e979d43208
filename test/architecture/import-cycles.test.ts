/**
 * No import cycle in src/ (issue 36): a module of a cycle is evaluated before what it imports is
 * ready, and a cycle through the features makes every change of one a change of the others. madge
 * follows each import of src/, type-only imports included (a cycle of types still binds the files
 * together), and the test fails naming each cycle. The same check is first shown to find a cycle
 * of type-only imports in a tiny folder written for the test, so it cannot pass by finding nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import madge from "madge";

const root = path.resolve(__dirname, "..", "..");

/** The import cycles among the .ts and .tsx files under `folder`, each as its files in order. */
async function importCycles(folder: string): Promise<string[][]> {
  const graph = await madge(folder, {
    fileExtensions: ["ts", "tsx"],
    // Type-only imports count: `import type` and `import { type X }` are followed too.
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  // Only cycles among the folder's files: test/boundaries.test.ts writes a probe into src/ for a
  // moment that imports the Excel fake (whose own cycles madge would then report) when both run at once.
  return graph.circular().filter((cycle) => cycle.every((file) => !file.startsWith("../")));
}

test("the cycle check finds a cycle made only of type imports", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "import-cycle-"));
  try {
    writeFileSync(path.join(folder, "a.ts"), 'import type { B } from "./b";\nexport interface A { b?: B }\n');
    writeFileSync(path.join(folder, "b.ts"), 'import { type A } from "./a";\nexport interface B { a?: A }\n');
    writeFileSync(path.join(folder, "c.ts"), 'import type { A } from "./a";\nexport type C = A;\n');
    expect(await importCycles(folder)).toEqual([["a.ts", "b.ts"]]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

test("src/ has no import cycle", async () => {
  expect(await importCycles(path.join(root, "src"))).toEqual([]);
}, 120_000);
