/**
 * From a sheet of addresses to a synced portfolio, in the fake workbook over real HTTP (the
 * geocoder stand-in and the emulator on 127.0.0.1): the preview writes nothing, accepting writes
 * coordinates only into empty cells with the geocoder, precision, confidence and date beside them
 * (text as text), the precision reaches the service as a label, and the geocoder key is in no cell,
 * no request URL and no message.
 */
import { memoryStorage, useConnectionStorage } from "../../../../src/shared/connection";
import { loadGeocoder, saveGeocoder } from "../../../../src/shared/geocoder-connection";
import {
  geocodeSheet,
  hazardCells,
  placeOffline,
  readAddressSheet,
  writeGeocoded,
} from "../../../../src/taskpane/features/sync/geocode-actions";
import { newWorkbook, syncSelection, usePaneTestService } from "../../support";
import { startedForTheseTests, startTestGeocoder } from "../../../support/emulator";
import { english } from "../../../support/english";

const KEY = "geo-key-7f3a9c";
const service = usePaneTestService({ processingDelayMs: 50 });
const geocoder = startedForTheseTests(() => startTestGeocoder({ apiKey: KEY }));
afterAll(() => useConnectionStorage(undefined));

const SHEET = [
  ["entity_id", "Address", "Country", "lat", "lng", "Owner"],
  ["hq", "10 Downing Street, London", "UK", "", "", "Ann"],
  ["shop", "Rue de Rivoli, Paris", "FR", "", "", "Bob"],
  ["kept", "Baker Street, London", "GB", 51.52, -0.157, "Cy"],
  ["twin", "Springfield", "US", "", "", "Di"],
  ["land", "Bavaria", "DE", "", "", "Ed"],
];

test("geocode, preview, accept, sync: the precision synced as a label, existing coordinates kept, the key nowhere", async () => {
  const logged: unknown[] = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const)
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
  const storage = memoryStorage();
  useConnectionStorage(storage);
  await saveGeocoder({ kind: "pelias", url: geocoder.url, apiKey: KEY, perSecond: 50, concurrency: 2 });
  const settings = (await loadGeocoder())!;
  expect(settings.apiKey).toBe(KEY);

  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:F6", SHEET);
  fake.setSelection("Sites", "A1:F6");
  const sheet = await readAddressSheet(run, { kind: "selection" });
  expect(sheet.rows.map((r) => r.sheetRow)).toEqual([2, 3, 5, 6]);
  expect(sheet.sentColumns).toEqual(["Address", "Country"]);

  const cells = await hazardCells(service.client, "no_such_portfolio");
  expect(cells?.portfolio).toBeDefined(); // the first portfolio's grids, named in the preview
  const preview = await geocodeSheet({ settings, sheet, cells });
  expect(preview.rows.map((r) => [r.sheetRow, r.place?.precision, r.flags])).toEqual([
    [2, "address", []],
    [3, "street", []],
    [5, "city", ["ambiguous", "low confidence", "coarser than street"]],
    [6, "region", ["low confidence", "coarser than street"]],
  ]);
  // The emulator's grids are 0.25° (about 28 km): a city centre is within one cell, a region's is not.
  expect(preview.rows.map((r) => r.tooCoarseFor.length > 0)).toEqual([false, false, false, true]);
  // The preview wrote nothing.
  expect(fake.read("Sites", "A1:F6")).toEqual(SHEET);

  const accepted = preview.rows.filter((r) => r.flags.length === 0);
  const plan = await writeGeocoded(run, sheet, accepted, new URL(geocoder.url).host);
  expect(plan.newColumns).toEqual([
    "label:geocoder",
    "label:geocode_precision",
    "label:geocode_confidence",
    "label:geocoded_on",
  ]);
  expect(plan.range).toBe("Sites!A1:J6");
  expect(fake.selectionAddress()).toBe("Sites!A1:J6");
  const written = fake.read("Sites", "A1:J6");
  expect(written[0]!.slice(6)).toEqual(plan.newColumns);
  expect(written[1]![3]).toBeCloseTo(51.5, 1);
  expect(written[1]!.slice(6, 9)).toEqual([new URL(geocoder.url).host, "address", 0.95]);
  expect(written[1]![9]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(fake.read("Sites", "G2:J2", "numberFormat")[0]).toEqual(["@", "@", "General", "@"]);
  expect(written[3]!.slice(3, 5)).toEqual([51.52, -0.157]); // the analyst's coordinates, kept
  expect(written[3]!.slice(6)).toEqual(["", "", "", ""]);
  expect([...written[4]!.slice(3, 5), ...written[4]!.slice(6)]).toEqual(["", "", "", "", "", ""]); // flagged, not accepted
  expect(JSON.stringify(fake.snapshot())).not.toContain(KEY);
  expect(geocoder.requests.join("\n")).not.toContain(KEY);

  // Only the three rows with coordinates can be synced now: the selection without the flagged row.
  fake.setSelection("Sites", "A1:J4");
  const result = await syncSelection(service, run, {
    portfolio: "geocoded_sites",
    confirmReplace: async () => true,
    confirmMapping: async () => true,
    pollIntervalMs: 20,
  });
  expect(result).toMatchObject({ outcome: "synced", assetCount: 3 });
  const assets = await service.client.portfolios.assets("geocoded_sites").all();
  const hq = assets.find((a) => a.entity_id === "hq")!;
  expect(hq.labels).toMatchObject({ geocode_precision: "address" });
  expect(JSON.stringify(assets)).not.toContain(KEY);
  // After the sync too (its provenance and remembered sources included), and in nothing logged.
  expect(JSON.stringify(fake.snapshot())).not.toContain(KEY);
  expect(JSON.stringify(logged)).not.toContain(KEY);
  jest.restoreAllMocks();
});

test("with no geocoder, the offline lookup places each City at its centre, flags a repeated name, and writes its source", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:C4", [
    ["entity_id", "City", "Country"],
    ["a", "Zürich", "CH"],
    ["b", "Springfield", "US"],
    ["c", "Nowhere-on-earth", "FR"],
  ]);
  fake.setSelection("Sites", "A1:C4");
  const sheet = await readAddressSheet(run, { kind: "selection" });
  const preview = await placeOffline(sheet);
  expect(preview.attribution).toMatch(/GeoNames/);
  expect(
    preview.rows.map((r) => [
      r.sheetRow,
      r.place?.precision,
      r.flags.includes("ambiguous"),
      r.missing && english(r.missing),
    ]),
  ).toEqual([
    [2, "city", false, undefined],
    [3, "city", true, undefined],
    [4, undefined, false, "not found"],
  ]);
  expect(preview.rows[0]!.place!.lat).toBeCloseTo(47.37, 1);
  await writeGeocoded(run, sheet, [preview.rows[0]!], preview.source);
  expect(fake.read("Sites", "F1:G2")).toEqual([
    ["label:geocoder", "label:geocode_precision"],
    ["offline city lookup", "city"],
  ]);
});
