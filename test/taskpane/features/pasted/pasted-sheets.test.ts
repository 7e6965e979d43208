import { RiskClient } from "../../../../src/api/client";
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import { deleteVeryHiddenSheet } from "../../../../src/excel/store-sheets";
import { pasteSummary } from "../../../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../../../src/taskpane/features/timeseries/timeseries-actions";
import {
  listPastedSheets,
  refreshPastedSheets,
  refreshPastedSheetsWithoutPane,
} from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { PROVENANCE_STORE_SHEET, SOURCES_HEADER, SOURCES_SHEET } from "../../../../src/shaping/paste-provenance";
import { withoutRefreshMarks } from "../../../support/refresh-marks";
import { columnLetters as col } from "../../../../src/shaping/a1";
import { assetsCsv, importPortfolio } from "../../../functions/support/emulator";
import { newWorkbook, pasteSummarySheet, setSheetProtected, usePaneTestService } from "../../support";
import { FakeErrorCodes, FakeExcelError } from "../../../../testing/fake-excel/errors";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";
import type { RefreshedSheet } from "../../../../src/taskpane/features/pasted/paste-kind";
import type { ExcelRunner } from "../../../../src/taskpane/ui/pane-types";
import { english } from "../../../support/english";

/**
 * Pasted sheets record how they were made (Sources sheet + hidden store) and "Refresh pasted
 * sheets" replaces their tables in place with the recorded filters: whole or not at all, keeping
 * the user's columns to the right and formats, refusing renamed, edited or deleted sheets.
 */

const service = usePaneTestService({ processingDelayMs: 20 });

function sourcesRows(fake: ReturnType<typeof newWorkbook>["fake"]): unknown[][] {
  const used = fake.usedAddress(SOURCES_SHEET)!;
  return fake.read(SOURCES_SHEET, used.slice(used.indexOf("!") + 1));
}

/** A heatwave timeseries (ssp585, mid, from 2030) of the portfolio, pasted as its panel does. */
function pasteHeatwave(run: ExcelRunner, portfolio: string) {
  return pasteTimeseries({
    client: service.client,
    run,
    portfolio,
    filters: { hazard: "heatwave", scenario: "ssp585", measure: "mid", startYear: 2030 },
  });
}

