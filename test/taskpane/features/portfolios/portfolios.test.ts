/**
 * The task pane's portfolio actions, against the emulator over HTTP and the Excel fake:
 * a sync, a delete and a nature create drop the functions' cached results of what they changed and
 * recalculate (bug 2); delete with a confirmation that says where the workbook uses the portfolio,
 * assets into a new sheet (bug 4); sub-project names (bug 1); CSV downloads; dated timeseries.
 */
import Papa from "papaparse";
import { NotFoundError } from "../../../../src/api/errors";
import { RiskEngine } from "../../../../src/functions/engine/engine";
import { dataChangeMatcher, portfolioSummary, type DataChange } from "../../../../src/functions/data-loaders";
import type { ForgetChange } from "../../../../src/taskpane/ui/data-change";
import { saveFile } from "../../../../src/taskpane/ui/downloads";
import { downloadSummary } from "../../../../src/taskpane/features/summary/summary-actions";
import {
  createSubprojectFromFile,
  proposeSubprojectName,
} from "../../../../src/taskpane/features/nature/nature-actions";
import {
  assetsTable,
  deletePortfolio,
  findPortfolioUsage,
  pasteAssets,
} from "../../../../src/taskpane/features/portfolios/portfolios-actions";
import { downloadTimeseries, pasteTimeseries } from "../../../../src/taskpane/features/timeseries/timeseries-actions";
import { flattenSummary } from "../../../../src/shaping/flatten-summary";
import { flattenTimeseries } from "../../../../src/shaping/flatten-timeseries";
import { newWorkbook, syncSelection, usePaneTestService } from "../../support";
import { emulatorStats, routeCount } from "../../../support/emulator";

const service = usePaneTestService({ processingDelayMs: 30 });

/** A forget that drops entries of a real engine and records the changes it was told about. */
function recordingForget(engine?: RiskEngine): { forget: ForgetChange; changes: DataChange[] } {
  const changes: DataChange[] = [];
  return {
    changes,
    forget: (change) => (changes.push(change), engine ? engine.invalidate(dataChangeMatcher(change)) : 0),
  };
}

/** Counts formula evaluations of the fake (a full recalculation evaluates every formula). */
function countEvaluations(fake: ReturnType<typeof newWorkbook>["fake"]): () => number {
  let evaluations = 0;
  fake.setFormulaEvaluator(() => {
    evaluations++;
    return 0;
  });
  const start = evaluations;
  return () => evaluations - start;
}

const sitesRange = (rows: Array<[string, string, number, number]>) => [
  ["entity_id", "entity_name", "lat", "lng"],
  ...rows,
];
const never = async (): Promise<boolean> => {
  throw new Error("confirmReplace must not be asked");
};

describe("bug 2: a re-sync refreshes the RISK cells that read the portfolio", () => {
  test("the sync drops the portfolio's cached results and recalculates; the next load answers the new assets", async () => {
    const engine = new RiskEngine({ connection: service.connection, maxRetries: 0 });
    const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
    fake.setValues(
      "Sites",
      "A1:D3",
      sitesRange([
        ["A", "Alpha", 10, 10],
        ["B", "Beta", 20, 20],
      ]),
    );
    fake.setValues("Sites", "F1", [['=RISK.SUMMARY("resync",0,"wildfire")']]);
    fake.setSelection("Sites", "A1:D3");
    const { forget, changes } = recordingForget(engine);
    await syncSelection(service, run, {
      portfolio: "resync",
      confirmReplace: never,
      pollIntervalMs: 10,
      forget,
    });
    expect((await portfolioSummary(engine, "resync", "ssp585", 30, new AbortController().signal)).size).toBe(2);

    // The analyst adds a row and syncs again.
    fake.setValues(
      "Sites",
      "A1:D4",
      sitesRange([
        ["A", "Alpha", 10, 10],
        ["B", "Beta", 20, 20],
        ["C", "Gamma", -30, 40],
      ]),
    );
    fake.setSelection("Sites", "A1:D4");
    const evaluations = countEvaluations(fake);
    changes.length = 0;
    const result = await syncSelection(service, run, {
      portfolio: "resync",
      confirmReplace: async () => true,
      pollIntervalMs: 10,
      forget,
    });
    expect(result).toMatchObject({ outcome: "synced", uploaded: true, assetCount: 3 });
    expect(changes).toEqual([
      { kind: "portfolio", portfolio: "resync" },
      { kind: "portfolio", portfolio: "resync" },
    ]); // at upload, and once risk data is there
    expect(evaluations()).toBeGreaterThan(0); // Excel was asked to recalculate the RISK cells
    expect((await portfolioSummary(engine, "resync", "ssp585", 30, new AbortController().signal)).size).toBe(3);
  });

  test("a sync that uploads nothing (the portfolio already holds these assets) neither drops nor recalculates", async () => {
    const { fake, run } = newWorkbook({ firstSheetName: "Same" });
    fake.setValues("Same", "A1:D2", sitesRange([["S", "Same", 1, 1]]));
    fake.setSelection("Same", "A1:D2");
    await syncSelection(service, run, {
      portfolio: "unchanged",
      confirmReplace: never,
      pollIntervalMs: 10,
    });
    const { forget, changes } = recordingForget();
    const evaluations = countEvaluations(fake);
    const again = await syncSelection(service, run, {
      portfolio: "unchanged",
      confirmReplace: never,
      pollIntervalMs: 10,
      forget,
    });
    expect(again).toMatchObject({ outcome: "synced", uploaded: false });
    expect(changes).toEqual([]);
    expect(evaluations()).toBe(0);
  });
});

