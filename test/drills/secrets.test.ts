/**
 * Drill: after connecting with a distinctive API key and using every feature (all RISK functions,
 * every task pane action, and some failures), the key appears in no cell, no document setting, no
 * console output, no error text, and no request goes anywhere but the configured service (nor
 * carries the key in its URL).
 */
import { KEYS } from "../../emulator/state/seed";
import type { KeyRecord } from "../../emulator/state/types";
import { RiskClient, type ConnectionConfig } from "../../src/api";
import {
  configureDefaultEngine,
  evaluateCells,
  refreshFunctions,
  setDefaultEngine,
  type FormulaCall,
} from "../../testing/evaluate-cells";
import { getConnection, saveConnection, useConnectionStorage } from "../../src/shared/connection";
import { DEMO_PROJECT } from "../../src/shared/vocabulary";
import { pasteAppliedLayer } from "../../src/taskpane/features/layer/applied-layer-actions";
import {
  createUdf,
  deleteUdf,
  deleteVector,
  inspectUdf,
  inspectVector,
  listCompositions,
  uploadVectorFile,
} from "../../src/taskpane/features/compositions/compositions-actions";
import { listProjects, testConnection } from "../../src/taskpane/features/connection/connection-actions";
import { describeError } from "../../src/taskpane/ui/describe-error";
import { downloadExport, listExportFiles, unpackExport } from "../../src/taskpane/features/export/export-actions";
import {
  createSubprojectFromFile,
  listSubprojects,
  listSuperprojects,
  pasteSubprojectSummary,
} from "../../src/taskpane/features/nature/nature-actions";
import { refreshAll } from "../../src/taskpane/features/refresh/refresh-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { syncRangeToPortfolio } from "../../src/taskpane/features/sync/sync-actions";
import { loadTimeseriesCatalog, pasteTimeseries } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { createFakeExcel } from "../../testing/fake-excel";
import { recordFigures } from "./support/figures";
import { type TestService, startTestService } from "../support/emulator";
import { squarePlot } from "../support/fixtures";

const SECRET = "sk-DRILL-7f3a9c2e51b84d06e1";
const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

let service: TestService;
const requested: string[] = [];
const consoleOutput: string[] = [];
const documentSettings = new Map<string, unknown>();
const runtimeStorage = new Map<string, string>();
const globals = globalThis as Record<string, unknown>;
const saved = { fetch: globalThis.fetch, Office: globals.Office, OfficeRuntime: globals.OfficeRuntime };

/** Every request of the add-in, from the client or anywhere else, goes through here and is recorded. */
const recordingFetch: typeof fetch = (input, init) => {
  requested.push(input instanceof Request ? input.url : String(input));
  return saved.fetch(input, init); // the platform's fetch: this one replaces globalThis.fetch
};

beforeAll(async () => {
  // The emulator knows two keys; this drill's distinctive one is given demo's rights, in-process.
  (KEYS as KeyRecord[]).push({ key: SECRET, projects: [DEMO_PROJECT], superprojects: ["nc-demo"] });
  service = await startTestService({ processingDelayMs: 20 });
  globalThis.fetch = recordingFetch;
  // Office's two places to keep data: the document's settings (travel with the file) and
  // OfficeRuntime.storage (stays on this machine). Stubs record what lands where.
  globals.Office = {
    context: {
      document: {
        settings: {
          set: (name: string, value: unknown) => documentSettings.set(name, value),
          get: (name: string) => documentSettings.get(name),
          remove: (name: string) => documentSettings.delete(name),
          saveAsync: (callback?: (r: { status: string }) => void) => callback?.({ status: "succeeded" }),
        },
      },
    },
  };
  globals.OfficeRuntime = {
    storage: {
      getItem: async (key: string) => runtimeStorage.get(key) ?? null,
      setItem: async (key: string, value: string) => void runtimeStorage.set(key, value),
      removeItem: async (key: string) => void runtimeStorage.delete(key),
    },
  };
  useConnectionStorage(undefined);
  for (const method of CONSOLE_METHODS) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleOutput.push(
        args
          .map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : typeof a === "string" ? a : JSON.stringify(a)))
          .join(" "),
      );
    });
  }
});

