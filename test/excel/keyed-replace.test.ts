/**
 * Refresh of a pasted table by row key (src/excel/keyed-replace.ts) against the Excel fake: the
 * analyst's sort, filter, notes (beside the table and inside it, values and formulas), formulas
 * elsewhere pointing into the table, and cells they changed all stay with their asset when the
 * portfolio changes; removed rows' notes are kept in a titled block; a row deleted by hand is not
 * added back silently; a failed or cancelled refresh leaves the workbook as it was.
 */
import { createFakeExcel, installFakeOffice, type FakeExcel } from "../../testing/fake-excel";
import { readProvenance, recordProvenance } from "../../src/excel/provenance-sheets";
import {
  KeyKindChangedError,
  refreshTableByKey,
  sortPastedTableAgain,
  type KeyedRefreshOptions,
  type KeyedRefreshReport,
} from "../../src/excel/keyed-replace";
import { writeTableToNewSheet } from "../../src/excel/write-sheets";
import { keyRows, ROW_KEYS } from "../../src/shaping/row-keys";
import type { ProvenanceRecord } from "../../src/shaping/paste-provenance";
import type { CellValue } from "../../src/shaping/types";
import { parseA1 } from "../../src/shaping/a1";
import { LABEL_COLOURS } from "../../src/excel/table-formats";

const SHEET = "Summary";
const HEADER = ["portfolio_index", "entity_id", "entity_name", "scenario", "window", "flood_risk_score"];

/** Summary rows of assets (by id and score), portfolio_index in the given order. */
function summaryRows(assets: ReadonlyArray<[id: string, score: number]>): CellValue[][] {
  return assets.map(([id, score], i) => [i, id, `Site ${id}`, "ssp585", 30, score]);
}

const FIRST: Array<[string, number]> = [
  ["A", 0.1],
  ["B", 0.5],
  ["C", 0.3],
  ["D", 0.9],
];

const restore: Array<() => void> = [];
afterEach(() => {
  while (restore.length > 0) restore.pop()!();
});

async function pasted(
  rows = summaryRows(FIRST),
  responseLimitBytes?: number,
): Promise<{ fake: FakeExcel; record: () => Promise<ProvenanceRecord> }> {
  const fake = createFakeExcel(responseLimitBytes ? { responseLimitBytes } : {});
  restore.push(installFakeOffice(globalThis as unknown as Record<string, unknown>, fake.requirements));
  await fake.run((context) =>
    writeTableToNewSheet(context, {
      sheetName: SHEET,
      header: HEADER,
      rows,
      provenance: { operation: "summary", baseUrl: "http://127.0.0.1:9", filters: {}, addinVersion: "test" },
      rowKeys: { spec: ROW_KEYS.summary },
    }),
  );
  const record = async () => (await fake.run((context) => readProvenance(context))).records[0];
  return { fake, record };
}

/** Refreshes with the service's rows, keyed as the pane keys them; records the new provenance. */
async function refresh(
  fake: FakeExcel,
  record: ProvenanceRecord,
  rows: CellValue[][],
  options?: KeyedRefreshOptions,
  header: string[] = HEADER,
): Promise<KeyedRefreshReport> {
  const keyed = keyRows(ROW_KEYS.summary, header, rows);
  return fake.run(async (context) => {
    const done = await refreshTableByKey(context, record, { header, rows, ...keyed }, options);
    await recordProvenance(context, [done.record]);
    return done.report;
  });
}

/** Notes typed beside the table (column H, one empty column between) by entity_id. */
function typeNotes(fake: FakeExcel): void {
  const ids = fake.read(SHEET, "B2:B5");
  fake.setValues(SHEET, "G1", [["note"]]);
  fake.setValues(
    SHEET,
    "G2:G5",
    ids.map(([id]) => [`note for ${String(id)}`]),
  );
}

/** Every row's entity_id and its note, as the sheet shows them now. */
function idsAndNotes(fake: FakeExcel, rows: number): Array<[unknown, unknown]> {
  return fake.read(SHEET, `B2:G${rows + 1}`).map((line) => [line[0], line[5]]);
}

/**
 * The fill a cell shows from the sheet's "text contains" conditional formats (the last rule that
 * matches, as Excel applies the first in its priority order and rules added later come first), or
 * undefined.
 */
function shownFill(fake: FakeExcel, address: string): string | undefined {
  const cell = parseA1(address);
  const text = String(fake.read(SHEET, address)[0][0]);
  const covering = fake.model.findSheet(SHEET)!.conditionalFormats.filter((cf) => {
    const r = parseA1(cf.address);
    return (
      cf.type === "ContainsText" &&
      cell.row >= r.row &&
      cell.row < r.row + r.rows &&
      cell.col >= r.col &&
      cell.col < r.col + r.cols
    );
  });
  const hit = covering.filter((cf) => {
    const rule = cf.settings["textComparison.rule"] as { text: string };
    return text.includes(rule.text);
  });
  return hit.length === 0 ? undefined : (hit[hit.length - 1].settings["textComparison.format.fill.color"] as string);
}

