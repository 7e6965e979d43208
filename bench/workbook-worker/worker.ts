/**
 * The worker thread that plays Excel for the weekly refresh (issue 41, item 4): the fake workbook,
 * its 5 MB limits and sync costs, and the harness's calculation engine live here, in their own V8
 * heap and on their own thread, as Excel's cells and calculation live in Excel's process. The
 * add-in's thread sends each batch as JSON actions (remote-excel.ts); this side replays them on the
 * fake's own proxies, syncs, and answers with what was loaded. The RISK functions are the add-in's:
 * the calculation engine calls stubs that ask the add-in's thread to run them.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { FunctionRegistry, HarnessCustomFunctionError } from "../../harness/custom-functions-registry";
import { FormulaEngine } from "../../harness/formula/engine";
import { MetadataIndex } from "../../harness/formula/metadata";
import { createFakeExcel, FakeExcelError } from "../../testing/fake-excel";
import { FakeClientResult, FakeCollection } from "../../testing/fake-excel/collection";
import { loadPaths, type LoadOption } from "../../testing/fake-excel/context";
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

const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

const fake = createFakeExcel();
const registry = new FunctionRegistry();
const calc = new FormulaEngine(fake, registry, new MetadataIndex());

/** Runs of the add-in open now: their context and the API objects made in them, by handle. */
const runs = new Map<number, { handles: Map<HandleId, unknown>; close: () => void; nextOwn: number }>();
/**
 * Milliseconds this side spent reading batches (parsing, replaying) and writing their answers:
 * Excel's work around a sync that the fake's own `busyMs` does not count.
 */
let wireMs = 0;
/** Syncs being applied now: calculation meanwhile is inside a batch, whose span the add-in's side times. */
let applying = 0;
/**
 * Excel's calculation outside the batches being applied (results arriving, spills), as [when it
 * ended (ms since the epoch, comparable across threads), its milliseconds]: the add-in's side
 * counts those outside its own runs' spans as Excel's time (remote-excel.ts, calculationSince).
 */
const stretches: Array<[number, number]> = [];
calc.onCalculated = (calculationMs) => {
  if (applying === 0) stretches.push([performance.timeOrigin + performance.now(), calculationMs]);
};

// The RISK functions: stubs declaring the real ones' parameter counts (the engine passes that many
// arguments, then the invocation), answered by the add-in's thread.
let nextCall = 0;
const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
let outbox: Invocation[] = [];
let flushQueued = false;
/** Calls go out in groups: a full group at once, so the add-in starts while Excel still evaluates. */
const CALLS_PER_MESSAGE = 256;
const flushCalls = () => {
  flushQueued = false;
  if (outbox.length === 0) return;
  post({ type: "invoke", calls: outbox });
  outbox = [];
};
for (const { name, parameters } of (workerData as WorkerInit).functions) {
  const stub = (...args: unknown[]) => {
    const invocation = args.pop() as {
      address: string;
      functionName: string;
      parameterAddresses?: string[];
      onCanceled?: () => void;
    };
    const callId = ++nextCall;
    invocation.onCanceled = () => post({ type: "cancel", callId });
    outbox.push({
      callId,
      name,
      args,
      address: invocation.address,
      functionName: invocation.functionName,
      parameterAddresses: invocation.parameterAddresses,
    });
    if (outbox.length >= CALLS_PER_MESSAGE) flushCalls();
    else if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushCalls);
    }
    return new Promise((resolve, reject) => calls.set(callId, { resolve, reject }));
  };
  Object.defineProperty(stub, "length", { value: parameters + 1 });
  registry.register(name, stub);
}
fake.setFormulaEvaluator(calc.evaluator);

/** A returned value with its cell errors made the harness's errors again. */
function cellErrorsBack(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cellErrorsBack);
  if (value !== null && typeof value === "object" && "$cellError" in value) {
    const { code, message } = (value as { $cellError: { code: string; message: string } }).$cellError;
    return new HarnessCustomFunctionError(code, message);
  }
  return value;
}

function settle(results: Settlement[]): void {
  for (const result of results) {
    const call = calls.get(result.callId);
    if (!call) continue;
    calls.delete(result.callId);
    if ("error" in result) {
      const { code, message } = result.error;
      call.reject(code?.startsWith("#") ? new HarnessCustomFunctionError(code, message) : new Error(message));
    } else call.resolve(cellErrorsBack(result.value));
  }
}