test("a paste records service, project, portfolio, operation, filters, dataset version and digest, rows, UTC time, add-in version — never the key", async () => {
  const { fake, run } = newWorkbook();
  const pasted = await pasteHeatwave(run, "demo-portfolio");
  const meta = await service.client.datasets.metadata("demo-portfolio");
  const rows = sourcesRows(fake);
  expect(rows[0]).toEqual(SOURCES_HEADER);
  const row = Object.fromEntries(SOURCES_HEADER.map((h, i) => [h, rows[1][i]]));
  expect(row).toMatchObject({
    Sheet: pasted.sheetName,
    Operation: "Timeseries",
    Service: service.connection.baseUrl,
    Project: "demo",
    Portfolio: "demo-portfolio",
    Filters: "hazard=heatwave; measure=mid; scenario=ssp585; series=projected; start_date=2030",
    "Dataset version": meta.version,
    "Dataset sha256": meta.sha256_digest,
    Rows: pasted.rowCount,
    "Add-in version": "development",
  });
  expect(String(row["Written (UTC)"])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // The machine-readable store is a very hidden sheet; nothing anywhere holds the key.
  expect(fake.snapshot().sheets.find((s) => s.name === PROVENANCE_STORE_SHEET)?.visibility).toBe("VeryHidden");
  expect(JSON.stringify(fake.snapshot())).not.toContain(service.connection.apiKey);
  const listed = await listPastedSheets(run);
  expect(listed.sheets.map((s) => [s.sheetName, s.operation, s.rows])).toEqual([
    [pasted.sheetName, "timeseries", pasted.rowCount],
  ]);
});

test("refresh re-runs the recorded filters and replaces the table in place: more rows, user's column and formats kept", async () => {
  await importPortfolio(service.client, "refresh-me", assetsCsv(3));
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { portfolio: "refresh-me", scenario: "ssp245" });
  const width = (fake.read(summary.sheetName, "A1:Z1")[0] as unknown[]).filter((v) => v !== "").length;
  const lastCol = col(width - 1);
  const userCol = col(width + 1); // one empty column, then the user's notes
  fake.setValues(summary.sheetName, `${userCol}1:${userCol}2`, [["my notes"], ["check site A0"]]);
  // The user's own number format on a numeric column survives a same-shape refresh.
  const numericCol = (fake.read(summary.sheetName, `A2:${lastCol}2`)[0] as unknown[]).findIndex(
    (v) => typeof v === "number",
  );
  const numericCell = `${col(numericCol)}2`;
  await run(async (context) => {
    context.workbook.worksheets.getItem(summary.sheetName).getRange(numericCell).numberFormat = [["0.00%"]];
  });

  // Same data: the refresh rewrites in place and keeps the user's number format.
  const same = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(same.outcomes).toMatchObject([
    { sheetName: summary.sheetName, ok: true, rows: summary.rowCount, keyed: { added: [], removed: [], edited: [] } },
  ]);
  expect(fake.read(summary.sheetName, numericCell, "numberFormat")[0][0]).toBe("0.00%");

  // The portfolio grows: the table grows, the notes column stays where it was, untouched.
  await importPortfolio(service.client, "refresh-me", assetsCsv(5));
  const expected = await service.client.datasets.summary("refresh-me", { scenario: "ssp245" }).all();
  const grown = await refreshPastedSheets({
    kinds: PASTE_KINDS,
    client: service.client,
    run,
    onProgress: () => undefined,
  });
  expect(grown.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: true, rows: expected.length }]);
  // Rows new in the answer were added at the end, by key.
  expect(grown.outcomes[0].keyed?.added).toHaveLength(expected.length - summary.rowCount);
  expect(expected.length).toBeGreaterThan(summary.rowCount);
  const table = fake
    .snapshot()
    .tables.find(
      (t) => t.address.startsWith(`${summary.sheetName}!`) || t.address.startsWith(`'${summary.sheetName}'!`),
    )!;
  expect(table.address).toContain(`A1:${lastCol}${expected.length + 1}`);
  expect(fake.read(summary.sheetName, `${userCol}1:${userCol}2`)).toEqual([["my notes"], ["check site A0"]]);
  const written = fake.read(summary.sheetName, `A2:A${expected.length + 1}`).map((r) => r[0]);
  expect(written).toEqual(expected.map((_, i) => written[i]));
  expect(sourcesRows(fake)[1][SOURCES_HEADER.indexOf("Rows")]).toBe(expected.length);
});

test("a protected pasted sheet is left as it was with a sentence; once unprotected it refreshes", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  // The analyst protects the sheet before sending the workbook on: Excel would refuse every write.
  await setSheetProtected(run, summary.sheetName, true);
  const before = fake.snapshot();
  const syncs = fake.syncs.length;
  let result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: false }]);
  expect(english(result.outcomes[0].message)).toBe(
    `Sheet "${summary.sheetName}" is protected: unprotect it (Review › Unprotect Sheet) to refresh it. Nothing was changed.`,
  );
  // Nothing changed but the Sources sheet's row of the sheet, which says when and why it was not refreshed.
  expect(withoutRefreshMarks(fake.snapshot())).toEqual(withoutRefreshMarks(before));
  expect(fake.syncs.slice(syncs).some((s) => s.failed)).toBe(false); // refused before any write
  const markOf = () => {
    const row = sourcesRows(fake).find((r) => r[0] === summary.sheetName)!;
    return ["Written (UTC)", "Not refreshed (UTC)", "Why not refreshed"].map((h) => row[SOURCES_HEADER.indexOf(h)]);
  };
  const [written, notRefreshedAt, why] = markOf();
  expect(String(notRefreshedAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(String(notRefreshedAt) >= String(written)).toBe(true);
  expect(why).toBe(english(result.outcomes[0].message));
  // The pane's list of pasted sheets says so too.
  expect((await listPastedSheets(run)).sheets[0].notRefreshedAt).toBe(notRefreshedAt);
  await setSheetProtected(run, summary.sheetName, false);
  result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: true }]);
  // Refreshed: the mark is gone, the time written is the refresh's.
  expect(markOf().slice(1)).toEqual(["", ""]);
  expect((await listPastedSheets(run)).sheets[0].notRefreshedAt).toBeUndefined();
});

