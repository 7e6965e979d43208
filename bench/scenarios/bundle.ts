import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Check, ScenarioResult } from "../context";
import { fmt } from "../format";

const ROOT = resolve(__dirname, "../..");
/** The target: custom functions register fast (docs/benchmarks.md). */
export const FUNCTIONS_GZIP_LIMIT = 60 * 1024;

/** One script of the build. */
export interface ScriptSize {
  file: string;
  role: string;
  raw: number;
  gzip: number;
}

/** Raw and gzipped (level 9) sizes of the scripts of a production build in `dir`. */
export function measureBundle(dir: string): ScriptSize[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const size = (file: string, role: string): ScriptSize => {
    const bytes = readFileSync(join(dir, file));
    return { file, role, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const named = (name: string, role: string) => (files.includes(name) ? [size(name, role)] : []);
  const lazy = files.filter((f) => !["runtime.js", "functions.js", "taskpane.js", "harness.js"].includes(f));
  return [
    ...named("functions.js", "custom functions (registers RISK.*)"),
    ...named("runtime.js", "webpack runtime, loaded before both"),
    ...named("taskpane.js", "task pane bootstrap"),
    ...lazy.map((f) => size(f, "task pane UI, loaded lazily")),
  ];
}

/**
 * Runs the production build into a temporary directory (so a concurrent `npm test`, whose build
 * writes dist/, is not disturbed), or measures `reuseDir` when given; `env` adds build settings
 * (RISK_DEFAULT_SERVICE_URL). Returns the build's wall time.
 */
export function buildForSizes(
  reuseDir?: string,
  env: Record<string, string> = {},
): { dir: string; buildMs: number | null; cleanup(): void } {
  if (reuseDir) return { dir: reuseDir, buildMs: null, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), "bench-build-"));
  const started = performance.now();
  const result = spawnSync(resolve(ROOT, "node_modules/.bin/webpack"), ["--mode", "production", "--output-path", dir], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const buildMs = performance.now() - started;
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `the production build failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout).slice(-2000)}`,
    );
  }
  return { dir, buildMs, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** True when dist/ holds a build newer than every file under src/. */
export function distIsFresh(): boolean {
  const dist = join(ROOT, "dist", "functions.js");
  try {
    const built = statSync(dist).mtimeMs;
    return newestMtime(join(ROOT, "src")) < built;
  } catch {
    return false;
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Scenario 6: sizes of the functions script and the task pane scripts, raw and gzipped. */
export function bundleScenario(options: { reuseDist?: boolean; dir?: string } = {}): ScenarioResult {
  const reuse = options.dir ?? (options.reuseDist && distIsFresh() ? join(ROOT, "dist") : undefined);
  const build = buildForSizes(reuse);
  try {
    const scripts = measureBundle(build.dir);
    const functions = scripts.find((s) => s.file === "functions.js");
    const runtime = scripts.find((s) => s.file === "runtime.js");
    if (!functions) throw new Error(`no functions.js in ${build.dir}`);
    const taskpane = scripts.filter((s) => s.file === "taskpane.js" || s.role.startsWith("task pane UI"));
    const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
    const checks: Check[] = [
      {
        name: "functions.js ≤ 60 KB gzipped",
        pass: functions.gzip <= FUNCTIONS_GZIP_LIMIT,
        detail: `${kb(functions.gzip)} gzipped (${kb(functions.raw)} raw)${runtime ? `; with runtime.js ${kb(functions.gzip + runtime.gzip)}` : ""}`,
      },
    ];
    const details: Record<string, number | string> = {
      buildMs: build.buildMs === null ? "reused dist/" : Math.round(build.buildMs),
    };
    for (const s of scripts) {
      details[`${s.file} raw`] = s.raw;
      details[`${s.file} gzip`] = s.gzip;
    }
    return {
      id: "bundle",
      scenario: "Bundle sizes (production build)",
      requests: null,
      requestNote: scripts.map((s) => `${s.file} ${kb(s.raw)} → ${kb(s.gzip)} gz`).join("; "),
      wallMs: null,
      boundMs: null,
      boundNote: `task pane: ${taskpane.map((s) => s.file).join(" + ")} = ${kb(taskpane.reduce((t, s) => t + s.raw, 0))} raw, ${kb(taskpane.reduce((t, s) => t + s.gzip, 0))} gzipped`,
      naiveMs: null,
      memory: null,
      target: "functions.js ≤ 60 KB gzipped",
      status: checks.every((c) => c.pass) ? "PASS" : "MISS",
      checks,
      details,
    };
  } finally {
    build.cleanup();
  }
}
