/**
 * Drill: one tenant, careless or hostile, cannot break the emulator for the others.
 * Each attack is answered with the service's `{errors: [...]}` at an accurate status, nothing it
 * was refused for is stored, and another key's requests succeed while and after it runs — including
 * a UDF run, so a wedged jq engine would show. The emulator persists to a data directory here, as
 * the deep-nesting attack used to break every later write through persistence.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { MAX_JSON_DEPTH } from "../../emulator/http/json-limits";
import { JQ_MAX_OUTPUT_CHARS } from "../../emulator/server";
import { DEMO_HEADERS } from "../support/emulator";
import { recordFigures } from "./support/figures";
import { type TestService, startTestService } from "../support/emulator";

const figures: Record<string, unknown> = {};
const dataDir = mkdtempSync(path.join(tmpdir(), "drill-hardening-"));
let service: TestService;

/** The demo key in the demo superproject (the nature routes' scope). */
const DEMO_SUPERPROJECT = { ...DEMO_HEADERS, "X-Service-Project": "nc-demo" };
const OTHER = { "X-Service-APIKey": "other-key", "X-Service-Project": "other" };

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

/** One request over real HTTP to `base`; JSON bodies are sent as given (strings as they are). */
async function call(
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: unknown,
  base = service.emulator.url,
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(`${base}${route}`, init);
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the assertions on `body` will say so.
  }
  return { status: response.status, text, body: parsed };
}

/** The `{errors}` of an answer; fails the test when the body is in any other shape. */
function errorsOf(answer: Answer): string[] {
  expect(answer.body).toEqual({ errors: expect.any(Array) });
  const errors = (answer.body as { errors: string[] }).errors;
  expect(errors.length).toBeGreaterThan(0);
  return errors;
}

/** JSON text of an object nesting `levels` deep (built as text: JSON.stringify itself overflows at 6,000). */
const nestedText = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const point = (i: number, properties: Record<string, unknown> = {}) => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [i % 180, i % 90] },
  properties: { loss: i, ...properties },
});
const layer = (n: number) => ({ type: "FeatureCollection", features: Array.from({ length: n }, (_, i) => point(i)) });

let otherUdfId = 0;
let otherChecks = 0;

/** Another tenant's read, write and UDF run, all answered correctly. */
async function otherTenantIsServed(): Promise<void> {
  const [list, run] = await Promise.all([
    call("GET", "/api/portfolios/", OTHER),
    call("GET", `/api/compositions/udf/${otherUdfId}/run`, OTHER),
  ]);
  expect([list.status, run.status]).toEqual([200, 200]);
  expect(
    (run.body as { geojson: { features: Array<{ properties: { value: unknown } }> } }).geojson.features.map(
      (f) => f.properties.value,
    ),
  ).toEqual([0, 2, 4]);
  const name = `other_${otherChecks++}`;
  expect((await call("POST", "/api/portfolios/", OTHER, { portfolio_name: name })).status).toBe(201);
}

/** Runs `attack` while another tenant is served, then serves the other tenant again. */
async function duringAndAfter<T>(attack: () => Promise<T>): Promise<T> {
  const [result] = await Promise.all([attack(), otherTenantIsServed()]);
  await otherTenantIsServed();
  return result;
}

async function createUdf(
  headers: Record<string, string>,
  name: string,
  inputLayer: string,
  operation: string,
  scope?: "collection" | "feature",
  base = service.emulator.url,
): Promise<number> {
  const created = await call(
    "POST",
    "/api/compositions/udf",
    headers,
    { name, equation: { inputLayers: [inputLayer], operation, ...(scope ? { scope } : {}) } },
    base,
  );
  expect(created.status).toBe(201);
  return (created.body as { id: number }).id;
}