test("when the Sources sheet cannot say which sheet was left as it was, the pane says so and the workbook is as it was", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  await setSheetProtected(run, summary.sheetName, true);
  const before = fake.snapshot();
  // The refusal writes nothing: the first request that writes is the mark's, failing part-way.
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.includes("set:values")) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected mark failure"), applyFirst: 2 };
  });
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(failed).toBe(true);
  expect(result.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: false }]);
  expect(english(result.followUps.flatMap((f) => f.messages))).toMatch(
    /could not say which sheets were left as they were \(injected mark failure\)/,
  );
  expect(fake.snapshot()).toEqual(before);
});

test("a pasted table with a total row is left as it was with a sentence; without it, it refreshes", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  const tableName = (await run((context) => readProvenance(context))).records[0].tableName;
  // The analyst turns on the table's total row (Table Design › Total Row): its last row is theirs.
  await run(async (context) => {
    context.workbook.tables.getItem(tableName).showTotals = true;
  });
  const before = fake.snapshot();
  let result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: false }]);
  expect(english(result.outcomes[0].message)).toBe(
    `The table "${tableName}" on sheet "${summary.sheetName}" shows a total row: turn it off (Table Design › Total Row) to refresh the sheet, then on again. Nothing was changed.`,
  );
  expect(withoutRefreshMarks(fake.snapshot())).toEqual(withoutRefreshMarks(before));
  await run(async (context) => {
    context.workbook.tables.getItem(tableName).showTotals = false;
  });
  result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes).toMatchObject([{ sheetName: summary.sheetName, ok: true }]);
});

test("in manual calculation the refresh asks Excel to calculate, so formulas over the sheet show the new data, and says so", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  const original = fake.read(summary.sheetName, "C2")[0][0];
  fake.setValues(summary.sheetName, "C2", [["my edit"]]);
  // The analyst's own formula over the pasted sheet (a reference, as the fake's evaluator reads it).
  fake.setFormulaEvaluator((formula) => {
    const ref = /^='([^']+)'!([A-Z]+\d+)$/.exec(formula);
    return ref ? (fake.read(ref[1], ref[2])[0][0] as string) : undefined;
  });
  fake.addSheet("Mine");
  fake.setValues("Mine", "A1", [[`='${summary.sheetName}'!C2`]]);
  expect(fake.read("Mine", "A1")).toEqual([["my edit"]]);
  await run(async (context) => {
    context.workbook.application.calculationMode = "Manual" as Excel.CalculationMode;
  });
  const first = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  const result = await refreshPastedSheets({
    kinds: PASTE_KINDS,
    client: service.client,
    run,
    edits: { [first.outcomes[0].sheetId!]: "take-service" },
  });
  expect(fake.read(summary.sheetName, "C2")).toEqual([[original]]);
  expect(fake.read("Mine", "A1")).toEqual([[original]]);
  expect(result.followUps.flatMap((f) => f.messages).map(english)).toContain(
    "Calculation is manual in this workbook: the add-in recalculated it (as F9 does), so the formulas over the refreshed sheets show the new data.",
  );
});

