/**
 * Risk matrix, scenario comparison and label-count chart sheets, the asset list paste and the map's
 * click-to-select, end to end: emulator over HTTP, fake workbook (which refuses conditional formats
 * and charts Excel would refuse).
 */
import { columnLetters as col } from "../../../../src/shaping/a1";
import { rememberAssetSource, selectAssetRow } from "../../../../src/taskpane/ui/asset-source-actions";
import { pasteAssets } from "../../../../src/taskpane/features/portfolios/portfolios-actions";
import {
  listOverlays,
  loadMapData,
  loadOverlay,
  pasteRiskMatrix,
  pasteScenarioComparison,
} from "../../../../src/taskpane/features/visual/risk-views-actions";
import { listPastedSheets, refreshPastedSheets } from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { newWorkbook, usePaneTestService } from "../../support";
import { assetsCsv, importPortfolio } from "../../../functions/support/emulator";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";
const PORTFOLIO = "demo-portfolio";

const service = usePaneTestService();

test("risk matrix: assets × hazards with labels coloured by conditional formats, scenario and window in the title, plus a stacked chart of counts", async () => {
  const { fake, run } = newWorkbook();
  const summary = await service.client.datasets.summary(PORTFOLIO, { scenario: "ssp245", window: 15 }).all();
  const sheets = await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    scenario: "ssp245",
    window: 15,
    cells: "label",
  });
  expect(sheets.map((s) => s.sheetName)).toEqual([`Matrix ${PORTFOLIO}`, `Counts ${PORTFOLIO}`]);
  const [matrix, counts] = sheets;
  expect(matrix.rowCount).toBe(summary.length);
  expect(fake.read(matrix.sheetName, "A1")[0][0]).toMatch(/ssp245 · 15-year window/);
  const grid = fake.read(matrix.sheetName, `A2:${col(matrix.columnCount - 1)}${matrix.rowCount + 2}`);
  expect(grid[0].slice(0, 4)).toEqual(["portfolio_index", "entity_id", "entity_name", "cyclone"]);
  const first = summary.find((s) => s.portfolio_index === grid[1][0])!;
  for (const [i, hazard] of grid[0].slice(3).entries())
    expect(grid[1][3 + i]).toBe(first.risk_summaries.find((r) => r.hazard === hazard)?.risk_class);

  const model = fake.model.findSheet(matrix.sheetName)!;
  const hazards = matrix.columnCount - 3;
  expect(model.conditionalFormats).toHaveLength(hazards * 3);
  expect(model.conditionalFormats[0]).toMatchObject({
    type: "ContainsText",
    address: `'${matrix.sheetName}'!D3:D${matrix.rowCount + 2}`,
  });
  expect(
    model.conditionalFormats.map((c) => (c.settings["textComparison.rule"] as { text: string }).text).slice(0, 3),
  ).toEqual(["LOW", "MEDIUM", "HIGH"]);

  // Counts: one row per label, one column per hazard; they add up to the assets.
  const table = fake.read(counts.sheetName, `A2:${col(hazards)}5`);
  expect(table.map((r) => r[0])).toEqual(["label", "LOW", "MEDIUM", "HIGH"]);
  for (let c = 1; c <= hazards; c++) expect(table.slice(1).reduce((n, r) => n + Number(r[c]), 0)).toBe(summary.length);
  const [chart] = fake.model.findSheet(counts.sheetName)!.charts;
  expect(chart).toMatchObject({ type: "ColumnStacked", seriesBy: "Rows" });
  expect(chart.series.map((s) => s.name)).toEqual(["LOW", "MEDIUM", "HIGH"]);
  expect(chart.series[1].values).toBe(`'${counts.sheetName}'!B4:${col(hazards)}4`);
  expect(fake.sheetNames().filter((n) => n.startsWith("~"))).toEqual([]);
});

