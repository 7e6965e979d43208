/**
 * Emulators for the browser tests: in-process (fast, the usual case) or as a separate process that
 * a test can kill outright, the way a crashing service drops connections mid-request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/server";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The emulator's request counters: total and per route ("GET /api/search"). */
export interface EmulatorStats {
  total: number;
  routes: Record<string, number>;
}

/** Start an emulator in this process on a free port (quiet, quick portfolio processing). */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, quiet: true, processingDelayMs: 300, ...options });
}

/** Read an emulator's request counters. */
export async function emulatorStats(url: string): Promise<EmulatorStats> {
  const response = await fetch(`${url}/__emulator/stats`);
  if (!response.ok) throw new Error(`GET /__emulator/stats answered ${response.status}`);
  return (await response.json()) as EmulatorStats;
}

/**
 * Count of requests to one route pattern, e.g. routeCount(stats, "GET", "/api/search"); a trailing
 * slash does not matter (the stats key the pattern without it).
 */
export function routeCount(stats: EmulatorStats, method: string, route: string): number {
  const wanted = `${method} ${route.replace(/\/+$/, "")}`;
  return Object.entries(stats.routes)
    .filter(([key]) => key.replace(/\/+$/, "") === wanted)
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Requests of any of the given methods (e.g. every write: POST, PUT, DELETE). */
export function methodCount(stats: EmulatorStats, methods: string[]): number {
  return Object.entries(stats.routes)
    .filter(([key]) => methods.includes(key.split(" ")[0]))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** An emulator in a child process. */
export interface ProcessEmulator {
  url: string;
  /** SIGKILL: the process dies with requests in flight. */
  crash(): Promise<void>;
}

/**
 * Start `node --import tsx emulator/main.ts --port 0 ...extraArgs` (one process: tsx's own CLI would
 * run the server in a grandchild that a kill would orphan) and wait for its "listening" line.
 */
export function startProcessEmulator(extraArgs: string[] = []): Promise<ProcessEmulator> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "emulator/main.ts", "--port", "0", "--quiet", ...extraArgs],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the emulator process did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        crash: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGKILL");
          }),
      });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (data: Buffer) => (output += data.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator process exited (${code}) before listening:\n${output}`));
    });
  });
}
