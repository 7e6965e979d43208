/**
 * The messages between the benchmark's thread (the add-in) and the worker thread that holds the
 * fake workbook (Excel). A batch travels as Office.js sends one: a JSON list of actions on object
 * paths, answered by the loaded properties; the worker replays it against the fake's own proxies.
 */

/** A handle of an API object in the worker: the context is 0; the add-in's side numbers what it creates. */
export type HandleId = number;

/** One action of a batch, in the order the add-in made it. */
export type Action =
  /** `id` is the property `name` of object `of` (a navigation: `context.workbook`, `range.format`). */
  | { k: "get"; id: HandleId; of: HandleId; name: string }
  /** `id` is what method `name` of object `of` returned (an API object or a ClientResult). */
  | { k: "call"; id: HandleId; of: HandleId; name: string; args: unknown[] }
  /** Property `name` of object `of` is set. */
  | { k: "set"; of: HandleId; name: string; value: unknown }
  /** Object `of` is loaded with `option` (any form `load` takes). */
  | { k: "load"; of: HandleId; option: unknown };

/** An API object inside an argument or a set value. */
export interface HandleRef {
  $ref: HandleId;
}

/** What a sync delivers for one object: its loaded properties, and a collection's items. */
export interface Delivery {
  id: HandleId;
  props: Record<string, unknown>;
  items?: Array<{ id: HandleId; props: Record<string, unknown> }>;
}

/** An error as it crosses the threads (Excel's errors keep their code and location). */
export interface WireError {
  code?: string;
  message: string;
  location?: string;
}

/** A RISK function call the worker's calculation engine asks the add-in's side to make. */
export interface Invocation {
  callId: number;
  name: string;
  args: unknown[];
  address: string;
  functionName: string;
  parameterAddresses?: string[];
}

/** How a function call ended. A cell error (returned, thrown, or an element of an array) is `{ $cellError }`. */
export type Settlement = { callId: number; value: unknown } | { callId: number; error: WireError };

/** A cell error inside a returned value. */
export interface WireCellError {
  $cellError: { code: string; message: string };
}

/** Add-in's side → worker. */
export type ToWorker =
  | { type: "open"; run: number; options?: unknown }
  | { type: "sync"; run: number; request: number; actions: string }
  | { type: "close"; run: number }
  | { type: "settled"; results: Settlement[] }
  | { type: "control"; request: number; method: string; args: unknown[] };

/** Worker → add-in's side. */
export type FromWorker =
  | { type: "synced"; request: number; deliveries: string }
  | { type: "failed"; request: number; error: WireError }
  | { type: "invoke"; calls: Invocation[] }
  | { type: "cancel"; callId: number }
  | { type: "answer"; request: number; value: unknown }
  | { type: "ready" };

/** The worker's start-up data: which RISK functions exist, and how many parameters each declares. */
export interface WorkerInit {
  functions: Array<{ name: string; parameters: number }>;
}
