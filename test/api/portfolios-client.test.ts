/**
 * The client's side of portfolio names, answers and downloads: both answer forms of import and delete, the
 * download methods (file name, media type, bytes, filters; the key never in the URL), dated item
 * queries, and the nature create's header and body. Over real HTTP: the emulator, or a small
 * recording server for what the emulator no longer sends (an older server's 204).
 */
import { ConflictError, RiskClient, waitForRiskData, type ConnectionConfig } from "../../src/api";
import { fileNameOf } from "../../src/api/http";
import { type RunningEmulator } from "../../emulator/server";
import { RecordingServer, queryOf, sendJson } from "../support/recording-server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { startTestEmulator } from "../support/emulator";
import { englishTranslator } from "../../src/i18n/translator";

let emu: RunningEmulator;
let client: RiskClient;
beforeAll(async () => {
  emu = await startTestEmulator({ processingDelayMs: 30 });
  const connection: ConnectionConfig = {
    baseUrl: emu.baseUrl,
    natureUrl: emu.natureUrl,
    apiKey: DEMO_API_KEY,
    project: DEMO_PROJECT,
  };
  client = new RiskClient(connection, { maxRetries: 0 });
});
afterAll(() => emu.close());

describe("against the emulator", () => {
  test("import and delete answer the service's message", async () => {
    await client.portfolios.create("client-msg");
    const imported = await client.portfolios.importAssets("client-msg", "entity_id,lat,lng\nA,1,2\nB,3,4\n");
    expect(imported.message).toMatch(/2 assets imported into client-msg/);
    expect(imported.assets).toBe(2); // extra fields beside message are kept
    const deleted = await client.portfolios.delete("client-msg");
    expect(deleted.message).toMatch(/client-msg deleted/);
  });

  test("downloads carry the service's file name and media type; filters and dates reach the service", async () => {
    await client.portfolios.create("client-dl").catch(() => undefined);
    await client.portfolios.importAssets("client-dl", "entity_id,entity_name,lat,lng\nA,Alpha,10,20\nB,Beta,-5,30\n");
    // One indicator, scenario, measure and date range, asked of the items, their CSV and their JSON.
    const filters = {
      hazard: "wildfire",
      indicator: "obs_score",
      scenario: "ssp126",
      measure: "lb",
      start_date: "2020-02-10",
      end_date: "2020-04-30",
    };
    await waitForRiskData(client, "client-dl", { intervalMs: 20, timeoutMs: 4_000 });

    const csv = await client.datasets.itemsExport("client-dl", filters);
    expect(csv.fileName).toBe("client-dl-items.csv");
    expect(csv.contentType).toBe("text/csv");
    const lines = new TextDecoder().decode(csv.bytes).trim().split("\n");
    expect(lines[0]).toBe(
      "portfolio_index,entity_id,entity_name,hazard,indicator,scenario,measure,2020-02,2020-03,2020-04",
    );
    expect(lines).toHaveLength(3);

    const items = await client.datasets.items("client-dl", filters).all();
    const json = await client.datasets.itemsExport("client-dl", { ...filters, file_format: "json" });
    expect(json.fileName).toBe("client-dl-items.json");
    expect(JSON.parse(new TextDecoder().decode(json.bytes))).toEqual(
      items.map((item) => ({ ...item, risk_exposure: item.risk_exposure.toRecord() })),
    );

    const summary = await client.datasets.summaryExport("client-dl", { scenario: "ssp245", window: 15 });
    expect(summary.fileName).toBe("client-dl-summary.csv");
    expect(new TextDecoder().decode(summary.bytes).trim().split("\n")).toHaveLength(3);

    const whole = await client.datasets.exportJson("client-dl");
    expect(whole.fileName).toBe("client-dl-physical.json");
    expect(JSON.parse(new TextDecoder().decode(whole.bytes)).tables.summary_ssp585.data).toHaveLength(2 * 3 * 6);
  });

  test("a nature sub-project is created under its name in the superproject; the same name again is a ConflictError", async () => {
    const geojson = {
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          properties: { "Entity Name": "Whatever" },
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [5, 5],
                [5.1, 5],
                [5.1, 5.1],
                [5, 5],
              ],
            ],
          },
        },
      ],
    };
    const created = await client.nature.createSubproject({
      superproject: "nc-demo",
      projectName: "Client block",
      geojson,
      type: "NCS",
    });
    expect(created).toMatchObject({ project: "nc-demo", name: "Client block" });
    const error = await client.nature
      .createSubproject({ superproject: "nc-demo", projectName: "Client block", geojson, type: "NCS" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).errors[0]).toMatch(/^projectName:/);
  });
});