function wireError(error: unknown): WireError {
  if (error instanceof FakeExcelError)
    return { code: error.code, message: error.message, location: error.debugInfo.errorLocation };
  const code = (error as { code?: unknown })?.code;
  return {
    code: typeof code === "string" ? code : undefined,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** An action's argument with the add-in's object references made the worker's objects. */
function resolveRefs(value: unknown, handles: Map<HandleId, unknown>): unknown {
  if (value === null || typeof value !== "object") return value;
  if ("$ref" in value) return handles.get((value as { $ref: HandleId }).$ref);
  return value;
}

/** The properties of an object that a load asked for (all it has loaded, for a bare load). */
function picked(object: unknown, option: unknown): Record<string, unknown> {
  const all = (object as { toJSON?: () => Record<string, unknown> }).toJSON?.() ?? {};
  const paths = loadPaths(option as LoadOption);
  if (paths.length === 0) return all;
  const props: Record<string, unknown> = {};
  for (const path of [...paths, "isNullObject"]) if (path in all) props[path] = all[path];
  return props;
}

/** Replays one action on the fake's proxies (which queue it in the run's context, as the add-in's call would). */
function replay(
  action: Action,
  handles: Map<HandleId, unknown>,
  loads: Array<{ id: HandleId; option: unknown }>,
  results: HandleId[],
): void {
  const of = handles.get(action.of) as Record<string, unknown>;
  if (of === undefined) throw new Error(`no object ${action.of}`);
  if (action.k === "get") handles.set(action.id, of[action.name]);
  else if (action.k === "call") {
    const method = of[action.name] as (...args: unknown[]) => unknown;
    const made = method.apply(
      of,
      action.args.map((a) => resolveRefs(a, handles)),
    );
    handles.set(action.id, made);
    // A ClientResult, or a null-object candidate, reports after the sync without a load.
    if (made instanceof FakeClientResult || action.name.endsWith("OrNullObject")) results.push(action.id);
  } else if (action.k === "set") of[action.name] = resolveRefs(action.value, handles);
  else {
    (of as { load(option: unknown): void }).load(action.option);
    loads.push({ id: action.of, option: action.option });
  }
}

/** Replays a batch, syncs it, and returns what it loaded. */
async function sync(runId: number, actionsJson: string): Promise<string> {
  const run = runs.get(runId);
  if (!run) throw new Error(`run ${runId} is not open`);
  const { handles } = run;
  const parsing = performance.now();
  const actions = JSON.parse(actionsJson) as Action[];
  const loads: Array<{ id: HandleId; option: unknown }> = [];
  const results: HandleId[] = [];
  applying++;
  try {
    try {
      for (const action of actions) replay(action, handles, loads, results);
    } catch (error) {
      // A call that throws at once throws before its batch is sent: nothing of this batch goes.
      (handles.get(0) as { queue: unknown[] }).queue = [];
      throw error;
    } finally {
      wireMs += performance.now() - parsing;
    }
    await (handles.get(0) as { sync(): Promise<void> }).sync();
  } finally {
    applying--;
  }
  const answering = performance.now();
  const deliveries: Delivery[] = [];
  for (const { id, option } of loads) {
    const object = handles.get(id);
    if (object instanceof FakeCollection) {
      const items = (object as unknown as { items: unknown[] }).items.map((item) => {
        const own = --run.nextOwn; // the worker's own handles are negative
        handles.set(own, item);
        return { id: own, props: picked(item, undefined) };
      });
      deliveries.push({ id, props: {}, items });
    } else deliveries.push({ id, props: picked(object, option) });
  }
  for (const id of results) {
    const made = handles.get(id);
    if (made instanceof FakeClientResult) {
      try {
        deliveries.push({ id, props: { value: made.value } });
      } catch {
        // not delivered (the sync failed part-way): reading it stays an error on the other side
      }
    } else deliveries.push({ id, props: picked(made, ["isNullObject"]) });
  }
  const json = JSON.stringify(deliveries);
  wireMs += performance.now() - answering;
  return json;
}

/** The bench's direct access to the workbook (what an analyst types, what the bench checks). */
const controls: Record<string, (...args: never[]) => unknown> = {
  addSheet: (name: string) => fake.addSheet(name),
  setValues: (sheet: string, address: string, values: unknown[][]) => fake.setValues(sheet, address, values),
  read: (sheet: string, address: string) => fake.read(sheet, address),
  sheetNames: () => fake.sheetNames(),
  usedAddress: (sheet: string) => fake.usedAddress(sheet),
  setSelection: (sheet: string, address: string) => fake.setSelection(sheet, address),
  recalculate: () => fake.recalculate(),
  resetSyncs: () => fake.resetSyncs(),
  setSyncCost: (cost: { roundTripMs: number; msPerByte: number }) => fake.setSyncCost(cost),
  syncWaitMs: () => fake.syncWaitMs(),
  syncCount: () => fake.syncs.length,
  syncsSince: (from: number) => fake.syncs.slice(from),
  calculationStretches: (from: number) => stretches.slice(from),
  calculationStretchCount: () => stretches.length,
  wireMs: () => wireMs,
  calls: () => calc.calls,
  /** Resolves once no formula is calculating (told by the engine, no polling). */
  calculated: () =>
    new Promise<void>((resolve) => {
      if (calc.busyCount === 0) return resolve();
      const stop = calc.onActivity(() => {
        if (calc.busyCount !== 0) return;
        stop();
        resolve();
      });
    }),
  /** This thread's live heap after a full collection (the workbook's, as Excel's process would hold it). */
  liveHeap: () => {
    (globalThis as { gc?: () => void }).gc?.();
    return getHeapStatistics().used_heap_size; // this thread's own V8 heap
  },
};

port.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "open": {
      let close!: () => void;
      const closed = new Promise<void>((resolve) => (close = resolve));
      const batch = async (context: unknown) => {
        runs.set(message.run, { handles: new Map([[0, context]]), close, nextOwn: 0 });
        await closed;
      };
      const opened = message.options === undefined ? fake.run(batch) : fake.Excel.run(message.options as never, batch);
      void opened.catch(() => undefined);
      return;
    }
    case "close":
      runs.get(message.run)?.close();
      runs.delete(message.run);
      return;
    case "sync":
      sync(message.run, message.actions).then(
        (deliveries) => post({ type: "synced", request: message.request, deliveries }),
        (error) => post({ type: "failed", request: message.request, error: wireError(error) }),
      );
      return;
    case "settled":
      settle(message.results);
      return;
    case "control":
      Promise.resolve()
        .then(() => controls[message.method](...(message.args as never[])))
        .then(
          (value) => post({ type: "answer", request: message.request, value }),
          (error) => post({ type: "failed", request: message.request, error: wireError(error) }),
        );
      return;
  }
});
post({ type: "ready" });
