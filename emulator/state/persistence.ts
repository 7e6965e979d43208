/**
 * Durable storage of the emulator state in one JSON file under --data-dir.
 * Writes are atomic (temporary file, fsync, rename, fsync of the directory) and serialised;
 * callers await `save()` before answering, so an acknowledged write survives kill -9.
 * Saves requested while a write is queued share that write (it snapshots the state when it starts).
 * A write that fails (serialisation or disk) is undone: the state goes back to the last one on
 * disk, and every save waiting on the undone changes fails too, so nothing unacknowledged is kept
 * in memory to be stored later by someone else's write.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { HttpProblem } from "../http/errors";
import { EmulatorState } from "./types";

const FILE = "state.json";

/** Writes one file atomically and durably. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, "w");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  try {
    const dir = await fs.open(path.dirname(file), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

/** Persists snapshots of a state obtained from `snapshot()`. */
export class StatePersister {
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  /** The text last written (or loaded): what a failed write goes back to. */
  private lastGood: string | null = null;
  /** Bumped by each undo; a save requested before an undo fails. */
  private epoch = 0;

  constructor(
    private readonly dataDir: string,
    private readonly snapshot: () => EmulatorState,
    private readonly restore: (state: EmulatorState) => void,
  ) {}

  /** Loads the stored state, or null when none exists yet. */
  async load(): Promise<EmulatorState | null> {
    await fs.mkdir(this.dataDir, { recursive: true });
    try {
      const text = await fs.readFile(path.join(this.dataDir, FILE), "utf8");
      const parsed = JSON.parse(text) as EmulatorState;
      if (parsed.version !== 1) return null;
      this.lastGood = text;
      return parsed;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
  }

  /** Resolves once a write that began after this call has reached the disk. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    const epoch = this.epoch;
    const run: Promise<void> = this.chain.then(async () => {
      if (this.queued === run) this.queued = null;
      if (epoch !== this.epoch)
        throw new HttpProblem(503, ["the change could not be stored (an earlier write failed) and was undone; retry"]);
      try {
        const text = JSON.stringify(this.snapshot());
        await writeAtomic(path.join(this.dataDir, FILE), text);
        this.lastGood = text;
      } catch (e) {
        this.epoch++;
        if (this.lastGood !== null) this.restore(JSON.parse(this.lastGood) as EmulatorState);
        throw new HttpProblem(503, [`the change could not be stored (${(e as Error).message}) and was undone; retry`]);
      }
    });
    this.queued = run;
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every requested write has finished. */
  async flush(): Promise<void> {
    await this.chain;
  }
}
