/**
 * Drill: no key can stall another through the size of its input (docs/reliability.md). Every route
 * of the emulator's one route table declares the bounds of its largest input (`largestInput`); for
 * each, one key sends the largest input the route accepts and one past a bound, while another key's
 * searches run. The other key's searches must answer within 250 ms at the 95th percentile, every
 * too-large request must get a readable 4xx `{errors}`, and the emulator must answer afterwards.
 * An oversized body (JSON and multipart CSV, with and without Content-Length) must be answered
 * 413 to Node's fetch and to a raw-socket client that keeps writing.
 *
 * The emulator runs in a process of its own, so the searches time its thread only, not this
 * test's (which builds the multi-megabyte bodies); answers are counted and discarded as they
 * arrive, only their first 64 KB kept.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BODY_LIMIT, MAX_INPUT_LAYERS } from "../../emulator/http/json-limits";
import { MAX_ASSETS } from "../../emulator/assets/asset-csv";
import { MAX_HEADER_BYTES, MAX_PATH_SEGMENT, routeBodyLimit, ROUTES, type RouteDef } from "../../emulator/http/routes";
import { operationIdOf } from "../../emulator/http/openapi";
import { MAX_ROWS } from "../../emulator/http/request-context";
import { DEMO_SUBPROJECT_ID } from "../../emulator/state/seed";
import { DEMO_HEADERS } from "../support/emulator";
import { recordFigures } from "./support/figures";

const OTHER = { "X-Service-APIKey": "other-key", "X-Service-Project": "other" };
const NATURE = { ...DEMO_HEADERS, "X-Service-Project": "nc-demo" };
const BUDGET_MS = 250;
/** Searches of the other key that must overlap each route's requests (the p95 is over these). */
const MIN_SAMPLES = 20;
/** Between two searches of one search loop (two loops run). */
const SEARCH_SPACING_MS = 15;
/** Bytes of a download the drill reads before it closes the connection. */
const DOWNLOAD_READ_BYTES = 16 * 1024 * 1024;

let child: ChildProcess;
let base = "";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first 64 KB of the body. */
  head: string;
  bytes: number;
  ms: number;
}

interface Send {
  headers?: Record<string, string>;
  body?: Buffer;
  contentType?: string;
  /** Without Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** Read at most this many bytes of the answer, then close the connection (a download stops). */
  maxBytes?: number;
}

/** One request on a connection of its own; the answer is counted, its first 64 KB kept. */
function send(method: string, route: string, options: Send = {}): Promise<Answer> {
  const started = performance.now();
  const headers: Record<string, string | number> = { ...DEMO_HEADERS, ...options.headers };
  if (options.contentType) headers["Content-Type"] = options.contentType;
  if (options.body && !options.chunked) headers["Content-Length"] = options.body.length;
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${base}${route}`, { method, headers, agent: false }, (res) => {
      let head = "";
      let bytes = 0;
      const done = () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, head, bytes, ms: performance.now() - started });
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < 65_536) head += chunk.toString("utf8", 0, Math.min(chunk.length, 65_536));
        if (options.maxBytes !== undefined && bytes >= options.maxBytes) {
          req.destroy();
          done();
        }
      });
      res.on("end", done);
      res.on("error", reject);
    });
    req.on("error", (e) => (options.maxBytes !== undefined ? undefined : reject(e)));
    const body = options.body;
    if (!body) return req.end();
    // Written in pieces, so a chunked body really arrives in chunks.
    let at = 0;
    const next = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 256 * 1024);
        at += piece.length;
        if (!req.write(piece)) return void req.once("drain", next);
      }
      req.end();
    };
    next();
  });
}

const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)), contentType: "application/json" });

/** A multipart form of plain fields and one file part, as bytes. */
function multipart(fields: Record<string, string>, file: { name: string; filename: string; text: Buffer }): Send {
  const boundary = "----drill-limits";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
  return {
    body: Buffer.concat([Buffer.from(parts.join("") + fileHead), file.text, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A FeatureCollection of points whose JSON is just under `bytes`. */
function pointLayerOf(bytes: number): Buffer {
  const features: string[] = [];
  let size = 40;
  for (let i = 0; ; i++) {
    const f =
      `{"type":"Feature","geometry":{"type":"Point","coordinates":[${((i * 7.31) % 358) - 179},` +
      `${((i * 3.17) % 170) - 85}]},"properties":{"loss":${i},"site":"site ${i}"}}`;
    if (size + f.length + 1 > bytes) break;
    size += f.length + 1;
    features.push(f);
  }
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(",")}]}`);
}