describe("bug 4: delete a portfolio, export its assets to a sheet", () => {
  test("the confirmation names the RISK cells and the synced range; the delete answers the message, drops the cache and recalculates", async () => {
    const { fake, run } = newWorkbook({ firstSheetName: "Input" });
    fake.setValues(
      "Input",
      "A1:D3",
      sitesRange([
        ["D1", "One", 5, 5],
        ["D2", "Two", 6, 6],
      ]),
    );
    fake.setSelection("Input", "A1:D3");
    await syncSelection(service, run, {
      portfolio: "to-delete",
      confirmReplace: never,
      pollIntervalMs: 10,
    });
    fake.addSheet("Report");
    fake.setValues("Report", "A1:C2", [
      [
        '=RISK.SUMMARY("to-delete",0,"wildfire")',
        '=RISK.ASSETS("TO-DELETE")',
        '=RISK.SUMMARY("to-delete-2",0,"wildfire")',
      ],
      ["to-delete", '=RISK.SUMMARY("other",1,"flood")', "=1+1"],
    ]);
    fake.setValues("Input", "F1", [['=RISK.TIMESERIES("to-delete",0,"heatwave")']]);

    const usage = await findPortfolioUsage(run, "to-delete");
    expect(usage.syncedRanges).toEqual(["Input!A1:D3"]);
    expect(usage.riskCells).toEqual({ riskCells: 3, sheets: ["Input", "Report"] });

    const formulasBefore = fake.read("Report", "A1:C2", "formulas");
    const evaluations = countEvaluations(fake);
    const { forget, changes } = recordingForget();
    const answer = await deletePortfolio({ client: service.client, run, forget, portfolio: "to-delete" });
    expect(answer.message).toMatch(/to-delete deleted/);
    await expect(service.client.portfolios.get("to-delete")).rejects.toBeInstanceOf(NotFoundError);
    expect(changes).toEqual([{ kind: "portfolio", portfolio: "to-delete" }]);
    expect(evaluations()).toBeGreaterThan(0);
    expect(fake.read("Report", "A1:C2", "formulas")).toEqual(formulasBefore); // the user's cells are left as they were
    expect((await findPortfolioUsage(run, "to-delete")).syncedRanges).toEqual([]);
  });

  test("deleting a portfolio that is not there is a NotFoundError; nothing is dropped", async () => {
    const { forget, changes } = recordingForget();
    await expect(
      deletePortfolio({ client: service.client, run: null, forget, portfolio: "never-was" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(changes).toEqual([]);
  });

  test("assets go into a new sheet as a table a sync can read back; service text stays text", async () => {
    await service.client.portfolios.create("export-me");
    await service.client.portfolios.importAssets(
      "export-me",
      'entity_id,entity_name,lat,lng,label:tier,label:country\nX1,=1+1,1.5,2.5,gold,GB\nX2,"Quay, north",-3.25,4,,FR\n',
    );
    const { fake, run } = newWorkbook();
    const pasted = await pasteAssets({ client: service.client, run, portfolio: "export-me" });
    expect(pasted).toMatchObject({ sheetName: "Assets export-me", rowCount: 2, columnCount: 6 });
    expect(fake.read(pasted.sheetName, "A1:F3")).toEqual([
      ["entity_id", "entity_name", "lat", "lng", "label:tier", "label:country"],
      ["X1", "=1+1", 1.5, 2.5, "gold", "GB"],
      ["X2", "Quay, north", -3.25, 4, "", "FR"],
    ]);
    expect(fake.snapshot().tables).toHaveLength(1);

    // Synced back, the sheet is exactly the portfolio: nothing to upload.
    fake.setSelection(pasted.sheetName, "A1:F3");
    const back = await syncSelection(service, run, {
      portfolio: "export-me",
      confirmReplace: never,
      pollIntervalMs: 10,
    });
    expect(back).toMatchObject({ outcome: "synced", uploaded: false });
  });

  test("a write that fails part-way leaves no sheet behind", async () => {
    const { fake, run } = newWorkbook();
    fake.failSync(2);
    await expect(pasteAssets({ client: service.client, run, portfolio: "demo-portfolio" })).rejects.toBeTruthy();
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("an empty portfolio says so and writes nothing", async () => {
    await service.client.portfolios.create("empty-one");
    const { fake, run } = newWorkbook();
    await expect(pasteAssets({ client: service.client, run, portfolio: "empty-one" })).rejects.toThrow(
      "empty-one holds no assets.",
    );
    expect(fake.sheetNames()).toEqual(["Sheet1"]);
  });

  test("label columns follow the order labels are first seen", () => {
    const table = assetsTable([
      {
        portfolio_name: "p",
        portfolio_index: 1,
        entity_id: "b",
        entity_name: "B",
        lat: 1,
        lng: 1,
        labels: { z: "1", a: "2" },
      },
      { portfolio_name: "p", portfolio_index: 0, entity_id: "a", entity_name: "A", lat: 0, lng: 0, labels: { m: "3" } },
    ]);
    expect(table.header).toEqual(["entity_id", "entity_name", "lat", "lng", "label:z", "label:a", "label:m"]);
    expect(table.rows[0]).toEqual(["a", "A", 0, 0, "", "", "3"]);
  });
});

describe("bug 1: nature sub-project names", () => {
  const area = (entity?: string) =>
    JSON.stringify({
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          properties: entity === undefined ? {} : { "Entity Name": entity },
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [20, 1],
                [20.1, 1],
                [20.1, 1.1],
                [20, 1],
              ],
            ],
          },
        },
      ],
    });

  test("the typed name is the sub-project's name; the file's Entity Name is the proposal; a taken name is said plainly", async () => {
    expect(proposeSubprojectName(area("Mangrove bay"))).toBe("Mangrove bay");
    expect(proposeSubprojectName("not json")).toBe("");
    const { fake, run } = newWorkbook();
    const evaluations = countEvaluations(fake);
    fake.setValues("Sheet1", "A1", [["=RISK.NATURE.LIST()"]]);
    const { forget, changes } = recordingForget();
    const typed = await createSubprojectFromFile(
      service.client,
      { superproject: "nc-demo", fileName: "bay.geojson", text: area("Mangrove bay"), name: "Bay east" },
      undefined,
      { run, forget },
    );
    expect(typed).toMatchObject({ project: "nc-demo", name: "Bay east" });
    expect(changes).toEqual([{ kind: "nature" }]);
    expect(evaluations()).toBeGreaterThan(0);

    const proposed = await createSubprojectFromFile(service.client, {
      superproject: "nc-demo",
      fileName: "bay.geojson",
      text: area("Mangrove bay"),
    });
    expect(proposed.name).toBe("Mangrove bay");
    const names = (await service.client.nature.subprojects("nc-demo")).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["Bay east", "Mangrove bay"]));

    const count = names.length;
    await expect(
      createSubprojectFromFile(service.client, {
        superproject: "nc-demo",
        fileName: "bay.geojson",
        text: area("x"),
        name: "Bay east",
      }),
    ).rejects.toThrow("nc-demo already has a sub-project named “Bay east”: choose another name.");
    expect((await service.client.nature.subprojects("nc-demo")).length).toBe(count);
  });

  test("a file without Entity Name and no typed name is refused before sending", async () => {
    const posts = routeCount(await emulatorStats(service.emulator), "POST /nature/projects");
    await expect(
      createSubprojectFromFile(service.client, { superproject: "nc-demo", fileName: "plain.geojson", text: area() }),
    ).rejects.toThrow(/Name the new sub-project: plain\.geojson has no "Entity Name"/);
    expect(routeCount(await emulatorStats(service.emulator), "POST /nature/projects")).toBe(posts);
  });
});

