/**
 * The request context and the proxy base class of the fake. Like office.js, every proxy call
 * only queues an operation; `context.sync()` sends the batch: it measures the request size,
 * may be failed by the fault injector or the payload limit, applies the operations in order
 * (stopping at the first error, with the earlier ones applied, as Excel does) and only then
 * delivers loaded properties to the proxies.
 */
import { FakeErrorCodes, FakeExcelError, propertyNotLoaded } from "./errors";
import type { FakeChange, WorkbookModel } from "./model";
import type { RequirementLevel } from "./requirements";
import { utf8Length } from "../../src/excel/chunks";

/** One queued operation: a name and JSON payload for the byte count, and what it does. */
export interface QueuedOperation {
  name: string;
  target: string;
  payload?: unknown;
  /** Runs at sync; may return a delivery that runs only when the whole batch succeeded. */
  apply: () => (() => unknown) | void;
}

/** What the fake records about each sync. */
export interface SyncRecord {
  index: number;
  operations: number;
  requestBytes: number;
  responseBytes: number;
  failed?: string;
  /**
   * Milliseconds the fake itself worked on this sync (building the request, applying it, building
   * the response), on the caller's thread: in Excel most of it happens in Excel's own process. The
   * benchmark keeps it apart from the add-in's own work (bench/scenarios/streaming.ts).
   */
  busyMs: number;
}

/** What a fault injector is told about the sync about to be sent. */
export interface SyncInfo {
  index: number;
  requestBytes: number;
  operations: string[];
}

/**
 * A fault for a drill: the error to reject with, and how many of the batch's operations are
 * applied first (default 0: the request "never arrived").
 */
export interface InjectedFault {
  error?: FakeExcelError;
  applyFirst?: number;
}

/**
 * What each sync costs in time, as Excel charges it. Every `context.sync()` is a round trip from
 * the add-in to the workbook: "Every call of `context.sync` is a round trip from the add-in to the
 * Office document. Repeated round trips hurt performance, especially if the add-in is running in
 * Office on the web because the round trips go across the internet" ("Avoid using the context.sync
 * method in loops", https://learn.microsoft.com/office/dev/add-ins/concepts/correlated-objects-pattern;
 * "Minimize the number of sync() calls", https://learn.microsoft.com/office/dev/add-ins/develop/application-specific-api-model).
 * Both default to 0, so tests run at full speed; the benchmark sets them (docs/benchmarks.md).
 */
export interface SyncCost {
  /** Milliseconds of each sync's round trip, whatever it carries. */
  roundTripMs: number;
  /** Milliseconds per byte of request and response (0: bandwidth not charged). */
  msPerByte: number;
}

/** A sync the fake holds pending: Excel on the web's `context.sync()` that does not answer. */
export interface SyncHold {
  /** Resolves when a sync has been caught and is being held. */
  readonly held: Promise<SyncInfo>;
  /** Lets the held sync go on (it is then applied, if it was not, and answered). */
  release(): void;
}

/** Shared settings and counters of one fake Excel instance (all contexts share them). */
export interface FakeHost {
  /** Charged on every sync that sends something (see {@link SyncCost}). */
  syncCost: SyncCost;
  /** Syncs waiting for their answer (round trip or hold) right now, and the union of their waits. */
  waiting: { now: number; since: number; totalMs: number };
  /** The next sync is held: before it is applied, or applied with only its answer held. */
  hold?: {
    applied: boolean;
    when?: (info: SyncInfo) => boolean;
    caught: (info: SyncInfo) => void;
    released: Promise<void>;
  };
  model: WorkbookModel;
  requestLimitBytes: number;
  responseLimitBytes: number;
  syncs: SyncRecord[];
  syncCount: number;
  faultInjector?: (info: SyncInfo) => InjectedFault | undefined;
  /** Requirement sets the fake host supports (requirements.ts); undefined: all of them. */
  requirements?: RequirementLevel;
  /** Set while the analyst edits a cell (FakeExcel.enterCellEdit); `ended` resolves when they leave it. */
  cellEdit?: { ended: Promise<void> };
  emit: (changes: FakeChange[]) => void;
}

/** The fake's Excel.RequestContext. */
export class FakeRequestContext {
  private queue: QueuedOperation[] = [];
  readonly trackedObjects = { add: (): void => undefined, remove: (): void => undefined };
  /** Set by index.ts so the context and its workbook proxy are created together. */
  workbook!: unknown;
  /** Excel.run's `delayForCellEdit` option (index.ts run): wait out the analyst's cell edit rather than fail. */
  delayForCellEdit = false;

  constructor(readonly host: FakeHost) {}

  /** Queue an operation (used by proxies). */
  enqueue(op: QueuedOperation): void {
    this.queue.push(op);
  }