/** A sub-project FeatureCollection of small square polygons whose JSON is just under `bytes`. */
function polygonLayerOf(bytes: number): Buffer {
  const features: string[] = [];
  let size = 40;
  for (let i = 0; ; i++) {
    const x = ((i * 0.37) % 300) - 150;
    const y = ((i * 0.23) % 140) - 70;
    const f =
      `{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[${x},${y}],[${x + 0.1},${y}],` +
      `[${x + 0.1},${y + 0.1}],[${x},${y}]]]},"properties":{"Entity Name":"block ${i}","Type":"Forest"}}`;
    if (size + f.length + 1 > bytes) break;
    size += f.length + 1;
    features.push(f);
  }
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(",")}]}`);
}

/** An asset CSV of `rows` rows, each padded so the file is about `bytes`. */
function assetCsv(rows: number, bytes = 0): Buffer {
  const pad = "p".repeat(Math.max(1, Math.floor(bytes / rows) - 40));
  const lines = ["entity_id,entity_name,lat,lng,label:note"];
  for (let i = 0; i < rows; i++)
    lines.push(
      `A${i},asset ${i},${(((i * 3.7) % 170) - 85).toFixed(2)},${(((i * 7.1) % 350) - 175).toFixed(2)},${pad}`,
    );
  return Buffer.from(lines.join("\n"));
}

/** A body `by` bytes over `limit`: a JSON object with one long string. */
const overLimitJson = (limit: number, by = 1024) => json({ name: "too-large", pad: "x".repeat(limit + by) });

const segment = (n: number) => "s".repeat(n);
/** Headers of the request just within the limit (the request line and the other headers take the rest). */
const bigHeaders = (bytes: number) => ({ "X-Padding": "h".repeat(bytes) });

interface Case {
  /** The largest input the route accepts, and the statuses it may answer. */
  largest(): Promise<Answer>;
  largestStatus: number[];
  /** An input past one of the route's bounds, and the 4xx it must answer. */
  tooLarge(): Promise<Answer>;
  tooLargeStatus: number;
}

const P = "/api/portfolios";
const C = "/api/compositions";
/** Names of what the set-up stores (the 5,000-asset portfolio, the ~10 MB layer, the 16-layer UDF). */
let bigVectorId = 0;
let wideUdfId = 0;

const pathCase = (url: (s: string) => string, largestStatus: number[], method = "GET"): Case => ({
  largest: () => send(method, url(segment(MAX_PATH_SEGMENT))),
  largestStatus,
  tooLarge: () => send(method, url(segment(MAX_PATH_SEGMENT + 1))),
  tooLargeStatus: 414,
});
const headerCase = (url: string, largestStatus = [200], headers: Record<string, string> = DEMO_HEADERS): Case => ({
  largest: () => send("GET", url, { headers: { ...headers, ...bigHeaders(MAX_HEADER_BYTES - 1024) } }),
  largestStatus,
  tooLarge: () => send("GET", url, { headers: { ...headers, ...bigHeaders(MAX_HEADER_BYTES + 1024) } }),
  tooLargeStatus: 431,
});
/**
 * A route reading the 5,000-asset portfolio; a portfolio name over the segment limit is too large.
 * A download is read for its first DOWNLOAD_READ_BYTES (the 5,000-asset item download is ~190 MB
 * a hazard): it is produced as it is read, so the rest would cost the same per slice, only longer.
 */
const portfolioCase = (suffix: string, largestStatus = [200]): Case => ({
  largest: () => send("GET", `${P}/five${suffix}`, { maxBytes: DOWNLOAD_READ_BYTES }),
  largestStatus,
  tooLarge: () => send("GET", `${P}/${segment(MAX_PATH_SEGMENT + 1)}${suffix}`),
  tooLargeStatus: 414,
});
/** A paged list of the 5,000-asset portfolio: its last page of the most rows, then one row more. */
const pagedCase = (suffix: string, query = ""): Case => ({
  largest: () => send("GET", `${P}/five${suffix}?rows=${MAX_ROWS}&page=${MAX_ASSETS / MAX_ROWS}${query}`),
  largestStatus: [200],
  tooLarge: () => send("GET", `${P}/five${suffix}?rows=${MAX_ROWS + 1}${query}`),
  tooLargeStatus: 400,
});

const udfBody = (name: string, layers: number) =>
  json({
    name,
    equation: {
      inputLayers: Array.from({ length: layers }, () => "big"),
      operation: `.big.loss${" ".repeat(20_000 - 9)}`,
      scope: "feature",
    },
  });

/** Bodies are built once, before the timing, so building them never delays the searches. */
const bodies: Record<string, Send> = {};

const CASES: Record<string, Case> = {
  addVector: {
    largest: () => send("POST", `${C}/vector`, bodies.vectorJson),
    largestStatus: [201],
    tooLarge: () => send("POST", `${C}/vector`, bodies.overJson),
    tooLargeStatus: 413,
  },
  listVectors: headerCase(`${C}/vector`),
  updateVector: {
    largest: () => send("PUT", `${C}/vector`, bodies.vectorForm),
    largestStatus: [200],
    tooLarge: () => send("PUT", `${C}/vector`, bodies.overForm),
    tooLargeStatus: 413,
  },
  findVectorById: {
    largest: () => send("GET", `${C}/vector/${bigVectorId}`),
    largestStatus: [200],
    tooLarge: () => send("GET", `${C}/vector/${segment(MAX_PATH_SEGMENT + 1)}`),
    tooLargeStatus: 414,
  },
  deleteVector: pathCase((s) => `${C}/vector/${s}`, [404], "DELETE"),
  applyVector: {
    largest: () => send("GET", `${C}/vector/${bigVectorId}/apply?portfolio=five`),
    largestStatus: [200],
    tooLarge: () => send("GET", `${C}/vector/${segment(MAX_PATH_SEGMENT + 1)}/apply?portfolio=five`),
    tooLargeStatus: 414,
  },
  addUdf: {
    largest: () => send("POST", `${C}/udf`, bodies.udf16),
    largestStatus: [201],
    tooLarge: () => send("POST", `${C}/udf`, bodies.udf17),
    tooLargeStatus: 422,
  },
  listUdfs: headerCase(`${C}/udf`),
  updateUdf: {
    largest: () => send("PUT", `${C}/udf`, bodies.udf16),
    largestStatus: [200],
    tooLarge: () => send("PUT", `${C}/udf`, bodies.udf17),
    tooLargeStatus: 422,
  },
  findUdfById: pathCase((s) => `${C}/udf/${s}`, [404]),
  deleteUdf: pathCase((s) => `${C}/udf/${s}`, [404], "DELETE"),
  activateUdf: {
    largest: () => send("GET", `${C}/udf/${wideUdfId}/activate`),
    largestStatus: [200, 422],
    tooLarge: () => send("GET", `${C}/udf/${segment(MAX_PATH_SEGMENT + 1)}/activate`),
    tooLargeStatus: 414,
  },
  runUdf: {
    largest: () => send("GET", `${C}/udf/${wideUdfId}/run`),
    largestStatus: [200, 422],
    tooLarge: () => send("GET", `${C}/udf/${segment(MAX_PATH_SEGMENT + 1)}/run`),
    tooLargeStatus: 414,
  },
  listProjects: headerCase("/api/projects/"),
  listPortfolios: headerCase(`${P}/`),
  createPortfolio: {
    largest: () => send("POST", `${P}/`, json({ portfolio_name: `p${Date.now().toString(36)}`.padEnd(30, "x") })),
    largestStatus: [201],
    tooLarge: () => send("POST", `${P}/`, bodies.overSmall),
    tooLargeStatus: 413,
  },
  getPortfolio: portfolioCase("/"),
  deletePortfolio: pathCase((s) => `${P}/${s}/`, [404], "DELETE"),
  listAssets: pagedCase("/assets"),
  importAssets: {
    largest: () => send("POST", `${P}/target/assets/import/`, bodies.csvLargest),
    largestStatus: [202],
    tooLarge: () => send("POST", `${P}/target/assets/import/`, bodies.csvTooMany),
    tooLargeStatus: 422,
  },
  exportAssets: portfolioCase("/assets/export"),
  getPhysicalDatasetMetadata: portfolioCase("/datasets/physical"),
  getPhysicalSummary: pagedCase("/datasets/physical/summary", "&extended=true"),
  downloadPhysicalSummary: portfolioCase("/datasets/physical/summary/export"),
  getPhysicalItems: pagedCase("/datasets/physical/items"),
  downloadPhysicalItems: portfolioCase("/datasets/physical/items/export"),
  exportPhysicalDataset: portfolioCase("/datasets/physical/export"),
  exportPhysicalDatasetJson: portfolioCase("/datasets/physical/export/json"),
  searchPoint: headerCase("/api/search?lat=-12.3456789012345&lng=123.456789012345"),
  listSuperprojects: headerCase("/nature/superprojects", [200], NATURE),
  listSubProjects: headerCase("/nature/projects", [200], NATURE),
  createSubProject: {
    largest: () => send("POST", "/nature/projects", { ...bodies.subProject, headers: NATURE }),
    largestStatus: [201],
    tooLarge: () => send("POST", "/nature/projects", { ...bodies.overJson, headers: NATURE }),
    tooLargeStatus: 413,
  },
  exportSubProjectSummary: {
    largest: () => send("GET", `/nature/projects/${DEMO_SUBPROJECT_ID}/export`, { headers: NATURE }),
    largestStatus: [200],
    tooLarge: () => send("GET", `/nature/projects/${segment(MAX_PATH_SEGMENT + 1)}/export`, { headers: NATURE }),
    tooLargeStatus: 414,
  },
};

/** The other key's searches, timed from sending to the whole answer read. */
interface Sample {
  start: number;
  end: number;
  status: number;
}
const samples: Sample[] = [];
let searching = false;

async function searchLoop(offset: number): Promise<void> {
  for (let i = 0; searching; i++) {
    const answer = await send("GET", `/api/search?lat=${((offset + i * 0.37) % 80).toFixed(2)}&lng=20.5`, {
      headers: OTHER,
    });
    samples.push({ start: performance.now() - answer.ms, end: performance.now(), status: answer.status });
    // Spacing, not waiting on an event: the searches sample the whole of each route's requests.
    await sleep(SEARCH_SPACING_MS);
  }
}

/** The 95th percentile by nearest rank. */
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)];
}

/** The `{errors}` of an answer's body, or undefined when it is not in that shape. */
function errorsOf(answer: Answer): string[] | undefined {
  try {
    const body = JSON.parse(answer.head) as { errors?: unknown };
    return Array.isArray(body.errors) && body.errors.every((e) => typeof e === "string") ? body.errors : undefined;
  } catch {
    return undefined;
  }
}

async function waitForRiskData(portfolio: string): Promise<void> {
  for (;;) {
    const answer = await send("GET", `${P}/${portfolio}/`);
    if (JSON.parse(answer.head).status === "Risk data available") return;
    await sleep(20);
  }
}

beforeAll(async () => {
  const root = path.resolve(__dirname, "../..");
  child = spawn(
    process.execPath,
    ["--import", "tsx", "emulator/main.ts", "--port", "0", "--quiet", "--processing-delay", "20"],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  base = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /emulator listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`emulator exited early (${code})`)));
  });
  const margin = 64 * 1024;
  const layer = pointLayerOf(BODY_LIMIT - margin);
  bodies.vectorJson = {
    body: Buffer.concat([Buffer.from('{"name":"big-json","geojson":'), layer, Buffer.from("}")]),
    contentType: "application/json",
  };
  bodies.vectorForm = multipart({ name: "big" }, { name: "geojson", filename: "big.geojson", text: layer });
  bodies.overJson = overLimitJson(BODY_LIMIT);
  bodies.overForm = multipart(
    { name: "big" },
    { name: "geojson", filename: "big.geojson", text: Buffer.alloc(BODY_LIMIT + 1024, 0x20) },
  );
  bodies.overSmall = overLimitJson(routeBodyLimit(ROUTES.find((r) => operationIdOf(r) === "createPortfolio")!));
  bodies.udf16 = udfBody("wide", MAX_INPUT_LAYERS);
  bodies.udf17 = udfBody("wide", MAX_INPUT_LAYERS + 1);
  bodies.csvLargest = multipart(
    {},
    { name: "asset", filename: "a.csv", text: assetCsv(MAX_ASSETS, BODY_LIMIT - margin) },
  );
  bodies.csvTooMany = multipart({}, { name: "asset", filename: "a.csv", text: assetCsv(MAX_ASSETS + 1) });
  const subProject = polygonLayerOf(BODY_LIMIT - margin);
  bodies.subProject = {
    body: Buffer.concat([Buffer.from('{"projectName":"big","type":"NCS","geojson":'), subProject, Buffer.from("}")]),
    contentType: "application/json",
  };

  // What the routes read: a ~10 MB layer, a UDF naming it 16 times, a 5,000-asset portfolio.
  const big = await send("POST", `${C}/vector`, {
    body: Buffer.concat([Buffer.from('{"name":"big","geojson":'), layer, Buffer.from("}")]),
    contentType: "application/json",
  });
  expect(big.status).toBe(201);
  bigVectorId = (JSON.parse(big.head) as { id: number }).id;
  const wide = await send("POST", `${C}/udf`, bodies.udf16);
  expect(wide.status).toBe(201);
  wideUdfId = (JSON.parse(wide.head) as { id: number }).id;
  for (const name of ["five", "target"])
    expect((await send("POST", `${P}/`, json({ portfolio_name: name }))).status).toBe(201);
  const five = multipart({}, { name: "asset", filename: "a.csv", text: assetCsv(MAX_ASSETS) });
  expect((await send("POST", `${P}/five/assets/import/`, five)).status).toBe(202);
  await waitForRiskData("five");
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
});

test("every route of the route table declares its largest input, and the drill has a case for it", () => {
  const undeclared = ROUTES.filter((r: RouteDef) => !Array.isArray(r.largestInput) || r.largestInput.length === 0);
  expect(undeclared.map(operationIdOf)).toEqual([]);
  expect(ROUTES.map(operationIdOf).filter((id) => !(id in CASES))).toEqual([]);
});

/**
 * One measure of a route: its largest input and its too-large one, repeated until enough of the
 * other key's searches overlapped them; those searches' times and p95.
 */
async function measureRoute(c: Case) {
  const from = performance.now();
  const first = samples.length;
  let rounds = 0;
  let largest: Answer | undefined;
  let tooLarge: Answer | undefined;
  let fivexx: string | undefined;
  // Repeated until enough of the other key's searches overlapped the route's requests.
  do {
    const l = await c.largest();
    const t = await c.tooLarge();
    largest ??= l;
    tooLarge ??= t;
    rounds++;
    if (l.status >= 500 || t.status >= 500) fivexx ??= `${l.status}, ${t.status}`;
  } while (samples.filter((s) => s.end >= from).length < MIN_SAMPLES && rounds < 40);
  const to = performance.now();
  // Searches that were in flight at any moment of the route's requests.
  const overlapping = samples.slice(Math.max(0, first - 4)).filter((s) => s.end >= from && s.start <= to);
  const times = overlapping.map((s) => s.end - s.start);
  return {
    largest: largest!,
    tooLarge: tooLarge!,
    rounds,
    overlapping,
    times,
    searchP95: Math.round(p95(times)),
    fivexx,
  };
}

test(
  `each route's largest input and one too large, from one key: another key's searches answer within ` +
    `${BUDGET_MS} ms (p95), every too-large request a readable 4xx, the emulator answering afterwards`,
  async () => {
    const started = performance.now();
    searching = true;
    const loops = [searchLoop(0), searchLoop(40)];
    const figures: Record<string, unknown> = {};
    const failures: string[] = [];
    try {
      for (const route of ROUTES) {
        const id = operationIdOf(route);
        const c = CASES[id];
        // The suite runs on 2 cores beside another jest worker: a neighbour's burst of CPU can slow
        // the other key's searches for a moment, a stall the input causes comes back every time. So
        // a route over the budget is measured again, up to twice, and fails only if it stays over.
        let measured = await measureRoute(c);
        // The answers are the first attempt's: sent again, a create finds what the first made (409).
        const { largest, tooLarge } = measured;
        let attempts = 1;
        // A 5xx in any attempt fails the route, whichever attempt's timing is kept.
        const fivexx = [measured.fivexx];
        while (measured.searchP95 > BUDGET_MS && attempts < 3) {
          measured = await measureRoute(c);
          fivexx.push(measured.fivexx);
          attempts++;
        }
        const { rounds, times, overlapping, searchP95 } = measured;
        for (const statuses of fivexx) if (statuses) failures.push(`${id}: a 5xx (${statuses})`);
        figures[id] = {
          largest: { status: largest.status, bytes: largest.bytes, ms: Math.round(largest.ms) },
          tooLarge: { status: tooLarge.status, ms: Math.round(tooLarge.ms), error: errorsOf(tooLarge)?.[0] },
          rounds,
          attempts,
          searches: overlapping.length,
          searchP95,
          searchMax: Math.round(Math.max(...times)),
        };
        if (!c.largestStatus.includes(largest.status))
          failures.push(`${id}: largest input answered ${largest.status} ${largest.head.slice(0, 200)}`);
        if (tooLarge.status !== c.tooLargeStatus || !errorsOf(tooLarge))
          failures.push(`${id}: too-large input answered ${tooLarge.status} ${tooLarge.head.slice(0, 200)}`);
        if (process.env.DRILL_TRACE) console.log(id, JSON.stringify(figures[id]));
        if (searchP95 > BUDGET_MS)
          failures.push(`${id}: the other key's searches p95 ${searchP95} ms (in each of ${attempts} attempts)`);
        if (overlapping.some((s) => s.status !== 200)) failures.push(`${id}: a search of the other key failed`);
      }
    } finally {
      searching = false;
      await Promise.all(loops);
    }
    const after = await send("GET", "/api/search?lat=1&lng=2", { headers: OTHER });
    const all = samples.map((s) => s.end - s.start);
    recordFigures("input-limits", {
      budgetMs: BUDGET_MS,
      searches: all.length,
      searchP95: Math.round(p95(all)),
      searchMax: Math.round(Math.max(...all)),
      runMs: Math.round(performance.now() - started),
      routes: figures,
    });
    expect(failures).toEqual([]);
    expect(after.status).toBe(200);
  },
  240_000,
);