test("risk matrix of scores: a colour scale instead of label rules", async () => {
  const { fake, run } = newWorkbook();
  const [matrix] = await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    scenario: "ssp585",
    window: 30,
    cells: "score",
  });
  expect(typeof fake.read(matrix.sheetName, "D3")[0][0]).toBe("number");
  const cfs = fake.model.findSheet(matrix.sheetName)!.conditionalFormats;
  expect(cfs.every((c) => c.type === "ColorScale")).toBe(true);
  expect(cfs).toHaveLength(matrix.columnCount - 3);
});

test("scenario comparison: ssp126 / ssp245 / ssp585 side by side, sorted by the largest increase", async () => {
  const { fake, run } = newWorkbook();
  const [sheet] = await pasteScenarioComparison({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    hazard: "heatwave",
    window: 30,
  });
  const grid = fake.read(sheet.sheetName, `A2:${col(sheet.columnCount - 1)}${sheet.rowCount + 2}`);
  expect(grid[0]).toEqual([
    "portfolio_index",
    "entity_id",
    "entity_name",
    "ssp126_score",
    "ssp126_label",
    "ssp245_score",
    "ssp245_label",
    "ssp585_score",
    "ssp585_label",
    "score_change_ssp126_to_ssp585",
    "label_change_ssp126_to_ssp585",
  ]);
  const changes = grid.slice(1).map((r) => r[9]);
  expect(changes.every((c) => typeof c === "number")).toBe(true);
  expect([...changes].sort((a, b) => Number(b) - Number(a))).toEqual(changes);
  for (const r of grid.slice(1)) expect(r[9]).toBeCloseTo(Number(r[7]) - Number(r[3]), 6);
  expect(fake.model.findSheet(sheet.sheetName)!.conditionalFormats).toHaveLength(9);
});

test("the map's data: every located asset with its label per hazard; counts match the summary", async () => {
  const data = await loadMapData(service.client, PORTFOLIO, "ssp585", 30);
  const assets = await service.client.portfolios.assets(PORTFOLIO).all();
  expect(data.assets.length + data.unlocated).toBe(assets.length);
  expect(data.hazards).toContain("wildfire");
  const highs = data.assets.filter((a) => a.risks.wildfire?.label === "HIGH").length;
  expect(data.counts.wildfire.HIGH).toBe(highs);
});

test("click-to-select: the asset's row in a synced range, or in a pasted asset list; none known says so", async () => {
  const { fake, run } = newWorkbook();
  const assets = await service.client.portfolios.assets(PORTFOLIO).all();
  expect(await selectAssetRow(run, PORTFOLIO, assets[2].entity_id, 2)).toEqual({
    notFound: expect.stringMatching(/No sheet/),
  });

  fake.addSheet("Sites");
  fake.setValues("Sites", "B2:D5", [
    ["name", "entity_id", "lat"],
    ["x", assets[0].entity_id, 1],
    ["y", assets[2].entity_id, 2],
    ["z", assets[1].entity_id, 3],
  ]);
  await rememberAssetSource(run, PORTFOLIO, "Sites!B2:D5", "synced");
  expect(await selectAssetRow(run, PORTFOLIO, assets[2].entity_id, 2)).toEqual({ selected: "Sites!B4:D4" });
  expect(fake.selectionAddress()).toBe("Sites!B4:D4");
  expect(fake.activeSheetName()).toBe("Sites");

  const pasted = await pasteAssets({ client: service.client, run, portfolio: PORTFOLIO });
  expect(pasted.rowCount).toBe(assets.length);
  const result = await selectAssetRow(run, PORTFOLIO, assets[3].entity_id, 3);
  expect(result).toEqual({ selected: expect.stringContaining(pasted.sheetName.replace(/ /g, " ")) });
  expect(fake.selectionAddress()).toMatch(/!A5:/);
});

