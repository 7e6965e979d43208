/**
 * Assets that cannot be told apart: the sync pane's check names the rows that collide and previews
 * the entity_ids it would write; the analyst's cells change only when they accept, and a write that
 * fails changes nothing. Fake workbook; nothing is sent to a service.
 */
import { identityFinding } from "../../../../src/taskpane/features/sync/model/asset-ids";
import { checkAssetSource, writeAssetIds } from "../../../../src/taskpane/features/sync/sync-actions";
import { FakeErrorCodes, FakeExcelError } from "../../../../testing/fake-excel/errors";
import { newWorkbook } from "../../support";
import { english } from "../../../support/english";

const TWINS = [
  ["entity_name", "lat", "lng", "label:tier"],
  ["Depot", 51.5, -0.12, "gold"],
  ["Yard", 48.85, 2.35, "silver"],
  ["Depot", 51.5, -0.12, "bronze"],
];

function workbookWith(values: unknown[][]) {
  const wb = newWorkbook({ firstSheetName: "Sites" });
  const last = String.fromCharCode(64 + values[0].length);
  wb.fake.setValues("Sites", `A1:${last}${values.length}`, values);
  wb.fake.setSelection("Sites", `A1:${last}${values.length}`);
  return wb;
}

test("assets sharing a name and place without ids: the check names their rows and previews a new entity_id column, written only on consent", async () => {
  const { fake, run } = workbookWith(TWINS);
  const checked = await checkAssetSource(run, { kind: "selection" });
  expect(checked.problems).toEqual([]);
  expect(checked.identity).toMatchObject({
    collisions: [{ shared: '"Depot" at 51.5, -0.12', rows: [2, 4] }],
    missingIds: 3,
    how: "new column",
  });
  expect(checked.identity!.cells.map((c) => [c.cell, c.before, c.after])).toEqual([
    ["E1", "", "entity_id"],
    ["E2", "", "asset-2"],
    ["E3", "", "asset-3"],
    ["E4", "", "asset-4"],
  ]);
  // The check wrote nothing.
  expect(fake.read("Sites", "E1:E4")).toEqual([[""], [""], [""], [""]]);

  expect(await writeAssetIds(run, checked.identity!)).toBe(3);
  expect(fake.read("Sites", "E1:E4")).toEqual([["entity_id"], ["asset-2"], ["asset-3"], ["asset-4"]]);
  // With the column in the range, the assets are told apart: nothing more to offer.
  fake.setSelection("Sites", "A1:E4");
  expect((await checkAssetSource(run, { kind: "selection" })).identity).toBeUndefined();
});

test("an entity_id column with gaps: only those cells are offered; a write that fails changes nothing; a cell edited since the preview stops it", async () => {
  const { fake, run } = workbookWith([
    ["entity_id", "entity_name", "lat", "lng"],
    ["S-1", "Depot", 51.5, -0.12],
    ["", "Depot", 51.5, -0.12],
    ["", "Depot", 51.5, -0.12],
    ["S-2", "Yard", 48.85, 2.35],
  ]);
  const checked = await checkAssetSource(run, { kind: "selection" });
  const identity = checked.identity!;
  expect(identity.how).toBe("fill");
  expect(identity.collisions[0].rows).toEqual([2, 3, 4]);
  expect(identity.cells.map((c) => [c.cell, c.before, c.after])).toEqual([
    ["A3", "", "asset-3"],
    ["A4", "", "asset-4"],
  ]);
  const before = fake.read("Sites", "A1:D5");
  // The request that writes fails after its first operation was applied: the cell is put back.
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.some((op) => op.includes("set:values"))) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected write failure"), applyFirst: 2 };
  });
  await expect(writeAssetIds(run, identity)).rejects.toThrow(/injected write failure/);
  fake.setFaultInjector(undefined);
  expect(fake.read("Sites", "A1:D5")).toEqual(before);
  // A cell changed since the preview: nothing is written.
  fake.setValues("Sites", "A3", [["S-9"]]);
  await expect(writeAssetIds(run, identity)).rejects.toThrow(/Sites!A3 changed since the preview: nothing was written/);
  expect(fake.read("Sites", "A4")).toEqual([[""]]);
});

test("beside a named table, or over cells that hold data, no column is written: the pane says what to do", async () => {
  const assets = [
    { entity_id: "", entity_name: "Depot", lat: 51.5, lng: -0.12, labels: {}, sheetRow: 2 },
    { entity_id: "", entity_name: "Depot", lat: 51.5, lng: -0.12, labels: {}, sheetRow: 3 },
  ];
  const inTable = identityFinding(assets, [], "Sites!A1:C3", true);
  expect(inTable).toMatchObject({ cells: [] });
  expect(english(inTable?.blocked)).toMatch(/Add an entity_id column to the table/);
  const { fake, run } = workbookWith(TWINS);
  fake.setValues("Sites", "E3", [["my note"]]);
  const checked = await checkAssetSource(run, { kind: "selection" });
  expect(checked.identity).toMatchObject({ cells: [] });
  expect(english(checked.identity?.blocked)).toMatch(/right of your range \(Sites!E1:E4\) holds data at E3/);
  expect(fake.read("Sites", "E3")).toEqual([["my note"]]);
});
