import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ConnectionConfig } from "../src/api/config";
import { DEMO_API_KEY, DEMO_PROJECT } from "../src/shared/vocabulary";

/** Options of the emulator the benchmark starts. */
export interface BenchEmulatorOptions {
  /** Milliseconds the emulator adds to every service response (the bench runs at 40). */
  latencyMs: number;
  /** Delay before an imported portfolio has risk data (default 200 ms: the bench measures reads, not generation). */
  processingDelayMs?: number;
  seed?: number;
  /** Requests per second per API key before the emulator answers 429 (`--rate-limit`; none by default). */
  rateLimit?: number;
  /** Requests of one API key at once before the emulator answers 429 (`--concurrency-limit`; none by default). */
  concurrencyLimit?: number;
}

/** Request counters the emulator keeps (`GET /__emulator/stats`), service routes only. */
export interface EmulatorStats {
  total: number;
  routes: Record<string, number>;
  /** Requests answered with an injected fault: "429" (rate or concurrency limit), "503". */
  faults?: Record<string, number>;
  /** The most service requests being answered at once since the last reset. */
  peakInFlight?: number;
  /** Bytes of the service's answers since the last reset, as sent (uncompressed, headers included). */
  answerBytes?: number;
}

/** An emulator running in its own process, so its CPU time does not distort the client's figures. */
export interface BenchEmulator {
  url: string;
  pid: number;
  stats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  /** Kills the emulator's process group; safe to call twice. */
  stop(): void;
}

/** The demo key's connection to an emulator the benchmark started (its nature routes under `/nature`). */
export function benchConnection(emulator: Pick<BenchEmulator, "url">): ConnectionConfig {
  return { baseUrl: emulator.url, natureUrl: `${emulator.url}/nature`, apiKey: DEMO_API_KEY, project: DEMO_PROJECT };
}

const ROOT = resolve(__dirname, "..");
const READY = /emulator listening on (http:\/\/\S+)/;

/** Starts `tsx emulator/main.ts --port 0` in a new process group (see spawnUntilReady). */
export function spawnEmulator(options: BenchEmulatorOptions): Promise<BenchEmulator> {
  const args = [
    "emulator/main.ts",
    "--port",
    "0",
    "--latency",
    String(options.latencyMs),
    "--processing-delay",
    String(options.processingDelayMs ?? 200),
    "--seed",
    String(options.seed ?? 42),
    "--quiet",
  ];
  if (options.rateLimit) args.push("--rate-limit", String(options.rateLimit));
  if (options.concurrencyLimit) args.push("--concurrency-limit", String(options.concurrencyLimit));
  return spawnUntilReady(args, READY, "the emulator").then(({ url, pid, stop }) => ({
    url,
    pid,
    stats: async () => {
      const response = await fetch(`${url}/__emulator/stats`);
      return (await response.json()) as EmulatorStats;
    },
    resetStats: async () => {
      await fetch(`${url}/__emulator/stats/reset`, { method: "POST" });
    },
    stop,
  }));
}

/** A started geocoder stand-in in its own process. */
export interface BenchGeocoder {
  url: string;
  /** Most requests it had in flight at once. */
  maxInFlight(): Promise<number>;
  stop: () => void;
}

/** Starts the geocoder stand-in (`tsx emulator/geocoder/main.ts --port 0`) in its own process group. */
export async function spawnGeocoder(latencyMs: number): Promise<BenchGeocoder> {
  const args = ["emulator/geocoder/main.ts", "--port", "0", "--latency", String(latencyMs)];
  const { url, stop } = await spawnUntilReady(
    args,
    /geocoder stand-in listening on (http:\/\/\S+)/,
    "the geocoder stand-in",
  );
  return {
    url,
    maxInFlight: async () =>
      ((await (await fetch(`${url}/__geocoder/stats`)).json()) as { maxInFlight: number }).maxInFlight,
    stop,
  };
}

/**
 * Starts `tsx <args>` in a new process group and resolves with the URL its ready line prints. The
 * group is killed on stop(), and also when this process exits (normally, by an uncaught error or
 * by Ctrl-C), so nothing outlives the benchmark.
 */
function spawnUntilReady(
  args: string[],
  ready: RegExp,
  what: string,
): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(resolve(ROOT, "node_modules/.bin/tsx"), args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = killer(child);
  process.once("exit", stop);
  return new Promise((resolvePromise, reject) => {
    let output = "";
    const timer = setTimeout(
      () => fail(new Error(`${what} did not start within 30 s; it printed: ${output.trim() || "(nothing)"}`)),
      30_000,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      stop();
      reject(error);
    };
    child.on("error", (error) => fail(new Error(`could not start ${what}: ${error.message}`)));
    child.on("exit", (code, signal) =>
      fail(new Error(`${what} exited (${signal ?? code}) before it was ready: ${output.trim()}`)),
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume(); // keep draining so a chatty child never blocks on a full pipe
      resolvePromise({ url: match[1]!, pid: child.pid ?? -1, stop });
    });
  });
}

/** A function that kills the child's whole process group (tsx starts node under it) exactly once. */
function killer(child: ChildProcess): () => void {
  let done = false;
  return () => {
    if (done || child.pid === undefined) return;
    done = true;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
}

/**
 * CPU time (user + system, ms) the emulator's processes have used so far, read from /proc (Linux);
 * null elsewhere. The difference over a scenario shows how much of its wall time the emulator's
 * own work could explain.
 */
export function emulatorCpuMs(groupId: number): number | null {
  try {
    const ticksPerSecond = 100; // USER_HZ on Linux
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited meanwhile
      }
      // Fields after the command name "(...)": state is field 3; pgrp 5; utime 14; stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}
