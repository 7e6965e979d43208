/**
 * The first paste of every kind a panel pastes goes through the kind's one definition (defined by
 * its feature, listed in features/paste-kinds.ts), the one its refresh runs: pasted, then
 * refreshed with nothing changed on the service, every sheet reads exactly as it was written and
 * the refresh by key finds no row added, removed or changed. And the kinds of one paste share a
 * read: the risk matrix and its label counts come from one summary read. Emulator over HTTP, fake workbook.
 */
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import { columnLetters as col } from "../../../../src/shaping/a1";
import { downloadExport, unpackExport } from "../../../../src/taskpane/features/export/export-actions";
import { pasteAppliedLayer } from "../../../../src/taskpane/features/layer/applied-layer-actions";
import { refreshPastedSheets } from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { pasteSummary } from "../../../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../../../src/taskpane/features/timeseries/timeseries-actions";
import { pasteRiskMatrix, pasteScenarioComparison } from "../../../../src/taskpane/features/visual/risk-views-actions";
import type { PastedSheet } from "../../../../src/taskpane/ui/pane-types";
import { assetsCsv, importPortfolio } from "../../../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../../support";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";

const PORTFOLIO = "kinds-portfolio";

const service = usePaneTestService();

beforeAll(async () => {
  await importPortfolio(service.client, PORTFOLIO, assetsCsv(6));
});

test("every kind pasted from a panel, refreshed with nothing changed: each sheet as written, no row added, removed or changed", async () => {
  const { fake, run } = newWorkbook();
  const vector = (await service.client.compositions.listVectors()).find((v) => v.name === "demo-losses")!;
  const sheets: PastedSheet[] = [
    ...(await pasteSummary({ client: service.client, run, portfolio: PORTFOLIO, scenario: "ssp245" })),
    ...(await pasteTimeseries({ client: service.client, run, portfolio: PORTFOLIO, filters: { hazard: "wildfire" } }))
      .sheets,
    ...(await pasteRiskMatrix({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      scenario: "ssp585",
      window: 30,
      cells: "label",
    })),
    ...(await pasteScenarioComparison({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      hazard: "wildfire",
      window: 15,
    })),
    await pasteAppliedLayer({ client: service.client, run, vectorId: vector.id, portfolio: PORTFOLIO }),
    ...(await unpackExport({ run, download: await downloadExport(service.client, PORTFOLIO), client: service.client })),
  ];
  const records = (await run((context) => readProvenance(context))).records;
  const operations = new Set(records.map((r) => r.operation));
  for (const operation of [
    "summary",
    "extended-summary",
    "timeseries",
    "risk-matrix",
    "label-counts",
    "scenario-comparison",
    "applied-layer",
    "export",
  ])
    expect(operations).toContain(operation);
  // Every sheet is keyed by its kind's key, as its refresh keys it.
  expect(records.every((r) => r.rowKey !== undefined)).toBe(true);
  const cells = (s: PastedSheet) => fake.read(s.sheetName, `A1:${col(s.columnCount - 1)}${s.rowCount + 1}`);
  const before = sheets.map(cells);

  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.refused).toBe(0);
  expect(result.refreshed).toBe(sheets.length);
  for (const outcome of result.outcomes) {
    expect(outcome.keyed).toMatchObject({ cellsChanged: 0, added: [], removed: [], edited: [], unknownRows: [] });
    expect(outcome.keyed?.columnsAdded).toEqual([]);
  }
  expect(sheets.map(cells)).toEqual(before);
}, 60_000);

test("the risk matrix and its label counts are shaped from one summary read", async () => {
  const summaryRequests = async () =>
    Object.entries(await service.routes())
      .filter(([route]) => route.endsWith("/datasets/physical/summary"))
      .reduce((n, [, count]) => n + count, 0);
  await service.resetStats();
  await service.client.datasets.summary(PORTFOLIO, { scenario: "ssp126", window: 30 }).all();
  const oneRead = await summaryRequests();
  expect(oneRead).toBeGreaterThan(0);

  const { run } = newWorkbook();
  await service.resetStats();
  const [matrix, counts] = await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    scenario: "ssp126",
    window: 30,
    cells: "score",
  });
  expect(matrix.rowCount).toBe(6);
  expect(counts.rowCount).toBe(3);
  expect(await summaryRequests()).toBe(oneRead);
});

test("a refresh reads once what one first paste read once: the timeseries' two sheets one item list, an export's files one download", async () => {
  const { client } = service;
  const requestsTo = async (ending: string) =>
    Object.entries(await service.routes())
      .filter(([route]) => route.endsWith(ending))
      .reduce((n, [, count]) => n + count, 0);
  // The pages of one read of the item list, none asked past its end.
  await service.resetStats();
  await client.datasets.items(PORTFOLIO, {}).all({ readAhead: 1 });
  const onePass = await requestsTo("/datasets/physical/items");
  expect(onePass).toBeGreaterThan(3);
  const { fake, run } = newWorkbook();
  const timeseries = await pasteTimeseries({ client, run, portfolio: PORTFOLIO, filters: {} });
  expect(timeseries.sheets.map((s) => s.kind)).toEqual(["projected", "observed"]);
  const files = await unpackExport({ run, download: await downloadExport(client, PORTFOLIO), client });
  expect(files.length).toBeGreaterThan(1);
  const sheets = [...timeseries.sheets, ...files];
  const cells = (s: PastedSheet) => fake.read(s.sheetName, `A1:${col(s.columnCount - 1)}${s.rowCount + 1}`);
  const before = sheets.map(cells);

  await service.resetStats();
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client, run });
  expect(result.refreshed).toBe(sheets.length);
  // One read (a few pages asked ahead past its end at most), not one per sheet.
  const itemRequests = await requestsTo("/datasets/physical/items");
  expect(itemRequests).toBeGreaterThanOrEqual(onePass);
  expect(itemRequests).toBeLessThan(2 * onePass);
  expect(await requestsTo("/datasets/physical/export")).toBe(1);
  expect(sheets.map(cells)).toEqual(before);
}, 60_000);