  /** Send the queued batch; resolves with passThroughValue like office.js. */
  async sync<T>(passThroughValue?: T): Promise<T> {
    const ops = this.queue;
    this.queue = [];
    const host = this.host;
    if (ops.length === 0) {
      await Promise.resolve(); // office.js sends nothing for an empty batch
      return passThroughValue as T;
    }
    let busySince = performance.now();
    const index = ++host.syncCount;
    const json = JSON.stringify(
      ops.map((o) => (o.payload === undefined ? [o.name, o.target] : [o.name, o.target, o.payload])),
    );
    const requestBytes = utf8Length(json);
    const record: SyncRecord = { index, operations: ops.length, requestBytes, responseBytes: 0, busyMs: 0 };
    host.syncs.push(record);
    record.busyMs += performance.now() - busySince;
    await Promise.resolve(); // a sync is always asynchronous
    const info: SyncInfo = { index, requestBytes, operations: ops.map((o) => o.name) };
    const hold = host.hold && (!host.hold.when || host.hold.when(info)) ? host.hold : undefined;
    if (hold) {
      host.hold = undefined;
      hold.caught(info);
    }
    // Held before Excel applied anything: the request has not been taken up yet.
    if (hold && !hold.applied) await this.waitFor(hold.released);
    // Excel.RunOptions.delayForCellEdit: "When `false`, if the user is in cell edit when the batch
    // request is processed by the host, the batch automatically fails. When `true`, ... the batch
    // request is delayed until the user exits cell edit mode." `false` is the default.
    if (host.cellEdit && !this.delayForCellEdit) {
      record.failed = FakeErrorCodes.invalidOperationInCellEditMode;
      throw new FakeExcelError(
        FakeErrorCodes.invalidOperationInCellEditMode,
        "The operation isn't available while Excel is in Edit cell mode.",
      );
    }
    while (host.cellEdit) await this.waitFor(host.cellEdit.ended);
    busySince = performance.now();
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: this.send(ops, record, passThroughValue) };
    } catch (error) {
      outcome = { error };
    } finally {
      record.busyMs += performance.now() - busySince;
    }
    // Applied, its answer on the way back (or held there: Excel did the work, the add-in never hears).
    if (hold?.applied) await this.waitFor(hold.released);
    const { roundTripMs, msPerByte } = host.syncCost;
    const costMs = roundTripMs + msPerByte * (requestBytes + record.responseBytes);
    if (costMs > 0) await this.waitFor(new Promise<void>((resolve) => setTimeout(resolve, costMs)));
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Waits on Excel's side of a sync, adding the wait to the host's union of waiting time. */
  private async waitFor(answer: Promise<void>): Promise<void> {
    const waiting = this.host.waiting;
    if (waiting.now++ === 0) waiting.since = performance.now();
    try {
      await answer;
    } finally {
      if (--waiting.now === 0) waiting.totalMs += performance.now() - waiting.since;
    }
  }

  /** Applies a sent batch (the part of a sync after the request has left). */
  private send<T>(ops: QueuedOperation[], record: SyncRecord, passThroughValue?: T): T {
    const host = this.host;
    const { index, requestBytes } = record;
    const fault = host.faultInjector?.({ index, requestBytes, operations: ops.map((o) => o.name) });
    if (!fault && requestBytes > host.requestLimitBytes) {
      record.failed = FakeErrorCodes.requestPayloadSizeLimitExceeded;
      throw new FakeExcelError(
        FakeErrorCodes.requestPayloadSizeLimitExceeded,
        `The request payload size has exceeded the limit (${requestBytes} bytes > ${host.requestLimitBytes}).`,
      );
    }
    const deliveries: Array<() => unknown> = [];
    const applyCount = fault ? Math.min(fault.applyFirst ?? 0, ops.length) : ops.length;
    try {
      for (let i = 0; i < applyCount; i++) {
        const delivery = ops[i].apply();
        if (delivery) deliveries.push(delivery);
      }
      if (fault) {
        throw fault.error ?? new FakeExcelError(FakeErrorCodes.generalException, `Injected failure of sync #${index}.`);
      }
    } catch (error) {
      record.failed = error instanceof FakeExcelError ? error.code : String(error);
      host.emit(host.model.takeChanges());
      throw error;
    }
    const undo: Array<() => void> = [];
    deliveryUndo = undo;
    let results: unknown[];
    try {
      results = deliveries.map((d) => d());
    } finally {
      deliveryUndo = null;
    }
    const responseBytes = utf8Length(JSON.stringify(results));
    record.responseBytes = responseBytes;
    host.emit(host.model.takeChanges());
    if (responseBytes > host.responseLimitBytes) {
      // No loaded value of a refused answer reaches the add-in.
      for (const step of undo.reverse()) step();
      record.failed = FakeErrorCodes.responsePayloadSizeLimitExceeded;
      throw new FakeExcelError(
        FakeErrorCodes.responsePayloadSizeLimitExceeded,
        `The response payload size has exceeded the limit (${responseBytes} bytes > ${host.responseLimitBytes}).`,
      );
    }
    return passThroughValue as T;
  }
}

/** A load request: property names, or "items/x" paths for collections. */
export type LoadOption = string | string[] | { select?: string | string[] } | undefined;

/** Normalize every form of load() argument to a list of property paths. */
export function loadPaths(option: LoadOption): string[] {
  if (option === undefined) return [];
  const raw = typeof option === "string" || Array.isArray(option) ? option : (option.select ?? []);
  const list = Array.isArray(raw) ? raw : raw.split(",");
  return list.map((p) => p.trim()).filter((p) => p.length > 0);
}

