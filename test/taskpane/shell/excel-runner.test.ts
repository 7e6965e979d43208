import { excelRunner } from "../../../src/taskpane/shell/excel-runner";
import { writeNewSheets } from "../../../src/taskpane/ui/write-new-sheets";
import { installFakeExcel, type FakeExcel } from "../../../testing/fake-excel";

/**
 * The pane's runner while the analyst edits a cell: Excel fails a batch sent meanwhile unless its
 * Excel.run asked to wait (`delayForCellEdit`). A paste (several requests) during which the analyst
 * starts typing into a cell must finish whole once they leave the cell, not fail half-way.
 */

const globals = globalThis as unknown as Record<string, unknown>;
let fake: FakeExcel;
let saved: { Excel: unknown; Office: unknown };

beforeEach(() => {
  saved = { Excel: globals.Excel, Office: globals.Office };
  delete globals.Excel;
  fake = installFakeExcel(globals)!;
});

afterEach(() => {
  globals.Excel = saved.Excel;
  globals.Office = saved.Office;
});

const sheets = [
  { sheetName: "Summary", header: ["entity_id", "score"], rows: [["a", 0.5]] },
  { sheetName: "Labels", header: ["entity_id", "label"], rows: [["a", "High"]] },
];

/**
 * Once the paste's first request was applied, the analyst starts typing into a cell, and leaves it
 * `leaveAfterMs` later (Enter). `left` says whether they have left it yet.
 */
function analystEditsACellPartWay(leaveAfterMs: number): { left: () => boolean } {
  let left = false;
  fake.setFaultInjector(() => {
    fake.setFaultInjector(undefined);
    const edit = fake.enterCellEdit();
    setTimeout(() => {
      left = true;
      edit.exit();
    }, leaveAfterMs);
    return undefined;
  });
  return { left: () => left };
}

test("a paste during which the analyst edits a cell waits for them, then finishes whole", async () => {
  const run = excelRunner()!;
  const editing = analystEditsACellPartWay(50);
  const written = await writeNewSheets(run, sheets);
  expect(editing.left()).toBe(true); // it waited for the analyst
  expect(written.map((w) => w.sheetName)).toEqual(["Summary", "Labels"]);
  expect(fake.read("Summary", "A1:B2")).toEqual([
    ["entity_id", "score"],
    ["a", 0.5],
  ]);
  expect(fake.read("Labels", "A2:B2")).toEqual([["a", "High"]]);
  expect(fake.syncs.some((s) => s.failed)).toBe(false);
});

test("without waiting (a plain Excel.run), the paste and its clean-up fail while the analyst edits a cell", async () => {
  const before = fake.snapshot();
  analystEditsACellPartWay(50);
  const error = await writeNewSheets((batch) => fake.run(batch), sheets).catch((e: unknown) => e);
  // The paste fails, and so does the clean-up's own request: the analyst is told to check the
  // workbook by hand (here nothing had been written yet).
  expect(String(error)).toMatch(/Edit cell mode.*could not be removed: delete them by hand/);
  expect(fake.snapshot()).toEqual(before);
});
