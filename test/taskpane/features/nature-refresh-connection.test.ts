import { PROVENANCE_STORE_SHEET, SOURCES_SHEET } from "../../../src/shaping/paste-provenance";
import { WRITTEN_STORE_PREFIX } from "../../../src/excel/written-store";
import { ConfigurationError, UnauthorizedError } from "../../../src/api/errors";
import { PROCESSING_COMPLETED } from "../../../src/api/types";
import { testConnection } from "../../../src/taskpane/features/connection/connection-actions";
import {
  createSubprojectFromFile,
  listSubprojects,
  listSuperprojects,
  pasteSubprojectSummary,
} from "../../../src/taskpane/features/nature/nature-actions";
import { refreshAll } from "../../../src/taskpane/features/refresh/refresh-actions";
import { newWorkbook, usePaneTestService } from "../support";
import { emulatorStats, routeCount } from "../../support/emulator";

/** Nature projects, "Refresh all" and "Test connection", end to end against the emulator. */

const service = usePaneTestService({ processingDelayMs: 20 });
beforeEach(() => service.emulator.reset());

const AREA = JSON.stringify({
  type: "FeatureCollection",
  crs: { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } },
  features: [
    {
      type: "Feature",
      properties: {
        "Entity Name": "=Ridge forest",
        "label:country": "BR",
        Type: "Forest Carbon",
        "label:continent": "South America",
        "label:poly_area": 12.5,
        "label:project_name_sqkm": "Ridge 12.5",
      },
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [-60, -3],
            [-59.9, -3],
            [-59.9, -2.9],
            [-60, -2.9],
            [-60, -3],
          ],
        ],
      },
    },
  ],
});

