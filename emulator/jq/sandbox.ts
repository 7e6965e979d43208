/**
 * Runs jq programs in a worker thread with a time limit, a memory limit and an output cap.
 * A program that loops (`def f: f; f`) or produces runaway output is stopped by terminating the
 * worker, which is then respawned; the server itself never runs jq on its own thread.
 * Jobs run one at a time in submission order.
 */
import { Worker } from "node:worker_threads";
import * as path from "node:path";

/** Why a jq evaluation failed: the program's own error, or a sandbox limit. */
export class JqError extends Error {
  constructor(
    readonly kind: "jq" | "timeout" | "memory" | "output" | "crash",
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  input: string;
  program: string;
  resolve(output: string): void;
  reject(e: Error): void;
}

interface WorkerReply {
  id?: number;
  ready?: boolean;
  ok?: boolean;
  output?: string;
  error?: string;
  kind?: JqError["kind"];
}

const WORKER_FILE = path.join(__dirname, "jq-worker.cjs");

/** Limits of the sandbox. */
export interface JqLimits {
  timeoutMs: number;
  maxOutputChars: number;
  /** Deepest nesting of arrays and objects in one output. */
  maxOutputDepth: number;
  maxHeapMb: number;
  /** jq's own WebAssembly heap (outside the worker's resourceLimits), in MB. */
  maxWasmMb: number;
}

export class JqSandbox {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private queue: Job[] = [];
  private busy = false;
  private nextId = 1;
  private closed = false;

  constructor(private readonly limits: JqLimits) {}

  /** Evaluates `program` over the JSON text `input` with `-c`; resolves jq's raw output. */
  run(input: string, program: string): Promise<string> {
    if (this.closed) return Promise.reject(new JqError("crash", "jq sandbox is closed"));
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ input, program, resolve, reject });
      void this.pump();
    });
  }

  /** Stops the worker; pending jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new JqError("crash", "jq sandbox is closed"));
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }

  private spawn(): Promise<Worker> {
    if (this.ready) return this.ready;
    const worker = new Worker(WORKER_FILE, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      workerData: { maxWasmBytes: this.limits.maxWasmMb * 1024 * 1024 },
    });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<Worker>((resolve, reject) => {
      const onMessage = (m: WorkerReply) => {
        if (m.ready === undefined) return;
        worker.off("message", onMessage);
        if (m.ready) resolve(worker);
        else reject(new JqError("crash", `jq engine failed to load: ${m.error}`));
      };
      worker.on("message", onMessage);
      worker.once("error", (e) => reject(new JqError("crash", `jq engine failed to start: ${e.message}`)));
    });
    // A failed start must not leave a poisoned promise behind.
    this.ready.catch(() => this.discard(worker));
    return this.ready;
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
    void worker.terminate();
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) return;
    this.busy = true;
    try {
      job.resolve(await this.execute(job));
    } catch (e) {
      job.reject(e as Error);
    } finally {
      this.busy = false;
      if (this.queue.length > 0) void this.pump();
    }
  }

  private async execute(job: Job): Promise<string> {
    const worker = await this.spawn();
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        fn();
      };
      const onMessage = (m: WorkerReply) => {
        if (m.id !== id) return;
        // A refused allocation or a WebAssembly trap leaves jq's engine in an unknown state: replace
        // it now, so the next program (any tenant's) runs on a fresh one.
        if (!m.ok && (m.kind === "memory" || m.kind === "crash")) {
          this.discard(worker);
          if (!this.closed) this.spawn().catch(() => undefined);
        }
        finish(() => (m.ok ? resolve(m.output ?? "") : reject(new JqError(m.kind ?? "jq", m.error ?? "jq failed"))));
      };
      const onError = (e: Error) => {
        const memory =
          /memory|heap/i.test(e.message) || (e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
        this.discard(worker);
        finish(() =>
          reject(
            new JqError(
              memory ? "memory" : "crash",
              memory ? "jq program exceeded the memory limit" : `jq engine crashed: ${e.message}`,
            ),
          ),
        );
      };
      const onExit = () => {
        this.discard(worker);
        finish(() => reject(new JqError("crash", "jq engine stopped unexpectedly")));
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        finish(() =>
          reject(new JqError("timeout", `jq program exceeded the time limit of ${this.limits.timeoutMs} ms`)),
        );
        // Warm a fresh worker so the next program does not pay the start-up.
        if (!this.closed) this.spawn().catch(() => undefined);
      }, this.limits.timeoutMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({
        id,
        input: job.input,
        program: job.program,
        maxOutput: this.limits.maxOutputChars,
        maxDepth: this.limits.maxOutputDepth,
      });
    });
  }
}
