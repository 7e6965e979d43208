/**
 * Durable storage of the emulator state in one JSON file under --data-dir.
 * Writes are atomic (temporary file, fsync, rename, fsync of the directory) and serialised;
 * callers await `save()` before answering, so an acknowledged write survives kill -9.
 * Saves requested while a write is queued share that write (it snapshots the state when it starts).
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";
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

  constructor(
    private readonly dataDir: string,
    private readonly snapshot: () => EmulatorState,
  ) {}

  /** Loads the stored state, or null when none exists yet. */
  async load(): Promise<EmulatorState | null> {
    await fs.mkdir(this.dataDir, { recursive: true });
    try {
      const text = await fs.readFile(path.join(this.dataDir, FILE), "utf8");
      const parsed = JSON.parse(text) as EmulatorState;
      return parsed.version === 1 ? parsed : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
  }

  /** Resolves once a write that began after this call has reached the disk. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.chain.then(() => {
      this.queued = null;
      return writeAtomic(path.join(this.dataDir, FILE), JSON.stringify(this.snapshot()));
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