test("a renamed or deleted pasted sheet is refused with a sentence; an edited cell is kept and listed", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp585" });

  // Edited: one cell of the table changed by the user is no reason to refuse; without an answer
  // it is kept and listed (address, theirs, the service's).
  const original = fake.read(summary.sheetName, "C2")[0][0];
  fake.setValues(summary.sheetName, "C2", [["my edit"]]);
  let result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes[0]).toMatchObject({
    ok: true,
    keyed: { edited: [{ address: "C2", column: "entity_name", mine: "my edit", service: original }] },
  });
  expect(fake.read(summary.sheetName, "C2")).toEqual([["my edit"]]);
  // "Take the service's values": the cell gets the service's value back.
  const taken = await refreshPastedSheets({
    kinds: PASTE_KINDS,
    client: service.client,
    run,
    edits: { [result.outcomes[0].sheetId!]: "take-service" },
  });
  expect(taken.outcomes[0].keyed?.edited).toHaveLength(1);
  expect(fake.read(summary.sheetName, "C2")).toEqual([[original]]);

  // Renamed.
  await run(async (context) => {
    context.workbook.worksheets.getItem(summary.sheetName).name = "Renamed";
  });
  const before = fake.snapshot();
  result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(english(result.outcomes[0].message)).toMatch(/was renamed to "Renamed": rename it back/);
  expect(withoutRefreshMarks(fake.snapshot())).toEqual(withoutRefreshMarks(before));

  // Deleted.
  await run(async (context) => {
    context.workbook.worksheets.getItem("Renamed").delete();
  });
  result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(english(result.outcomes[0].message)).toMatch(/was deleted/);

  // Provenance deleted: the store sheet removed (e.g. by another tool, which must unhide it first).
  await run(async (context) => {
    deleteVeryHiddenSheet(context.workbook.worksheets.getItem(PROVENANCE_STORE_SHEET));
  });
  await expect(refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).rejects.toThrow(
    /no pasted sheets on record/,
  );
  expect(await run((context) => readProvenance(context))).toEqual({ storeFound: false, records: [], problems: [] });
});

test("a refresh that fails while writing puts the old table back, whole", async () => {
  await importPortfolio(service.client, "fail-me", assetsCsv(2));
  const { fake, run } = newWorkbook();
  const [summary] = await pasteSummary({ client: service.client, run, portfolio: "fail-me", extended: false });
  await importPortfolio(service.client, "fail-me", assetsCsv(4));
  const before = fake.snapshot();
  // Fail the sync that writes the data rows (after the checks and the backup reads).
  // Half of that request is applied first, so the header really changes before the failure.
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.some((op) => op.includes("set:values"))) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected write failure"), applyFirst: 2 };
  });
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(result.outcomes[0]).toMatchObject({ ok: false });
  expect(english(result.outcomes[0].message)).toMatch(/was not changed: .*injected write failure/);
  const after = fake.snapshot();
  const sheetOf = (s: typeof before) => s.sheets.find((x) => x.name === summary.sheetName)!.cells;
  expect(sheetOf(after)).toEqual(sheetOf(before));
  expect(after.tables).toEqual(before.tables);
});

test("a sorted timeseries sheet and its notes refresh by key when an asset leaves the portfolio", async () => {
  await importPortfolio(service.client, "ts-keyed", assetsCsv(3));
  const { fake, run } = newWorkbook();
  const pasted = await pasteHeatwave(run, "ts-keyed");
  const record = (await run((context) => readProvenance(context))).records[0];
  expect(record.rowKey).toMatchObject({ asset: true, columns: ["hazard", "indicator", "scenario", "measure"] });
  const width = record.header.length;
  const rows = pasted.rowCount;
  // The analyst sorts by entity_id descending and types a note beside every row.
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(pasted.sheetName)
      .tables.getItemAt(0)
      .sort.apply([{ key: 1, ascending: false }]);
  });
  const ids = fake.read(pasted.sheetName, `B2:B${rows + 1}`).map(([id]) => String(id));
  const note = col(width);
  fake.setValues(pasted.sheetName, `${note}1`, [["note"]]);
  fake.setValues(
    pasted.sheetName,
    `${note}2:${note}${rows + 1}`,
    ids.map((id) => [`about ${id}`]),
  );
  // The first asset leaves the portfolio: every other asset's portfolio_index shifts.
  const csv = assetsCsv(3).split("\n");
  await importPortfolio(service.client, "ts-keyed", [csv[0], ...csv.slice(2)].join("\n"));
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes[0]).toMatchObject({ ok: true });
  const keyed = result.outcomes[0].keyed!;
  expect(keyed.removed.length).toBeGreaterThan(0);
  const left = rows - keyed.removed.length;
  const after = fake.read(pasted.sheetName, `B2:${note}${left + 1}`);
  for (const line of after) expect(line[line.length - 1]).toBe(`about ${String(line[0])}`);
  // Still in the analyst's order (entity_id descending).
  const order = after.map((line) => String(line[0]));
  expect(order).toEqual([...order].sort().reverse());
});

