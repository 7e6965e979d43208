/**
 * Runs jq programs in a pool of worker threads with a time limit, a memory limit and an output cap.
 * A program that loops (`def f: f; f`) or produces runaway output is stopped by terminating its
 * worker, which is then respawned; the server itself never runs jq on its own thread.
 *
 * Fair share between tenants (API keys): each tenant has its own queue, free workers take the next
 * job round-robin over the tenants that have one waiting, and one tenant holds at most
 * `workers - 1` workers at a time (when there are two or more), so another tenant's program never
 * waits behind a long one: at worst it waits behind the other tenants' jobs, one each in turn.
 */
import { Worker } from "node:worker_threads";
import * as path from "node:path";

/** Why a jq evaluation failed: the program's own error, a sandbox limit, or a refused UDF result. */
export class JqError extends Error {
  /** Every message of the failure (a refused result may have several); the first is `message`. */
  readonly errors: string[];

  constructor(
    readonly kind: "jq" | "timeout" | "memory" | "output" | "crash" | "result",
    message: string,
    errors?: string[],
  ) {
    super(message);
    this.errors = errors && errors.length > 0 ? errors : [message];
  }
}

/** A UDF evaluation as the worker runs it (see emulator/compositions/udf-result.ts). */
export interface UdfJob {
  program: string;
  scope: "collection" | "feature";
  /** The input layers' FeatureCollections as JSON text, in the UDF's order. */
  layers: { name: string; text: string }[];
}

/**
 * A UDF job as posted to the worker: each distinct layer text once (`texts`), each input layer
 * by its index there. Posting clones every string on the server's thread, so a layer listed
 * several times must not be cloned several times.
 */
type UdfJobMessage = Omit<UdfJob, "layers"> & { texts: string[]; layers: { name: string; text: number }[] };

type JobSpec = { type: "jq"; input: string; program: string } | ({ type: "udf" } & UdfJobMessage);

interface Job {
  tenant: string;
  spec: JobSpec;
  resolve(output: string): void;
  reject(e: Error): void;
}

interface WorkerReply {
  id?: number;
  ready?: boolean;
  ok?: boolean;
  output?: string;
  error?: string;
  errors?: string[];
  kind?: JqError["kind"];
}

const WORKER_FILE = path.join(__dirname, "jq-worker.cjs");

/**
 * The emulator's sandbox limits by default (emulator/server.ts; `--jq-timeout`, `--jq-workers`).
 * None is published: they are the emulator's, and its OpenAPI documents mark them inferred.
 */
export const JQ_DEFAULT_LIMITS = {
  timeoutMs: 2000,
  /** jq-web collects output as a JS array of bytes (~8 bytes each) inside the worker's heap. */
  maxOutputChars: 8 * 1024 * 1024,
  /**
   * Room for a layer as large as an upload may be plus the program's values. A value given to
   * every feature is repeated in each: unbounded, a 2 MB value over 10,000 features is 20 GB.
   */
  maxResultChars: 16 * 1024 * 1024,
  maxHeapMb: 256,
  maxWasmMb: 256,
  workers: 2,
} as const;

/** Limits of the sandbox. */
export interface JqLimits {
  timeoutMs: number;
  maxOutputChars: number;
  /** Deepest nesting of arrays and objects in one output. */
  maxOutputDepth: number;
  maxHeapMb: number;
  /** jq's own WebAssembly heap (outside the worker's resourceLimits), in MB. */
  maxWasmMb: number;
  /** Worker threads (default JQ_DEFAULT_LIMITS.workers). */
  workers?: number;
  /** Longest UDF result layer, in characters of JSON (default JQ_DEFAULT_LIMITS.maxResultChars). */
  maxResultChars?: number;
  /** Deepest nesting of a UDF result layer (default 32). */
  maxResultDepth?: number;
}

/** One worker thread of the pool and the job it runs. */
class Slot {
  worker: Worker | null = null;
  ready: Promise<Worker> | null = null;
  tenant: string | null = null;
}

export class JqSandbox {
  private readonly slots: Slot[];
  /** Waiting jobs per tenant; the map's order is the round-robin order (a served tenant moves last). */
  private readonly queues = new Map<string, Job[]>();
  private readonly running = new Map<string, number>();
  private nextId = 1;
  private closed = false;
  private started = false;

  constructor(private readonly limits: JqLimits) {
    this.slots = Array.from({ length: Math.max(1, limits.workers ?? JQ_DEFAULT_LIMITS.workers) }, () => new Slot());
  }

  /** Workers one tenant may hold at once: all but one, so another tenant always finds one. */
  get perTenantWorkers(): number {
    return Math.max(1, this.slots.length - 1);
  }

  /**
   * Evaluates `program` over the JSON text `input` with `-c`; resolves jq's raw output. `tenant`
   * (the API key) decides the queue the job waits in.
   */
  run(input: string, program: string, tenant = ""): Promise<string> {
    return this.submit(tenant, { type: "jq", input, program });
  }

  /** Evaluates a UDF in a worker; resolves the result layer as JSON text (bounded, depth-checked). */
  runUdf(job: UdfJob, tenant = ""): Promise<string> {
    const index = new Map<string, number>();
    for (const l of job.layers) if (!index.has(l.text)) index.set(l.text, index.size);
    return this.submit(tenant, {
      type: "udf",
      program: job.program,
      scope: job.scope,
      texts: [...index.keys()],
      layers: job.layers.map((l) => ({ name: l.name, text: index.get(l.text)! })),
    });
  }