beforeAll(async () => {
  service = await startTestService({ processingDelayMs: 20, dataDir });
  expect(
    (await call("POST", "/api/compositions/vector", OTHER, { name: "other-layer", geojson: layer(3) })).status,
  ).toBe(201);
  otherUdfId = await createUdf(OTHER, "other-double", "other-layer", ".loss * 2", "feature");
  expect(
    (await call("POST", "/api/compositions/vector", DEMO_HEADERS, { name: "sixty", geojson: layer(60) })).status,
  ).toBe(201);
  expect(
    (await call("POST", "/api/compositions/vector", DEMO_HEADERS, { name: "one", geojson: layer(1) })).status,
  ).toBe(201);
});
afterAll(async () => {
  figures.otherTenantChecks = otherChecks;
  recordFigures("hardening", figures);
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("over-deep and over-large JSON is refused at the door", () => {
  test(
    "6,000 levels of nesting: 400 naming the limit for a vector (JSON and file) and a sub-project; " +
      "nothing stored; every later write works",
    async () => {
      const vectorsBefore = (await call("GET", "/api/compositions/vector", DEMO_HEADERS)).text;
      const subprojectsBefore = (await call("GET", "/nature/projects", DEMO_SUPERPROJECT)).text;
      const deepLayer =
        `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point",` +
        `"coordinates":[1,1]},"properties":{"deep":${nestedText(6000)}}}]}`;
      const polygon = JSON.stringify({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      });
      const started = performance.now();
      const answers = await duringAndAfter(async () => {
        const form = new FormData();
        form.append("name", "deep-file");
        form.append("geojson", new Blob([deepLayer], { type: "application/geo+json" }), "deep.geojson");
        return Promise.all([
          call("POST", "/api/compositions/vector", DEMO_HEADERS, `{"name":"deep-json","geojson":${deepLayer}}`),
          call("POST", "/api/compositions/vector", DEMO_HEADERS, form),
          call("POST", "/api/compositions/vector", DEMO_HEADERS, { name: "deep-string", geojson: deepLayer }),
          call(
            "POST",
            "/nature/projects",
            DEMO_SUPERPROJECT,
            `{"projectName":"deep","type":"NCS","geojson":{"type":"FeatureCollection",` +
              `"features":[{"type":"Feature","geometry":${polygon},"properties":{"Entity Name":"deep",` +
              `"nest":${nestedText(6000)}}}]}}`,
          ),
          // Just over the limit is refused too, and just under it is accepted (below).
          call(
            "POST",
            "/api/compositions/vector",
            DEMO_HEADERS,
            `{"name":"just-over","geojson":{"type":"FeatureCollection","features":[{"type":"Feature",` +
              `"geometry":{"type":"Point","coordinates":[1,1]},` +
              `"properties":{"n":${nestedText(MAX_JSON_DEPTH - 4)}}}]}}`,
          ),
        ]);
      });
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(errorsOf(answer)[0]).toMatch(new RegExp(`deeper than the limit of ${MAX_JSON_DEPTH} levels`));
      }
      expect((await call("GET", "/api/compositions/vector", DEMO_HEADERS)).text).toBe(vectorsBefore);
      expect((await call("GET", "/nature/projects", DEMO_SUPERPROJECT)).text).toBe(subprojectsBefore);
      // Every key can still write (the state persists), and a document within the limit is accepted.
      const within = await call(
        "POST",
        "/api/compositions/vector",
        DEMO_HEADERS,
        `{"name":"within","geojson":{"type":"FeatureCollection","features":[{"type":"Feature",` +
          `"geometry":{"type":"Point","coordinates":[1,1]},` +
          `"properties":{"n":${nestedText(MAX_JSON_DEPTH - 5)}}}]}}`,
      );
      expect(within.status).toBe(201);
      expect(
        (await call("DELETE", `/api/compositions/vector/${(within.body as { id: number }).id}`, DEMO_HEADERS)).status,
      ).toBeLessThan(300);
      figures.deepNesting = {
        levels: 6000,
        limit: MAX_JSON_DEPTH,
        statuses: answers.map((a) => a.status),
        ms: Math.round(performance.now() - started),
      };
    },
  );

  test("a body over 10 MB: 413 naming the limit; nothing stored", async () => {
    const huge = {
      name: "huge",
      geojson: { type: "FeatureCollection", features: [point(1, { blob: "x".repeat(11 * 1024 * 1024) })] },
    };
    const answer = await duringAndAfter(() => call("POST", "/api/compositions/vector", DEMO_HEADERS, huge));
    expect(answer.status).toBe(413);
    expect(errorsOf(answer)[0]).toMatch(/too large \(limit 10485760 bytes\)/);
    expect((await call("GET", "/api/compositions/vector", DEMO_HEADERS)).text).not.toContain('"huge"');
    figures.oversizedBody = { bytes: JSON.stringify(huge).length, status: answer.status };
  });
});

describe("a write that cannot be stored is not kept", () => {
  test(
    "a failed persist answers 503 and undoes the change; " + "the next write stores only what was acknowledged",
    async () => {
      // A directory where the persister writes its temporary file makes the write fail (EISDIR).
      const blocker = path.join(dataDir, `state.json.${process.pid}.tmp`);
      mkdirSync(blocker);
      let failed: Answer;
      try {
        failed = await call("POST", "/api/portfolios/", DEMO_HEADERS, { portfolio_name: "unstored" });
      } finally {
        rmSync(blocker, { recursive: true, force: true });
      }
      expect(failed.status).toBe(503);
      expect(errorsOf(failed)[0]).toMatch(/could not be stored .* and was undone; retry/);
      const names = () =>
        call("GET", "/api/portfolios/", DEMO_HEADERS).then((a) =>
          (a.body as Array<{ portfolio_name: string }>).map((p) => p.portfolio_name),
        );
      expect(await names()).not.toContain("unstored");
      await otherTenantIsServed();
      expect((await call("POST", "/api/portfolios/", DEMO_HEADERS, { portfolio_name: "stored" })).status).toBe(201);
      const onDisk = JSON.parse(readFileSync(path.join(dataDir, "state.json"), "utf8")) as {
        portfolios: Array<{ portfolio_name: string }>;
      };
      expect(onDisk.portfolios.map((p) => p.portfolio_name)).toEqual(expect.arrayContaining(["stored"]));
      expect(onDisk.portfolios.map((p) => p.portfolio_name)).not.toContain("unstored");
      figures.failedPersist = { status: failed.status, undone: true };
    },
  );
});

describe("jq programs cannot wedge, kill or leak from the engine", () => {
  /** Runs a new UDF of the demo key over `inputLayer`; answers the run's answer. */
  async function runProgram(
    operation: string,
    inputLayer = "sixty",
    scope?: "collection" | "feature",
    verb = "run",
    base = service.emulator.url,
  ): Promise<Answer> {
    const id = await createUdf(
      DEMO_HEADERS,
      `attack-${Math.random().toString(36).slice(2, 8)}`,
      inputLayer,
      operation,
      scope,
      base,
    );
    return call("GET", `/api/compositions/udf/${id}/${verb}`, DEMO_HEADERS, undefined, base);
  }
  const INTERNAL = /TypeError|Cannot read|undefined|RuntimeError|out of bounds|Aborted|internal emulator error/;
  const cases: Array<{ name: string; operation: string; scope?: "collection" | "feature"; message: RegExp }> = [
    {
      name: "100-level nested output",
      operation: "reduce range(100) as $i (0; [.])",
      scope: "collection",
      message: /output nests deeper than the limit of \d+ levels/,
    },
    {
      name: "100-level structure serialised inside the program",
      operation: "reduce range(100) as $i (0; [.]) | tojson | length",
      scope: "collection",
      message: /failed inside the jq engine .*; the engine was restarted/,
    },
    {
      name: "~60 MB output",
      operation: '[.features[] | "x" * 1e6]',
      message: /output exceeds the limit of \d+ characters|time limit of \d+ ms|memory limit/,
    },
    {
      name: "halt (collection)",
      operation: "halt",
      scope: "collection",
      message: /produced 0 value\(s\) for 60 feature\(s\)/,
    },
    {
      name: "halt (feature)",
      operation: "if .loss == 3 then halt else .loss end",
      scope: "feature",
      message: /stopped after 3 of 60 feature\(s\).*halt/,
    },
    { name: "no output", operation: ".features[] | empty", message: /produced 0 value\(s\)/ },
    { name: "halt_error", operation: '"stop here" | halt_error', message: /halt_error: stop here/ },
    {
      name: "invalid FeatureCollection",
      operation:
        '{type: "FeatureCollection", features: [{type: "Feature", geometry: {type: "Point", coordinates: ["a"]}}]}',
      scope: "collection",
      message: /not valid GeoJSON: result\.features\[0\]/,
    },
  ];

  test.each(cases)(
    "$name: 422 with a jq-level message, while another tenant is served",
    async ({ operation, scope, message }) => {
      const started = performance.now();
      const answer = await duringAndAfter(() => runProgram(operation, "sixty", scope));
      expect(answer.status).toBe(422);
      const [error] = errorsOf(answer);
      expect(error).toMatch(/^equation\.operation: /);
      expect(error).toMatch(message);
      expect(error).not.toMatch(INTERNAL);
      const runs = (figures.jq ??= {}) as Record<string, unknown>;
      runs[operation] = {
        status: answer.status,
        ms: Math.round(performance.now() - started),
        message: error.slice(0, 120),
      };
    },
  );

  test("an invalid FeatureCollection is not activated: 422, and no vector is stored", async () => {
    const before = (await call("GET", "/api/compositions/vector", DEMO_HEADERS)).text;
    const answer = await duringAndAfter(() =>
      runProgram(
        '{type: "FeatureCollection", features: [{type: "Feature", geometry: null, properties: 1}]}',
        "sixty",
        "collection",
        "activate",
      ),
    );
    expect(answer.status).toBe(422);
    expect(errorsOf(answer)[0]).toMatch(/not valid GeoJSON/);
    expect((await call("GET", "/api/compositions/vector", DEMO_HEADERS)).text).toBe(before);
  });

  test("env, $ENV, input_filename and get_jq_origin reveal nothing of the host", async () => {
    const answer = await duringAndAfter(() =>
      runProgram(
        "{env: env, ENV: $ENV, file: input_filename, origin: get_jq_origin, prog: get_prog_origin, " +
          "search: get_search_list, underscore: $ENV._}",
        "one",
        "feature",
      ),
    );
    expect(answer.status).toBe(200);
    const value = (answer.body as { geojson: { features: Array<{ properties: { value: unknown } }> } }).geojson
      .features[0].properties.value;
    expect(value).toEqual({ env: {}, ENV: {}, file: null, origin: null, prog: null, search: [], underscore: null });
    expect(answer.text).not.toContain(path.resolve(__dirname, "../.."));
  });

  test("a program within the limits is unaffected by them", async () => {
    // Its own emulator, with a time limit far above the programs' time: this test is about the
    // nesting and output limits. Writing half the output cap takes 1-1.4 s alone on a quiet 2-core
    // machine, so under a loaded CI run it could pass the default 2 s and be refused for time.
    const roomy = await startTestService({ jqTimeoutMs: 60_000 });
    try {
      const base = roomy.emulator.url;
      for (const [name, size] of [
        ["one", 1],
        ["sixty", 60],
      ] as const) {
        const created = await call(
          "POST",
          "/api/compositions/vector",
          DEMO_HEADERS,
          { name, geojson: layer(size) },
          base,
        );
        expect(created.status).toBe(201);
      }
      const answer = await runProgram("reduce range(20) as $i (0; [.])", "one", "feature", "run", base);
      expect(answer.status).toBe(200);
      const big = await runProgram(
        `[.features[] | "x" * ${Math.floor(JQ_MAX_OUTPUT_CHARS / 120)}]`,
        "sixty",
        "collection",
        "run",
        base,
      );
      expect(big.status).toBe(200);
      expect(big.text.length).toBeGreaterThan(JQ_MAX_OUTPUT_CHARS * 0.45);
    } finally {
      await roomy.close();
    }
  });
});

describe("an import acknowledged is in the portfolio it was acknowledged for", () => {
  /** Starts a multipart import whose body is held back until `finish()` is called. */
  function slowImport(portfolio: string, csv: string) {
    const boundary = "----drill-boundary";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="asset"; ` +
      `filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const tail = `${csv}\r\n--${boundary}--\r\n`;
    const url = new URL(`${service.emulator.url}/api/portfolios/${portfolio}/assets/import/`);
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      agent: false,
      headers: {
        ...DEMO_HEADERS,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": Buffer.byteLength(head + tail),
      },
    });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, body: JSON.parse(text) as unknown }));
      });
      req.on("error", reject);
    });
    req.write(head);
    return { answer, finish: () => req.end(tail) };
  }

  /** Resolves once the emulator has begun handling `count` import requests (its own counter). */
  async function importsBegun(count: number): Promise<void> {
    for (;;) {
      const stats = await service.stats();
      if ((stats.routes["POST /api/portfolios/:portfolio_name/assets/import"] ?? 0) >= count) return;
    }
  }

  test(
    "deleted and re-created while the upload is in flight: " + "the import is refused, the new portfolio holds nothing",
    async () => {
      await service.resetStats();
      expect((await call("POST", "/api/portfolios/", DEMO_HEADERS, { portfolio_name: "race" })).status).toBe(201);
      const upload = slowImport("race", "entity_id,entity_name,lat,lng\nR1,one,1,1\nR2,two,2,2");
      await importsBegun(1);
      await duringAndAfter(async () => {
        expect((await call("DELETE", "/api/portfolios/race/", DEMO_HEADERS)).status).toBeLessThan(300);
        expect((await call("POST", "/api/portfolios/", DEMO_HEADERS, { portfolio_name: "race" })).status).toBe(201);
      });
      upload.finish();
      const answer = await upload.answer;
      expect(answer.status).toBe(404);
      expect(errorsOf(answer)[0]).toMatch(/deleted while its import was being received; nothing was imported/);
      expect((await call("GET", "/api/portfolios/race/assets", DEMO_HEADERS)).body).toEqual([]);

      // Without the race, the same slow upload is acknowledged and lands in its portfolio.
      const control = slowImport("race", "entity_id,entity_name,lat,lng\nR1,one,1,1\nR2,two,2,2");
      await importsBegun(2);
      control.finish();
      expect((await control.answer).status).toBe(202);
      expect(
        ((await call("GET", "/api/portfolios/race/assets", DEMO_HEADERS)).body as Array<{ entity_id: string }>).map(
          (a) => a.entity_id,
        ),
      ).toEqual(["R1", "R2"]);
      figures.importRace = { refused: answer.status, control: 202 };
    },
  );
});

