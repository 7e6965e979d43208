import {
  AbortedError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ForbiddenError,
  InvalidResponseError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RiskClient,
  ServerError,
  ServiceError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  type RetryEvent,
} from "../../src/api";
import { RiskEngine } from "../../src/functions/engine/engine";
import { RecordingServer, queryOf, sendJson, type Handler } from "../support/recording-server";

let server: RecordingServer;

async function serve(handler: Handler): Promise<RecordingServer> {
  server = await new RecordingServer(handler).start();
  return server;
}

function clientFor(
  options: ConstructorParameters<typeof RiskClient>[1] = {},
  project: string | undefined = "demo",
): RiskClient {
  return new RiskClient(
    { baseUrl: server.url, natureUrl: `${server.url}/nature`, apiKey: "secret-key", project },
    { baseRetryDelayMs: 5, ...options },
  );
}

afterEach(async () => {
  await server?.close();
});

describe("headers and paths", () => {
  it("sends the API key on every request and the project header only where the service needs it", async () => {
    await serve((req, res) => {
      if (req.method === "DELETE") return void res.writeHead(204).end();
      sendJson(
        res,
        200,
        req.url.includes("superprojects") ||
          req.url.includes("/nature/projects") ||
          req.url.endsWith("/projects/") ||
          req.url.includes("/udf")
          ? []
          : req.url.includes("/vector")
            ? []
            : [],
      );
    });
    const client = clientFor();
    await client.projects.list();
    await client.portfolios.list();
    await client.search.point(51.5, -0.12);
    await client.compositions.listVectors();
    await client.compositions.listUdfs();
    await client.compositions.deleteUdf("u1");
    await client.nature.superprojects();
    await client.nature.subprojects("nc-demo");

    const seen = server.requests.map((r) => ({
      path: r.url.split("?")[0],
      key: r.headers["x-service-apikey"],
      project: r.headers["x-service-project"],
    }));
    expect(seen).toEqual([
      { path: "/api/projects/", key: "secret-key", project: undefined },
      { path: "/api/portfolios/", key: "secret-key", project: "demo" },
      { path: "/api/search", key: "secret-key", project: "demo" },
      { path: "/api/compositions/vector", key: "secret-key", project: "demo" },
      { path: "/api/compositions/udf", key: "secret-key", project: undefined },
      { path: "/api/compositions/udf/u1", key: "secret-key", project: undefined },
      { path: "/nature/superprojects", key: "secret-key", project: undefined },
      { path: "/nature/projects", key: "secret-key", project: "nc-demo" },
    ]);
    expect(queryOf(server.requests[2]).get("lat")).toBe("51.5");
    expect(queryOf(server.requests[2]).get("lng")).toBe("-0.12");
  });

  it("encodes path segments and sends summary filters as query parameters", async () => {
    await serve((req, res) => sendJson(res, 200, []));
    const client = clientFor();
    await client.datasets
      .summary("my portfolio/1", { scenario: "ssp585", window: 30, hazard: "wildfire" })
      .all({ readAhead: 1 });
    await client.datasets.extendedSummary("p").all({ rows: 10, readAhead: 1 });
    expect(server.requests[0].url.split("?")[0]).toBe("/api/portfolios/my%20portfolio%2F1/datasets/physical/summary");
    const q = queryOf(server.requests[0]);
    expect([
      q.get("scenario"),
      q.get("window"),
      q.get("hazard"),
      q.get("page"),
      q.get("rows"),
      q.get("extended"),
    ]).toEqual(["ssp585", "30", "wildfire", "1", "250", null]);
    expect(queryOf(server.requests[1]).get("extended")).toBe("true");
    expect(queryOf(server.requests[1]).get("rows")).toBe("10");
  });

  it("refuses an operation that needs a project when none is configured, sending nothing", async () => {
    await serve((req, res) => sendJson(res, 200, []));
    const client = clientFor({}, "");
    await expect(client.portfolios.list()).rejects.toBeInstanceOf(ConfigurationError);
    await expect(client.projects.list()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("connection settings", () => {
  it("refuses plain http to a non-loopback host so the key never travels in clear text", () => {
    const make = (baseUrl: string) => () =>
      new RiskClient({ baseUrl, natureUrl: "https://n.example.com", apiKey: "k" });
    expect(make("http://risk.example.com")).toThrow(ConfigurationError);
    expect(make("http://10.0.0.5:8080")).toThrow(/https/);
    expect(make("ftp://risk.example.com")).toThrow(ConfigurationError);
    expect(make("not a url")).toThrow(/not a valid URL/);
    expect(make("https://risk.example.com/")().connection.baseUrl).toBe("https://risk.example.com");
    expect(make("http://127.0.0.1:4010")().connection.baseUrl).toBe("http://127.0.0.1:4010");
    expect(make("http://localhost:4010")().connection.baseUrl).toBe("http://localhost:4010");
    expect(make("http://[::1]:4010")().connection.baseUrl).toBe("http://[::1]:4010");
    expect(
      () => new RiskClient({ baseUrl: "https://a.example.com", natureUrl: "https://n.example.com", apiKey: "  " }),
    ).toThrow(/API key/);
  });
});

describe("errors", () => {
  const cases: Array<[number, new (...args: never[]) => ServiceError]> = [
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [405, MethodNotAllowedError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ];
  it.each(cases)("maps HTTP %i to its class with status, errors and operation", async (status, Class) => {
    await serve((req, res) => sendJson(res, status, { errors: [`problem ${status}`, "second"] }));
    const error = await clientFor({ maxRetries: 0 })
      .portfolios.create("p1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ServiceError);
    const serviceError = error as ServiceError;
    expect(serviceError.status).toBe(status);
    expect(serviceError.errors).toEqual([`problem ${status}`, "second"]);
    expect(serviceError.operation).toBe("portfolios.create");
    expect(serviceError.message).toContain(`HTTP ${status}`);
  });

  it("keeps a non-JSON error body as text", async () => {
    await serve((req, res) => {
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    const error = (await clientFor({ maxRetries: 0 })
      .projects.list()
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.errors).toEqual(["<html>Bad gateway</html>"]);
  });

  it("reads a JSON answer as UTF-8: a BOM dropped, characters split across chunks whole", async () => {
    const json = Buffer.from(JSON.stringify([{ project_id: "p1", name: "Zürich – Büro 🌊" }]));
    await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      // The BOM alone, then the body cut inside the four bytes of 🌊.
      const cut = json.indexOf(Buffer.from("🌊")) + 2;
      res.write(Buffer.from([0xef, 0xbb, 0xbf]));
      res.write(json.subarray(0, cut));
      setTimeout(() => res.end(json.subarray(cut)), 20);
    });
    expect(await clientFor().projects.list()).toEqual([{ project_id: "p1", name: "Zürich – Büro 🌊" }]);
  });

  it("reports malformed JSON in a 200 answer as InvalidResponseError", async () => {
    await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"type": "FeatureCollection", "features": [');
    });
    await expect(clientFor().search.point(1, 2)).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("reports a refused connection as NetworkError", async () => {
    await serve((req, res) => sendJson(res, 200, []));
    const client = clientFor({ maxRetries: 1 });
    await server.close();
    await expect(client.projects.list()).rejects.toBeInstanceOf(NetworkError);
  });

  it("reports a connection reset mid-answer as NetworkError after retrying", async () => {
    await serve((req, res) => {
      res.socket?.destroy();
    });
    const retries: RetryEvent[] = [];
    await expect(clientFor({ maxRetries: 2, onRetry: (e) => retries.push(e) }).projects.list()).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => r.retryCount)).toEqual([1, 2]);
  });
});

describe("retries", () => {
  it("honours Retry-After on 429 and then succeeds", async () => {
    let calls = 0;
    const times: number[] = [];
    await serve((req, res) => {
      times.push(Date.now());
      calls += 1;
      if (calls === 1) return sendJson(res, 429, { errors: ["slow down"] }, { "Retry-After": "1" });
      sendJson(res, 200, [{ project_id: "1", project_name: "demo" }]);
    });
    const projects = await clientFor().projects.list();
    expect(projects).toEqual([{ project_id: "1", project_name: "demo" }]);
    expect(server.requests).toHaveLength(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it("retries 502/503/504 with back-off and gives up after the cap with the last error", async () => {
    await serve((req, res) => sendJson(res, 503, { errors: ["unavailable"] }));
    const retries: RetryEvent[] = [];
    const error = await clientFor({ maxRetries: 3, onRetry: (e) => retries.push(e) })
      .portfolios.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    expect(retries).toHaveLength(3);
  });

  it("by default gives up after 3 retries, as the functions engine does (one table of defaults)", async () => {
    await serve((req, res) => sendJson(res, 503, { errors: ["unavailable"] }));
    const error = await clientFor()
      .portfolios.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    const engine = new RiskEngine({ connection: { baseUrl: server.url, natureUrl: server.url, apiKey: "secret-key" } });
    expect(engine.settings).toMatchObject({ timeoutMs: 20_000, maxRetries: 3, maxRetryDelayMs: 5_000 });
  });

  it("gives a 429 with Retry-After its own allowance of retries, on top of the failure retries", async () => {
    let calls = 0;
    await serve((req, res) => {
      calls += 1;
      if (calls <= 5) return sendJson(res, 429, { errors: ["slow down"] }, { "Retry-After": "0" });
      if (calls <= 7) return sendJson(res, 503, { errors: ["unavailable"] });
      sendJson(res, 200, []);
    });
    await expect(clientFor({ maxRetries: 2, maxRateLimitRetries: 5 }).portfolios.list()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(8);
  });

  it("stops after the rate-limit allowance when the service keeps throttling", async () => {
    await serve((req, res) => sendJson(res, 429, { errors: ["slow down"] }, { "Retry-After": "0" }));
    const error = await clientFor({ maxRetries: 1, maxRateLimitRetries: 2 })
      .portfolios.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(4);
  });

  it("caps a long Retry-After at the maximum delay", async () => {
    let calls = 0;
    await serve((req, res) => {
      calls += 1;
      if (calls === 1) return sendJson(res, 503, { errors: ["later"] }, { "Retry-After": "3600" });
      sendJson(res, 200, []);
    });
    const started = Date.now();
    await clientFor({ maxRetryDelayMs: 200 }).portfolios.list();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(2);
  });

  it("never retries a request that is not idempotent (create, import, UDF activation)", async () => {
    await serve((req, res) => sendJson(res, 503, { errors: ["unavailable"] }));
    const client = clientFor({ maxRetries: 4 });
    await expect(client.portfolios.create("p")).rejects.toBeInstanceOf(ServerError);
    await expect(client.portfolios.importAssets("p", "lat,lng\n1,2\n")).rejects.toBeInstanceOf(ServerError);
    await expect(client.compositions.activateUdf("u1")).rejects.toBeInstanceOf(ServerError);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST", "GET"]);
  });

  it("does not retry 4xx answers other than 429", async () => {
    await serve((req, res) => sendJson(res, 400, { errors: ["lat: coordinate out of bounds"] }));
    await expect(clientFor().search.point(95, 0)).rejects.toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("time limits and cancellation", () => {
  it("rejects with TimeoutError when the service never answers", async () => {
    await serve(() => {
      /* never answers */
    });
    const started = Date.now();
    await expect(clientFor({ timeoutMs: 300 }).projects.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("rejects with TimeoutError when the body stalls after the headers", async () => {
    await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write("[");
    });
    await expect(clientFor({ timeoutMs: 300 }).projects.list()).rejects.toBeInstanceOf(TimeoutError);
  });

  it("rejects with AbortedError when the caller aborts, and sends nothing for an already aborted signal", async () => {
    await serve(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const pending = clientFor().projects.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    const before = server.requests.length;
    await expect(clientFor().projects.list({ signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(server.requests.length).toBe(before);
  });
});

describe("uploads and downloads", () => {
  it("imports assets as multipart with the file field `asset`, bytes intact", async () => {
    await serve((req, res) => sendJson(res, 202, { status: "accepted" }));
    const csv = 'entity_id,entity_name,lat,lng,label:country\nA-1,"Müller, GmbH",48.1,11.5,DE\n';
    await clientFor().portfolios.importAssets("plants", csv);
    const request = server.requests[0];
    expect(request.url).toBe("/api/portfolios/plants/assets/import/");
    const contentType = String(request.headers["content-type"]);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const boundary = contentType.split("boundary=")[1];
    const parts = request.body.toString("utf8").split(`--${boundary}`);
    const assetPart = parts.find((part) => part.includes('name="asset"'));
    expect(assetPart).toBeDefined();
    expect(assetPart).toMatch(/filename="plants\.csv"/);
    const content = assetPart!.split("\r\n\r\n").slice(1).join("\r\n\r\n").replace(/\r\n$/, "");
    expect(content).toBe(csv);
  });

  it("uploads a vector as multipart `name` + `geojson`", async () => {
    await serve((req, res) =>
      sendJson(res, 201, {
        id: "v1",
        name: "zones",
        createDate: "2026-01-01",
        updateDate: "2026-01-01",
        status: "available",
      }),
    );
    const text = JSON.stringify({ type: "FeatureCollection", features: [] });
    const record = await clientFor().compositions.uploadVector({ name: "zones", geojsonText: text });
    expect(record.id).toBe("v1");
    const body = server.requests[0].body.toString("utf8");
    expect(body).toContain('name="name"\r\n\r\nzones');
    expect(body).toContain('name="geojson"; filename="zones.geojson"');
    expect(body).toContain(text);
  });

  it("downloads CSV as text and ZIP as bytes", async () => {
    const zipBytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 255]);
    await serve((req, res) => {
      if (req.url.endsWith("/assets/export")) {
        res.writeHead(200, { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="p.csv"' });
        return void res.end("lat,lng\n1,2\n");
      }
      res.writeHead(200, { "Content-Type": "application/zip" });
      res.end(zipBytes);
    });
    const client = clientFor();
    expect(await client.portfolios.exportAssets("p")).toBe("lat,lng\n1,2\n");
    expect(Array.from(await client.datasets.export("p"))).toEqual(Array.from(zipBytes));
  });

  it("answers undefined for a 204 delete", async () => {
    await serve((req, res) => void res.writeHead(204).end());
    await expect(clientFor().compositions.deleteVector(7)).resolves.toBeUndefined();
    expect(server.requests[0].url).toBe("/api/compositions/vector/7");
  });
});
