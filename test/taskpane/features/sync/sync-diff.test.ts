/**
 * Sync as a diff: before an import replaces a portfolio's assets, the question
 * carries what changes, keyed on entity_id (or position). End to end against the emulator over
 * HTTP; distances checked against a hand computation.
 */
import { describeDiff, diffAssets, distanceKm } from "../../../../src/taskpane/features/sync/model/sync-diff";
import { syncRangeToPortfolio, type ReplaceQuestion } from "../../../../src/taskpane/features/sync/sync-actions";
import { newWorkbook, syncSelection, usePaneTestService } from "../../support";
import { english } from "../../../support/english";

const service = usePaneTestService({ processingDelayMs: 20 });

const HEADER = ["Site ID", "Name", "Latitude", "Lon", "Country", "label:tier"];
const SITES = [
  HEADER,
  ["S-1", "London depot", 51.5074, -0.1278, "GB", "gold"],
  ["S-2", "Paris hub", 48.8566, 2.3522, "FR", "silver"],
  ["S-3", "Lagos port", 6.5244, 3.3792, "NG", "gold"],
];

function sheetWith(values: unknown[][]) {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  const last = String.fromCharCode(64 + values[0]!.length);
  wb.fake.setValues("Sites", `A1:${last}${values.length}`, values);
  wb.fake.setSelection("Sites", `A1:${last}${values.length}`);
  return wb;
}

const never = async (): Promise<boolean> => {
  throw new Error("confirmReplace must not be asked");
};

test("a re-sync shows added, removed, moved (with km), relabelled and unchanged rows by entity_id; cancelling changes nothing, confirming replaces", async () => {
  await syncSelection(service, sheetWith(SITES).run, {
    portfolio: "diff_sites",
    confirmReplace: never,
    pollIntervalMs: 10,
  });
  const before = await service.client.portfolios.assets("diff_sites").all();

  const edited = [
    HEADER,
    ["S-2", "Paris hub", 48.8606, 2.3376, "FR", "gold"], // moved about 1.16 km, tier silver → gold
    ["S-1", "London depot", 51.5074, -0.1278, "GB", "gold"], // unchanged (but now second)
    ["S-4", "Berlin office", 52.52, 13.4, "DE", "bronze"], // added; S-3 removed
  ];
  const { run } = sheetWith(edited);
  const questions: ReplaceQuestion[] = [];
  const declined = await syncSelection(service, run, {
    portfolio: "diff_sites",
    confirmReplace: async (q) => (questions.push(q), false),
    pollIntervalMs: 10,
  });
  expect(declined.outcome).toBe("declined");
  expect(await service.client.portfolios.assets("diff_sites").all()).toEqual(before);

  const { diff } = questions[0]!;
  expect(diff.key).toBe("entity_id");
  expect(describeDiff(diff)).toBe("1 added, 1 removed, 1 moved, 1 relabelled, 1 unchanged");
  expect(diff.added).toEqual([
    expect.objectContaining({ entityId: "S-4", name: "Berlin office", newIndex: 2, sheetRow: 4 }),
  ]);
  expect(diff.removed).toEqual([expect.objectContaining({ entityId: "S-3", oldIndex: 2 })]);
  expect(diff.moved).toEqual([expect.objectContaining({ entityId: "S-2", oldIndex: 1, newIndex: 0, sheetRow: 2 })]);
  expect(diff.moved[0]!.distanceKm).toBeCloseTo(1.157, 3); // haversine by hand, R = 6371.0088 km
  expect(diff.relabelled[0]!.changes).toEqual([{ key: "tier", before: "silver", after: "gold" }]);
  expect(diff.reindexed).toBe(2); // S-1 and S-2 swap places

  const replaced = await syncSelection(service, run, {
    portfolio: "diff_sites",
    confirmReplace: async () => true,
    pollIntervalMs: 10,
  });
  expect(replaced).toMatchObject({ outcome: "synced", uploaded: true });
  expect((await service.client.portfolios.assets("diff_sites").all()).map((a) => a.entity_id).sort()).toEqual([
    "S-1",
    "S-2",
    "S-4",
  ]);
});