async function sortByScoreDescending(fake: FakeExcel): Promise<void> {
  await fake.run(async (context) => {
    const table = context.workbook.worksheets.getItem(SHEET).tables.getItemAt(0);
    table.sort.apply([{ key: 5, ascending: false }]);
  });
}

/** The portfolio after the change: A removed (it was first), E added at the end; B..D re-indexed. */
const CHANGED = summaryRows([
  ["B", 0.55],
  ["C", 0.3],
  ["D", 0.9],
  ["E", 0.2],
]);

describe("refresh by key", () => {
  it("keeps every note beside its own asset when an asset is removed at the top and one added at the end of a sorted table", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake); // D, B, C, A
    typeNotes(fake);
    const report = await refresh(fake, await record(), CHANGED);
    expect(idsAndNotes(fake, 4)).toEqual([
      ["D", "note for D"],
      ["B", "note for B"],
      ["C", "note for C"],
      ["E", ""],
    ]);
    expect(report).toMatchObject({
      updated: 3,
      added: ["id:E · ssp585 · 30"],
      removed: ["id:A · ssp585 · 30"],
      deletedByHand: [],
      edited: [],
    });
    // B's score changed, and portfolio_index of B, C, D shifted: only those cells were written.
    expect(fake.read(SHEET, "A3:F3")).toEqual([[0, "B", "Site B", "ssp585", 30, 0.55]]);
    // A's note is kept in a titled block below, with its key.
    expect(report.removedBlock).toBeDefined();
    const block = fake.read(SHEET, report.removedBlock!);
    expect(String(block[0][0])).toMatch(/^Removed at refresh on \d{4}-\d\d-\d\dT/);
    expect(block.slice(1).map((line) => line.filter((v) => v !== ""))).toEqual([
      ["key", "note"],
      ["id:A · ssp585 · 30", "note for A"],
    ]);
    expect((await record()).rows).toBe(4);
  });

  it("finds the table where it is now when rows were inserted above it since the paste, and refreshes it there", async () => {
    const { fake, record } = await pasted();
    typeNotes(fake);
    // Two rows inserted above the table and its notes: it now starts at A3, its record says A1.
    await fake.run(async (context) => {
      context.workbook.worksheets
        .getItem(SHEET)
        .getRangeByIndexes(0, 0, 2, 8)
        .insert("Down" as Excel.InsertShiftDirection);
    });
    expect(fake.read(SHEET, "A3:B3")).toEqual([["portfolio_index", "entity_id"]]);
    const report = await refresh(fake, await record(), CHANGED);
    expect(report).toMatchObject({ updated: 3, added: ["id:E · ssp585 · 30"], removed: ["id:A · ssp585 · 30"] });
    // Each asset keeps its note; B's new score is written on B's row, where the table is now.
    expect(fake.read(SHEET, "B4:G7").map((line) => [line[0], line[4], line[5]])).toEqual([
      ["B", 0.55, "note for B"],
      ["C", 0.3, "note for C"],
      ["D", 0.9, "note for D"],
      ["E", 0.2, ""],
    ]);
    expect(
      fake
        .read(SHEET, "A1:F2")
        .flat()
        .every((v) => v === ""),
    ).toBe(true);
    expect((await record()).tableAddress).toBe("A3:F7");
  });

  it("reads again in smaller parts whatever answer passes Excel's limit, and ends as it would without one", async () => {
    // The same refresh twice: with Excel's answers limited to a few rows, the reads that would
    // pass the limit (the table and the record of what was written asked together) are refused and
    // asked again smaller; the sheet ends the same.
    const ends: unknown[][][] = [];
    for (const limit of [undefined, 1_500]) {
      const { fake, record } = await pasted(summaryRows(FIRST), limit);
      await sortByScoreDescending(fake);
      typeNotes(fake);
      fake.resetSyncs();
      await refresh(fake, await record(), CHANGED);
      if (limit) expect(fake.syncs.some((s) => s.failed === "ResponsePayloadSizeLimitExceeded")).toBe(true);
      ends.push(fake.read(SHEET, "A1:G6"));
    }
    expect(ends[1]).toEqual(ends[0]);
    expect(ends[0].slice(1).map((line) => [line[1], line[6]])).toEqual([
      ["D", "note for D"],
      ["B", "note for B"],
      ["C", "note for C"],
      ["E", ""],
      ["", ""],
    ]);
  });

  it("sorts again by the analyst's own sort when asked, the new row taking its place", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake);
    const withHighE = CHANGED.map((r) => (r[1] === "E" ? [...r.slice(0, 5), 0.7] : r));
    await refresh(fake, await record(), withHighE); // E appended at the end whatever its score
    expect(fake.read(SHEET, "B2:B5").flat()).toEqual(["D", "B", "C", "E"]);
    await fake.run(async (context) => sortPastedTableAgain(context, await record()));
    expect(fake.read(SHEET, "B2:B5").flat()).toEqual(["D", "E", "B", "C"]);
  });

  it("leaves hidden (filtered) rows hidden and a sorted order as it is", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake);
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem(SHEET).getRange("A4").rowHidden = true; // C hidden
    });
    await refresh(fake, await record(), CHANGED);
    expect(fake.read(SHEET, "B2:B5").flat()).toEqual(["D", "B", "C", "E"]);
    expect(fake.model.findSheet(SHEET)!.hiddenRows).toEqual(new Set([3]));
  });

  it("moves the analyst's column inside the table with its row, formulas still relative to their own row", async () => {
    const { fake, record } = await pasted();
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem(SHEET);
      sheet.getRange("G1").values = [["double"]];
      sheet.tables.getItemAt(0).resize("A1:G5");
      sheet.getRange("G2:G5").formulas = [["=F2*2"], ["=F3*2"], ["=F4*2"], ["=F5*2"]];
    });
    await refresh(fake, await record(), CHANGED);
    // A's row (2) was deleted: every formula still points at its own row.
    expect(fake.read(SHEET, "B2:B5").flat()).toEqual(["B", "C", "D", "E"]);
    expect(fake.read(SHEET, "G2:G4", "formulas").flat()).toEqual(["=F2*2", "=F3*2", "=F4*2"]);
    expect(fake.read(SHEET, "G5", "formulas")).toEqual([[""]]);
  });

  it("formulas elsewhere follow their row; one pointing at the removed row shows #REF!", async () => {
    const { fake, record } = await pasted();
    fake.addSheet("Report");
    fake.setValues("Report", "A1:B1", [[`=${SHEET}!F5`, `=${SHEET}!F2`]]); // D's score, A's score
    await refresh(fake, await record(), CHANGED);
    expect(fake.read("Report", "A1:B1", "formulas")).toEqual([[`=${SHEET}!F4`, `=${SHEET}!#REF!`]]);
    expect(fake.read(SHEET, "B4")).toEqual([["D"]]);
  });

  it("lists cells the analyst changed and keeps them without the pane; the choices keep or take the service's value", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake); // D, B, C, A
    fake.setValues(SHEET, "F3", [[0.42]]); // B's score, typed over
    const asked = await refresh(fake, await record(), CHANGED);
    expect(asked.edited).toEqual([
      { address: "F3", key: "id:B · ssp585 · 30", column: "flood_risk_score", mine: 0.42, service: 0.55 },
    ]);
    expect(fake.read(SHEET, "F3")).toEqual([[0.42]]);
    expect((await record()).pendingEdits).toBe(1);
    // Asked again at the next refresh, until the analyst chooses.
    const again = await refresh(fake, await record(), CHANGED);
    expect(again.edited).toHaveLength(1);
    const taken = await refresh(fake, await record(), CHANGED, { edits: "take-service" });
    expect(taken.edited).toHaveLength(1);
    expect(fake.read(SHEET, "F3")).toEqual([[0.55]]);
    expect((await record()).editChoice).toMatchObject({ choice: "take-service", cells: 1 });
    // Kept by choice: never overwritten, never asked again.
    fake.setValues(SHEET, "F3", [[0.43]]);
    await refresh(fake, await record(), CHANGED, { edits: "keep-mine" });
    const later = await refresh(fake, await record(), CHANGED);
    expect(later).toMatchObject({ edited: [], keptByEarlierChoice: 1 });
    expect(fake.read(SHEET, "F3")).toEqual([[0.43]]);
  });

  it("writes over nothing typed while it ran: a cell changed since its read leaves the sheet whole, and the next refresh asks", async () => {
    const { fake, record } = await pasted();
    const before = fake.snapshot();
    const rec = await record();
    // The analyst types B's score after the refresh read the table and before it wrote: on its
    // second request (its backups' read), as Excel would apply the edit between two requests.
    let requests = 0;
    fake.setFaultInjector(() => {
      if (++requests === 2) fake.setValues(SHEET, "F3", [[0.42]]);
      return undefined;
    });
    await expect(refresh(fake, rec, CHANGED)).rejects.toThrow(
      'Sheet "Summary": the cell F3 was changed while the refresh was reading the sheet',
    );
    fake.setFaultInjector(undefined);
    expect(fake.read(SHEET, "F3")).toEqual([[0.42]]);
    // Nothing else moved: with the old score typed back, the workbook is as it was.
    fake.setValues(SHEET, "F3", [[0.5]]);
    expect(fake.snapshot()).toEqual(before);
    // Refreshed again, the typed score is an edit like any other: kept and asked about.
    fake.setValues(SHEET, "F3", [[0.42]]);
    const asked = await refresh(fake, await record(), CHANGED);
    expect(asked.edited).toEqual([
      { address: "F3", key: "id:B · ssp585 · 30", column: "flood_risk_score", mine: 0.42, service: 0.55 },
    ]);
  });

  it("loses no note typed while it ran beside a row it removes: the sheet is left whole", async () => {
    const { fake, record } = await pasted();
    typeNotes(fake);
    const rec = await record();
    let requests = 0;
    fake.setFaultInjector(() => {
      if (++requests === 2) fake.setValues(SHEET, "G2", [["call the owner"]]); // A's note; A is removed
      return undefined;
    });
    await expect(refresh(fake, rec, CHANGED)).rejects.toThrow(
      'Sheet "Summary": the cell G2 was changed while the refresh was reading the sheet',
    );
    fake.setFaultInjector(undefined);
    expect(idsAndNotes(fake, 4)).toEqual([
      ["A", "call the owner"],
      ["B", "note for B"],
      ["C", "note for C"],
      ["D", "note for D"],
    ]);
    // Refreshed again, the note goes to the removed rows' block with A.
    const done = await refresh(fake, await record(), CHANGED);
    expect(done.removed).toEqual(["id:A · ssp585 · 30"]);
    expect(fake.read(SHEET, done.removedBlock!).flat()).toContain("call the owner");
  });

  it("keeps a score the analyst typed in a row it removes in the removed rows' block, with their notes", async () => {
    const { fake, record } = await pasted();
    typeNotes(fake);
    fake.setValues(SHEET, "F2", [[0.15]]); // A's score, typed over; A is removed
    const done = await refresh(fake, await record(), CHANGED);
    expect(done.removed).toEqual(["id:A · ssp585 · 30"]);
    expect(fake.read(SHEET, done.removedBlock!).slice(1)).toEqual([
      ["key", "flood_risk_score (your value)", "note"],
      ["id:A · ssp585 · 30", 0.15, "note for A"],
    ]);
  });

  it("takes a new value over a -0 the service sent before, without asking: Excel showed it as 0, the analyst changed nothing", async () => {
    // A service may send -0.0 (Python's json module writes a negative zero so).
    const { fake, record } = await pasted(
      summaryRows([
        ["A", -0],
        ["B", 0.5],
      ]),
    );
    expect(fake.read(SHEET, "F2")).toEqual([[0]]);
    const report = await refresh(
      fake,
      await record(),
      summaryRows([
        ["A", 0.2],
        ["B", 0.5],
      ]),
    );
    expect(report.edited).toEqual([]);
    expect(fake.read(SHEET, "F2")).toEqual([[0.2]]);
  });

  it("does not add back a row deleted by hand, lists it, and restores it when asked", async () => {
    const { fake, record } = await pasted();
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem(SHEET).tables.getItemAt(0).rows.getItemAt(2).delete(); // C
    });
    const report = await refresh(fake, await record(), CHANGED);
    expect(report.deletedByHand.map((d) => d.label)).toEqual(["id:C · ssp585 · 30"]);
    expect(fake.read(SHEET, "B2:B4").flat()).toEqual(["B", "D", "E"]);
    const restored = await refresh(fake, await record(), CHANGED, { restoreKeys: [report.deletedByHand[0].key] });
    expect(restored.added).toEqual(["id:C · ssp585 · 30"]);
    expect(fake.read(SHEET, "B2:B5").flat()).toEqual(["B", "D", "E", "C"]);
  });

  it("asks before going on when the assets' key kind changed (ids now repeat)", async () => {
    const { fake, record } = await pasted();
    const rows = CHANGED.map((r) => [r[0], "same", ...r.slice(2)]);
    const before = fake.snapshot();
    await expect(
      fake.run(async (context) =>
        refreshTableByKey(context, await record(), {
          header: HEADER,
          rows,
          keys: rows.map((r) => JSON.stringify([`at:${String(r[2])}`, "ssp585", "30"])),
          assetKind: "name_location",
        }),
      ),
    ).rejects.toThrow(KeyKindChangedError);
    expect(fake.snapshot()).toEqual(before);
  });

  it("a failed or cancelled refresh leaves the workbook exactly as it was", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake);
    typeNotes(fake);
    const before = fake.snapshot();
    const rec = await record();
    // Fail the last request (rows appended and cells written before it) after its writes applied (the
    // record of what was written's lines, the provenance) and before its first deletion.
    let syncs = 0;
    fake.setFaultInjector((info) =>
      info.operations.includes("delete") && syncs === 0 && ++syncs
        ? { applyFirst: info.operations.indexOf("delete") }
        : undefined,
    );
    await expect(refresh(fake, rec, CHANGED)).rejects.toThrow();
    fake.setFaultInjector(undefined);
    expect(fake.snapshot()).toEqual(before);
    const controller = new AbortController();
    const cancelled = refresh(fake, rec, CHANGED, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(cancelled).rejects.toThrow();
    expect(fake.snapshot()).toEqual(before);
  });
});

