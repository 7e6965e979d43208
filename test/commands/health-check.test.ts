/**
 * "Check the add-in" without Office: the report names every requirement set with what stops
 * working without it, never carries the key, and each service URL is probed over real HTTP on
 * 127.0.0.1 with the key: its status, latency and the server's clock where the Date header is
 * exposed to the page ("not available" where it is not).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { RunningEmulator } from "../../emulator/server";
import { readManifestSets } from "../requirements/api-sets";
import { corsFetch } from "../support/cors-fetch";
import { demoConnection, startTestEmulator } from "../support/emulator";
import {
  REQUIREMENT_SETS,
  describeClockOffset,
  formatHealthReport,
  probeServices,
  type HealthFacts,
} from "../../src/commands/health-check";

const KEY = "sk-live-0123456789abcdef";

function facts(overrides: Partial<HealthFacts> = {}): HealthFacts {
  return {
    version: "0.1.0",
    build: "production",
    host: "Excel",
    platform: "OfficeOnline",
    sets: REQUIREMENT_SETS.map((set) => ({ ...set, present: !(set.name === "RibbonApi") })),
    declaredFunctions: ["SEARCH", "SUMMARY"],
    associatedFunctions: ["SEARCH"],
    associatedCommands: ["refreshSelection", "openBuilder"],
    ribbon: { contextual: false },
    shortcuts: { source: "file", keys: { refreshSelection: "Ctrl+Alt+Shift+1" } },
    storage: { writable: true, where: "OfficeRuntime.storage" },
    connection: {
      baseUrl: `https://risk.example.com/${KEY}`,
      natureUrl: "https://risk.example.com/nature",
      project: "demo",
      keySet: true,
      isDefault: false,
    },
    services: [
      {
        name: "Risk service",
        url: "https://risk.example.com/api/projects/",
        status: 401,
        latencyMs: 120,
        error: `Unauthorized for key ${KEY}`,
        serverDate: null,
        clockOffsetMs: null,
      },
    ],
    cache: { memoryEntries: 12, persistentEntries: 40, persistentChars: 20480, staleCells: 2 },
    checkedAt: "2026-11-25T08:00:00.000Z",
    ...overrides,
  };
}

describe("the check's report", () => {
  it("says each requirement set's state and, for a missing one, what stops working", () => {
    const text = formatHealthReport(facts(), [KEY]);
    expect(text).toContain("SharedRuntime 1.1: present (declared)");
    expect(text).toMatch(/RibbonApi 1\.1: MISSING \(checked at run time\): Restore formulas and Explain stay enabled/);
    expect(text).toContain("NOT associated: SUMMARY (cells show #NAME?)");
    expect(text).toContain("HTTP 401 in 120 ms");
    expect(text).toContain("not available (the service does not expose its Date header to the page)");
    expect(text).toContain("Last good values kept: 40 (20 K characters)");
  });

  it("never carries the API key, wherever it would have appeared", () => {
    const text = formatHealthReport(facts(), [KEY]);
    expect(text).not.toContain(KEY);
    expect(text).toContain("API key: set (not shown)");
  });

  it("lists every set the manifest declares as declared, and no declared set it lacks", () => {
    const declared = readManifestSets(path.resolve(__dirname, "../.."));
    for (const set of declared) {
      expect(REQUIREMENT_SETS).toContainEqual(expect.objectContaining({ ...set, declared: true }));
    }
    expect(REQUIREMENT_SETS.filter((s) => s.declared)).toHaveLength(declared.length);
  });

  it("puts clock differences in words, ignoring the Date header's whole seconds", () => {
    expect(describeClockOffset(900)).toBe("in step with this machine (within 2 s)");
    expect(describeClockOffset(-5_000)).toBe("5 s behind this machine");
    expect(describeClockOffset(600_000)).toBe("10 min ahead of this machine");
  });
});

describe("probing the service URLs", () => {
  let server: Server;
  let base: string;
  const seen: { url?: string; key?: string | string[] }[] = [];
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      seen.push({ url: request.url, key: request.headers["x-service-apikey"] });
      if (request.url === "/api/projects/") {
        // Ten minutes ahead, and exposed to the page as a cross-origin service must for the check to read it.
        response.setHeader("Date", new Date(Date.now() + 600_000).toUTCString());
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify([{ id: "demo", name: "demo" }]));
      } else {
        response.statusCode = 401;
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify({ detail: "bad key" }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reports status, latency and clock for each URL, sending the key in its header only", async () => {
    const probes = await probeServices({ baseUrl: base, natureUrl: `${base}/nature`, apiKey: KEY, project: "demo" });
    expect(probes[0]).toMatchObject({ status: 200, url: `${base}/api/projects/` });
    expect(probes[0].latencyMs).toBeGreaterThanOrEqual(0);
    expect(probes[0].clockOffsetMs! / 1000).toBeGreaterThan(595);
    expect(probes[0].clockOffsetMs! / 1000).toBeLessThan(605);
    expect(probes[1]).toMatchObject({ status: 401, url: `${base}/nature/superprojects` });
    expect(probes[1].error).toBeTruthy();
    expect(seen.every((request) => request.key === KEY && !request.url!.includes(KEY))).toBe(true);
    expect(seen).toHaveLength(2); // no retries
  });

  it("says no answer came from a URL nothing listens on", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const [probe] = await probeServices({
      baseUrl: `http://127.0.0.1:${port}`,
      natureUrl: `http://127.0.0.1:${port}/nature`,
      apiKey: KEY,
    });
    expect(probe).toMatchObject({ status: null, latencyMs: null, clockOffsetMs: null });
    expect(probe.error).toMatch(/^cannot reach the service at 127\.0\.0\.1:\d+: /);
  });
});

describe("a service that does not answer the add-in's origin", () => {
  const PAGE = "https://addin.example.com";
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ allowedOrigins: ["https://someone-else.example.com"] });
  });
  afterAll(() => emu.close());

  it("is reported as reachable but not answering this origin (CORS), naming the origin to allow", async () => {
    const probes = await probeServices(demoConnection(emu), { fetch: corsFetch(PAGE), origin: PAGE });
    for (const probe of probes) {
      expect(probe.status).toBeNull();
      expect(probe.error).toBe(
        `the service at ${new URL(emu.baseUrl).host} is reachable but does not answer this add-in's origin, ${PAGE} (CORS): ` +
          `use a same-origin path or ask the provider to allow ${PAGE}`,
      );
    }
  });
});
