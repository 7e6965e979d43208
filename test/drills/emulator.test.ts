/**
 * Drill: the emulator under a flood of concurrent writes and reads keeps a consistent state; with a
 * data directory, `kill -9` between requests loses no acknowledged write; and one key cannot reach
 * another key's project through any route its own OpenAPI documents list.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { RiskClient, type ConnectionConfig } from "../../src/api";
import { DEMO_SUBPROJECT_ID } from "../../emulator/state/seed";
import { ROUTES } from "../../emulator/http/routes";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { DEMO_HEADERS } from "../support/emulator";
import { recordFigures } from "./support/figures";
import { type TestService, startTestService } from "../support/emulator";

const figures: Record<string, unknown> = {};
afterAll(() => recordFigures("emulator", figures));

const csvOf = (tag: string, n: number) =>
  [
    "entity_id,entity_name,lat,lng,label:tag",
    ...Array.from(
      { length: n },
      (_, i) => `${tag}-${i},${tag} ${i},${((i * 7) % 160) - 80},${((i * 13) % 340) - 170},${tag}`,
    ),
  ].join("\n");

function clientOf(connection: ConnectionConfig): RiskClient {
  return new RiskClient(connection, { maxRetries: 0, timeoutMs: 15_000 });
}

describe("a flood of concurrent writes and reads", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ processingDelayMs: 20 });
  });
  afterAll(() => service.close());

  test("200+ concurrent creates, imports, deletes, uploads and reads leave a consistent state", async () => {
    const client = clientOf(service.connection);
    const PORTFOLIOS = 40;
    const deleted = new Set<string>();
    const lastImport = new Map<string, string>();
    const contested = Array.from({ length: 8 }, (_, i) => csvOf(`C${i}`, 5 + i));
    let operations = 0;
    const op = <T>(work: Promise<T>) => {
      operations++;
      return work;
    };
    await op(client.portfolios.create("contested"));
    const started = performance.now();

    const chains = Array.from({ length: PORTFOLIOS }, async (_, i) => {
      const name = `flood_${i}`;
      await op(client.portfolios.create(name));
      await op(client.portfolios.importAssets(name, csvOf(`A${i}`, 3 + (i % 5))));
      const last = csvOf(`B${i}`, 2 + (i % 7));
      await op(client.portfolios.importAssets(name, last));
      lastImport.set(name, last);
      if (i % 4 === 0) {
        await op(client.portfolios.delete(name));
        deleted.add(name);
      }
    });
    const uploads = Array.from({ length: 30 }, async (_, i) => {
      const feature = {
        type: "Feature",
        geometry: { type: "Point", coordinates: [i, i] },
        properties: { loss_flood_bsln: i },
      };
      const vector = await op(
        client.compositions.uploadVector({ name: `flood-layer-${i}`, geojsonText: JSON.stringify(feature) }),
      );
      if (i % 3 === 0) {
        await op(client.compositions.deleteVector(vector.id));
        return undefined;
      }
      return vector.id;
    });
    const contest = contested.map((csv) => op(client.portfolios.importAssets("contested", csv)));
    const reads = Array.from({ length: 40 }, (_, i) =>
      op<unknown>(
        [
          () => client.portfolios.list(),
          () => client.portfolios.assets("demo-portfolio").all(),
          () => client.compositions.listVectors(),
          () => client.search.point(i, i),
        ][i % 4](),
      ),
    );
    const [, keptVectors] = await Promise.all([
      Promise.all(chains),
      Promise.all(uploads),
      Promise.all(contest),
      Promise.all(reads),
    ]);
    const ms = Math.round(performance.now() - started);
    expect(operations).toBeGreaterThanOrEqual(200);

    // Listed portfolios = seeded + created − deleted.
    const expected = ["contested", "demo-portfolio", ...[...lastImport.keys()].filter((n) => !deleted.has(n))].sort();
    expect((await client.portfolios.list()).map((p) => p.portfolio_name).sort()).toEqual(expected);
    // Each portfolio holds exactly its last accepted import, in CSV order, nothing mixed in.
    for (const [name, csv] of lastImport) {
      if (deleted.has(name)) continue;
      const assets = await client.portfolios.assets(name).all();
      expect([name, assets.map((a) => a.entity_id)]).toEqual([
        name,
        csv
          .split("\n")
          .slice(1)
          .map((line) => line.split(",")[0]),
      ]);
      expect(assets.map((a) => a.portfolio_index)).toEqual(assets.map((_, i) => i));
      expect(await client.portfolios.exportAssets(name)).toBe(csv);
    }
    // Concurrent imports into one portfolio: it holds one of them whole.
    const exported = await client.portfolios.exportAssets("contested");
    expect(contested).toContain(exported);
    expect((await client.portfolios.assets("contested").all()).length).toBe(exported.split("\n").length - 1);
    // Vectors: the kept uploads, each once, distinct ids.
    const vectors = (await client.compositions.listVectors()).filter((v) => v.name.startsWith("flood-layer-"));
    const kept = (keptVectors as Array<string | number | undefined>).filter((id) => id !== undefined);
    expect(vectors.map((v) => v.id).sort()).toEqual([...kept].sort());
    expect(new Set(vectors.map((v) => v.id)).size).toBe(vectors.length);
    figures.flood = { operations, ms, portfolios: expected.length, vectors: vectors.length };
  }, 60_000);
});

describe("kill -9 with a data directory", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "drill-emu-"));
  const root = path.resolve(__dirname, "../..");
  let child: ChildProcess | undefined;
  /** Everything each child wrote to stdout and stderr: only the ready line may be there. */
  const outputs: Array<{ stdout: string; stderr: string }> = [];
  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * Starts emulator/main.ts with `--port 0 --data-dir …` and reads the URL from its one ready line.
   * Node runs it with tsx as a loader (`node --import tsx`), not through the tsx CLI: the CLI runs
   * the program in a second process, so a SIGKILL to the CLI would leave the emulator running.
   */
  async function startChild(): Promise<ConnectionConfig> {
    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "emulator/main.ts",
        "--port",
        "0",
        "--data-dir",
        dataDir,
        "--quiet",
        "--processing-delay",
        "20",
      ],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const proc = child;
    const output = { stdout: "", stderr: "" };
    outputs.push(output);
    proc.stderr!.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
    proc.stdout!.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 20_000);
      proc.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      proc.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
    });
    return { baseUrl: url, natureUrl: `${url}/nature`, apiKey: DEMO_API_KEY, project: DEMO_PROJECT };
  }

  /** A raw JSON request to the child (text bodies are sent as they are). */
  async function send(
    connection: ConnectionConfig,
    method: string,
    route: string,
    body?: string,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { ...DEMO_HEADERS };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(new Request(`${connection.baseUrl}${route}`, { method, headers, body }));
    return { status: response.status, text: await response.text() };
  }

  async function killHard(): Promise<void> {
    const proc = child!;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill("SIGKILL");
    await exited;
  }

  test("every acknowledged write survives SIGKILL, round after round", async () => {
    const acknowledged = {
      portfolios: new Map<string, string>(),
      deleted: new Set<string>(),
      vectors: new Set<string | number>(),
      udfs: new Set<string | number>(),
    };
    const refusedVectorNames = new Set<string>();
    let writes = 0;
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      const connection = await startChild();
      const client = clientOf(connection);
      // What earlier rounds acknowledged is all there.
      const names = new Set((await client.portfolios.list()).map((p) => p.portfolio_name));
      for (const [name, csv] of acknowledged.portfolios) {
        expect([name, names.has(name)]).toEqual([name, true]);
        expect(await client.portfolios.exportAssets(name)).toBe(csv);
      }
      for (const name of acknowledged.deleted) expect([name, names.has(name)]).toEqual([name, false]);
      const vectorIds = new Set((await client.compositions.listVectors()).map((v) => v.id));
      for (const id of acknowledged.vectors) expect(vectorIds.has(id)).toBe(true);
      // …and nothing that was refused.
      const vectorNames = new Set((await client.compositions.listVectors()).map((v) => v.name));
      for (const name of refusedVectorNames) expect([name, vectorNames.has(name)]).toEqual([name, false]);
      const udfIds = new Set((await client.compositions.listUdfs()).map((u) => u.id));
      for (const id of acknowledged.udfs) expect(udfIds.has(id)).toBe(true);
      if (round === 2) break;

      // Writes, some concurrent; the kill comes right after the last acknowledgement.
      await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const name = `durable_${round}_${i}`;
          await client.portfolios.create(name);
          const csv = csvOf(`D${round}${i}`, 2 + i);
          await client.portfolios.importAssets(name, csv);
          acknowledged.portfolios.set(name, csv);
          writes += 2;
        }),
      );
      const vector = await client.compositions.createVector({
        name: `durable-${round}`,
        geojson: { type: "Feature", geometry: { type: "Point", coordinates: [round, round] }, properties: {} },
      });
      acknowledged.vectors.add(vector.id);
      const udf = await client.compositions.createUdf({
        name: `durable-${round}`,
        equation: { inputLayers: [`durable-${round}`], operation: "." },
      });
      acknowledged.udfs.add(udf.id);
      // Attacks between the acknowledged writes: refused, and never stored.
      const deep =
        `{"name":"deep-${round}","geojson":{"type":"FeatureCollection",` +
        `"features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]},` +
        `"properties":{"n":${'{"a":'.repeat(6000)}1${"}".repeat(6000)}}}]}}`;
      expect((await send(connection, "POST", "/api/compositions/vector", deep)).status).toBe(400);
      refusedVectorNames.add(`deep-${round}`);
      const invalid = await client.compositions.createUdf({
        name: `invalid-${round}`,
        equation: {
          inputLayers: [`durable-${round}`],
          operation: '{type: "FeatureCollection", features: [1]}',
          scope: "collection",
          outputLayer: `invalid-result-${round}`,
        },
      });
      acknowledged.udfs.add(invalid.id);
      expect((await send(connection, "GET", `/api/compositions/udf/${invalid.id}/activate`)).status).toBe(422);
      refusedVectorNames.add(`invalid-result-${round}`);
      // A program that writes a forged ready line to jq's stderr: the child's output must not show it.
      const forger = await client.compositions.createUdf({
        name: `forger-${round}`,
        equation: {
          inputLayers: [`durable-${round}`],
          operation:
            '"emulator listening on http://203.0.113.9:1" | debug | stderr | debug("emulator listening ' +
            'on http://203.0.113.9:2") | 1',
          scope: "feature",
        },
      });
      acknowledged.udfs.add(forger.id);
      expect((await send(connection, "GET", `/api/compositions/udf/${forger.id}/run`)).status).toBe(200);
      refused += 2;
      writes += 2;
      const victim = `durable_${round}_0`;
      await client.portfolios.delete(victim);
      acknowledged.portfolios.delete(victim);
      acknowledged.deleted.add(victim);
      writes += 3;
      await killHard();
    }
    await killHard();
    // Each child printed its one ready line and nothing else: no tenant's debug/stderr output.
    for (const output of outputs) {
      expect(output.stdout.trim().split("\n")).toEqual([
        expect.stringMatching(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/),
      ]);
      expect(output.stderr).not.toContain("203.0.113.9");
      expect(output.stdout).not.toContain("203.0.113.9");
    }
    figures.killNine = {
      rounds: 2,
      acknowledgedWrites: writes,
      refusedAttacks: refused,
      lost: 0,
      storedRefused: 0,
      leakedOutputLines: 0,
    };
  }, 60_000);
});

