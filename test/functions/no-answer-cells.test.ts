/**
 * RISK cells whose loads get no answer say why, as "Check the add-in" does: a service that answers
 * but not to the add-in's origin (CORS) is named with the origin to allow; one nothing answers for
 * reads "cannot reach" as before. A burst of failing cells sends ONE `no-cors` probe. Real HTTP on
 * 127.0.0.1; the browser's CORS rule is kept by corsFetch (Node's fetch keeps none).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setDefaultEngine } from "../../src/functions/engine/default-engine";
import { RiskEngine } from "../../src/functions/engine/engine";
import * as TypedRISK from "../../src/functions/functions";
import { createInvocation } from "../../testing/invocation";
import { corsFetch } from "../support/cors-fetch";
import { cellError, installCustomFunctionsStub } from "./support/custom-functions-stub";
import { asExcelCalls } from "./support/excel-calls";

const RISK = asExcelCalls(TypedRISK);
const PAGE = "https://addin.example.com";
const CORS_MESSAGE = `The risk service does not allow origin ${PAGE} (CORS): see Check the add-in`;
const UNREACHABLE_MESSAGE = "Cannot reach the risk service: open the Climate Risk pane to connect";

let uninstall: () => void;

beforeAll(() => {
  uninstall = installCustomFunctionsStub();
  // The page's origin, which the probe names as the one to allow.
  (globalThis as { location?: unknown }).location = { origin: PAGE };
});
afterAll(() => {
  setDefaultEngine(undefined);
  delete (globalThis as { location?: unknown }).location;
  uninstall();
});

/** The probe is the only request without an Origin: a `no-cors` GET (a load's requests are preflighted). */
const isProbe = (request: IncomingMessage) => request.headers.origin === undefined;

/**
 * A service that answers every request but never with Access-Control-Allow-Origin (so a page on
 * another origin gets no answer); `holdProbes` keeps the `no-cors` probes unanswered.
 */
async function startService(options: { holdProbes?: boolean } = {}) {
  const counts = { probes: 0, others: 0 };
  const server: Server = createServer((request, response) => {
    if (isProbe(request)) {
      counts.probes++;
      if (options.holdProbes) return; // never answered: the probe's time limit must end the wait
    } else counts.others++;
    response.writeHead(200, { "content-type": "application/json" }).end("[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, counts, close };
}

function engineFor(baseUrl: string, settings: { probeTimeoutMs?: number } = {}): RiskEngine {
  const engine = new RiskEngine({
    connection: { baseUrl, natureUrl: `${baseUrl}/nature`, apiKey: "key", project: "demo" },
    fetch: corsFetch(PAGE),
    maxRetries: 0,
    ...settings,
  });
  setDefaultEngine(engine);
  return engine;
}

/** `count` cells each reading a different point, recalculated together. */
function burstOfCells(count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      cellError(
        RISK.search(50 + i / 1000, 1, "flood_potential", "30yr", null as never, null as never, createInvocation()),
      ),
    ),
  );
}

test("a service that does not allow the add-in's origin: 300 cells fail together, one probe, each names the origin", async () => {
  const service = await startService();
  try {
    const engine = engineFor(service.url);
    const errors = await burstOfCells(300);
    expect(new Set(errors.map((e) => JSON.stringify(e)))).toEqual(
      new Set([JSON.stringify({ code: "#N/A", message: CORS_MESSAGE })]),
    );
    expect(service.counts.others).toBeGreaterThanOrEqual(300); // every load tried (its preflight was refused)
    expect(service.counts.probes).toBe(1);

    // The next recalculation, within the probe's keeping time, is worded without a new probe.
    engine.refresh();
    expect((await burstOfCells(50))[0]).toEqual({ code: "#N/A", message: CORS_MESSAGE });
    expect(service.counts.probes).toBe(1);
  } finally {
    await service.close();
  }
});

test("nothing listening: the cells read 'cannot reach' as before", async () => {
  const closed = await startService();
  await closed.close();
  engineFor(closed.url);
  const errors = await burstOfCells(20);
  expect(errors).toEqual(Array.from({ length: 20 }, () => ({ code: "#N/A", message: UNREACHABLE_MESSAGE })));
});

test("a probe that gets no answer: the cells wait no longer than its time limit, and read 'cannot reach'", async () => {
  const service = await startService({ holdProbes: true });
  try {
    engineFor(service.url, { probeTimeoutMs: 300 });
    const started = Date.now();
    const errors = await burstOfCells(20);
    const waited = Date.now() - started;
    expect(errors).toEqual(Array.from({ length: 20 }, () => ({ code: "#N/A", message: UNREACHABLE_MESSAGE })));
    expect(service.counts.probes).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(5_000); // the default limit would have been 5 s
  } finally {
    await service.close();
  }
});
