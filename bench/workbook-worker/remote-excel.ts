/**
 * The add-in's side of a fake workbook held in a worker thread (issue 41, item 4): `Excel.run` whose
 * request context records the add-in's calls as Office.js does (every proxy call only queues an
 * action on an object path) and sends each `context.sync()` as one JSON message, as Office.js sends
 * a batch to Excel; the worker replays it on the fake and answers with what was loaded.
 *
 * Why: in Excel the workbook's cells, its calculation and the work of applying a batch happen in
 * Excel's process, not in the add-in's JavaScript thread. Run in the same thread, the fake's
 * garbage and time land on the add-in's (docs/benchmarks.md). Here the add-in's thread holds only
 * the add-in, so its heap and GC are its own, and it can go on (parse the next answer, shape the next
 * sheet) while "Excel" applies a batch, as it does in Excel.
 *
 * The proxies are generic (an ES Proxy knows no Office.js type): a property is an API object unless
 * a sync loaded it or the add-in set it; a method call makes a handle that the worker fills with an
 * API object or a ClientResult. A property a load asked for (and `isNullObject`, `items`, `value`)
 * throws PropertyNotLoaded until a sync delivers it, as in Excel; one never asked for reads as a
 * proxy where Excel would throw: the tests, on the in-thread fake, are what catch that.
 */
import { Worker } from "node:worker_threads";
import { asCellError } from "../../harness/custom-functions-registry";
import { FakeExcelError, type SyncCost, type SyncRecord } from "../../testing/fake-excel";
import { loadPaths, type LoadOption } from "../../testing/fake-excel/context";
import { propertyNotLoaded } from "../../testing/fake-excel/errors";
import type { ExcelRunner } from "../../src/taskpane/ui/pane-types";
import type {
  Action,
  Delivery,
  FromWorker,
  HandleId,
  Invocation,
  Settlement,
  ToWorker,
  WireError,
  WorkerInit,
} from "./protocol";

/** A RISK function as the add-in registers it: its arguments, then the invocation. */
type RiskFunction = (...args: unknown[]) => unknown;

/** One API object of a run on the add-in's side. */
interface Node {
  run: Run;
  /** The worker's handle, once an action has named it (navigations are named when first used). */
  id?: HandleId;
  parent?: Node;
  name?: string;
  loaded: Map<string, unknown>;
  /** Properties a load asked for: read before a sync delivered them, they throw PropertyNotLoaded. */
  requested: Set<string>;
  members: Map<string, Node>;
  proxy: object;
}

/** One `Excel.run` on the add-in's side. */
interface Run {
  id: number;
  nextId: HandleId;
  actions: Action[];
  nodes: Map<HandleId, Node>;
  proxies: WeakMap<object, Node>;
}

function excelError(error: WireError): Error {
  if (error.code && !error.code.startsWith("#")) return new FakeExcelError(error.code, error.message, error.location);
  return new Error(error.message);
}

/** A value as it crosses to the worker: API objects become references to their handles. */
function wireValue(run: Run, value: unknown): unknown {
  const node = (typeof value === "function" || typeof value === "object") && value ? run.proxies.get(value) : undefined;
  return node ? { $ref: named(node) } : value;
}

/** The handle of a node, naming it (and the objects it hangs from) in the batch when first used. */
function named(node: Node): HandleId {
  if (node.id === undefined) {
    const of = named(node.parent!);
    node.id = node.run.nextId++;
    node.run.nodes.set(node.id, node);
    node.run.actions.push({ k: "get", id: node.id, of, name: node.name! });
  }
  return node.id;
}

function newNode(run: Run, id?: HandleId, parent?: Node, name?: string): Node {
  const node: Node = {
    run,
    id,
    parent,
    name,
    loaded: new Map(),
    requested: new Set(),
    members: new Map(),
    proxy: undefined as never,
  };
  node.proxy = proxyOf(node);
  run.proxies.set(node.proxy, node);
  if (id !== undefined) run.nodes.set(id, node);
  return node;
}