describe("nature", () => {
  test("superprojects and sub-projects are listed; a GeoJSON file creates a sub-project whose summary pastes into a sheet", async () => {
    expect(await listSuperprojects(service.client)).toEqual(["nc-demo"]);
    const before = await listSubprojects(service.client, "nc-demo");
    expect(before.length).toBeGreaterThan(0);

    const created = await createSubprojectFromFile(service.client, {
      superproject: "nc-demo",
      fileName: "ridge.geojson",
      text: AREA,
    });
    const after = await listSubprojects(service.client, "nc-demo");
    expect(after.map((s) => s.id)).toContain(created.id);

    // Processing completes after the emulator's delay; the seeded one is ready now.
    const ready = before.find((s) => s.status === PROCESSING_COMPLETED)!;
    const exported = await service.client.nature.exportSubproject(ready.id);
    const { fake, run } = newWorkbook();
    const pasted = await pasteSubprojectSummary({
      client: service.client,
      run,
      subproject: { id: ready.id, name: ready.name },
    });
    // The paste adds its sheet, plus the provenance store (very hidden) and the visible Sources sheet.
    expect(fake.sheetNames()).toEqual([
      "Sheet1",
      pasted.sheetName,
      `${WRITTEN_STORE_PREFIX}1`,
      PROVENANCE_STORE_SHEET,
      SOURCES_SHEET,
    ]);
    const rows = fake.read(pasted.sheetName, `A1:B${pasted.rowCount + 1}`);
    expect(rows[0]).toEqual(["metric", "value"]);
    for (const [name, value] of Object.entries(exported.summary)) {
      const row = rows.find((r) => r[0] === name)!;
      expect(row[1]).toBeCloseTo(value, 12);
    }
  });

  test("service text such as an entity name starting with = stays text in the sheet", async () => {
    const created = await createSubprojectFromFile(service.client, {
      superproject: "nc-demo",
      fileName: "ridge.geojson",
      text: AREA,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { fake, run } = newWorkbook();
    const pasted = await pasteSubprojectSummary({
      client: service.client,
      run,
      subproject: { id: created.id, name: created.name },
    });
    const rows = fake.read(pasted.sheetName, `A1:B${pasted.rowCount + 1}`);
    const formulas = fake.read(pasted.sheetName, `A1:B${pasted.rowCount + 1}`, "formulas");
    const entity = rows.findIndex((r) => r[0] === "metadata:Entity Name");
    expect(rows[entity][1]).toBe("=Ridge forest");
    expect(formulas[entity][1]).toBe("=Ridge forest");
    expect(fake.read(pasted.sheetName, `B${entity + 1}`, "numberFormat")[0][0]).toBe("@");
  });

  test("a file that is not a FeatureCollection is refused before sending", async () => {
    await expect(
      createSubprojectFromFile(service.client, {
        superproject: "nc-demo",
        fileName: "one.geojson",
        text: '{"type":"Feature","properties":{},"geometry":null}',
      }),
    ).rejects.toThrow(/one\.geojson must be a GeoJSON FeatureCollection/);
    expect(routeCount(await emulatorStats(service.emulator), "POST /nature/projects")).toBe(0);
  });
});

describe("refresh all", () => {
  test("empties the cache first, then recalculates every RISK cell on every sheet", async () => {
    const { fake, run } = newWorkbook();
    fake.addSheet("Other");
    fake.setValues("Sheet1", "A1:C2", [
      ['=RISK.SEARCH(51.5,-0.1,"floods","30yr")', "=1+1", "text"],
      ['=risk.summary("demo-portfolio",0,"wildfire")', 5, "=SUM(B1:B2)"],
    ]);
    fake.setValues("Other", "B3", [["=RISK.PROJECTS()"]]);
    const calls: string[] = [];
    fake.setFormulaEvaluator((formula) => {
      calls.push(formula);
      return 0;
    });
    calls.length = 0;
    await refreshAll({ run, emptyCache: () => calls.push("empty") });
    // The cache is emptied before Excel runs any cell again, and every RISK cell runs again.
    expect(calls[0]).toBe("empty");
    expect(calls.slice(1)).toEqual(
      expect.arrayContaining([
        '=RISK.SEARCH(51.5,-0.1,"floods","30yr")',
        '=risk.summary("demo-portfolio",0,"wildfire")',
        "=RISK.PROJECTS()",
      ]),
    );
  });

  test("reads nothing of the workbook: one request to Excel however many formulas it holds", async () => {
    const { fake, run } = newWorkbook();
    // A sheet of formulas like the financial impact's: 3,000 rows × 20 long formulas, about 3 MB
    // to read were every formula read (Refresh all used to read them all to count RISK cells).
    fake.addSheet("Impact");
    const formula = (r: number, c: number) => `=IFERROR(INDEX(Data!$A$2:$T$3001,${r + 1},${c + 1})*1,"no value here")`;
    fake.setValues(
      "Impact",
      "A1:T3000",
      Array.from({ length: 3000 }, (_, r) => Array.from({ length: 20 }, (_, c) => formula(r, c))),
    );
    fake.setValues("Sheet1", "F9", [['=RISK.SUMMARY("demo-portfolio",1,"wildfire")']]);
    const evaluated: string[] = [];
    fake.setFormulaEvaluator((f) => {
      if (f.startsWith("=RISK")) evaluated.push(f);
      return 0;
    });
    evaluated.length = 0;
    const syncsBefore = fake.syncs.length;
    await refreshAll({ run, emptyCache: () => undefined });
    const syncs = fake.syncs.slice(syncsBefore);
    expect(syncs).toHaveLength(1);
    expect(syncs[0].responseBytes + syncs[0].requestBytes).toBeLessThan(1_000);
    expect(evaluated).toEqual(['=RISK.SUMMARY("demo-portfolio",1,"wildfire")']);
  });

  test("an empty workbook still recalculates, and the refresh settles", async () => {
    const { fake, run } = newWorkbook();
    const syncsBefore = fake.syncs.length;
    await expect(refreshAll({ run, emptyCache: () => undefined })).resolves.toBeUndefined();
    expect(fake.syncs.length - syncsBefore).toBe(1);
  });
});

describe("test connection", () => {
  test("lists the key's projects and the nature superprojects", async () => {
    const check = await testConnection(service.connection);
    expect(check.projects.map((p) => p.project_name)).toEqual(["demo"]);
    expect(check.projectKnown).toBe(true);
    expect(check.nature).toEqual({ ok: true, superprojects: ["nc-demo"] });
  });

  test("a project the key cannot use is flagged; a wrong nature URL is named apart from the base URL", async () => {
    const check = await testConnection({
      ...service.connection,
      project: "other",
      natureUrl: `${service.emulator.url}/not-nature`,
    });
    expect(check.projectKnown).toBe(false);
    expect(check.nature.ok).toBe(false);
  });

  test("a refused key and a plain-http remote URL are errors a user can act on", async () => {
    await expect(testConnection({ ...service.connection, apiKey: "wrong-key" })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(testConnection({ ...service.connection, baseUrl: "http://risk.example.com" })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
  });
});
