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