/**
 * Undo steps of the deliveries of the sync being answered: a sync whose answer passes the payload
 * limit fails as a whole, and office.js then sets none of its loaded values (a proxy read
 * afterwards throws PropertyNotLoaded), so the fake takes back what its deliveries set.
 */
let deliveryUndo: Array<() => void> | null = null;

/** Records how to take back a delivery (while a sync's answer is being built). */
export function journalDelivery(undo: () => void): void {
  deliveryUndo?.push(undo);
}

/** The loaded properties of a proxy: what a delivery sets is journaled (see {@link journalDelivery}). */
class LoadedProperties extends Map<string, unknown> {
  override set(key: string, value: unknown): this {
    if (deliveryUndo) {
      const had = this.has(key);
      const before = this.get(key);
      deliveryUndo.push(() => (had ? super.set(key, before) : this.delete(key)));
    }
    return super.set(key, value);
  }
}

/**
 * Base of every proxy. T is what the proxy points at in the model; it is resolved during a sync
 * (so getItem of a missing sheet fails at sync, as in Excel) and then kept.
 */
export abstract class FakeClientObject<T> {
  protected readonly loaded: Map<string, unknown> = new LoadedProperties();
  private target: T | null | undefined;

  constructor(
    readonly context: FakeRequestContext,
    protected readonly path: string,
    private readonly resolver: () => T | null,
    private readonly nullable = false,
  ) {
    if (nullable) {
      context.enqueue({
        name: "resolve",
        target: path,
        apply: () => {
          const found = this.tryResolve();
          return () => this.loaded.set("isNullObject", found === null);
        },
      });
    }
  }

  /** The class name used in error locations ("Range", "Worksheet", ...). */
  protected abstract readonly typeName: string;
  /** Scalar properties loaded by a bare load(). */
  protected abstract readonly scalarProperties: readonly string[];
  /** Read one property from the model (during a sync). */
  protected abstract readProperty(target: T, property: string): unknown;
  /** Whether the resolved target was deleted meanwhile. */
  protected isGone(target: T): boolean {
    void target;
    return false;
  }

  protected tryResolve(): T | null {
    if (this.target === undefined || (this.target !== null && this.isGone(this.target))) {
      const found = this.resolver();
      this.target = found;
    }
    return this.target ?? null;
  }

  /** The model object; throws ItemNotFound when it does not exist (during a sync). */
  resolve(): T {
    const found = this.tryResolve();
    if (found === null || this.isGone(found)) {
      throw new FakeExcelError(
        FakeErrorCodes.itemNotFound,
        `The requested resource doesn't exist (${this.path}).`,
        this.path,
      );
    }
    return found;
  }

  /** Whether this is a null object (only after a sync). */
  get isNullObject(): boolean {
    if (!this.loaded.has("isNullObject")) throw propertyNotLoaded(this.typeName, "isNullObject");
    return this.loaded.get("isNullObject") as boolean;
  }

  /** Read a loaded property, throwing PropertyNotLoaded like Excel when it was not loaded. */
  protected get<V>(property: string): V {
    if (!this.loaded.has(property)) throw propertyNotLoaded(this.typeName, property);
    return this.loaded.get(property) as V;
  }

  /** Queue a property write; the proxy reads back what it set, as office.js proxies do. */
  protected set(property: string, value: unknown, apply: (target: T) => void): void {
    this.loaded.set(property, value);
    this.enqueueOn(`set:${property}`, value, apply);
  }

  /** Queue an operation against the resolved target. */
  protected enqueueOn(name: string, payload: unknown, apply: (target: T) => void): void {
    this.context.enqueue({
      name,
      target: this.path,
      payload,
      apply: () => {
        if (this.nullable && this.tryResolve() === null) return; // writes to a null object do nothing
        apply(this.resolve());
      },
    });
  }

  /** Queue a load; properties arrive after a successful sync. */
  load(option?: LoadOption): this {
    const paths = loadPaths(option);
    const props = paths.length === 0 ? [...this.scalarProperties] : paths;
    this.context.enqueue({
      name: "load",
      target: this.path,
      payload: props,
      apply: () => {
        const found = this.tryResolve();
        if (found === null) {
          if (!this.nullable) this.resolve();
          return () => {
            this.loaded.set("isNullObject", true);
            return null;
          };
        }
        const target = this.resolve();
        const values = props.map((p) => this.readProperty(target, p));
        return () => {
          props.forEach((p, i) => this.loaded.set(p, values[i]));
          this.loaded.set("isNullObject", false);
          return values;
        };
      },
    });
    return this;
  }

  /** Read properties now, during another operation (collections loading their items). */
  loadNow(props: string[]): () => unknown {
    const list = props.length ? props : [...this.scalarProperties];
    const target = this.resolve();
    const values = list.map((p) => this.readProperty(target, p));
    return () => {
      list.forEach((p, i) => this.loaded.set(p, values[i]));
      this.loaded.set("isNullObject", false);
      return values;
    };
  }

  /** office.js objects serialize their loaded properties. */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.loaded);
  }
}