test("without entity_ids the rows pair by position, and the diff says so", async () => {
  const noIds = (rows: unknown[][]) => rows.map((row) => row.slice(1));
  await syncSelection(service, sheetWith(noIds(SITES)).run, {
    portfolio: "diff_noids",
    confirmReplace: never,
    pollIntervalMs: 10,
  });
  const edited = noIds([HEADER, SITES[1]!, ["", "Berlin office", 52.52, 13.4, "GB", "gold"]]);
  const questions: ReplaceQuestion[] = [];
  await syncSelection(service, sheetWith(edited).run, {
    portfolio: "diff_noids",
    confirmReplace: async (q) => (questions.push(q), false),
  });
  const { diff } = questions[0]!;
  expect(diff.key).toBe("position");
  expect(diff.keyReason).toMatch(/no entity_id/);
  // Row 1 is the same; row 2 was Paris and is now Berlin (moved, renamed, relabelled); row 3 is gone.
  expect(describeDiff(diff)).toBe("0 added, 1 removed, 1 moved, 1 relabelled, 1 unchanged");
  expect(diff.moved[0]!.distanceKm).toBeCloseTo(
    distanceKm({ lat: 48.8566, lng: 2.3522 }, { lat: 52.52, lng: 13.4 }),
    9,
  );
  expect(diff.relabelled[0]!.changes).toEqual([
    { key: "entity_name", before: "Paris hub", after: "Berlin office" },
    { key: "country", before: "FR", after: "GB" },
    { key: "tier", before: "silver", after: "gold" },
  ]);
});

test("distanceKm agrees with a hand computation over a long distance; diffAssets of equal sides is all unchanged", () => {
  expect(distanceKm({ lat: 51.5074, lng: -0.1278 }, { lat: 52.52, lng: 13.4 })).toBeCloseTo(931.2325, 3);
  const asset = {
    portfolio_name: "p",
    portfolio_index: 0,
    entity_id: "A",
    entity_name: "a",
    labels: { k: "v" },
    lat: 1,
    lng: 2,
  };
  const row = { entity_id: "A", entity_name: "a", lat: 1, lng: 2, labels: { k: "v" }, sheetRow: 2 };
  expect(describeDiff(diffAssets([asset], [row]))).toBe("0 added, 0 removed, 0 moved, 0 relabelled, 1 unchanged");
});

test("over 5,000 rows: said before anything is sent, with the numbered portfolios; splitting syncs name-1 and name-2 in row order", async () => {
  const rows: unknown[][] = [["entity_id", "lat", "lng", "label:region"]];
  for (let i = 0; i < 5_003; i++)
    rows.push([`E${i}`, ((i * 37) % 140) - 70 + 0.5, ((i * 91) % 350) - 175 + 0.5, `r${i % 3}`]);
  const wb = newWorkbook({ firstSheetName: "Big" });
  wb.fake.setValues("Big", `A1:D${rows.length}`, rows);
  wb.fake.setSelection("Big", `A1:D${rows.length}`);
  const base = {
    client: service.client,
    run: wb.run,
    source: { kind: "selection" as const },
    confirmReplace: never,
    pollIntervalMs: 10,
  };

  const asked = await syncRangeToPortfolio({ ...base, portfolio: "big" });
  expect(asked).toMatchObject({ outcome: "too-many", rowCount: 5_003, parts: ["big-1", "big-2"] });
  await expect(service.client.portfolios.get("big-1")).rejects.toThrow();

  const tooLong = await syncRangeToPortfolio({ ...base, portfolio: "a_portfolio_name_of_29_chars9" });
  expect(tooLong).toMatchObject({ outcome: "too-many", parts: [] });
  expect(english(tooLong.outcome === "too-many" ? tooLong.problem : undefined)).toMatch(
    /at most 30.*shorten the portfolio name to 28 or fewer/,
  );

  const split = await syncRangeToPortfolio({ ...base, portfolio: "big", split: true });
  expect(split).toMatchObject({
    outcome: "split",
    assetCount: 5_003,
    parts: [
      { portfolio: "big-1", assetCount: 5_000 },
      { portfolio: "big-2", assetCount: 3 },
    ],
  });
  const second = await service.client.portfolios.assets("big-2").all();
  expect(second.map((a) => a.entity_id)).toEqual(["E5000", "E5001", "E5002"]);
}, 60_000);
