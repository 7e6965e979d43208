/**
 * Drill: a server that resets connections, sends malformed JSON, answers HTML error pages, stalls
 * after the headers or never answers. The client maps each to its error class; RISK cells settle
 * to an error value with a message within their time limit; task pane errors read as sentences.
 */
import {
  InvalidResponseError,
  NetworkError,
  RiskClient,
  ServerError,
  TimeoutError,
  type ServiceError,
} from "../../src/api";
import { RiskEngine, evaluateCells, setDefaultEngine, type FormulaCall } from "../../testing/evaluate-cells";
import { describeError } from "../../src/taskpane/ui/describe-error";
import { startFaultyServer, type FaultMode, type FaultyServer } from "../support/faulty-server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { recordFigures } from "./support/figures";

const TIMEOUT_MS = 400;
/**
 * The time limit of a call whose fault is not silence: long enough that a loaded machine (browser
 * tests beside this one) sees the reset or the bad answer before it, as a person's machine would.
 * With 400 ms, a reset once read as a timeout in a full `npm test`.
 */
const ANSWERED_TIMEOUT_MS = 10 * TIMEOUT_MS;
let server: FaultyServer;

beforeAll(async () => {
  server = await startFaultyServer();
});
afterAll(async () => {
  setDefaultEngine(undefined);
  await server.close();
});

function connection() {
  return { baseUrl: server.url, natureUrl: `${server.url}/nature`, apiKey: DEMO_API_KEY, project: DEMO_PROJECT };
}

const CASES: ReadonlyArray<[FaultMode, new (...args: never[]) => ServiceError, RegExp]> = [
  ["reset", NetworkError, /could not reach the service/],
  ["malformed-json", InvalidResponseError, /not valid JSON/],
  ["html-error", ServerError, /HTTP 502.*Bad Gateway/],
  ["stall-after-headers", TimeoutError, /no answer within 400 ms/],
  ["never-answer", TimeoutError, /no answer within 400 ms/],
];

const figures: Record<string, unknown> = {};
afterAll(() => recordFigures("faulty-server", figures));

describe.each(CASES)("a server that answers %s", (mode, ErrorClass, message) => {
  beforeEach(() => server.setMode(mode, { status: 502 }));

  test("every client call fails with its error class and a message naming the operation", async () => {
    const timeoutMs = ErrorClass === TimeoutError ? TIMEOUT_MS : ANSWERED_TIMEOUT_MS;
    const client = new RiskClient(connection(), { timeoutMs, maxRetries: 2, baseRetryDelayMs: 10 });
    const before = server.requests.length;
    const started = performance.now();
    // Settled at once, so no rejection waits unhandled while another is checked.
    const failure = (call: Promise<unknown>) =>
      call.then(
        () => undefined,
        (e: unknown) => e,
      );
    const calls: Array<[string, Promise<unknown>]> = [
      ["search.point", failure(client.search.point(51.5, -0.12))],
      ["portfolios.list", failure(client.portfolios.list())],
      ["datasets.summary", failure(client.datasets.summary("demo-portfolio").all({ readAhead: 4 }))],
      ["portfolios.create", failure(client.portfolios.create("never_made"))],
    ];
    for (const [operation, call] of calls) {
      const error = await call;
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as ServiceError).operation).toBe(operation);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(DEMO_API_KEY);
      // The pane shows a sentence chosen by class, never an empty box.
      expect(describeError(error).title.length).toBeGreaterThan(10);
    }
    const ms = Math.round(performance.now() - started);
    const sent = server.requests.slice(before);
    // A POST is sent once, whatever the fault; each GET at most 1 + maxRetries times (the summary
    // reads up to 4 pages at once).
    expect(sent.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(sent.filter((r) => r.method === "GET").length).toBeLessThanOrEqual((1 + 2) * (1 + 1 + 4));
    figures[mode] = { ...(figures[mode] as object), clientRequests: sent.length, clientMs: ms };
  });

  test("RISK cells settle to #N/A with a message within the time limit, none stays pending", async () => {
    const engine = new RiskEngine({
      connection: connection(),
      timeoutMs: TIMEOUT_MS,
      maxRetries: 1,
      baseRetryDelayMs: 10,
      deadlineMs: 3_000,
    });
    setDefaultEngine(engine);
    const cells: FormulaCall[] = [
      { fn: "SEARCH", args: [51.5, -0.12, "floods", "30yr"] },
      { fn: "SEARCH", args: [48.85, 2.35, "", ""] },
      { fn: "SUMMARY", args: ["demo-portfolio", 0, "flood_potential"] },
      { fn: "METRIC", args: ["demo-portfolio", 0, "ssp585", "flood", "structural_damage_2050"] },
      { fn: "TIMESERIES", args: ["demo-portfolio", 0, "wildfire", "ssp585"] },
      { fn: "PROJECTS", args: [] },
      { fn: "PORTFOLIOS", args: [] },
      { fn: "ASSETS", args: ["demo-portfolio"] },
      { fn: "LAYER", args: [1, "demo-portfolio", 0] },
      { fn: "NATURE", args: ["Kapuas", "seismic_baseline_mean"] },
    ];
    const started = performance.now();
    const pending = Symbol("pending");
    const results = await Promise.race([
      evaluateCells(cells),
      new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), 8_000).unref()),
    ]);
    const ms = Math.round(performance.now() - started);
    expect(results).not.toBe(pending);
    const settled = results as Awaited<ReturnType<typeof evaluateCells>>;
    for (const [i, result] of settled.entries()) {
      expect([cells[i].fn, "error" in result]).toEqual([cells[i].fn, true]);
      if ("error" in result) {
        expect(result.error.code).toBe("#N/A");
        expect(result.error.message).toMatch(/risk service|reach|answer/i);
        expect(result.error.message).not.toContain(DEMO_API_KEY);
      }
    }
    expect(engine.stats().inFlight).toBe(0);
    figures[mode] = {
      ...(figures[mode] as object),
      cells: cells.length,
      cellsSettledMs: ms,
      cellMessage: "error" in settled[0] ? settled[0].error.message : "",
    };
  });
});

test("the same calls succeed once the server answers properly again (nothing stays broken)", async () => {
  server.setMode("ok");
  const client = new RiskClient(connection(), { timeoutMs: TIMEOUT_MS, maxRetries: 0 });
  await expect(client.portfolios.list()).resolves.toEqual([]);
});