describe("against a recording server", () => {
  let server: RecordingServer;
  afterEach(() => server?.close());
  const clientOf = () =>
    new RiskClient(
      { baseUrl: server.url, natureUrl: `${server.url}/nature`, apiKey: "secret-key", project: "demo" },
      { maxRetries: 0 },
    );

  test("an older server's 204 delete and bare import answer still read as messages", async () => {
    server = await new RecordingServer((req, res) => {
      if (req.method === "DELETE") return void res.writeHead(204).end();
      sendJson(res, 202, { portfolio_name: "old", status: "Generating risk data" });
    }).start();
    const c = clientOf();
    expect(await c.portfolios.delete("old")).toEqual({ message: "Portfolio old deleted." });
    expect(await c.portfolios.importAssets("old", "lat,lng\n1,2\n")).toEqual({
      portfolio_name: "old",
      status: "Generating risk data",
      message: "Assets imported into old.",
    });
  });

  test("waiting for risk data reports each status and gives up at its time limit naming the last status", async () => {
    server = await new RecordingServer((_req, res) => {
      sendJson(res, 200, { portfolio_name: "slow", status: "Generating risk data" });
    }).start();
    const seen: string[] = [];
    const waiting = waitForRiskData(clientOf(), "slow", {
      intervalMs: 10,
      // Long enough for several polls on a loaded machine, short enough to read as "0 s".
      timeoutMs: 400,
      onProgress: (p) => seen.push(englishTranslator.format(p.message)),
    });
    await expect(waiting).rejects.toThrow(
      "slow did not reach “Risk data available” within 0 s (last status “Generating risk data”)",
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toMatch(/^Generating risk data for slow: status “Generating risk data” \(0 s\)$/);
  });

  test("downloads send the key in a header only; the query holds the filters and file_format", async () => {
    server = await new RecordingServer((req, res) => {
      res.writeHead(200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": "attachment; filename*=UTF-8''M%C3%BCnster%20sites.csv",
      });
      res.end("a,b\n1,2\n");
    }).start();
    const file = await clientOf().datasets.summaryExport("p-1", {
      scenario: "ssp585",
      hazard: "wildfire",
      file_format: "json",
    });
    expect(file).toEqual({
      fileName: "Münster sites.csv",
      contentType: "text/csv",
      bytes: new TextEncoder().encode("a,b\n1,2\n"),
    });
    const request = server.requests[0];
    expect(request.url.split("?")[0]).toBe("/api/portfolios/p-1/datasets/physical/summary/export");
    expect(Object.fromEntries(queryOf(request))).toEqual({
      scenario: "ssp585",
      hazard: "wildfire",
      file_format: "json",
    });
    expect(request.url).not.toMatch(/secret-key|api_key/);
    expect(request.headers["x-service-apikey"]).toBe("secret-key");
  });

  test("the nature create sends the superproject as the header and the sub-project name as projectName", async () => {
    server = await new RecordingServer((req, res) =>
      sendJson(res, 201, { id: "x", project: "nc-demo", name: "Ridge", status: "Processing", type: "Forest Carbon" }),
    ).start();
    await clientOf().nature.createSubproject({
      superproject: "nc-demo",
      projectName: "Ridge",
      geojson: { type: "FeatureCollection", features: [] },
      type: "NCS",
    });
    const request = server.requests[0];
    expect(request.headers["x-service-project"]).toBe("nc-demo");
    expect(JSON.parse(request.body.toString("utf8"))).toEqual({
      projectName: "Ridge",
      geojson: { type: "FeatureCollection", features: [] },
      type: "NCS",
    });
  });
});

test("Content-Disposition file names: quoted, bare, RFC 5987, paths stripped, absent", () => {
  expect(fileNameOf('attachment; filename="a b.csv"')).toBe("a b.csv");
  expect(fileNameOf("attachment; filename=plain.json")).toBe("plain.json");
  expect(fileNameOf("attachment; filename*=UTF-8''%E6%9D%B1.csv; filename=\"fallback.csv\"")).toBe("東.csv");
  expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe("passwd");
  expect(fileNameOf("attachment")).toBeUndefined();
  expect(fileNameOf(null)).toBeUndefined();
});