test("a refresh without the pane (the ribbon's) never overwrites a changed cell: it keeps it and leaves the question on record", async () => {
  const { fake, run } = newWorkbook();
  const summary = await pasteSummarySheet(service, run, { scenario: "ssp126" });
  fake.setValues(summary.sheetName, "C3", [["my name for it"]]);
  const result = await refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes[0]).toMatchObject({
    ok: true,
    keyed: { edited: [{ address: "C3", mine: "my name for it" }] },
  });
  expect(fake.read(summary.sheetName, "C3")).toEqual([["my name for it"]]);
  const record = (await run((context) => readProvenance(context))).records[0];
  expect(record.pendingEdits).toBe(1);
  expect(record.editChoice).toBeUndefined();
});

/** A client over `fetch` that notes which of the two summaries were on the wire at the same time. */
function overlapClient(fail?: (url: string) => boolean) {
  const inFlight = { summary: 0, extended: 0 };
  let overlapped = false;
  const counting: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const which = /extended=true/.test(url) ? "extended" : "summary";
    if (fail?.(url))
      return new Response(JSON.stringify({ detail: "injected failure" }), {
        status: 400,
        headers: { "content-type": "application/json" },
      });
    inFlight[which]++;
    if (inFlight.summary > 0 && inFlight.extended > 0) overlapped = true;
    try {
      return await fetch(input, init);
    } finally {
      inFlight[which]--;
    }
  };
  return { client: new RiskClient(service.connection, { fetch: counting }), overlapped: () => overlapped };
}

test("the pasted sheets are read at once, and written one at a time, each whole", async () => {
  await importPortfolio(service.client, "read-at-once", assetsCsv(2));
  const { fake, run } = newWorkbook();
  const sheets = await pasteSummary({ client: service.client, run, portfolio: "read-at-once" });
  expect(sheets.map((s) => s.sheetName)).toHaveLength(2);
  await importPortfolio(service.client, "read-at-once", assetsCsv(4));
  const reader = overlapClient();
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: reader.client, run });
  expect(result.outcomes.map((o) => o.ok)).toEqual([true, true]);
  // The default summary's and the extended summary's pages were on the wire at the same time.
  expect(reader.overlapped()).toBe(true);
  const records = (await run((context) => readProvenance(context))).records;
  for (const record of records) {
    const table = fake.read(record.sheetName, record.tableAddress.replace(/^.*!/, ""));
    expect(table.length).toBe(record.rows + 1);
  }
  expect(records.map((r) => r.rows)).toEqual(result.outcomes.map((o) => o.rows));
});

test("a sheet whose read fails is left as it was, and the sheets read beside it are refreshed", async () => {
  await importPortfolio(service.client, "one-fails", assetsCsv(2));
  const { fake, run } = newWorkbook();
  const [summary, extended] = await pasteSummary({ client: service.client, run, portfolio: "one-fails" });
  await importPortfolio(service.client, "one-fails", assetsCsv(4));
  const before = fake.snapshot();
  const reader = overlapClient((url) => /extended=true/.test(url));
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: reader.client, run });
  const byName = new Map(result.outcomes.map((o) => [o.sheetName, o]));
  expect(byName.get(summary.sheetName)).toMatchObject({ ok: true });
  expect(byName.get(extended.sheetName)).toMatchObject({ ok: false });
  expect(english(byName.get(extended.sheetName)!.message)).toMatch(/was not changed/);
  const after = fake.snapshot();
  const cellsOf = (s: typeof before, name: string) => s.sheets.find((x) => x.name === name)!.cells;
  expect(cellsOf(after, extended.sheetName)).toEqual(cellsOf(before, extended.sheetName));
  expect(cellsOf(after, summary.sheetName)).not.toEqual(cellsOf(before, summary.sheetName));
});

