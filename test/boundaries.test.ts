/**
 * The project boundaries are checked by the compiler (TypeScript project references, tsconfig.json):
 * src/ is its own project that sees only src/, so an import of the emulator or the Excel fake from
 * product code does not compile. This test writes such an import into src/ and runs tsc on the src
 * project, expecting it to refuse both files.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");
// *.tmp.ts is git-ignored; the file lives only while this test runs.
const probe = path.join(root, "src", "boundary-probe.tmp.ts");

function typecheckSrc(): string {
  try {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "src/tsconfig.json", "--noEmit"], {
      cwd: root,
      encoding: "utf8",
      stdio: "pipe",
    });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

afterAll(() => rmSync(probe, { force: true }));

test("src/ cannot import the emulator or the Excel fake: the src project refuses files outside it", () => {
  writeFileSync(
    probe,
    'import * as emulator from "../emulator/main";\nimport * as fake from "../testing/fake-excel";\nexport const probe: unknown[] = [emulator, fake];\n',
  );
  const errors = typecheckSrc();
  rmSync(probe, { force: true });
  expect(errors).toMatch(
    /error TS6307: File '[^']*\/emulator\/main\.ts' is not listed within the file list of project '[^']*src\/tsconfig\.json'/,
  );
  expect(errors).toMatch(
    /error TS6307: File '[^']*\/testing\/fake-excel\/index\.ts' is not listed within the file list of project '[^']*src\/tsconfig\.json'/,
  );
}, 60_000);

/** Lints files written into src/ for the test; returns eslint's JSON report, one entry per file. */
function lintProbes(probes: Record<string, string>): Array<{ filePath: string; messages: Array<{ ruleId: string }> }> {
  const paths = Object.keys(probes).map((relative) => path.join(root, relative));
  for (const [relative, text] of Object.entries(probes)) writeFileSync(path.join(root, relative), text);
  try {
    const eslint = path.join(root, "node_modules", "eslint", "bin", "eslint.js"); // not in its exports
    const run = () =>
      execFileSync(process.execPath, [eslint, "--no-ignore", "--format", "json", ...paths], {
        cwd: root,
        encoding: "utf8",
        stdio: "pipe",
      });
    let out: string;
    try {
      out = run();
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? ""); // eslint exits 1 when it finds errors
    }
    return JSON.parse(out) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
  } finally {
    for (const file of paths) rmSync(file, { force: true });
  }
}

test("the layers inside src are checked by lint: a lower folder importing a higher one is an error", () => {
  const report = lintProbes({
    "src/shaping/layer-probe.tmp.ts":
      'import { writeSheetsAtomically } from "../excel/writeSheets";\n' +
      'import type { Asset } from "../api/types";\n' +
      'import { SCENARIOS } from "../shared/vocabulary";\n' +
      "export const probe: unknown[] = [writeSheetsAtomically, SCENARIOS];\nexport type ProbeAsset = Asset;\n",
    "src/excel/layer-probe.tmp.ts":
      'import { useServices } from "../taskpane/context";\nexport const probe: unknown[] = [useServices];\n',
    "src/taskpane/layer-probe.tmp.ts":
      "export async function probe(context: Excel.RequestContext): Promise<void> {\n" +
      '  context.workbook.worksheets.getItem("Sheet1");\n  await context.sync();\n}\n',
  });
  const rules = (name: string) =>
    report.find((file) => file.filePath.includes(name))!.messages.map((message) => message.ruleId);
  // shaping → excel is refused; its type import of src/api and the vocabulary are not.
  expect(rules("src/shaping/")).toEqual(["@typescript-eslint/no-restricted-imports"]);
  expect(rules("src/excel/")).toEqual(["@typescript-eslint/no-restricted-imports"]);
  // The task pane reaches the workbook only through src/excel.
  expect(rules("src/taskpane/")).toEqual(["no-restricted-syntax", "no-restricted-syntax"]);
}, 120_000);
