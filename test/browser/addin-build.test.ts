/**
 * The shared development build is found by a key over what webpack reads and the build settings
 * (support/addin-build.ts): a stale build must never be served, and an unchanged tree must reuse
 * its build. Checked on a small tree of its own, without webpack.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildKey } from "./support/addin-build";

describe("the shared build's key", () => {
  let root: string;
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "addin-build-key-"));
    write("src/functions/functions.ts", "export const a = 1;\n");
    write("harness/index.ts", "export {};\n");
    write("webpack.config.js", "module.exports = {};\n");
    write("package-lock.json", "{}\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("stays the same for the same inputs and settings, whatever else is in the environment", () => {
    const key = buildKey({}, root);
    expect(buildKey({ HOME: "/elsewhere", CI: "true" }, root)).toBe(key);
    write("docs/notes.md", "not an input\n");
    write("test/some.test.ts", "not an input either\n");
    expect(buildKey({}, root)).toBe(key);
  });

  test("changes when a source file, a new file, the config or the lock file changes", () => {
    const keys = new Set([buildKey({}, root)]);
    write("src/functions/functions.ts", "export const a = 2;\n");
    keys.add(buildKey({}, root));
    write("testing/fake-excel/index.ts", "export {};\n");
    keys.add(buildKey({}, root));
    write("webpack.config.js", "module.exports = { mode: 'development' };\n");
    keys.add(buildKey({}, root));
    write("package-lock.json", '{"lockfileVersion":3}\n');
    keys.add(buildKey({}, root));
    expect(keys.size).toBe(5);
  });

  test("changes with each setting webpack.config.js reads", () => {
    const keys = new Set([
      buildKey({}, root),
      buildKey({ RISK_REQUIRE_CONNECTION: "1" }, root),
      buildKey({ RISK_DEFAULT_SERVICE_URL: "http://127.0.0.1:1" }, root),
      buildKey({ ADDIN_PUBLIC_URL: "https://example.test/" }, root),
    ]);
    expect(keys.size).toBe(4);
  });
});