test("overlays: the compositions' vector layers and nature sub-projects are offered, and load as GeoJSON", async () => {
  const choices = await listOverlays(service.client);
  const vector = choices.find((c) => c.kind === "vector");
  expect(vector).toBeDefined();
  const overlay = await loadOverlay(service.client, vector!);
  expect(overlay.geojson.type).toMatch(/FeatureCollection|Feature|Polygon|MultiPolygon|GeometryCollection/);
  const nature = choices.find((c) => c.kind === "nature");
  if (nature) expect((await loadOverlay(service.client, nature)).geojson.type).toBeTruthy();
});

test("the risk sheets record their provenance (scenario, window, hazard) and refresh in place", async () => {
  const { fake, run } = newWorkbook();
  const [matrix, counts] = await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    scenario: "ssp126",
    window: 30,
    cells: "score",
  });
  const [compare] = await pasteScenarioComparison({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    hazard: "wildfire",
    window: 30,
  });
  const listed = await listPastedSheets(run);
  const byName = Object.fromEntries(listed.sheets.map((s) => [s.sheetName, s]));
  expect(byName[matrix.sheetName]).toMatchObject({
    operation: "risk-matrix",
    portfolio: PORTFOLIO,
    rows: matrix.rowCount,
  });
  expect(byName[counts.sheetName]).toMatchObject({ operation: "label-counts", rows: counts.rowCount });
  expect(byName[compare.sheetName]).toMatchObject({ operation: "scenario-comparison", rows: compare.rowCount });
  const sources = fake.read("Climate Risk sources", "A1:Z10").map((r) => r.join(" | "));
  expect(sources.find((line) => line.includes(matrix.sheetName))).toMatch(/cells=score; scenario=ssp126; window=30/);
  expect(sources.find((line) => line.includes(compare.sheetName))).toMatch(/hazard=wildfire; window=30/);

  const before = fake.read(matrix.sheetName, `A2:${col(matrix.columnCount - 1)}${matrix.rowCount + 2}`);
  const refreshed = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(refreshed.outcomes.map((o) => o.ok)).toEqual([true, true, true]);
  expect(fake.read(matrix.sheetName, `A2:${col(matrix.columnCount - 1)}${matrix.rowCount + 2}`)).toEqual(before);
});

test("a refreshed risk matrix that grew keeps its label colours over every row, and the counts chart every hazard", async () => {
  await importPortfolio(service.client, "grow-matrix", assetsCsv(3));
  const { fake, run } = newWorkbook();
  const [matrix, counts] = await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: "grow-matrix",
    scenario: "ssp245",
    window: 30,
    cells: "label",
  });
  const formatsOf = () => fake.model.findSheet(matrix.sheetName)!.conditionalFormats.map((cf) => cf.address);
  const lastRowOf = (address: string) => Number(/(\d+)$/.exec(address)![1]);
  expect(formatsOf().length).toBeGreaterThan(0);
  expect(formatsOf().every((a) => lastRowOf(a) === matrix.rowCount + 2)).toBe(true);
  const seriesBefore = fake.model.findSheet(counts.sheetName)!.charts[0].series.map((s) => s.values);

  await importPortfolio(service.client, "grow-matrix", assetsCsv(7));
  const refreshed = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(refreshed.outcomes.map((o) => o.ok)).toEqual([true, true]);
  const grownRows = refreshed.outcomes.find((o) => o.sheetName === matrix.sheetName)!.rows!;
  expect(grownRows).toBeGreaterThan(matrix.rowCount);
  // Every colour rule now reaches the new last row of the matrix (header on row 2, title above).
  expect(formatsOf().map(lastRowOf)).toEqual(formatsOf().map(() => grownRows + 2));
  expect(fake.read(matrix.sheetName, `A${grownRows + 2}`)[0][0]).not.toBe("");
  // The counts table kept its shape (a row per label, a column per hazard): its chart reads the same cells.
  expect(fake.model.findSheet(counts.sheetName)!.charts[0].series.map((s) => s.values)).toEqual(seriesBefore);
});
