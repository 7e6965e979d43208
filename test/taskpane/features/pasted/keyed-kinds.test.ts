/**
 * The keyed refresh of the applied layer, export and nature pastes, each as the analyst uses it: the table
 * sorted, a note typed beside every row, then the portfolio loses its first asset (every
 * portfolio_index after it shifts) and gains one; "Refresh pasted sheets" keeps the analyst's
 * order, each note beside its own asset, the removed asset's note in the "Removed at refresh" block,
 * and the new asset at the end. Emulator over HTTP, fake workbook.
 */
import { PROCESSING_COMPLETED } from "../../../../src/api/types";
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import { columnLetters as col } from "../../../../src/shaping/a1";
import { downloadExport, unpackExport } from "../../../../src/taskpane/features/export/export-actions";
import { pasteAppliedLayer } from "../../../../src/taskpane/features/layer/applied-layer-actions";
import { listSubprojects, pasteSubprojectSummary } from "../../../../src/taskpane/features/nature/nature-actions";
import { refreshPastedSheets } from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import type { ExcelRunner } from "../../../../src/taskpane/ui/pane-types";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { assetsCsv, importPortfolio } from "../../../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../../support";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";

const service = usePaneTestService();

/** Assets A0..A3 now; after the change A1..A4 (A0 removed, A4 added). */
const BEFORE = assetsCsv(4);
const AFTER = (() => {
  const lines = assetsCsv(5).split("\n");
  return [lines[0], ...lines.slice(2)].join("\n");
})();

/**
 * Sorts the sheet's table by entity_id descending, types a note beside each row, changes the
 * portfolio, refreshes, and checks every note is beside its own asset in the analyst's order.
 */
async function sortNoteChangeRefresh(fake: FakeExcel, run: ExcelRunner, sheetName: string, portfolio: string) {
  const record = (await run((context) => readProvenance(context))).records.find((r) => r.sheetName === sheetName)!;
  expect(record.rowKey).toMatchObject({ asset: true, assetKind: "entity_id" });
  const width = record.header.length;
  const idCol = record.header.indexOf("entity_id");
  const rows = record.rows;
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(sheetName)
      .tables.getItemAt(0)
      .sort.apply([{ key: idCol, ascending: false }]);
  });
  const id = col(idCol);
  const ids = fake.read(sheetName, `${id}2:${id}${rows + 1}`).map(([v]) => String(v));
  const note = col(width);
  fake.setValues(sheetName, `${note}1:${note}${rows + 1}`, [["note"], ...ids.map((v) => [`about ${v}`])]);

  await importPortfolio(service.client, portfolio, AFTER);
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  const outcome = result.outcomes.find((o) => o.sheetName === sheetName)!;
  expect(outcome).toMatchObject({ ok: true });
  const keyed = outcome.keyed!;
  expect(keyed.removed.every((k) => k.includes("A0"))).toBe(true);
  expect(keyed.removed.length).toBeGreaterThan(0);
  expect(keyed.added.every((k) => k.includes("A4"))).toBe(true);
  expect(keyed.added.length).toBeGreaterThan(0);

  const now = outcome.rows!;
  const after = fake.read(sheetName, `A2:${note}${now + 1}`);
  const kept = after.slice(0, now - keyed.added.length);
  for (const line of kept) expect(line[width]).toBe(`about ${String(line[idCol])}`);
  // The analyst's order (entity_id descending), the new asset's rows at the end without a note.
  const order = kept.map((line) => String(line[idCol]));
  expect(order).toEqual([...order].sort().reverse());
  for (const line of after.slice(kept.length)) {
    expect(line[idCol]).toBe("A4");
    expect(line[width]).toBe("");
  }
  // The removed asset's notes are kept below, with its key.
  expect(keyed.removedBlock).toBeDefined();
  const block = fake.read(sheetName, keyed.removedBlock!);
  expect(block[1]).toEqual(["key", "note"]);
  for (const line of block.slice(2)) {
    expect(line[0]).toContain("A0");
    expect(line[1]).toBe("about A0");
  }
}

test("applied layer: sorted with notes, an asset removed and one added, refreshed by key", async () => {
  await importPortfolio(service.client, "layer-keyed", BEFORE);
  const { fake, run } = newWorkbook();
  const vector = (await service.client.compositions.listVectors()).find((v) => v.name === "demo-losses")!;
  const pasted = await pasteAppliedLayer({
    client: service.client,
    run,
    vectorId: vector.id,
    portfolio: "layer-keyed",
  });
  expect(pasted.rowCount).toBe(4);
  await sortNoteChangeRefresh(fake, run, pasted.sheetName, "layer-keyed");
});

test("export: each unpacked file with assets, sorted with notes, an asset removed and one added, refreshed by key", async () => {
  await importPortfolio(service.client, "export-keyed", BEFORE);
  const { fake, run } = newWorkbook();
  const download = await downloadExport(service.client, "export-keyed");
  const sheets = await unpackExport({ run, download, client: service.client });
  const records = (await run((context) => readProvenance(context))).records;
  const withAssets = records.filter((r) => r.header.includes("portfolio_index") && r.header.includes("entity_id"));
  expect(withAssets.length).toBeGreaterThan(0);
  // One file is enough to walk the journey; the others are refreshed alongside it.
  const sheet = sheets.find((s) => s.sheetName === withAssets[0].sheetName)!;
  await sortNoteChangeRefresh(fake, run, sheet.sheetName, "export-keyed");
});

test("nature summary: keyed by metric, sorted with notes and a row deleted by hand, refreshed: notes beside their metric, the deleted row not added back", async () => {
  const ready = (await listSubprojects(service.client, "nc-demo")).find((s) => s.status === PROCESSING_COMPLETED)!;
  const { fake, run } = newWorkbook();
  const pasted = await pasteSubprojectSummary({
    client: service.client,
    run,
    subproject: { id: ready.id, name: ready.name },
  });
  const record = (await run((context) => readProvenance(context))).records[0];
  expect(record.rowKey).toMatchObject({ asset: false, columns: ["metric"] });
  const rows = pasted.rowCount;
  expect(rows).toBeGreaterThan(2);
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(pasted.sheetName)
      .tables.getItemAt(0)
      .sort.apply([{ key: 0, ascending: false }]);
  });
  const metrics = fake.read(pasted.sheetName, `A2:A${rows + 1}`).map(([m]) => String(m));
  fake.setValues(pasted.sheetName, `C1:C${rows + 1}`, [["note"], ...metrics.map((m) => [`on ${m}`])]);
  // The analyst deletes the second row of the table (and its note) by hand.
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(pasted.sheetName)
      .getRange(`A3:C3`)
      .delete("Up" as Excel.DeleteShiftDirection);
    await context.sync();
  });
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes[0]).toMatchObject({ ok: true, rows: rows - 1 });
  expect(result.outcomes[0].keyed!.deletedByHand.map((d) => d.label)).toEqual([metrics[1]]);
  const after = fake.read(pasted.sheetName, `A2:C${rows}`);
  expect(after.map((line) => line[0])).toEqual(metrics.filter((_, i) => i !== 1));
  for (const line of after) expect(line[2]).toBe(`on ${String(line[0])}`);
});