describe("the record of what was written", () => {
  /** Summary rows with their portfolio_index given (the summary's rows are located by it). */
  const indexed = (assets: ReadonlyArray<[index: number, id: string, score: number]>): CellValue[][] =>
    assets.map(([i, id, score]) => [i, id, `Site ${id}`, "ssp585", 30, score]);

  it("is rewritten in place, only the lines of rows that changed, and the next refresh reads it right", async () => {
    const { fake, record } = await pasted();
    const first = await record();
    const store = first.writtenStore!;
    const sheets = fake.sheetNames();
    const lines = () => fake.read(store, "A2:D6");
    const before = lines();
    // B's score changes: its line alone.
    await refresh(fake, first, summaryRows([...FIRST.slice(0, 1), ["B", 0.55], ...FIRST.slice(2)]));
    const second = await record();
    expect(second.writtenStore).toBe(store);
    expect(fake.sheetNames()).toEqual(sheets); // no sheet added or deleted
    const after = lines();
    expect(after.map((line, i) => line.some((cell, c) => cell !== before[i][c]))).toEqual([
      false,
      true,
      false,
      false,
      false,
    ]);
    // A leaves, E comes: E's line takes A's, the record keeps its length.
    await refresh(
      fake,
      second,
      indexed([
        [1, "B", 0.55],
        [2, "C", 0.3],
        [3, "D", 0.9],
        [4, "E", 0.2],
      ]),
    );
    const third = lines();
    expect(String(third[0][1])).toContain("id:E");
    expect(third.slice(1)).toEqual(after.slice(1));
    expect(third[4]).toEqual(["", "", "", ""]);
    // Read back right: the same answer again changes nothing.
    const again = await refresh(
      fake,
      await record(),
      indexed([
        [1, "B", 0.55],
        [2, "C", 0.3],
        [3, "D", 0.9],
        [4, "E", 0.2],
      ]),
    );
    expect(again).toMatchObject({ cellsChanged: 0, added: [], removed: [], unknownRows: [] });
  });

  it("reads a small table whole, with the notes beside it, in one request before its writes", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake);
    typeNotes(fake);
    const rec = await record();
    fake.resetSyncs();
    // The requests up to the first that writes: the table's (its cells, the notes beside it, the
    // record of what was written) and the backups' of the cells about to change.
    const operations: string[][] = [];
    fake.setFaultInjector((info) => void operations.push(info.operations));
    await refresh(fake, rec, CHANGED);
    fake.setFaultInjector(undefined);
    expect(operations.findIndex((ops) => ops.some((op) => op.startsWith("set:")))).toBe(2);
    // And it read them right: every note is still beside its own asset.
    expect(idsAndNotes(fake, 4)).toEqual([
      ["D", "note for D"],
      ["B", "note for B"],
      ["C", "note for C"],
      ["E", ""],
    ]);
  });

  it("takes the first rows an earlier request read (its head) and reads only the rest", async () => {
    const { fake, record } = await pasted();
    typeNotes(fake);
    const rec = await record();
    // The header and the first two rows, as the previous sheet's last request would have read them.
    const head = fake.read(SHEET, "A1:F3") as CellValue[][];
    fake.resetSyncs();
    const report = await fake.run(async (context) => {
      const keyed = keyRows(ROW_KEYS.summary, HEADER, CHANGED);
      return (await refreshTableByKey(context, rec, { header: HEADER, rows: CHANGED, ...keyed }, { head })).report;
    });
    expect(report).toMatchObject({ updated: 3, added: ["id:E · ssp585 · 30"], removed: ["id:A · ssp585 · 30"] });
    expect(idsAndNotes(fake, 4)).toEqual([
      ["B", "note for B"],
      ["C", "note for C"],
      ["D", "note for D"],
      ["E", ""],
    ]);
    // A head that is not the table's (its header changed since) is found out as a read one would be.
    const changed = await record();
    const wrong = [["x", ...HEADER.slice(1)]];
    await expect(
      fake.run((context) => {
        const keyed = keyRows(ROW_KEYS.summary, HEADER, CHANGED);
        return refreshTableByKey(context, changed, { header: HEADER, rows: CHANGED, ...keyed }, { head: wrong });
      }),
    ).rejects.toThrow(/header/i);
  });

  it("reads what its caller asks with the backups' first request, and the backups alone when that read is refused", async () => {
    const syncs: Record<string, number> = {};
    for (const rider of ["there", "gone"] as const) {
      const { fake, record } = await pasted();
      typeNotes(fake);
      const rec = await record();
      fake.resetSyncs();
      let rode: (() => unknown) | undefined;
      let room = 0;
      const report = await fake.run(async (context) => {
        const keyed = keyRows(ROW_KEYS.summary, HEADER, CHANGED);
        const options: KeyedRefreshOptions = {
          withBackups: (ctx, bytes) => {
            room = bytes;
            const range = ctx.workbook.worksheets
              .getItem(rider === "there" ? SHEET : "No such sheet")
              .getRange("A1:B1");
            range.load("values");
            rode = () => range.values;
          },
        };
        return (await refreshTableByKey(context, rec, { header: HEADER, rows: CHANGED, ...keyed }, options)).report;
      });
      syncs[rider] = fake.syncs.length;
      expect(report).toMatchObject({ updated: 3, added: ["id:E · ssp585 · 30"], removed: ["id:A · ssp585 · 30"] });
      expect(idsAndNotes(fake, 4)).toEqual([
        ["B", "note for B"],
        ["C", "note for C"],
        ["D", "note for D"],
        ["E", ""],
      ]);
      expect(room).toBeGreaterThan(1_000_000);
      if (rider === "there") expect(rode!()).toEqual([["portfolio_index", "entity_id"]]);
      else expect(() => rode!()).toThrow();
    }
    // Refused, it cost the request it failed in: the backups were asked again, and whether rows below
    // the removed one are hidden (which went with them).
    expect(syncs.gone).toBe(syncs.there + 2);
  });

  it("is asked with the table and its first cells in the refresh's first request", async () => {
    const { fake, record } = await pasted();
    const rec = await record();
    fake.resetSyncs();
    await refresh(fake, rec, CHANGED);
    // The first answer holds the table's cells (not only whether its sheet, table and record exist).
    expect(fake.syncs[0].responseBytes).toBeGreaterThan(JSON.stringify(summaryRows(FIRST)).length);
  });

  it("when it, the table or the sheet is gone, the refresh says which and changes nothing", async () => {
    for (const gone of ["record", "table", "sheet"] as const) {
      const { fake, record } = await pasted();
      const rec = await record();
      await fake.run(async (context) => {
        const sheets = context.workbook.worksheets;
        if (gone === "record") {
          const store = sheets.getItem(rec.writtenStore!);
          store.visibility = "Hidden" as Excel.SheetVisibility;
          store.delete();
        } else if (gone === "table") sheets.getItem(SHEET).tables.getItem(rec.tableName).delete();
        else {
          sheets.add("Other");
          sheets.getItem(SHEET).delete();
        }
      });
      const before = fake.snapshot();
      await expect(refresh(fake, rec, CHANGED)).rejects.toThrow(
        {
          record: /record of what the add-in wrote into it is gone/,
          table: /no longer holds the table/,
          sheet: /was deleted/,
        }[gone],
      );
      expect(fake.snapshot()).toEqual(before);
    }
  });
});