let figures: Record<string, unknown> | undefined;

afterAll(async () => {
  jest.restoreAllMocks();
  if (figures) recordFigures("secrets", figures);
  globalThis.fetch = saved.fetch;
  globals.Office = saved.Office;
  globals.OfficeRuntime = saved.OfficeRuntime;
  useConnectionStorage(undefined);
  setDefaultEngine(undefined);
  const index = (KEYS as KeyRecord[]).findIndex((k) => k.key === SECRET);
  if (index >= 0) (KEYS as KeyRecord[]).splice(index, 1);
  await service.close();
});

test("the API key shows up nowhere but in requests to the configured service", async () => {
  const config: ConnectionConfig = {
    baseUrl: service.emulator.baseUrl,
    natureUrl: service.emulator.natureUrl,
    apiKey: SECRET,
    project: DEMO_PROJECT,
  };
  const errors: unknown[] = [];
  const keep = <T>(work: Promise<T>) => work.catch((error: unknown) => void errors.push(error));

  // Connect as the pane does.
  const check = await testConnection(config);
  expect(check.projectKnown).toBe(true);
  await listProjects(config);
  await saveConnection(config);
  expect(getConnection().apiKey).toBe(SECRET);
  const client = new RiskClient(getConnection(), { fetch: recordingFetch, maxRetries: 0 });

  // Every action, against a workbook that is also where formulas show their results.
  const fake = createFakeExcel({ firstSheetName: "Sites" });
  const run = ((batch) => fake.run(batch)) as Parameters<typeof pasteSummary>[0]["run"];
  fake.setValues("Sites", "A1:D3", [
    ["entity_id", "entity_name", "lat", "lng"],
    ["K-1", "Key test", 10, 20],
    ["K-2", "Other", 11, 21],
  ]);
  fake.setSelection("Sites", "A1:D3");
  await syncRangeToPortfolio({
    client,
    run,
    source: { kind: "selection" },
    portfolio: "secret_test",
    confirmReplace: async () => true,
    pollIntervalMs: 10,
  });
  const catalog = await loadTimeseriesCatalog(client, "demo-portfolio");
  await pasteTimeseries({
    client,
    run,
    portfolio: "demo-portfolio",
    catalog,
    filters: { hazard: "cyclone", scenario: "ssp585", measure: "mid" },
    chartAssets: [0],
  });
  await pasteAppliedLayer({ client, run, vectorId: 1, vectorName: "demo-losses", portfolio: "demo-portfolio" });
  await pasteSummary({ client, run, portfolio: "secret_test" });
  const download = await downloadExport(client, "secret_test");
  listExportFiles(download);
  await unpackExport({ run, download });
  await listCompositions(client);
  const feature = {
    type: "Feature",
    geometry: { type: "Point", coordinates: [10, 20] },
    properties: { loss_flood_bsln: 1 },
  };
  const vector = await uploadVectorFile(client, {
    name: "secret-layer",
    fileName: "layer.geojson",
    text: JSON.stringify(feature),
  });
  await inspectVector(client, vector.id);
  const created = await createUdf(client, {
    name: "secret-udf",
    inputLayers: ["secret-layer"],
    operation: ".loss_flood_bsln",
    activate: true,
  });
  await inspectUdf(client, created.udf.id);
  const [superproject] = await listSuperprojects(client);
  const area = squarePlot({ "Entity Name": "Plot" });
  await createSubprojectFromFile(client, { superproject, fileName: "area.geojson", text: JSON.stringify(area) });
  const [subproject] = await listSubprojects(client, superproject);
  await pasteSubprojectSummary({ client, run, subproject });
  if (created.vector) await deleteVector(client, created.vector.id);
  await deleteVector(client, vector.id);
  await deleteUdf(client, created.udf.id);

  // Failures the user may meet: each error's text and what the pane shows for it.
  await keep(client.portfolios.get("no_such_portfolio"));
  await keep(
    new RiskClient({ ...config, project: "other" }, { fetch: recordingFetch, maxRetries: 0 }).portfolios.list(),
  );
  await keep(
    new RiskClient({ ...config, apiKey: `${SECRET}-wrong` }, { fetch: recordingFetch, maxRetries: 0 }).projects.list(),
  );
  await keep(
    new RiskClient(
      { ...config, baseUrl: "http://127.0.0.1:9" },
      { fetch: recordingFetch, maxRetries: 0 },
    ).projects.list(),
  );
  await keep(Promise.resolve().then(() => new RiskClient({ ...config, baseUrl: "http://example.com" })));
  await keep(saveConnection({ ...config, baseUrl: "http://example.com" }));

  // Every RISK function, as Excel calls them, following the saved connection.
  configureDefaultEngine({ fetch: recordingFetch, maxRetries: 0 });
  const subName = subproject.name;
  const calls: FormulaCall[] = [
    { fn: "SEARCH", args: [51.5, -0.12, "floods", "30yr"] },
    { fn: "SEARCH", args: [51.5, -0.12, "", ""] },
    { fn: "SUMMARY", args: ["demo-portfolio", 0, "flood_potential"] },
    { fn: "METRIC", args: ["demo-portfolio", 0, "ssp585", "flood", "structural_damage_2050"] },
    { fn: "IMPACT", args: ["demo-portfolio", 0, "flood", "ssp585", "2050", "upper"] },
    { fn: "TIMESERIES", args: ["demo-portfolio", 0, "wildfire", "ssp585"] },
    { fn: "PROJECTS", args: [] },
    { fn: "PORTFOLIOS", args: [] },
    { fn: "ASSETS", args: ["secret_test"] },
    { fn: "LAYER", args: [1, "demo-portfolio", 0] },
    { fn: "NATURE", args: [subName, "seismic_baseline_mean"] },
    { fn: "SUMMARY", args: ["no_such_portfolio", 0, "flood_potential"] },
    { fn: "SEARCH", args: [95, 0, "floods", "30yr"] },
  ];
  const results = await evaluateCells(calls);
  // The cells show what the functions returned (values, spilled tables, error messages).
  const shown = results.map((r, i) => [
    calls[i].fn,
    "value" in r ? JSON.stringify(r.value).slice(0, 30000) : `${r.error.code} ${r.error.message}`,
  ]);
  fake.addSheet("Formulas");
  fake.setValues("Formulas", `A1:B${shown.length}`, shown);
  expect(results.slice(0, 10).filter((r) => "error" in r)).toEqual([]);
  await refreshAll({ run, emptyCache: refreshFunctions });

  // Nowhere in the workbook.
  const workbook = JSON.stringify(fake.snapshot());
  expect(workbook).not.toContain(SECRET);
  expect(fake.sheetNames().length).toBeGreaterThan(6);
  // Not in the document's settings (which travel with the file); only in OfficeRuntime.storage.
  expect(JSON.stringify([...documentSettings.entries()])).not.toContain(SECRET);
  expect(documentSettings.size).toBe(0);
  expect([...runtimeStorage.values()].join()).toContain(SECRET);
  // In no console output.
  expect(consoleOutput.filter((line) => line.includes(SECRET))).toEqual([]);
  // In no error text or what the pane shows for it.
  expect(errors.length).toBe(6);
  for (const error of errors) {
    const description = describeError(error);
    const text =
      `${(error as Error).message} ${(error as Error).stack} ${description.title}` +
      ` ${description.details.join(" ")} ${JSON.stringify(error)}`;
    expect(text).not.toContain(SECRET);
  }
  // Requests: only to the configured service (the unreachable port and the refused
  // non-https host were typed by the user, the second is never contacted), never with the key in the URL.
  const service127 = new URL(service.emulator.baseUrl).host;
  const hosts = new Set(requested.map((url) => new URL(url).host));
  expect([...hosts].sort()).toEqual([service127, "127.0.0.1:9"].sort());
  expect(requested.filter((url) => new URL(url).host === "127.0.0.1:9")).toHaveLength(1);
  expect(requested.filter((url) => url.includes(SECRET) || decodeURIComponent(url).includes(SECRET))).toEqual([]);

  figures = {
    requests: requested.length,
    hosts: hosts.size,
    consoleLines: consoleOutput.length,
    sheets: fake.sheetNames().length,
    errorsChecked: errors.length,
    formulaCells: calls.length,
  };
});