describe("downloads and dated timeseries", () => {
  test("Download as CSV: the timeseries file has the paste's header and numbers, dates narrowed to the months", async () => {
    const filters = {
      hazard: "flood_potential",
      indicator: "obs_score",
      scenario: "ssp585",
      measure: "mid",
      startDate: "2021-11-05",
      endDate: "2022-02-28",
    };
    const file = await downloadTimeseries({ client: service.client, portfolio: "demo-portfolio", filters });
    expect(file.fileName).toBe("demo-portfolio-items.csv");
    const items = await service.client.datasets
      .items("demo-portfolio", {
        hazard: "flood_potential",
        indicator: "obs_score",
        scenario: "ssp585",
        measure: "mid",
        start_date: "2021-11-05",
        end_date: "2022-02-28",
      })
      .all();
    const table = flattenTimeseries(items);
    expect(table.years).toEqual(["2021-11", "2021-12", "2022-01", "2022-02"]);
    const parsed = Papa.parse<unknown[]>(new TextDecoder().decode(file.bytes).trim(), { dynamicTyping: true });
    expect(parsed.data[0]).toEqual(table.header);
    expect(parsed.data.slice(1)).toEqual(table.rows.map((row) => row.map((cell) => (cell === "" ? null : cell))));

    const { fake, run } = newWorkbook();
    const pasted = await pasteTimeseries({ client: service.client, run, portfolio: "demo-portfolio", filters });
    expect(pasted.years).toBe(4);
    expect(fake.read(pasted.sheetName, "H1:K1")[0]).toEqual(["2021-11", "2021-12", "2022-01", "2022-02"]);
  });

  test("Download as CSV: the summary file has the summary sheet's header and numbers", async () => {
    const file = await downloadSummary({ client: service.client, portfolio: "demo-portfolio", scenario: "ssp126" });
    const expected = flattenSummary(
      await service.client.datasets.summary("demo-portfolio", { scenario: "ssp126" }).all(),
    );
    const parsed = Papa.parse<unknown[]>(new TextDecoder().decode(file.bytes).trim(), { dynamicTyping: true });
    expect(parsed.data[0]).toEqual(expected.header);
    expect(parsed.data.slice(1)).toEqual(expected.rows);
  });

  test("a malformed or reversed date is refused before anything is sent", async () => {
    const before = routeCount(
      await emulatorStats(service.emulator),
      "GET /api/portfolios/:portfolio_name/datasets/physical/items/export",
    );
    await expect(
      downloadTimeseries({ client: service.client, portfolio: "demo-portfolio", filters: { startDate: "2021-02-30" } }),
    ).rejects.toThrow('From "2021-02-30" is not a date that exists.');
    await expect(
      downloadTimeseries({
        client: service.client,
        portfolio: "demo-portfolio",
        filters: { startDate: "2022", endDate: "2021-06-01" },
      }),
    ).rejects.toThrow("To is before From (2022).");
    await expect(
      downloadTimeseries({ client: service.client, portfolio: "demo-portfolio", filters: { endDate: "06/2021" } }),
    ).rejects.toThrow('To "06/2021" is not a date YYYY-MM-DD or a year YYYY.');
    expect(
      routeCount(
        await emulatorStats(service.emulator),
        "GET /api/portfolios/:portfolio_name/datasets/physical/items/export",
      ),
    ).toBe(before);
  });

  test("saving hands the browser a Blob URL and the file name through a clicked anchor", async () => {
    const clicked: Array<{ href: string; download: string; attached: boolean }> = [];
    const body = {
      children: new Set<unknown>(),
      appendChild(node: unknown) {
        this.children.add(node);
      },
    };
    const doc = {
      body,
      createElement: () => {
        const anchor = {
          href: "",
          download: "",
          style: {} as Record<string, string>,
          click() {
            clicked.push({ href: anchor.href, download: anchor.download, attached: body.children.has(anchor) });
          },
          remove() {
            body.children.delete(anchor);
          },
        };
        return anchor;
      },
    } as unknown as Document;
    const file = { fileName: "p-items.csv", contentType: "text/csv", bytes: new TextEncoder().encode("a,b\n1,2\n") };
    const created: Blob[] = [];
    const original = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => (created.push(blob), "blob:test/1");
    jest.useFakeTimers();
    try {
      saveFile(file, doc);
    } finally {
      URL.createObjectURL = original;
      jest.useRealTimers();
    }
    expect(clicked).toEqual([{ href: "blob:test/1", download: "p-items.csv", attached: true }]);
    expect(body.children.size).toBe(0);
    expect(created[0].type).toBe("text/csv");
    expect(await created[0].text()).toBe("a,b\n1,2\n");
  });
});
