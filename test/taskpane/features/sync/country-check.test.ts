/**
 * The country check in the sync flow, on the Excel fake: "Check only" lists the points outside
 * their country with their cells and previews the swap and sign fixes; the fix is written only
 * when the analyst accepts it, with the originals kept beside the range; a refused or failed write
 * leaves the analyst's cells as they were. A sync asks before sending points outside their country
 * (Stop sends nothing; Send goes on), and its outcome carries the findings.
 */
import { applyCountryFixes } from "../../../../src/taskpane/features/sync/country-check-actions";
import { checkAssetSource } from "../../../../src/taskpane/features/sync/sync-actions";
import { FakeErrorCodes, FakeExcelError } from "../../../../testing/fake-excel";
import { countRequests, newWorkbook, syncSelection, usePaneTestService, userSheetsOf } from "../../support";
import { emulatorStats } from "../../../support/emulator";
import { english } from "../../../support/english";

const SITES = [
  ["entity_id", "Site", "lat", "lng", "Land"],
  ["S-1", "Paris office", 2.35, 48.85, "Frankreich"],
  ["S-2", "Denver depot", 39.74, 104.99, "USA"],
  ["S-3", "Miami Beach hotel", 25.79, -80.13, "US"],
  ["S-4", "Singapore office", 1.29, 103.85, "SG"],
  ["S-5", "Berlin plant", 52.52, 13.405, "Allemagne"],
  ["S-6", "Gibraltar office", 36.14, -5.35, "GI"],
  ["S-7", "New York office", 40.7, 74.0, "United States"],
];

function workbook() {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  wb.fake.setValues("Sites", "A1:E8", SITES);
  wb.fake.setSelection("Sites", "A1:E8");
  return wb;
}

test("Check only: each finding with its cell, the fixes previewed, and nothing changed in the sheet", async () => {
  const { fake, run } = workbook();
  const before = userSheetsOf(fake);
  const checked = await checkAssetSource(run, { kind: "selection" });
  const check = checked.countryCheck!;
  expect(check.toleranceKm).toBe(25);
  expect(check.checked).toBe(6);
  expect(check.inside).toBe(2);
  expect(check.findings.map((f) => [f.kind, f.problem.address, f.fix?.kind])).toEqual([
    ["outside", "Sites!C2", "swap"],
    ["outside", "Sites!C3", "lng-sign"],
    ["near-edge", "Sites!C4", undefined],
    ["no-outline", "Sites!E7", undefined],
    ["outside", "Sites!C8", undefined],
  ]);
  expect(english(check.findings[4]!.problem.message)).toMatch(
    /C8, D8: 40.7, 74 lies more than 25 km outside United States of America \(US\) \(E8\)\. With the longitude's sign flipped it would be 40.7, -74, not well inside/,
  );
  expect(check.findings[0]!.fix).toEqual({
    kind: "swap",
    sheetRow: 2,
    lat: { address: "Sites!C2", cell: "C2", before: "2.35", after: 48.85 },
    lng: { address: "Sites!D2", cell: "D2", before: "48.85", after: 2.35 },
    original: { address: "Sites!F2", cell: "F2", before: "", after: "2.35, 48.85" },
  });
  expect(userSheetsOf(fake)).toEqual(before);
});

test("accepted: the corrected points are written, the originals kept beside the range; checked again, they pass", async () => {
  const { fake, run } = workbook();
  const { countryCheck } = await checkAssetSource(run, { kind: "selection" });
  expect(await applyCountryFixes(run, countryCheck!)).toBe(2);
  expect(fake.read("Sites", "C1:F3")).toEqual([
    ["lat", "lng", "Land", "original lat, lng"],
    [48.85, 2.35, "Frankreich", "2.35, 48.85"],
    [39.74, -104.99, "USA", "39.74, 104.99"],
  ]);
  // Nothing else of the sheet changed.
  expect(fake.read("Sites", "A4:E8")).toEqual(SITES.slice(3));
  expect(fake.read("Sites", "F4:F8").flat()).toEqual(["", "", "", "", ""]);
  const again = await checkAssetSource(run, { kind: "selection" });
  expect(again.countryCheck!.findings.map((f) => f.problem.cell)).toEqual(["C4", "E7", "C8"]);
  expect(again.countryCheck!.inside).toBe(4);
});