function member(node: Node, name: string): Node {
  let found = node.members.get(name);
  if (!found) {
    found = newNode(node.run, undefined, node, name);
    node.members.set(name, found);
  }
  return found;
}

/** Sets a loaded property; "format/fill/color" goes to the navigation's own node. */
function deliverProperty(node: Node, path: string, value: unknown): void {
  const slash = path.indexOf("/");
  if (slash < 0) node.loaded.set(path, value);
  else deliverProperty(member(node, path.slice(0, slash)), path.slice(slash + 1), value);
}

function deliver(run: Run, deliveries: Delivery[]): void {
  for (const { id, props, items } of deliveries) {
    const node = run.nodes.get(id);
    if (!node) continue;
    for (const [path, value] of Object.entries(props)) deliverProperty(node, path, value);
    if (items) {
      node.loaded.set(
        "items",
        items.map((item) => {
          const itemNode = newNode(run, item.id);
          for (const [path, value] of Object.entries(item.props)) deliverProperty(itemNode, path, value);
          return itemNode.proxy;
        }),
      );
    }
  }
}

/** Properties that are never an API object: null-object flags, collections' items, ClientResult values. */
const SCALARS = new Set(["isNullObject", "items", "value"]);

/** The proxy of an API object: callable, so that a member can be a method or a navigation. */
function proxyOf(node: Node): object {
  return new Proxy(function remoteObject() {} as object, {
    get(_target, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined; // never look like a promise
      if (prop === "load")
        return (option?: unknown) => {
          for (const path of loadPaths(option as LoadOption)) node.requested.add(path.split("/")[0]);
          node.run.actions.push({ k: "load", of: named(node), option: option ?? null });
          return node.proxy;
        };
      if (prop === "toJSON") return () => Object.fromEntries(node.loaded);
      if (prop === "track" || prop === "untrack") return () => node.proxy;
      if (node.loaded.has(prop)) return node.loaded.get(prop);
      // Not loaded (yet, or its sync failed): Excel throws, and the add-in relies on it (a read queued
      // with a request that failed is read again). Only what is surely no navigation can tell.
      if (SCALARS.has(prop) || node.requested.has(prop)) throw propertyNotLoaded("Object", prop);
      return member(node, prop).proxy;
    },
    set(_target, prop, value) {
      if (typeof prop !== "string") return false;
      node.run.actions.push({ k: "set", of: named(node), name: prop, value: wireValue(node.run, value) });
      node.loaded.set(prop, value); // office.js proxies read back what they set
      return true;
    },
    apply(_target, _this, args: unknown[]) {
      // node is a member of its parent: calling it calls the parent's method of that name.
      const run = node.run;
      const of = named(node.parent!);
      const made = newNode(run, run.nextId++);
      run.actions.push({ k: "call", id: made.id!, of, name: node.name!, args: args.map((a) => wireValue(run, a)) });
      return made.proxy;
    },
  });
}

/** The fake workbook in its worker, and the add-in's way in: `run`, and the bench's controls. */
export class RemoteWorkbook {
  private readonly worker: Worker;
  private nextRun = 0;
  private nextRequest = 0;
  private readonly pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  private readonly invocations = new Map<number, { onCanceled?: () => void }>();
  private settled: Settlement[] = [];
  private settleQueued = false;
  private active = 0;
  private busySince = 0;
  private busyTotal = 0;
  /** The union of the runs' spans so far, [start, end] in ms since the epoch (comparable with the worker's clock). */
  private readonly spans: Array<[number, number]> = [];
  private get busySinceEpoch(): number {
    return performance.timeOrigin + this.busySince;
  }
  /** The RISK functions' synchronous time while a run was open (inside a batch's span: the add-in's, not Excel's). */
  functionsInsideMs = 0;
  /** This thread's time writing each batch as JSON and reading its answer: Office.js's work, not the add-in's. */
  private officeJsMs = 0;
  readonly ready: Promise<void>;

