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
function lintProbes(
  probes: Record<string, string>,
): Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }> {
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
    return JSON.parse(out) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>;
  } finally {
    for (const file of paths) rmSync(file, { force: true });
  }
}

test("the layers inside src are checked by lint: a lower folder importing a higher one is an error", () => {
  const report = lintProbes({
    "src/shaping/layer-probe.tmp.ts":
      'import { writeSheetsAtomically } from "../excel/write-sheets";\n' +
      'import type { Asset } from "../api/types";\n' +
      'import { SCENARIOS } from "../shared/vocabulary";\n' +
      "export const probe: unknown[] = [writeSheetsAtomically, SCENARIOS];\nexport type ProbeAsset = Asset;\n",
    "src/excel/layer-probe.tmp.ts":
      'import { useServices } from "../taskpane/ui/services";\nexport const probe: unknown[] = [useServices];\n',
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

test("the task pane's features are checked by lint: deep imports of another feature, the registry and the shell are errors", () => {
  const report = lintProbes({
    "src/taskpane/features/sync/feature-probe.tmp.ts":
      'import { pasteTimeseries } from "../timeseries/timeseries-actions";\n' +
      'import { FEATURES } from "..";\n' +
      'import { App } from "../../shell/App";\n' +
      'import { timeseriesFeature } from "../timeseries";\n' +
      'import type { Feature } from "../feature";\n' +
      'import { useServices } from "../../ui/services";\n' +
      'import { syncFeature } from ".";\n' +
      "export const probe: unknown[] = [pasteTimeseries, FEATURES, App, timeseriesFeature, useServices, syncFeature];\n" +
      "export type ProbeFeature = Feature;\n",
    "src/taskpane/features/sync/model/model-probe.tmp.ts":
      'import { provenanceOf } from "../../pasted/pasted-sheets-actions";\n' +
      'import { FEATURES } from "../../index";\n' +
      'import { MAX_ASSETS } from "../../../../shaping/limits";\n' +
      'import { validateAssetRange } from "./validate-assets";\n' +
      "export const probe: unknown[] = [provenanceOf, FEATURES, MAX_ASSETS, validateAssetRange];\n",
    "src/taskpane/ui/ui-probe.tmp.ts":
      'import { syncFeature } from "../features/sync";\n' +
      'import { App } from "../shell/App";\n' +
      'import { useTask } from "./hooks/use-task";\n' +
      "export const probe: unknown[] = [syncFeature, App, useTask];\n",
  });
  const messages = (name: string) => report.find((file) => file.filePath.includes(name))!.messages;
  // A feature may use another's index.ts, the Feature type, ui/ and itself; not another's inside,
  // the registry or the shell.
  expect(messages("feature-probe").map((message) => message.ruleId)).toEqual(
    Array(3).fill("@typescript-eslint/no-restricted-imports"),
  );
  expect(messages("feature-probe").map((message) => message.line)).toEqual([1, 2, 3]);
  // The same from a feature's model/, which may use src/shaping.
  expect(messages("model-probe").map((message) => message.line)).toEqual([1, 2]);
  // ui/ knows no feature and not the shell.
  expect(messages("ui-probe").map((message) => message.line)).toEqual([1, 2]);
}, 120_000);

test("lint refuses a function over 200 lines in src, blank lines and comments not counted", () => {
  // `lines` statements, then the signature, a return and the closing brace: lines + 3 lines of code.
  const body = (lines: number, padding: string) =>
    Array.from({ length: lines }, (_, i) => `  total += ${i};${padding}`).join("\n");
  const report = lintProbes({
    // 201 lines of code: one too many.
    "src/shaping/long-probe.tmp.ts": `export function probe(total: number): number {\n${body(198, "")}\n  return total;\n}\n`,
    // 200 lines of code, with a blank line and a comment after each statement.
    "src/shaping/long-ok-probe.tmp.ts": `export function probe(total: number): number {\n${body(197, "\n\n  // why")}\n  return total;\n}\n`,
  });
  const rules = (name: string) =>
    report.find((file) => file.filePath.includes(name))!.messages.map((message) => message.ruleId);
  expect(rules("long-probe")).toEqual(["max-lines-per-function"]);
  expect(rules("long-ok-probe")).toEqual([]);
}, 120_000);