describe("a filtered table", () => {
  /** The analyst's filter on the table (its criteria are not evaluated by the fake: no row is hidden). */
  async function filter(fake: FakeExcel, on: boolean): Promise<void> {
    await fake.run(async (context) => {
      const table = context.workbook.worksheets.getItem(SHEET).tables.getItemAt(0);
      if (on)
        table.autoFilter.apply(table.getRange(), 5, {
          filterOn: "Values" as Excel.FilterOn,
          values: ["0.1", "0.5"],
        });
      else table.autoFilter.clearCriteria();
    });
  }

  it("is refreshed while no row leaves; when one would, refused with a sentence, nothing changed, until the filter is cleared", async () => {
    const { fake, record } = await pasted();
    typeNotes(fake);
    await filter(fake, true);
    await refresh(fake, await record(), summaryRows([...FIRST.slice(0, 1), ["B", 0.55], ...FIRST.slice(2)]));
    expect(fake.read(SHEET, "F3")).toEqual([[0.55]]);
    // A leaves: Excel cannot delete a filtered table's row, so the refresh says so before writing.
    const before = fake.snapshot();
    await expect(refresh(fake, await record(), CHANGED)).rejects.toThrow(
      /is filtered, and this refresh adds or removes its rows or columns.*clear the filter \(Data › Clear\)/,
    );
    expect(fake.snapshot()).toEqual(before);
    await filter(fake, false);
    const report = await refresh(fake, await record(), CHANGED);
    expect(report.removed).toEqual(["id:A · ssp585 · 30"]);
  });

  it("cannot lose a row in Excel (the fake refuses, as Excel does)", async () => {
    const { fake } = await pasted();
    await filter(fake, true);
    await expect(
      fake.run(async (context) => {
        context.workbook.worksheets
          .getItem(SHEET)
          .getRange("A3:F3")
          .delete("Up" as Excel.DeleteShiftDirection);
      }),
    ).rejects.toThrow(/Can't move cells in a filtered range or table/);
  });
});

describe("an answer with other columns", () => {
  // The service now also returns a heat score, placed by it before the flood score.
  const WIDER = [...HEADER.slice(0, 5), "heat_risk_score", "flood_risk_score"];
  const widerRows = (rows: CellValue[][]) => rows.map((r) => [...r.slice(0, 5), Number(r[5]) + 1, r[5]]);

  it("widens the table at its right edge: notes beside it stay beside their asset, the new column is filled by key", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake); // D, B, C, A
    typeNotes(fake);
    fake.addSheet("Report");
    fake.setValues("Report", "A1", [[`=${SHEET}!G3`]]); // the note beside B
    // A chart of the second row's window and score, to the last data column.
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem(SHEET);
      const chart = sheet.charts.add("Line" as Excel.ChartType, sheet.getRange("E3:F3"), "Rows" as Excel.ChartSeriesBy);
      chart.series.getItemAt(0).setValues(sheet.getRange("E3:F3"));
    });
    const report = await refresh(fake, await record(), widerRows(CHANGED), undefined, WIDER);
    // The series runs to the new last data column.
    expect(fake.model.findSheet(SHEET)!.charts[0].series[0].values).toMatch(/E3:G3$/);

    // The recorded columns keep their places; the new one is at the right of them; the notes moved right.
    expect(fake.read(SHEET, "A1:H1")).toEqual([[...HEADER, "heat_risk_score", "note"]]);
    expect(fake.read(SHEET, "B2:H5").map((r) => [r[0], r[4], r[5], r[6]])).toEqual([
      ["D", 0.9, 1.9, "note for D"],
      ["B", 0.55, 1.55, "note for B"],
      ["C", 0.3, 1.3, "note for C"],
      ["E", 0.2, 1.2, ""],
    ]);
    expect(fake.read("Report", "A1", "formulas")).toEqual([[`=${SHEET}!H3`]]);
    expect(report).toMatchObject({
      columnsAdded: ["heat_risk_score"],
      columnsAddedAt: "G1:G5",
      columnsNoLongerServed: [],
      added: ["id:E · ssp585 · 30"],
      removed: ["id:A · ssp585 · 30"],
      edited: [],
    });
    // The paste record: the new width, the table's column order.
    const rec = await record();
    expect(rec).toMatchObject({ header: [...HEADER, "heat_risk_score"], tableAddress: "A1:G5", rows: 4 });
    await fake.run(async (context) => {
      const range = context.workbook.worksheets.getItem(SHEET).tables.getItemAt(0).getRange();
      range.load("address");
      await context.sync();
      expect(range.address).toBe(`${SHEET}!A1:G5`);
    });
    // The record of what was written covers the new column: the same answer again changes nothing,
    // and a heat score the analyst types over is found as theirs.
    fake.setValues(SHEET, "G3", [[9]]);
    const again = await refresh(fake, rec, widerRows(CHANGED), undefined, WIDER);
    expect(again).toMatchObject({ cellsChanged: 0, added: [], removed: [], columnsAdded: [] });
    expect(again.edited).toEqual([expect.objectContaining({ address: "G3", column: "heat_risk_score", mine: 9 })]);
  });

  it("gives the new columns the first paste's formats: label colours, a score scale, a number format", async () => {
    const { fake, record } = await pasted();
    // The answer gains a heat score (three decimals, on a colour scale) and a heat label (coloured).
    const HEAT = [...HEADER.slice(0, 5), "heat_risk_score", "heat_risk_label", "flood_risk_score"];
    const LABELS = ["LOW", "HIGH", "MEDIUM", "HIGH"];
    const rows = CHANGED.map((r, i) => [...r.slice(0, 5), 0.25 + i / 10, LABELS[i], r[5]]);
    const formats = { scoreColumns: [5], labelColumns: [6], numberFormats: { 5: "0.000" } };
    const keyed = keyRows(ROW_KEYS.summary, HEAT, rows);
    const rec = await record();
    const { report } = await fake.run((context) =>
      refreshTableByKey(context, rec, { header: HEAT, rows, formats, ...keyed }),
    );
    expect(report).toMatchObject({ columnsAdded: ["heat_risk_score", "heat_risk_label"], columnsAddedAt: "G1:H5" });
    expect(fake.read(SHEET, "B2:H5").map((r) => [r[0], r[5], r[6]])).toEqual([
      ["B", 0.25, "LOW"],
      ["C", 0.35, "HIGH"],
      ["D", 0.45, "MEDIUM"],
      ["E", 0.55, "HIGH"],
    ]);
    // Each label shows the colour the first paste gives it, the new asset's row too; the scores
    // are on one colour scale, with three decimals.
    expect([2, 3, 4, 5].map((r) => shownFill(fake, `H${r}`))).toEqual(
      [LABEL_COLOURS.LOW, LABEL_COLOURS.HIGH, LABEL_COLOURS.MEDIUM, LABEL_COLOURS.HIGH].map((c) => c.fill),
    );
    const scales = fake.model.findSheet(SHEET)!.conditionalFormats.filter((cf) => cf.type === "ColorScale");
    expect(scales.map((cf) => cf.address)).toEqual([`${SHEET}!G2:G5`]);
    expect(fake.read(SHEET, "G2:G5", "numberFormat").flat()).toEqual(Array(4).fill("0.000"));
    // A label the analyst types over later is recoloured by Excel itself.
    fake.setValues(SHEET, "H2", [["HIGH"]]);
    expect(shownFill(fake, "H2")).toBe(LABEL_COLOURS.HIGH.fill);
  });

  it("keeps a column the answer no longer has, with what the analyst typed in it, and says so", async () => {
    const { fake, record } = await pasted();
    fake.setValues(SHEET, "C3", [["Lyon plant (renamed)"]]); // B's entity_name, typed over
    const NARROWER = HEADER.filter((h) => h !== "entity_name");
    const rows = CHANGED.map((r) => r.filter((_, c) => c !== 2));
    const report = await refresh(fake, await record(), rows, undefined, NARROWER);
    expect(report).toMatchObject({ columnsNoLongerServed: ["entity_name"], columnsAdded: [], edited: [] });
    expect(fake.read(SHEET, "A1:F1")).toEqual([HEADER]);
    // B, C, D keep their names (B's as typed); E, new, has none to keep.
    expect(fake.read(SHEET, "B2:C5")).toEqual([
      ["B", "Lyon plant (renamed)"],
      ["C", "Site C"],
      ["D", "Site D"],
      ["E", ""],
    ]);
    expect(await record()).toMatchObject({ header: HEADER, unservedColumns: ["entity_name"] });
  });

  it("refuses, changing nothing, an answer that lacks a column its rows are matched by", async () => {
    const { fake, record } = await pasted();
    const before = fake.snapshot();
    const NO_WINDOW = HEADER.filter((h) => h !== "window");
    const rows = CHANGED.map((r) => r.filter((_, c) => c !== 4));
    await expect(
      fake.run(async (context) =>
        refreshTableByKey(context, await record(), {
          header: NO_WINDOW,
          rows,
          keys: rows.map((r) => String(r[1])),
          assetKind: "entity_id",
        }),
      ),
    ).rejects.toThrow(/no longer has the column "window" its rows are matched by/);
    expect(fake.snapshot()).toEqual(before);
  });

  it("a failed, refused or cancelled widening leaves the workbook exactly as it was", async () => {
    const { fake, record } = await pasted();
    await sortByScoreDescending(fake);
    typeNotes(fake);
    const before = fake.snapshot();
    const rec = await record();
    // The last request fails after its writes and before its first deletion.
    let syncs = 0;
    fake.setFaultInjector((info) =>
      info.operations.includes("delete") && syncs === 0 && ++syncs
        ? { applyFirst: info.operations.indexOf("delete") }
        : undefined,
    );
    await expect(refresh(fake, rec, widerRows(CHANGED), undefined, WIDER)).rejects.toThrow();
    fake.setFaultInjector(undefined);
    expect(syncs).toBe(1);
    expect(fake.snapshot()).toEqual(before);
    // Another table beside it, reaching below it: Excel refuses to shift part of it, nothing moved.
    fake.setValues(SHEET, "J4:K8", [
      ["a", "b"],
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    await fake.run(async (context) => {
      context.workbook.worksheets.getItem(SHEET).tables.add("J4:K8", true);
    });
    const withTable = fake.snapshot();
    await expect(refresh(fake, rec, widerRows(CHANGED), undefined, WIDER)).rejects.toThrow(
      /attempting to shift cells in a table/,
    );
    expect(fake.snapshot()).toEqual(withTable);
    await fake.run(async (context) => {
      context.workbook.worksheets
        .getItem(SHEET)
        .getRange("J4:K8")
        .delete("Up" as Excel.DeleteShiftDirection);
    });
    expect(fake.snapshot()).toEqual(before);
    const controller = new AbortController();
    const cancelled = refresh(
      fake,
      rec,
      widerRows(CHANGED),
      { signal: controller.signal, onProgress: () => controller.abort() },
      WIDER,
    );
    await expect(cancelled).rejects.toThrow();
    expect(fake.snapshot()).toEqual(before);
  });
});
