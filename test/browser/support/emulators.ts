/**
 * The browser tests' emulators beyond test/support/emulator.ts: in-process ones take a longer
 * processing time, so the pane's "processing" state can be seen; one in a separate process can be
 * killed outright, the way a crashing service drops connections mid-request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../../../emulator/server";
import { startTestEmulator } from "../../support/emulator";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** An in-process test emulator whose portfolios take 300 ms to process, long enough to see in a page. */
export function startBrowserEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startTestEmulator({ processingDelayMs: 300, ...options });
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
