import { EMULATOR_CONNECTION, checkConnection, type ConnectionConfig } from "../api/config";

/**
 * The connection store: the ONE place the RISK.* functions and the task pane read the service
 * connection from. It lives outside the workbook (OfficeRuntime.storage inside Office, else
 * localStorage, else memory), so the API key is never written into a document. Nothing here logs.
 *
 * With nothing stored, the connection is the local emulator's demo connection, so a new user sees
 * numbers at once: the build-time `__DEFAULT_SERVICE_URL__` when defined (resolved against the
 * page's origin when relative), else EMULATOR_CONNECTION.
 */

/** Where the connection is kept; the three Office/browser/memory stores all fit this shape. */
export interface ConnectionStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

const STORAGE_KEY = "climate-risk.connection";

/**
 * The store's state lives on globalThis under a registered symbol: when the functions and the task
 * pane are bundled as separate entries, each bundle has its own copy of this module, yet in the
 * shared runtime both must see one connection.
 */
interface StoreState {
  stored: ConnectionConfig | undefined;
  storage: ConnectionStorage | undefined;
  listeners: Set<(config: ConnectionConfig) => void>;
  /** Set by setConnectionRequired; undefined: the build decides. */
  required?: boolean;
}

const STATE_KEY = Symbol.for("climate-risk.connection-store");

function state(): StoreState {
  const holder = globalThis as { [STATE_KEY]?: StoreState };
  holder[STATE_KEY] ??= { stored: undefined, storage: undefined, listeners: new Set() };
  return holder[STATE_KEY];
}

/**
 * No connection at all: what a production build (no emulator behind it) uses until the user
 * saves one. Every call with it fails with NotConnectedError ("Open the Climate Risk pane to connect").
 */
export const NO_CONNECTION: Readonly<ConnectionConfig> = Object.freeze({ baseUrl: "", natureUrl: "", apiKey: "" });

/**
 * Whether a connection must be entered before anything works: true in a production build with no
 * default service URL (`__CONNECTION_REQUIRED__`), or when a test or host says so.
 */
export function connectionRequired(): boolean {
  const forced = state().required;
  if (forced !== undefined) return forced;
  return typeof __CONNECTION_REQUIRED__ !== "undefined" && __CONNECTION_REQUIRED__ === true;
}

/** Overrides {@link connectionRequired} (tests, the harness); `undefined` goes back to the build's setting. */
export function setConnectionRequired(required: boolean | undefined): void {
  state().required = required;
}

/** The connection used when none is stored: the emulator, through the dev server's proxy when built so. */
export function defaultConnection(): ConnectionConfig {
  if (connectionRequired()) return { ...NO_CONNECTION };
  const configured = typeof __DEFAULT_SERVICE_URL__ !== "undefined" ? __DEFAULT_SERVICE_URL__ : undefined;
  if (!configured) return { ...EMULATOR_CONNECTION };
  const origin = typeof location !== "undefined" ? location.origin : EMULATOR_CONNECTION.baseUrl;
  const baseUrl = new URL(configured, origin).toString().replace(/\/+$/, "");
  return {
    baseUrl,
    natureUrl: `${baseUrl}/nature`,
    apiKey: EMULATOR_CONNECTION.apiKey,
    project: EMULATOR_CONNECTION.project,
  };
}

/** The current connection, synchronously (the stored one, or the default). */
export function getConnection(): ConnectionConfig {
  return state().stored ?? defaultConnection();
}

/** True while no connection is stored and the default (emulator) connection is in use. */
export function isDefaultConnection(): boolean {
  return state().stored === undefined;
}

/** Reads the stored connection (once at start-up); a missing or unreadable entry means the default. */
export async function loadConnection(): Promise<ConnectionConfig> {
  let text: string | null;
  try {
    text = await currentStorage().getItem(STORAGE_KEY);
  } catch {
    text = null; // storage unavailable (private mode, blocked): keep the default
  }
  const before = getConnection();
  state().stored = text ? parseStored(text) : undefined;
  const after = getConnection();
  if (!sameConnection(before, after)) notify(after);
  return after;
}

