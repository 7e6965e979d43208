import { RISK_DATA_AVAILABLE } from "../../../../src/api/types";
import {
  offerForSheet,
  searchPointsOnSheet,
  syncSearchPoints,
} from "../../../../src/taskpane/features/sync/search-offer-actions";
import { newWorkbook, usePaneTestService, userSheetsOf } from "../../support";
import { english } from "../../../support/english";

/**
 * The offer to read a sheet's many search points as a portfolio: the points are found in the fake
 * workbook's RISK.SEARCH formulas (literals, cells, a column formula's ranges), the offer names a
 * portfolio the service (the emulator, over HTTP) does not have, and accepting it syncs the points.
 */

const service = usePaneTestService({ processingDelayMs: 50 });

/** A sheet of `n` distinct points in B and C (header in row 1) and a column formula over them in E2. */
function sheetWithColumnFormula(n: number) {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  const rows = Array.from({ length: n }, (_, i) => [`S${i + 1}`, 10 + i / 100, 20 + i / 100]);
  wb.fake.setValues("Sites", `A1:C${n + 1}`, [["Site", "Lat", "Lng"], ...rows]);
  wb.fake.setValues("Sites", "E2", [[`=RISK.SEARCH(B2:B${n + 1},C2:C${n + 1},"floods","30yr")`]]);
  return wb;
}

test("points come from literals, single cells and a column formula's ranges, each point once", async () => {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  wb.fake.setValues("Sites", "A1:B4", [
    [51.5, -0.12],
    [48.85, 2.35],
    [6.52, 3.38],
    [51.5, -0.12],
  ]);
  wb.fake.setValues("Sites", "D1:D5", [
    ['=RISK.SEARCH(A1,B1,"floods","30yr")'],
    ['=RISK.SEARCH(A2,B2,"wildfire",15)'],
    ['=RISK.SEARCH(A1:A4,B1:B4,"floods","30yr")'],
    ['=RISK.SEARCH(40.71,-74.01,"floods","30yr")'],
    ['=RISK.SUMMARY("demo-portfolio",0,"wildfire")'],
  ]);
  const before = userSheetsOf(wb.fake);
  const found = await searchPointsOnSheet(wb.run);
  expect(found.sheetName).toBe("Sites");
  expect(found.points).toEqual([
    { lat: 51.5, lng: -0.12 },
    { lat: 48.85, lng: 2.35 },
    { lat: 6.52, lng: 3.38 },
    { lat: 40.71, lng: -74.01 },
  ]);
  expect(userSheetsOf(wb.fake)).toEqual(before); // only read
});

test("a few hundred points or fewer: no offer", async () => {
  const wb = sheetWithColumnFormula(120);
  const { offer, points } = await offerForSheet(wb.run, service.client);
  expect(points).toHaveLength(120);
  expect(offer.kind).toBe("none");
  expect(offer.kind === "none" && english(offer.reason)).toBe("120 distinct points: searching them is quick enough.");
});

test("400 points: the offer names a new portfolio, gives both times, and says the numbers will differ; accepting syncs the points", async () => {
  await service.client.portfolios.create("Sites_points");
  const wb = sheetWithColumnFormula(400);
  const { offer, points } = await offerForSheet(wb.run, service.client);
  if (offer.kind !== "offer") throw new Error(english(offer.reason));
  expect(offer.portfolioName).toBe("Sites_points_2"); // never over the existing one
  expect(offer.searchMs).toBeGreaterThan(offer.portfolioMs);
  expect(english(offer.timing)).toMatch(
    /^Searching 400 points: about .+ As portfolio "Sites_points_2": about .+ takes a while/,
  );
  expect(english(offer.caveat)).toMatch(/The numbers will differ/);

  const result = await syncSearchPoints({
    client: service.client,
    portfolio: offer.portfolioName,
    points,
    pollIntervalMs: 20,
  });
  expect(result).toMatchObject({ outcome: "synced", portfolio: "Sites_points_2", assetCount: 400, created: true });
  const assets = await service.client.portfolios.assets("Sites_points_2").all();
  expect(assets).toHaveLength(400);
  expect(assets[0]).toMatchObject({ entity_id: "P1", lat: 10, lng: 20, portfolio_index: 0 });
  expect((await service.client.portfolios.get("Sites_points_2")).status).toBe(RISK_DATA_AVAILABLE);
});

test("a portfolio that appeared meanwhile under the offered name is never replaced", async () => {
  await service.client.portfolios.create("taken_meanwhile");
  await service.client.portfolios.importAssets("taken_meanwhile", "entity_id,lat,lng\nX,1,1\n");
  const result = await syncSearchPoints({
    client: service.client,
    portfolio: "taken_meanwhile",
    points: [{ lat: 2, lng: 2 }],
    pollIntervalMs: 20,
  });
  expect(result).toEqual({ outcome: "declined", portfolio: "taken_meanwhile" });
  expect((await service.client.portfolios.assets("taken_meanwhile").all()).map((a) => a.entity_id)).toEqual(["X"]);
});