  /** Stops the workers; pending jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values())
      for (const job of queue.splice(0)) job.reject(new JqError("crash", "jq sandbox is closed"));
    this.queues.clear();
    await Promise.all(
      this.slots.map((slot) => {
        const w = slot.worker;
        slot.worker = null;
        slot.ready = null;
        return w ? w.terminate() : undefined;
      }),
    );
  }

  private submit(tenant: string, spec: JobSpec): Promise<string> {
    if (this.closed) return Promise.reject(new JqError("crash", "jq sandbox is closed"));
    return new Promise<string>((resolve, reject) => {
      const queue = this.queues.get(tenant);
      if (queue) queue.push({ tenant, spec, resolve, reject });
      else this.queues.set(tenant, [{ tenant, spec, resolve, reject }]);
      this.dispatch();
    });
  }

  /** Gives free workers the next jobs, one tenant at a time in round-robin order. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.tenant !== null || this.closed) continue;
      const job = this.nextJob();
      if (!job) return;
      // The first program starts every worker, so another tenant's first program finds one ready.
      if (!this.started) {
        this.started = true;
        for (const other of this.slots) if (other !== slot) this.spawn(other).catch(() => undefined);
      }
      slot.tenant = job.tenant;
      this.running.set(job.tenant, (this.running.get(job.tenant) ?? 0) + 1);
      const release = () => {
        slot.tenant = null;
        const left = (this.running.get(job.tenant) ?? 1) - 1;
        if (left > 0) this.running.set(job.tenant, left);
        else this.running.delete(job.tenant);
        this.dispatch();
      };
      void this.execute(slot, job)
        .then(job.resolve, job.reject)
        // A worker the program broke (time, memory, crash) is being replaced: the slot stays the
        // tenant's until the new one is ready, so the restart is charged to that tenant's share
        // and never to whoever would take the slot next.
        .finally(
          () =>
            void Promise.resolve(slot.ready)
              .catch(() => undefined)
              .then(release),
        );
    }
  }

  /** The first waiting job of the first tenant (in round-robin order) below its share of workers. */
  private nextJob(): Job | undefined {
    for (const [tenant, queue] of this.queues) {
      if ((this.running.get(tenant) ?? 0) >= this.perTenantWorkers) continue;
      const job = queue.shift()!;
      // Served: the tenant goes to the back of the round (or leaves it with nothing waiting).
      this.queues.delete(tenant);
      if (queue.length > 0) this.queues.set(tenant, queue);
      return job;
    }
    return undefined;
  }

  private spawn(slot: Slot): Promise<Worker> {
    if (slot.ready) return slot.ready;
    const worker = new Worker(WORKER_FILE, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      workerData: { maxWasmBytes: this.limits.maxWasmMb * 1024 * 1024 },
    });
    worker.unref();
    slot.worker = worker;
    const ready = new Promise<Worker>((resolve, reject) => {
      const onMessage = (m: WorkerReply) => {
        if (m.ready === undefined) return;
        worker.off("message", onMessage);
        if (m.ready) resolve(worker);
        else reject(new JqError("crash", `jq engine failed to load: ${m.error}`));
      };
      worker.on("message", onMessage);
      worker.once("error", (e) => reject(new JqError("crash", `jq engine failed to start: ${e.message}`)));
    });
    slot.ready = ready;
    // A failed start must not leave a poisoned promise behind.
    ready.catch(() => this.discard(slot, worker));
    return ready;
  }

  private discard(slot: Slot, worker: Worker): void {
    if (slot.worker === worker) {
      slot.worker = null;
      slot.ready = null;
    }
    void worker.terminate();
  }

  /** Replaces the slot's worker now, so the next program (any tenant's) runs on a fresh engine. */
  private replace(slot: Slot, worker: Worker): void {
    this.discard(slot, worker);
    if (!this.closed) this.spawn(slot).catch(() => undefined);
  }

  private async execute(slot: Slot, job: Job): Promise<string> {
    const worker = await this.spawn(slot);
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
        // A refused allocation or a WebAssembly trap leaves jq's engine in an unknown state.
        if (!m.ok && (m.kind === "memory" || m.kind === "crash")) this.replace(slot, worker);
        finish(() =>
          m.ok
            ? resolve(m.output ?? "")
            : reject(new JqError(m.kind ?? "jq", m.error ?? m.errors?.[0] ?? "jq failed", m.errors)),
        );
      };
      const onError = (e: Error) => {
        const memory =
          /memory|heap/i.test(e.message) || (e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
        this.replace(slot, worker);
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
        this.replace(slot, worker);
        finish(() => reject(new JqError("crash", "jq engine stopped unexpectedly")));
      };
      const timer = setTimeout(() => {
        // Warm a fresh worker at once, so the next program does not pay the start-up.
        this.replace(slot, worker);
        finish(() =>
          reject(new JqError("timeout", `jq program exceeded the time limit of ${this.limits.timeoutMs} ms`)),
        );
      }, this.limits.timeoutMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({
        ...job.spec,
        id,
        maxOutput: this.limits.maxOutputChars,
        maxDepth: this.limits.maxOutputDepth,
        maxResultChars: this.limits.maxResultChars ?? JQ_DEFAULT_LIMITS.maxResultChars,
        maxResultDepth: this.limits.maxResultDepth ?? 32,
      });
    });
  }
}