/**
 * Validates (ConfigurationError when unusable: bad URL, plain http to another host, empty key),
 * stores and announces a connection. Returns it normalized.
 */
export async function saveConnection(config: ConnectionConfig): Promise<ConnectionConfig> {
  const checked = checkConnection(config);
  await currentStorage().setItem(STORAGE_KEY, JSON.stringify(checked));
  state().stored = checked;
  notify(checked);
  return checked;
}

/** Forgets the stored connection: back to the default (emulator) connection. */
export async function resetConnection(): Promise<ConnectionConfig> {
  await currentStorage().removeItem(STORAGE_KEY);
  state().stored = undefined;
  const config = getConnection();
  notify(config);
  return config;
}

/** Calls `listener` with the new connection after every change; returns the unsubscribe function. */
export function onConnectionChange(listener: (config: ConnectionConfig) => void): () => void {
  const { listeners } = state();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Replaces the storage (tests; a host with its own store). `undefined` goes back to choosing
 * OfficeRuntime.storage, localStorage or memory. Forgets the in-memory value too.
 */
export function useConnectionStorage(custom: ConnectionStorage | undefined): void {
  state().storage = custom;
  state().stored = undefined;
}

/** The storage the connection is kept in (the geocoder setting is kept beside it: geocoder-connection.ts). */
export function connectionStorage(): ConnectionStorage {
  return currentStorage();
}

function currentStorage(): ConnectionStorage {
  const current = state();
  current.storage ??= defaultKeyValueStorage();
  return current.storage;
}

/**
 * The add-in's persistent key-value store: OfficeRuntime.storage inside Office (shared by the
 * functions and the pane), else the browser's localStorage, else memory. The connection store and
 * the functions' last-good cache both keep their items here.
 */
export function defaultKeyValueStorage(): ConnectionStorage {
  const runtime = (globalThis as { OfficeRuntime?: typeof OfficeRuntime }).OfficeRuntime;
  if (runtime?.storage) {
    const officeStorage = runtime.storage;
    return {
      getItem: (key) => officeStorage.getItem(key),
      setItem: (key, value) => officeStorage.setItem(key, value),
      removeItem: (key) => officeStorage.removeItem(key),
    };
  }
  const local = (globalThis as { localStorage?: Storage }).localStorage;
  if (local) {
    return {
      getItem: async (key) => local.getItem(key),
      setItem: async (key, value) => local.setItem(key, value),
      removeItem: async (key) => local.removeItem(key),
    };
  }
  return memoryStorage();
}

/** A storage that forgets on reload: the last resort, and handy in tests. */
export function memoryStorage(): ConnectionStorage {
  const values = new Map<string, string>();
  return {
    getItem: async (key) => values.get(key) ?? null,
    setItem: async (key, value) => {
      values.set(key, value);
    },
    removeItem: async (key) => {
      values.delete(key);
    },
  };
}

function parseStored(text: string): ConnectionConfig | undefined {
  try {
    const value = JSON.parse(text) as Partial<ConnectionConfig>;
    if (typeof value.baseUrl !== "string" || typeof value.natureUrl !== "string" || typeof value.apiKey !== "string") {
      return undefined;
    }
    return checkConnection({
      baseUrl: value.baseUrl,
      natureUrl: value.natureUrl,
      apiKey: value.apiKey,
      project: typeof value.project === "string" ? value.project : undefined,
    });
  } catch {
    return undefined; // corrupt or no longer valid: fall back to the default rather than break every cell
  }
}

function sameConnection(a: ConnectionConfig, b: ConnectionConfig): boolean {
  return a.baseUrl === b.baseUrl && a.natureUrl === b.natureUrl && a.apiKey === b.apiKey && a.project === b.project;
}

function notify(config: ConnectionConfig): void {
  for (const listener of [...state().listeners]) {
    try {
      listener(config);
    } catch {
      // A failing listener must not stop the others, nor the save.
    }
  }
}
