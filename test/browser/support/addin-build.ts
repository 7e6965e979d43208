/**
 * The development build (`webpack --mode development`, which includes harness.html) that the
 * browser tests serve. A production build cannot stand in: it has no harness page, so `dist/` is
 * never used here.
 *
 * Builds are shared: each lives in node_modules/.cache/addin-dev-build/<key>, where the key is a
 * hash of everything webpack reads (the folders it bundles, its config, the lock file) and of the
 * build settings. The first test file of a run that needs a build makes it; every other file, in
 * this run or a later one, uses it as long as nothing it was made from has changed. A lock file
 * (holding the builder's pid) keeps two jest workers from building the same key at once: the other
 * one waits for the lock to go, then uses the finished build.
 */
import { spawn } from "node:child_process";
import { createHash, type Hash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** Where the shared builds live, one folder per key. */
export const BUILD_CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "addin-dev-build");

/** What a development build is made from (webpack.config.js's entries, templates, copied files, settings). */
const BUILD_INPUTS = [
  "src",
  "harness",
  "testing",
  "assets",
  "scripts",
  "manifest.xml",
  "webpack.config.js",
  "tsconfig.base.json",
  "package.json",
  "package-lock.json",
];

/** The environment variables webpack.config.js reads. */
const BUILD_SETTINGS = ["ADDIN_PUBLIC_URL", "RISK_DEFAULT_SERVICE_URL", "RISK_REQUIRE_CONNECTION"];

/** How long a worker waits for another one's build of the same key before giving up. */
const LOCK_WAIT_MS = 220_000;
/** How often a waiting worker looks whether the lock is gone (a build takes tens of seconds). */
const LOCK_POLL_MS = 250;
/** Builds nobody has used for this long are removed when a new build is made. */
const UNUSED_BUILD_MS = 24 * 60 * 60 * 1000;

/**
 * The folder of a development build made with these settings (read by webpack.config.js, e.g.
 * `{ RISK_REQUIRE_CONNECTION: "1" }`), building it unless a current one exists. Without settings,
 * `HARNESS_BUILD_DIR` (a development build made by hand) is used as it is, unchecked.
 * Rejects with webpack's output when the build fails or emits no harness page.
 */
export async function addinBuild(env: Record<string, string> = {}): Promise<string> {
  const handMade = process.env.HARNESS_BUILD_DIR;
  if (handMade && Object.keys(env).length === 0) {
    // Resolved: the server's path check compares against the folder without a trailing slash.
    const dir = path.resolve(handMade);
    if (!isComplete(dir)) throw new Error(`HARNESS_BUILD_DIR=${handMade} holds no harness.html (a development build)`);
    return dir;
  }
  // `env` explicitly: jest gives a test file its own copy of process.env, which a child never sees.
  const buildEnv = { ...process.env, ...env };
  const dir = path.join(BUILD_CACHE_DIR, buildKey(buildEnv));
  const lockFile = `${dir}.lock`;
  mkdirSync(BUILD_CACHE_DIR, { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    if (isComplete(dir)) return markUsed(dir);
    if (takeLock(lockFile)) {
      try {
        // Another worker may have finished between the look above and taking the lock.
        if (!isComplete(dir)) await buildInto(dir, buildEnv);
        removeUnusedBuilds();
        return markUsed(dir);
      } finally {
        rmSync(lockFile, { force: true });
      }
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${LOCK_WAIT_MS / 1000} s for another worker's build (${lockFile}); remove it if stale`);
    await delay(LOCK_POLL_MS);
  }
}

/** Hash of every input file under `root` (path and content) and of the build settings: the build's folder name. */
export function buildKey(env: NodeJS.ProcessEnv, root = ROOT): string {
  const hash = createHash("sha256");
  for (const input of BUILD_INPUTS) hashPath(hash, root, input);
  for (const name of BUILD_SETTINGS) hash.update(`\0env ${name}=${env[name] ?? ""}`);
  return hash.digest("hex").slice(0, 20);
}

function hashPath(hash: Hash, root: string, relative: string): void {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) hashPath(hash, root, path.join(relative, name));
    return;
  }
  hash.update(`\0file ${relative.split(path.sep).join("/")}\0`);
  hash.update(readFileSync(full));
}

/** A build is complete once its folder exists: it is renamed into place only after webpack succeeded. */
function isComplete(dir: string): boolean {
  return existsSync(path.join(dir, "harness.html"));
}

/** Touch the folder, so that removeUnusedBuilds knows it is in use; returns it. */
function markUsed(dir: string): string {
  const now = new Date();
  utimesSync(dir, now, now);
  return dir;
}

/** Create the lock file holding our pid; false when a live process holds it. A dead holder's lock is taken over. */
function takeLock(lockFile: string): boolean {
  try {
    const fd = openSync(lockFile, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let holder: number;
  try {
    holder = Number(readFileSync(lockFile, "utf8").trim());
  } catch (error) {
    // Released between our attempt and this read: try again.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return takeLock(lockFile);
    throw error;
  }
  // An empty file: the holder has created it and not yet written its pid; it is alive.
  if (!holder || isAlive(holder)) return false;
  rmSync(lockFile, { force: true });
  return takeLock(lockFile);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** webpack into a folder beside `dir`, renamed to `dir` once it has succeeded. */
function buildInto(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  return new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, "node_modules", "webpack", "bin", "webpack.js"),
        "--mode",
        "development",
        "--output-path",
        partial,
        "--stats",
        "errors-only",
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0 && isComplete(partial)) {
        rmSync(dir, { recursive: true, force: true });
        renameSync(partial, dir);
        resolve();
        return;
      }
      rmSync(partial, { recursive: true, force: true });
      reject(new Error(`webpack --mode development failed (exit ${code}):\n${output.slice(-4000)}`));
    });
  });
}

/** Remove builds (and leftovers of interrupted ones) nobody has used for a day. */
function removeUnusedBuilds(): void {
  const cutoff = Date.now() - UNUSED_BUILD_MS;
  for (const name of readdirSync(BUILD_CACHE_DIR)) {
    if (name.endsWith(".lock")) continue;
    const full = path.join(BUILD_CACHE_DIR, name);
    if (statSync(full).mtimeMs < cutoff && !existsSync(`${full}.lock`)) rmSync(full, { recursive: true, force: true });
  }
}