describe("input the service does not allow", () => {
  test("label:__proto__ is kept as data", async () => {
    expect((await call("POST", "/api/portfolios/", DEMO_HEADERS, { portfolio_name: "proto" })).status).toBe(201);
    const form = new FormData();
    form.append(
      "asset",
      new Blob(["entity_id,entity_name,lat,lng,label:__proto__,label:constructor\nP1,one,1,1,polluted,built"], {
        type: "text/csv",
      }),
      "a.csv",
    );
    expect(
      (await duringAndAfter(() => call("POST", "/api/portfolios/proto/assets/import/", DEMO_HEADERS, form))).status,
    ).toBe(202);
    const assets = await call("GET", "/api/portfolios/proto/assets", DEMO_HEADERS);
    expect(assets.text).toContain('"labels":{"__proto__":"polluted","constructor":"built"}');
    // Parsed back, the label is an own property, not a prototype.
    const labels = (assets.body as Array<{ labels: Record<string, string> }>)[0].labels;
    expect(Object.getOwnPropertyDescriptor(labels, "__proto__")?.value).toBe("polluted");
  });

  test.each(["0x10", "0b1", "0o7", "Infinity", "1_0", " "])(
    "search refuses %j as a coordinate with 400",
    async (text) => {
      const answer = await duringAndAfter(() =>
        call("GET", `/api/search?lat=${encodeURIComponent(text)}&lng=1`, DEMO_HEADERS),
      );
      expect(answer.status).toBe(400);
      expect(errorsOf(answer)[0]).toMatch(/^lat: /);
    },
  );

  test("a decimal coordinate is still accepted", async () => {
    expect((await call("GET", "/api/search?lat=-1.5e1&lng=.5", DEMO_HEADERS)).status).toBe(200);
  });

  test(
    "framework errors answer {errors}: malformed percent-escape, " + "over-long segment, huge headers, garbage request",
    async () => {
      const escape = await call("GET", "/api/portfolios/%E0%A4%A/", DEMO_HEADERS);
      expect(escape.status).toBe(400);
      expect(errorsOf(escape)[0]).toMatch(/malformed percent-escape/);
      const long = await call("GET", `/api/portfolios/${"p".repeat(5000)}/`, DEMO_HEADERS);
      expect(long.status).toBe(414);
      expect(errorsOf(long)[0]).toMatch(/path segment is longer than the limit of 200 characters/);
      const headers = await call("GET", "/api/portfolios/", { ...DEMO_HEADERS, "X-Padding": "y".repeat(20_000) });
      expect(headers.status).toBe(431);
      expect(errorsOf(headers)[0]).toMatch(/headers are too large/);
      const garbage = await new Promise<string>((resolve, reject) => {
        const socket = connect(service.emulator.port, "127.0.0.1", () => socket.write("THIS IS NOT HTTP\r\n\r\n"));
        let text = "";
        socket.on("data", (c) => (text += c.toString()));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toEqual({
        errors: [expect.stringMatching(/malformed HTTP request/)],
      });
      await otherTenantIsServed();
      figures.frameworkErrors = {
        percentEscape: escape.status,
        longSegment: long.status,
        hugeHeaders: headers.status,
        garbage: 400,
      };
    },
  );
});
