/**
 * Where a portfolio's assets are is kept in the workbook: the pane reopened (a fresh module, nothing
 * in memory) on the same workbook still selects an asset's row from the map and still names the
 * synced ranges; a sheet deleted or renamed since is a clear "not found"; a deleted portfolio's
 * records leave the workbook.
 */
import { ASSET_SOURCES_STORE_SHEET } from "../../../src/shaping/paste-provenance";
import { createFakeExcel, type FakeExcel } from "../../../testing/fake-excel";
import type { ExcelRunner } from "../../../src/excel/runner";

type AssetSources = typeof import("../../../src/taskpane/ui/asset-source-actions");

/** The pane's module as a newly opened pane loads it: a fresh module registry, no state carried over. */
async function openPane(): Promise<AssetSources> {
  let loaded: AssetSources | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = await import("../../../src/taskpane/ui/asset-source-actions");
  });
  return loaded!;
}

function workbookWithSites(): { fake: FakeExcel; run: ExcelRunner } {
  const fake = createFakeExcel();
  fake.addSheet("Sites 2026");
  fake.setValues("Sites 2026", "B2:D5", [
    ["name", "entity_id", "lat"],
    ["x", "A1", 1],
    ["y", "A2", 2],
    ["z", "A3", 3],
  ]);
  return { fake, run: (batch) => fake.run(batch) };
}

test("a range synced in one session is where the next session's map selects the row, and what delete names", async () => {
  const { fake, run } = workbookWithSites();
  const first = await openPane();
  await first.rememberAssetSource(run, "Demo", "'Sites 2026'!B2:D5", "synced");
  await first.rememberAssetSource(run, "other", "Sheet1!A1:C3", "pasted");

  const next = await openPane();
  expect(next).not.toBe(first);
  expect(await next.selectAssetRow(run, "demo", "A3", 2)).toEqual({ selected: "'Sites 2026'!B5:D5" });
  expect(fake.selectionAddress()).toBe("'Sites 2026'!B5:D5");
  expect(await next.syncedRangesOf(run, "DEMO")).toEqual(["'Sites 2026'!B2:D5"]);
  expect(await next.syncedRangesOf(run, "other")).toEqual([]); // pasted, not synced
  expect(await next.assetSourceOf(run, "other")).toBe("Sheet1!A1:C3");

  // Kept very hidden, as addresses only.
  expect(fake.snapshot().sheets.find((s) => s.name === ASSET_SOURCES_STORE_SHEET)).toMatchObject({
    visibility: "VeryHidden",
  });
  expect(fake.read(ASSET_SOURCES_STORE_SHEET, "A1:C3")).toEqual([
    ["portfolio", "address", "kind"],
    ["demo", "'Sites 2026'!B2:D5", "synced"],
    ["other", "Sheet1!A1:C3", "pasted"],
  ]);
});

test("a sheet renamed or deleted since is found out on lookup, with a sentence", async () => {
  const { fake, run } = workbookWithSites();
  await (await openPane()).rememberAssetSource(run, "demo", "'Sites 2026'!B2:D5", "synced");
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem("Sites 2026").name = "Sites old";
    await context.sync();
  });
  const next = await openPane();
  expect(await next.selectAssetRow(run, "demo", "A3", 2)).toEqual({
    notFound: `The sheet "Sites 2026" holding demo's assets no longer exists.`,
  });
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem("Sites old").delete();
    await context.sync();
  });
  expect(await next.selectAssetRow(run, "demo", "A3", 2)).toEqual({
    notFound: expect.stringMatching(/no longer exists/),
  });
});

test("forgetting a deleted portfolio removes its records from the workbook, and only its own", async () => {
  const { fake, run } = workbookWithSites();
  const pane = await openPane();
  await pane.rememberAssetSource(run, "demo", "'Sites 2026'!B2:D5", "synced");
  await pane.rememberAssetSource(run, "kept", "'Sites 2026'!B2:D5", "synced");
  await pane.forgetAssetSources(run, "DEMO");

  const next = await openPane();
  expect(await next.assetSourceOf(run, "demo")).toBeUndefined();
  expect(await next.selectAssetRow(run, "demo", "A3", 2)).toEqual({
    notFound: "No sheet of demo's assets is known in this workbook.",
  });
  expect(await next.syncedRangesOf(run, "kept")).toEqual(["'Sites 2026'!B2:D5"]);
  expect(fake.usedAddress(ASSET_SOURCES_STORE_SHEET)).toBe(`${ASSET_SOURCES_STORE_SHEET}!A1:C2`);
});

test("a workbook that never recorded a source gets no store from a lookup or a forget", async () => {
  const { fake, run } = workbookWithSites();
  const pane = await openPane();
  await pane.forgetAssetSources(run, "demo");
  expect(await pane.syncedRangesOf(run, "demo")).toEqual([]);
  expect(fake.sheetNames()).not.toContain(ASSET_SOURCES_STORE_SHEET);
});