test("a range that holds the originals column (an earlier fix's) keeps later originals in it", async () => {
  const { fake, run } = workbook();
  const first = await checkAssetSource(run, { kind: "selection" });
  await applyCountryFixes(run, first.countryCheck!);
  // Later, another point is typed swapped, and the analyst selects the range with the originals.
  fake.setValues("Sites", "A9:E9", [["S-8", "Lyon depot", 4.85, 45.76, "FR"]]);
  fake.setSelection("Sites", "A1:F9");
  const again = await checkAssetSource(run, { kind: "selection" });
  const fix = again.countryCheck!.findings.find((f) => f.fix)!.fix!;
  expect(fix.original.address).toBe("Sites!F9");
  expect(await applyCountryFixes(run, again.countryCheck!)).toBe(1);
  expect(fake.read("Sites", "C9:G9")).toEqual([[45.76, 4.85, "FR", "4.85, 45.76", ""]]);
  expect(fake.read("Sites", "F1:F3").flat()).toEqual(["original lat, lng", "2.35, 48.85", "39.74, 104.99"]);
});

test("declined or refused: the analyst's cells stay as they were", async () => {
  const { fake, run } = workbook();
  const { countryCheck } = await checkAssetSource(run, { kind: "selection" });
  const before = userSheetsOf(fake);

  // The column beside the range holds a note where an original would go: nothing is written.
  fake.setValues("Sites", "F3", [["my note"]]);
  const withNote = userSheetsOf(fake);
  await expect(applyCountryFixes(run, countryCheck!)).rejects.toThrow(
    /The column right of your range holds data at F3.*Nothing was written/,
  );
  expect(userSheetsOf(fake)).toEqual(withNote);
  fake.setValues("Sites", "F3", [[""]]);

  // A coordinate edited since the preview: nothing is written.
  fake.setValues("Sites", "D3", [[-104.99]]);
  const edited = userSheetsOf(fake);
  await expect(applyCountryFixes(run, countryCheck!)).rejects.toThrow(/Sites!D3 changed since the preview/);
  expect(userSheetsOf(fake)).toEqual(edited);
  fake.setValues("Sites", "D3", [[104.99]]);
  expect(userSheetsOf(fake)).toEqual(before);

  // The write fails part-way: what was written is put back.
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.includes("set:values")) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected write failure"), applyFirst: 3 };
  });
  await expect(applyCountryFixes(run, countryCheck!)).rejects.toThrow(/injected write failure/);
  fake.setFaultInjector(undefined);
  expect(failed).toBe(true);
  expect(userSheetsOf(fake)).toEqual(before);
});

test("a range without a country column is not checked", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:D2", [SITES[0]!.slice(0, 4), SITES[1]!.slice(0, 4)]);
  fake.setSelection("Sites", "A1:D2");
  const checked = await checkAssetSource(run, { kind: "selection" });
  expect(checked.countryCheck).toBeUndefined();
  expect(checked.countryCheckError).toBeUndefined();
});

describe("with the service", () => {
  const service = usePaneTestService({ processingDelayMs: 20 });

  test("stopped at the points outside their country: nothing is sent, and the fixes are offered", async () => {
    const { fake, run } = workbook();
    const before = userSheetsOf(fake);
    const asked: string[][] = [];
    const postsBefore = countRequests(await emulatorStats(service.emulator), "POST ");
    const result = await syncSelection(service, run, {
      portfolio: "country_stop",
      confirmReplace: async () => true,
      confirmMapping: async () => true,
      confirmOutside: async (outside) => {
        asked.push(outside.map((f) => f.problem.cell));
        return false;
      },
      pollIntervalMs: 20,
    });
    expect(result.outcome).toBe("outside-declined");
    if (result.outcome !== "outside-declined") return;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(expect.arrayContaining(["C2", "C3"]));
    expect(result.countryCheck!.findings.filter((f) => f.fix).map((f) => f.problem.cell)).toEqual(["C2", "C3"]);
    expect(countRequests(await emulatorStats(service.emulator), "POST ")).toBe(postsBefore);
    await expect(service.client.portfolios.get("country_stop")).rejects.toThrow();
    expect(userSheetsOf(fake)).toEqual(before);
  });

  test("sent as they are when the analyst says so; the outcome carries the findings, and the sheet is unchanged", async () => {
    const { fake, run } = workbook();
    const before = userSheetsOf(fake);
    const result = await syncSelection(service, run, {
      portfolio: "country_check",
      confirmReplace: async () => true,
      confirmMapping: async () => true,
      confirmOutside: async () => true,
      pollIntervalMs: 20,
    });
    expect(result.outcome).toBe("synced");
    if (result.outcome !== "synced") return;
    expect(result.countryCheck!.findings.filter((f) => f.fix).map((f) => f.problem.cell)).toEqual(["C2", "C3"]);
    expect(countRequests(await emulatorStats(service.emulator), "POST ")).toBeGreaterThan(0);
    expect(userSheetsOf(fake)).toEqual(before);
  });
});
