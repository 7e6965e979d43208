/**
 * Asset lists as analysts have them, synced from the pane against the emulator over HTTP: headers
 * read as synonyms are shown before anything is sent; coordinates in degrees-minutes-seconds,
 * hemisphere letters or decimal commas are offered as a preview and written only when accepted;
 * types outside the published list and unreadable prices are warnings; the type dropdown is added
 * only when asked for.
 */
import {
  checkAssetSource,
  convertCoordinates,
  offerTypeDropdown,
  syncRangeToPortfolio,
  type MappingReview,
} from "../../../../src/taskpane/features/sync/sync-actions";
import { countRequests, newWorkbook, syncSelection, usePaneTestService, userSheetsOf } from "../../support";
import { emulatorStats, routeCount } from "../../../support/emulator";
import { english } from "../../../support/english";

const service = usePaneTestService({ processingDelayMs: 50 });
beforeEach(() => service.emulator.reset());

const SITES = [
  ["Site", "Latitude", "Longitude", "Type", "Address", "label:price"],
  ["Paris office", `48°51'24"N`, `2°21'8"E`, "Commercial", "1 Rue de Rivoli", "$3,950,000.00"],
  ["Rome depot", "41.9N", "12.5E", "Warehouse", "Via Roma 1", "€1.2m"],
  ["London site", "51,5074", "-0,1278", "Retail Trade", "1 Strand", "12,345.00"],
];

/** The sheet as a CSV import leaves it: coordinates as text (`-0,1278` typed in a General cell is a formula). */
async function workbook() {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  await wb.run(async (context) => {
    const range = context.workbook.worksheets.getItem("Sites").getRange("A1:F4");
    range.numberFormat = SITES.map((row) => row.map(() => "@"));
    range.values = SITES;
    await context.sync();
  });
  wb.fake.setSelection("Sites", "A1:F4");
  return wb;
}

test("convertible coordinates: a preview of every change, nothing sent and nothing written until the analyst converts", async () => {
  const { fake, run } = await workbook();
  const before = userSheetsOf(fake);
  const options = {
    client: service.client,
    run,
    source: { kind: "selection" as const },
    portfolio: "values_test",
    confirmReplace: async () => true,
    pollIntervalMs: 20,
  };
  const first = await syncRangeToPortfolio(options);
  expect(first.outcome).toBe("invalid");
  if (first.outcome !== "invalid") return;
  expect(first.conversions!.map((c) => [c.cell, c.before, c.after])).toEqual([
    ["B2", `48°51'24"N`, 48.856667],
    ["C2", `2°21'8"E`, 2.352222],
    ["B3", "41.9N", 41.9],
    ["C3", "12.5E", 12.5],
    ["B4", "51,5074", 51.5074],
    ["C4", "-0,1278", -0.1278],
  ]);
  expect(userSheetsOf(fake)).toEqual(before);
  expect(countRequests(await emulatorStats(service.emulator), "POST ")).toBe(0);

  // Accepted: the sheet now holds the numbers; the next sync shows the mapping, then sends.
  expect(await convertCoordinates(run, first.conversions!)).toBe(6);
  expect(fake.read("Sites", "B2:C4")).toEqual([
    [48.856667, 2.352222],
    [41.9, 12.5],
    [51.5074, -0.1278],
  ]);
  const reviews: MappingReview[] = [];
  const synced = await syncRangeToPortfolio({
    ...options,
    confirmMapping: async (review) => {
      reviews.push(review);
      return true;
    },
  });
  expect(synced.outcome).toBe("synced");
  expect(reviews[0]!.columns.map((c) => [c.header, c.target, c.via])).toEqual([
    ["Site", { kind: "field", field: "entity_name" }, "synonym"],
    ["Latitude", { kind: "field", field: "lat" }, "synonym"],
    ["Longitude", { kind: "field", field: "lng" }, "synonym"],
    ["Type", { kind: "label", key: "type" }, "synonym"],
    ["Address", { kind: "label", key: "address" }, "synonym"],
    ["label:price", { kind: "label", key: "price" }, "exact"],
  ]);
  if (synced.outcome !== "synced") return;
  expect(synced.warnings!.map((w) => w.cell)).toEqual(["B3", "C3", "F3", "D3"]);
  expect(english(synced.warnings!.find((w) => w.cell === "D3")!.message)).toMatch(
    /label:type "Warehouse" \(D3\) is not in the service's published list.*Closest published type/,
  );
  const assets = await service.client.portfolios.assets("values_test").all();
  expect(assets.map((a) => [a.entity_name, a.labels?.type, a.labels?.address, a.labels?.price])).toEqual([
    ["Paris office", "Commercial", "1 Rue de Rivoli", "$3,950,000.00"],
    ["Rome depot", "Warehouse", "Via Roma 1", "€1.2m"],
    ["London site", "Retail Trade", "1 Strand", "12,345.00"],
  ]);
  // The dropdown is an offer: the sync added none; asked for, it is there.
  expect(synced.typeCells).toBe("Sites!D2:D4");
  expect(fake.sheetNames()).not.toContain("_ClimateRiskTypes");
  expect(await offerTypeDropdown(run, synced.typeCells!)).toEqual({ added: true, address: "Sites!D2:D4" });
});

test("an analyst who stops at the mapping sends nothing", async () => {
  const { fake, run } = await workbook();
  fake.setValues("Sites", "B2:C4", [
    [48.85, 2.35],
    [41.9, 12.5],
    [51.5, -0.12],
  ]);
  const result = await syncSelection(service, run, {
    portfolio: "values_stop",
    confirmReplace: async () => true,
    confirmMapping: async () => false,
  });
  expect(result.outcome).toBe("mapping-declined");
  const stats = await emulatorStats(service.emulator);
  expect(countRequests(stats, "POST ")).toBe(0);
  expect(routeCount(stats, "GET /api/portfolios/:portfolio_name")).toBe(0);
});

test("Check only reads and validates, and sends nothing", async () => {
  const { run } = await workbook();
  const checked = await checkAssetSource(run, { kind: "selection" });
  expect(checked).toMatchObject({ address: "Sites!A1:F4", assetCount: 0, typeCells: "Sites!D2:D4" });
  expect(checked.conversions).toHaveLength(6);
  expect(checked.columns.map((c) => c.header)).toEqual(SITES[0]);
  expect(countRequests(await emulatorStats(service.emulator), "GET /api/portfolios")).toBe(0);
});