  private constructor(private readonly functions: Record<string, RiskFunction>) {
    const init: WorkerInit = {
      functions: Object.entries(functions).map(([name, fn]) => ({ name, parameters: Math.max(0, fn.length - 1) })),
    };
    const file = require.resolve("./worker.ts");
    // tsx compiles the worker's TypeScript as it does the bench's (a worker does not inherit the loader).
    this.worker = new Worker(
      `require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`,
      {
        eval: true,
        workerData: init,
      },
    );
    let started!: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    this.worker.on("message", (message: FromWorker) => this.receive(message, started));
    this.worker.on("error", (error) => {
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
  }

  /** Starts the worker and waits until its workbook is there. */
  static async start(functions: Record<string, RiskFunction>): Promise<RemoteWorkbook> {
    const book = new RemoteWorkbook(functions);
    await book.ready;
    return book;
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private request<T>(
    message: { type: "sync"; run: number; actions: string } | { type: "control"; method: string; args: unknown[] },
  ): Promise<T> {
    const request = ++this.nextRequest;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(request, { resolve: resolve as (value: never) => void, reject });
      this.post({ ...message, request } as ToWorker);
    });
  }

  private receive(message: FromWorker, started: () => void): void {
    switch (message.type) {
      case "ready":
        return started();
      case "synced":
      case "answer":
      case "failed": {
        const waiter = this.pending.get(message.request);
        this.pending.delete(message.request);
        if (message.type === "failed") waiter?.reject(excelError(message.error));
        else waiter?.resolve((message.type === "synced" ? message.deliveries : message.value) as never);
        return;
      }
      case "invoke":
        for (const call of message.calls) this.invoke(call);
        return;
      case "cancel":
        this.invocations.get(message.callId)?.onCanceled?.();
        return;
    }
  }

  /** Runs one RISK function call for the worker's calculation engine, as Excel calls the add-in's. */
  private invoke(call: Invocation): void {
    const fn = this.functions[call.name];
    const invocation: {
      address: string;
      functionName: string;
      parameterAddresses?: string[];
      onCanceled?: () => void;
    } = { address: call.address, functionName: call.functionName, parameterAddresses: call.parameterAddresses };
    this.invocations.set(call.callId, invocation);
    const started = performance.now();
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(fn(...call.args, invocation));
    } catch (error) {
      result = Promise.reject(error);
    } finally {
      if (this.active > 0) this.functionsInsideMs += performance.now() - started;
    }
    result.then(
      (value) => this.settle({ callId: call.callId, value: wireCellErrors(value) }),
      (error) => {
        const cellError = asCellError(error);
        this.settle({
          callId: call.callId,
          error: cellError ?? { message: error instanceof Error ? error.message : String(error) },
        });
      },
    );
  }

  private settle(settlement: Settlement): void {
    this.invocations.delete(settlement.callId);
    this.settled.push(settlement);
    if (this.settleQueued) return;
    this.settleQueued = true;
    setImmediate(() => {
      this.settleQueued = false;
      const results = this.settled;
      this.settled = [];
      this.post({ type: "settled", results });
    });
  }

  /** Excel.run: the batch's context records; each sync goes to the worker as one message. */
  readonly run: ExcelRunner = async <T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> => {
    const started = performance.now();
    if (this.active++ === 0) this.busySince = started;
    const run: Run = { id: ++this.nextRun, nextId: 1, actions: [], nodes: new Map(), proxies: new WeakMap() };
    this.post({ type: "open", run: run.id });
    const root = newNode(run, 0);
    const sync = async <P>(passThrough?: P): Promise<P> => {
      const actions = run.actions;
      run.actions = [];
      if (actions.length === 0) {
        await Promise.resolve(); // office.js sends nothing for an empty batch
        return passThrough as P;
      }
      let writing = performance.now();
      const request = JSON.stringify(actions);
      this.officeJsMs += performance.now() - writing;
      const deliveries = await this.request<string>({ type: "sync", run: run.id, actions: request });
      writing = performance.now();
      deliver(run, JSON.parse(deliveries) as Delivery[]);
      this.officeJsMs += performance.now() - writing;
      return passThrough as P;
    };
    const context = new Proxy(root.proxy, {
      get(target, prop, receiver) {
        if (prop === "sync") return sync;
        if (prop === "trackedObjects") return { add: () => undefined, remove: () => undefined };
        return Reflect.get(target, prop, receiver);
      },
    }) as unknown as Excel.RequestContext;
    try {
      const result = await batch(context);
      await sync();
      return result;
    } finally {
      this.post({ type: "close", run: run.id });
      if (--this.active === 0) {
        const ended = performance.now();
        this.busyTotal += ended - this.busySince;
        this.spans.push([this.busySinceEpoch, performance.timeOrigin + ended]);
      }
    }
  };

