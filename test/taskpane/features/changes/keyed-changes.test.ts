/**
 * "What changed since last refresh" compares the cells of a keyed pasted table by row key and
 * column, not by address: a table sorted between the two readings compares each asset with itself.
 */
import { compareWithSnapshot, takeChangeSnapshot } from "../../../../src/taskpane/features/changes/changes-actions";
import { newWorkbook, pasteSummarySheet, usePaneTestService } from "../../support";

const service = usePaneTestService({ processingDelayMs: 20 });

test("a pasted summary sorted between snapshot and comparison shows no change; a changed value shows under its asset", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  const header = fake.read(summary.sheetName, "A1:Z1")[0].filter((v) => v !== "");
  const score = header.findIndex((h) => String(h).endsWith("_risk_score"));
  const letter = String.fromCharCode(65 + score);
  const rows = summary.rowCount;
  fake.setSelection(summary.sheetName, `${letter}2:${letter}${rows + 1}`);
  const snapshot = await takeChangeSnapshot({ client: service.client, run });
  expect(snapshot.cells.every((c) => c.key !== undefined)).toBe(true);
  // The analyst sorts by that score: every row moves, no value changes.
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(summary.sheetName)
      .tables.getItemAt(0)
      .sort.apply([{ key: score, ascending: false }]);
  });
  const unchanged = await compareWithSnapshot({ client: service.client, run, snapshot, threshold: 0 });
  expect(unchanged.changes).toEqual([]);
  // One asset's score really changes (typed here): reported once, at its row now.
  const ids = fake.read(summary.sheetName, `B2:B${rows + 1}`);
  fake.setValues(summary.sheetName, `${letter}2`, [[5]]);
  const changed = await compareWithSnapshot({ client: service.client, run, snapshot, threshold: 0 });
  expect(changed.changes).toHaveLength(1);
  expect(changed.changes[0]).toMatchObject({ after: 5 });
  expect(changed.changes[0].address).toContain(`${letter}2`);
  expect(ids[0][0]).not.toBe("");
});

test("comparing cells that are not in a pasted table reads them and writes the Changes sheet in two requests to Excel", async () => {
  const { fake, run } = newWorkbook();
  fake.addSheet("Scores");
  fake.setValues("Scores", "A1:B3", [
    [0.2, 0.5],
    [0.7, 0.1],
    [0.4, 0.9],
  ]);
  fake.setSelection("Scores", "A1:B3");
  const snapshot = await takeChangeSnapshot({ client: service.client, run });
  expect(snapshot.cells.some((c) => c.key !== undefined)).toBe(false);
  fake.setValues("Scores", "B2", [[0.6]]);
  const syncsBefore = fake.syncCount;
  const report = await compareWithSnapshot({ client: service.client, run, snapshot, threshold: 0.01 });
  // Each sync is a round trip to Excel (on the web, across the internet): the range with the
  // workbook's names in one, the new sheet in the other.
  expect(fake.syncCount - syncsBefore).toBeLessThanOrEqual(2);
  expect(report.changes).toHaveLength(1);
  expect(report.changes[0]).toMatchObject({ address: "Scores!B2", before: 0.1, after: 0.6 });
  expect(fake.read(report.sheet!.sheetName, "A2:D2")[0]).toEqual(["Scores!B2", "score", 0.1, 0.6]);
});
