/**
 * The one way tests start an emulator and read what crossed the wire: `startTestEmulator` (an
 * in-process emulator on a free port, quiet) and `startTestService` (the same with the demo
 * connection, a client and the request counters). Every other test support module builds on these
 * two instead of calling `startEmulator` with its own defaults.
 */
import { RiskClient, type ConnectionConfig, type TransportOptions } from "../../src/api";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator/server";
import { startGeocoder, type GeocoderOptions, type RunningGeocoder } from "../../emulator/geocoder/server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";

/** The demo connection's key and project as request headers, for calls made outside a client. */
export const DEMO_HEADERS: Readonly<Record<string, string>> = {
  "X-Service-APIKey": DEMO_API_KEY,
  "X-Service-Project": DEMO_PROJECT,
};

/**
 * How long the test emulator takes to process an imported portfolio unless a test says otherwise:
 * long enough that "processing" is a state a test can see, short enough not to slow the suite.
 */
export const TEST_PROCESSING_DELAY_MS = 150;

/** Starts an emulator in this process on a free port, quietly, with short portfolio processing. */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, quiet: true, processingDelayMs: TEST_PROCESSING_DELAY_MS, ...options });
}

/** The demo connection (the vocabulary's key and project) to a running emulator. */
export function demoConnection(emulator: RunningEmulator): ConnectionConfig {
  return { baseUrl: emulator.baseUrl, natureUrl: emulator.natureUrl, apiKey: DEMO_API_KEY, project: DEMO_PROJECT };
}

/** The emulator's request counters, as `/__emulator/stats` reports them. */
export interface EmulatorStats {
  total: number;
  /** `METHOD /route/pattern` → count, e.g. `POST /api/portfolios`. */
  routes: Record<string, number>;
  faults: { "429": number; "503": number };
}

const baseOf = (target: RunningEmulator | string): string => (typeof target === "string" ? target : target.url);

/** Reads an emulator's request counters. */
export async function emulatorStats(target: RunningEmulator | string): Promise<EmulatorStats> {
  const response = await fetch(`${baseOf(target)}/__emulator/stats`);
  if (!response.ok) throw new Error(`GET /__emulator/stats answered ${response.status}`);
  return (await response.json()) as EmulatorStats;
}

/** Sets an emulator's request counters back to zero. */
export async function resetEmulatorStats(target: RunningEmulator | string): Promise<void> {
  await fetch(`${baseOf(target)}/__emulator/stats/reset`, { method: "POST" });
}

/**
 * Requests to one route, e.g. `routeCount(stats, "GET /api/search")` or
 * `routeCount(stats, "GET", "/api/search")`; a trailing slash does not matter.
 */
export function routeCount(stats: Pick<EmulatorStats, "routes">, methodOrKey: string, route?: string): number {
  const wanted = (route === undefined ? methodOrKey : `${methodOrKey} ${route}`).replace(/\/+$/, "");
  return Object.entries(stats.routes)
    .filter(([key]) => key.replace(/\/+$/, "") === wanted)
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Requests of any of the given methods (e.g. every write: POST, PUT, DELETE). */
export function methodCount(stats: Pick<EmulatorStats, "routes">, methods: string[]): number {
  return Object.entries(stats.routes)
    .filter(([key]) => methods.includes(key.split(" ")[0]))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Sum of the counts of routes whose key starts with `prefix` (e.g. "POST "). */
export function routesStartingWith(stats: Pick<EmulatorStats, "routes">, prefix: string): number {
  return Object.entries(stats.routes).reduce((sum, [route, n]) => (route.startsWith(prefix) ? sum + n : sum), 0);
}

/** A started emulator with the demo connection, a client of it and its request counters. */
export interface TestService {
  emulator: RunningEmulator;
  connection: ConnectionConfig;
  /** A client of the demo connection: no retries, 10 s timeout. */
  client: RiskClient;
  /** Another client of the demo connection with these transport options (e.g. retries on). */
  clientWith(options: TransportOptions): RiskClient;
  stats(): Promise<EmulatorStats>;
  /** Requests per route since the last `resetStats`, service routes only (no `/__emulator/`). */
  routes(): Promise<Record<string, number>>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a test emulator (startTestEmulator) with the demo connection, a client and its counters. */
export async function startTestService(options: EmulatorOptions = {}): Promise<TestService> {
  const emulator = await startTestEmulator(options);
  const connection = demoConnection(emulator);
  const clientWith = (transport: TransportOptions) =>
    new RiskClient(connection, { maxRetries: 0, timeoutMs: 10_000, ...transport });
  return {
    emulator,
    connection,
    client: clientWith({}),
    clientWith,
    stats: () => emulatorStats(emulator),
    async routes() {
      const { routes } = await emulatorStats(emulator);
      return Object.fromEntries(Object.entries(routes).filter(([route]) => !route.includes("/__emulator/")));
    },
    resetStats: () => resetEmulatorStats(emulator),
    close: () => emulator.close(),
  };
}

/**
 * The one set-up of a test file that talks to a service: starts it before the file's tests
 * (beforeAll), closes it after them (afterAll), and returns a view whose fields read the started
 * value, so tests write `service.client` where each file used to keep its own `let` variables.
 * Reading a field before the file's tests start (at module load) throws, saying so.
 */
export function startedForTheseTests<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  return new Proxy({} as T, {
    get(_target, field) {
      if (!started) throw new Error(`the test service is read (${String(field)}) before beforeAll started it`);
      return started[field as keyof T];
    },
  });
}

/** A test service (startTestService) for the tests of this file: started before them, closed after. */
export function useTestService(options: EmulatorOptions = {}): TestService {
  return startedForTheseTests(() => startTestService(options));
}

/** A test emulator (startTestEmulator) for the tests of this file: started before them, closed after. */
export function useTestEmulator(options: EmulatorOptions = {}): RunningEmulator {
  return startedForTheseTests(() => startTestEmulator(options));
}

/** Starts the geocoder stand-in (emulator/geocoder) in this process on a free port. */
export function startTestGeocoder(options: GeocoderOptions = {}): Promise<RunningGeocoder> {
  return startGeocoder({ port: 0, ...options });
}
