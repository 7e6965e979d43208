/**
 * Formulas stay en-US whatever the language: the add-in writes them through Range.formulas (and
 * names functions and parameters the same in every language), never through formulasLocal, whose
 * separators and function names change with Excel's locale.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "../..");

test("no code of the add-in, the harness or the Excel fake uses formulasLocal", () => {
  const files = ["src", "harness", "testing"].flatMap((folder) =>
    ts.sys.readDirectory(path.join(root, folder), [".ts", ".tsx"]),
  );
  expect(files.length).toBeGreaterThan(50);
  const using = files.filter((file) =>
    /\.formulas(R1C1)?Local\b|["'`]formulas(R1C1)?Local["'`]/.test(readFileSync(file, "utf8")),
  );
  expect(using).toEqual([]);
});