describe("an oversized body is answered 413 to a client still sending it", () => {
  /** A raw-socket client that writes its whole body, whatever arrives meanwhile, then reads to the end. */
  function rawClient(route: string, contentType: string, body: Buffer, chunked: boolean): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(Number(new URL(base).port), "127.0.0.1");
      let text = "";
      socket.on("data", (c) => (text += c.toString()));
      // A reset after the answer was read is no failure: what counts is what the client read.
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(text));
      socket.write(
        `POST ${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-APIKey: demo-key\r\nX-Service-Project: demo\r\n` +
          `Content-Type: ${contentType}\r\n` +
          (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : `Content-Length: ${body.length}\r\n\r\n`),
      );
      let at = 0;
      const next = () => {
        while (at < body.length) {
          const piece = body.subarray(at, at + 64 * 1024);
          at += piece.length;
          const framed = chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
            : piece;
          if (!socket.write(framed)) return void socket.once("drain", next);
        }
        if (chunked) socket.write("0\r\n\r\n");
      };
      next();
    });
  }

  const oversized = () => ({
    json: { route: `${C}/vector`, ...bodies.overJson },
    csv: {
      route: `${P}/target/assets/import/`,
      ...multipart({}, { name: "asset", filename: "a.csv", text: assetCsv(20_000, BODY_LIMIT + 1024 * 1024) }),
    },
  });

  test.each([
    ["JSON", "json", false],
    ["JSON", "json", true],
    ["multipart CSV", "csv", false],
    ["multipart CSV", "csv", true],
  ] as const)(
    "%s (%s), without Content-Length: %s; fetch and a raw socket both read 413 {errors}, Connection: close",
    async (_, kind, chunked) => {
      const { route, body, contentType } = oversized()[kind];
      const viaFetch = await fetch(`${base}${route}`, {
        method: "POST",
        headers: { ...DEMO_HEADERS, "Content-Type": contentType! },
        // A stream has no length: fetch sends it chunked.
        body: chunked ? new Blob([new Uint8Array(body!)]).stream() : body,
        duplex: "half",
      } as RequestInit);
      expect(viaFetch.status).toBe(413);
      expect(viaFetch.headers.get("connection")).toBe("close");
      expect((await viaFetch.json()) as unknown).toEqual({
        errors: [expect.stringMatching(/too large \(limit \d+ bytes\)/)],
      });

      const raw = await rawClient(route, contentType!, body!, chunked);
      expect(raw).toMatch(/^HTTP\/1\.1 413 /);
      expect(raw).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toEqual({
        errors: [expect.stringMatching(/too large \(limit \d+ bytes\)/)],
      });
      expect((await send("GET", "/api/search?lat=1&lng=2", { headers: OTHER })).status).toBe(200);
    },
  );
});