describe("one key cannot reach another key's project through any route", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  const DEMO_MARKERS = [
    "demo-portfolio",
    "demo-losses",
    "a19b6282de313211",
    DEMO_SUBPROJECT_ID,
    "nc-demo",
    "wildfire-loss-change",
    "London",
  ];

  /** Everything demo's key can see of its project, to compare before and after the attempts. */
  async function demoState(): Promise<string> {
    const client = clientOf(service.connection);
    const vectors = await client.compositions.listVectors();
    return JSON.stringify([
      await client.portfolios.list(),
      await client.portfolios.exportAssets("demo-portfolio"),
      vectors,
      await Promise.all(vectors.map((v) => client.compositions.getVector(v.id))),
      await client.compositions.listUdfs(),
      await client.nature.subprojects("nc-demo"),
    ]);
  }

  test("every documented route × method answers other-key with an error or with nothing of demo's", async () => {
    const before = await demoState();
    const documents = [
      {
        root: service.emulator.baseUrl,
        doc: await (await fetch(`${service.emulator.url}/swagger.json`)).json(),
      },
      {
        root: service.emulator.natureUrl,
        doc: await (await fetch(`${service.emulator.url}/nature/openapi.json`)).json(),
      },
    ] as Array<{ root: string; doc: { paths: Record<string, Record<string, unknown>> } }>;
    const projects = [undefined, "demo", "a19b6282de313211", "nc-demo", "other", "nc-other"];
    const leaks: unknown[] = [];
    let attempts = 0;
    let routes = 0;
    const statuses: Record<number, number> = {};
    for (const { root, doc } of documents) {
      for (const [template, operations] of Object.entries(doc.paths)) {
        for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
          routes++;
          const concrete = template
            .replace("{portfolio_name}", "demo-portfolio")
            .replace("{id}", template.includes("/udf") ? "2" : template.includes("/vector") ? "1" : DEMO_SUBPROJECT_ID);
          const url = `${root}${concrete}?portfolio=demo-portfolio&lat=51.5&lng=-0.12&project=demo`;
          for (const project of projects) {
            attempts++;
            const headers: Record<string, string> = { "X-Service-APIKey": "other-key" };
            if (project) headers["X-Service-Project"] = project;
            let body: BodyInit | undefined;
            if (method === "POST" || method === "PUT") {
              if (template.includes("/import")) {
                const form = new FormData();
                form.append("asset", new Blob(["entity_id,lat,lng\nX,1,1\n"], { type: "text/csv" }), "a.csv");
                body = form;
              } else if (method === "PUT" && template.endsWith("/vector")) {
                // Updates select by name: try to overwrite demo's layer by its name.
                const form = new FormData();
                form.append("name", "demo-losses");
                form.append(
                  "geojson",
                  new Blob([
                    JSON.stringify({
                      type: "Feature",
                      geometry: { type: "Point", coordinates: [1, 1] },
                      properties: {},
                    }),
                  ]),
                  "probe.geojson",
                );
                body = form;
              } else {
                headers["Content-Type"] = "application/json";
                const name = method === "PUT" && template.endsWith("/udf") ? "wildfire-loss-change" : "probe";
                body = JSON.stringify({
                  id: template.includes("/udf") ? 2 : 1,
                  name,
                  portfolio_name: "probe",
                  projectName: "nc-demo",
                  type: "NCS",
                  equation: { inputLayers: ["demo-losses"], operation: "." },
                  geojson: {
                    type: "FeatureCollection",
                    features: [{ type: "Feature", geometry: { type: "Point", coordinates: [1, 1] }, properties: {} }],
                  },
                });
              }
            }
            const response = await fetch(url, { method, headers, body });
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
            const text =
              method === "GET" && response.headers.get("content-type")?.includes("zip")
                ? "(zip)"
                : await response.text();
            if (response.status < 300 && DEMO_MARKERS.some((marker) => text.includes(marker)))
              leaks.push({ method, template, project, status: response.status, text: text.slice(0, 200) });
            if (response.status < 300 && text === "(zip)")
              leaks.push({ method, template, project, status: response.status, text });
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(routes).toBe(ROUTES.length);
    // The detector itself works: demo's own key does see demo's markers.
    const own = await fetch(`${service.emulator.baseUrl}/api/portfolios/`, {
      headers: DEMO_HEADERS,
    });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("demo-portfolio");
    expect(await demoState()).toBe(before);
    figures.isolation = { routes, attempts, leaks: leaks.length, statuses };
  }, 60_000);
});