  /** Milliseconds during which at least one run was open (overlapping runs count once). */
  runMs(): number {
    return this.busyTotal + (this.active > 0 ? performance.now() - this.busySince : 0);
  }

  private control<T>(method: string, ...args: unknown[]): Promise<T> {
    return this.request<T>({ type: "control", method, args });
  }

  /** An analyst's sheet, typed in (not through the add-in). */
  addSheet = (name: string) => this.control<void>("addSheet", name);
  setValues = (sheet: string, address: string, values: unknown[][]) =>
    this.control<void>("setValues", sheet, address, values);
  read = (sheet: string, address: string) => this.control<unknown[][]>("read", sheet, address);
  sheetNames = () => this.control<string[]>("sheetNames");
  /** The used range of a sheet ("Sheet1!A1:C9"), or null when empty. */
  usedAddress = (sheet: string) => this.control<string | null>("usedAddress", sheet);
  setSelection = (sheet: string, address: string) => this.control<void>("setSelection", sheet, address);
  /** Excel recalculates every formula (a workbook opened again). */
  recalculate = () => this.control<void>("recalculate");
  resetSyncs = () => this.control<void>("resetSyncs");
  setSyncCost = (cost: SyncCost) => this.control<void>("setSyncCost", cost);
  syncWaitMs = () => this.control<number>("syncWaitMs");
  syncCount = () => this.control<number>("syncCount");
  syncsSince = (from: number) => this.control<SyncRecord[]>("syncsSince", from);
  /**
   * Milliseconds spent on each batch's JSON so far: the worker reading batches and writing their
   * answers, and this thread writing batches and reading answers (Office.js's part). Excel's work
   * around each sync that the fake's own `busyMs` does not count.
   */
  async wireMs(): Promise<number> {
    return (await this.control<number>("wireMs")) + this.officeJsMs;
  }

  /** A mark to measure {@link calculationSince} from. */
  calculationMark = () => this.control<number>("calculationStretchCount");
  /**
   * Excel's calculation since the mark, outside the syncs being applied (results arriving,
   * spilling): all of it (`ms`), and the part outside the add-in's runs' spans, which a span does
   * not already count (`outsideRunsMs`).
   */
  async calculationSince(mark: number): Promise<{ ms: number; outsideRunsMs: number }> {
    const stretches = await this.control<Array<[number, number]>>("calculationStretches", mark);
    const spans = this.spans;
    let ms = 0;
    let outsideRunsMs = 0;
    let at = 0;
    for (const [end, stretchMs] of stretches) {
      ms += stretchMs;
      while (at < spans.length && spans[at][1] < end) at++;
      const covered = at < spans.length && spans[at][0] <= end - stretchMs;
      if (!covered && !(this.active > 0 && end >= this.busySinceEpoch)) outsideRunsMs += stretchMs;
    }
    return { ms, outsideRunsMs };
  }
  /** Resolves once no formula is calculating. */
  calculated = () => this.control<void>("calculated");
  /** The worker's live heap after a full collection: the workbook, as Excel's process holds it. */
  workbookHeap = () => this.control<number>("liveHeap");

  /** Ends the worker (and the workbook with it). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** A returned value with its cell errors (CustomFunctions.Error, also as array elements) made plain data. */
function wireCellErrors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wireCellErrors);
  const cellError = value !== null && typeof value === "object" ? asCellError(value) : undefined;
  return cellError ? { $cellError: cellError } : value;
}