test("a kind's steps after the refresh run once, given its sheets; one that fails is said and the refresh stands", async () => {
  const { run } = newWorkbook();
  const pasted = [
    ...(await pasteSummary({
      client: service.client,
      run,
      portfolio: "demo-portfolio",
      extended: false,
      scenario: "ssp585",
    })),
    ...(await pasteSummary({
      client: service.client,
      run,
      portfolio: "demo-portfolio",
      extended: false,
      scenario: "ssp245",
    })),
  ];
  // The second sheet renamed: refused, and given to the step as not refreshed.
  await run(async (context) => {
    context.workbook.worksheets.getItem(pasted[1]!.sheetName).name = "renamed by the analyst";
  });
  const given: Array<Array<[string, boolean]>> = [];
  const kinds = PASTE_KINDS.map((kind) =>
    kind.operation !== "summary"
      ? kind
      : {
          ...kind,
          afterRefresh: async (sheets: readonly RefreshedSheet[]) => {
            given.push(sheets.map((s) => [s.record.sheetName, s.ok]));
            throw new Error("the table that follows is gone");
          },
        },
  );
  const result = await refreshPastedSheets({ kinds, client: service.client, run });
  expect(given).toEqual([
    [
      [pasted[0]!.sheetName, true],
      [pasted[1]!.sheetName, false],
    ],
  ]);
  expect(result.refreshed).toBe(1);
  expect(result.followUps.map((f) => ({ ...f, messages: f.messages.map((m) => english(m)) }))).toEqual([
    {
      operation: "summary",
      messages: [
        `The tables that follow the Summary sheets ("${pasted[0]!.sheetName}", "${pasted[1]!.sheetName}") could not be brought in line after the refresh (the table that follows is gone): refresh them again.`,
      ],
    },
  ]);
  // The refresh stands: the first sheet refreshed, the renamed one refused with its own sentence.
  expect(result.outcomes.map((o) => [o.sheetName, o.ok])).toEqual([
    [pasted[0]!.sheetName, true],
    [pasted[1]!.sheetName, false],
  ]);
});

test("the next sheet's first cells go with a sheet's last request; when that request loses them, the next sheet reads them itself", async () => {
  const { fake, run } = newWorkbook();
  const first = await pasteSummarySheet(service, run, { scenario: "ssp585" });
  const second = await pasteSummarySheet(service, run, { scenario: "ssp245" });
  const shown = () => [first, second].map((s) => fake.read(s.sheetName, fake.usedAddress(s.sheetName)!.split("!")[1]));
  const pastedCells = shown();
  // The first sheet's last request writes (its record's stamp) and then reads the second's first rows.
  const requests: string[][] = [];
  fake.setFaultInjector((info) => void requests.push(info.operations));
  fake.resetSyncs();
  const riding = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(riding.outcomes.map((o) => o.ok)).toEqual([true, true]);
  const last = requests.findIndex((ops) => ops.some((op) => op.startsWith("set:")));
  expect(requests[last].at(-1)).toBe("load");
  expect(fake.syncs[last].responseBytes).toBeGreaterThan(JSON.stringify(second.sheetName).length * 10);
  const syncs = fake.syncs.length;
  expect(shown()).toEqual(pastedCells);

  // That request fails after everything of the first sheet applied (the read of the second's rows
  // refused): the first sheet is refreshed all the same (its stamp is there), the second reads its
  // own rows, and both end as they would have.
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.some((op) => op.startsWith("set:")) || info.operations.at(-1) !== "load")
      return undefined;
    failed = true;
    return {
      error: new FakeExcelError(FakeErrorCodes.itemNotFound, "The requested resource doesn't exist."),
      applyFirst: info.operations.length - 1,
    };
  });
  fake.resetSyncs();
  const lost = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(failed).toBe(true);
  expect(lost.outcomes.map((o) => [o.sheetName, o.ok])).toEqual([
    [first.sheetName, true],
    [second.sheetName, true],
  ]);
  expect(shown()).toEqual(pastedCells);
  // One round trip more, to see the stamp (the second sheet's rows, a few KB, go with its own first request).
  expect(fake.syncs.length).toBe(syncs + 1);
});
