/**
 * The keyed refresh of every paste kind of the list (features/paste-kinds.ts), behaviour
 * by behaviour, as the analyst meets it. Each kind is pasted by its panel's action (through the
 * registry's first paste, pasteKinds or streamKind, or, for the financial impact and the
 * disclosure data, their panels' own sets of sheets) from a portfolio of five assets, then refreshed
 * with "Refresh pasted sheets" (refreshPastedSheets, the pane) or the ribbon's refresh
 * (refreshPastedSheetsWithoutPane), and the test checks what the analyst would see:
 *  - sorted and filtered (a hidden row), with a column of relative A1 formulas typed inside the
 *    table, notes beside it and formulas on another sheet pointing into it, after the service
 *    removes an asset from the middle and adds one: the order, the hidden row, each note and each
 *    formula stay with their own row; the new rows are at the end; a formula pointing at a removed
 *    row shows #REF! and the removed row's notes are kept in the "Removed at refresh" block;
 *  - the portfolio imported in another order (every portfolio_index changes): nothing added or
 *    removed, every note beside its asset, portfolio_index rewritten;
 *  - a cell typed over: kept and listed without the pane, "take-service" and "keep-mine" honoured;
 *  - a row deleted by hand: not added back, listed, restored when asked;
 *  - entity_ids that become repeated or missing: assets told apart by name and location, the
 *    refresh asks first (nothing changed until accepted), and names the assets when even those
 *    collide;
 *  - a refresh whose requests that write fail in turn (each never arriving, or applied up to a
 *    failing operation, as Excel applies a failed request), or that is cancelled during each,
 *    leaves the workbook exactly as it was (every sheet's cells, values, formulas and formats,
 *    tables, colour rules and hidden rows, the very hidden record sheets included); only the last
 *    request, the deletion of the removed rows, is finished instead once part of it was applied.
 *    (A request applied whole whose answer is lost is not drilled: the refresh cannot tell it
 *    from one that never arrived, and does not undo the new rows it inserted.)
 * Rows move as Excel moves them: the fake's row deletion and insertion rewrite references and
 * turn references to deleted cells into #REF! (testing/fake-excel/shift.ts, which cites Microsoft's
 * rules, "Move or copy a formula" and "How to correct a #REF! error").
 *
 * What does not apply to which kind, and why:
 *  - label counts: its rows are the three labels LOW, MEDIUM, HIGH, always all three, so the
 *    service never removes or adds a row (no #REF!, no removed block), and its rows are not
 *    assets (no re-ordered portfolio, no entity_id);
 *  - nature summary: its rows are a sub-project's metrics, not assets (no portfolio to re-order,
 *    no entity_id). The emulator's sub-projects do not change, so "the service removes a row and
 *    adds one" is a client whose answer (fetched from the emulator) lacks one metric and has a new
 *    one;
 *  - financial impact (its data sheet; the losses per asset and the roll-up follow it, see
 *    test/taskpane/features/impact/impact-refresh.test.ts): its asset values are matched by
 *    entity_id, so a repeated entity_id is refused, naming the assets, instead of telling assets
 *    apart by name and place; its formula sheets are brought in line after the removed rows are
 *    deleted, and a failure there is said, not undone (the drill stops at that deletion);
 *  - disclosure data: pasted by its panel with the Methodology, E1-9, IFRS S2 and TCFD sheets of
 *    formulas over it; everything applies;
 *  - the disclosure's significant assets are not in this matrix: their rows are not read from the
 *    service but computed from the data sheet and the Methodology cells as the analyst left them
 *    (with the Methodology's defaults, no asset of a portfolio is significant: the table is
 *    empty); their refresh, which follows the analyst's edits, is tested in
 *    test/taskpane/features/disclosure/disclosure.test.ts.
 *
 * Emulator over HTTP (one for the file), fake workbook.
 */
import type { RiskClient } from "../../../../src/api/client";
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import { WRITTEN_STORE_PREFIX } from "../../../../src/excel/written-store";
import { columnLetters as col, parseA1, qualify, rangeA1 } from "../../../../src/shaping/a1";
import { OPERATION_LABELS, type PasteOperation, type ProvenanceRecord } from "../../../../src/shaping/paste-provenance";
import { downloadExport, unpackExport } from "../../../../src/taskpane/features/export/export-actions";
import { pasteFinancialImpact } from "../../../../src/taskpane/features/impact/impact-actions";
import { pasteDisclosureTables } from "../../../../src/taskpane/features/disclosure/disclosure-actions";
import { pasteAppliedLayer } from "../../../../src/taskpane/features/layer/applied-layer-actions";
import { listSubprojects, pasteSubprojectSummary } from "../../../../src/taskpane/features/nature/nature-actions";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";
import {
  refreshPastedSheets,
  refreshPastedSheetsWithoutPane,
  type PastedRefreshResult,
  type RefreshChoices,
  type SheetRefreshOutcome,
} from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { pasteSummary } from "../../../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../../../src/taskpane/features/timeseries/timeseries-actions";
import { pasteRiskMatrix, pasteScenarioComparison } from "../../../../src/taskpane/features/visual/risk-views-actions";
import { CancelledError, type ExcelRunner } from "../../../../src/taskpane/ui/pane-types";
import { PROCESSING_COMPLETED } from "../../../../src/api/types";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { FakeErrorCodes, FakeExcelError } from "../../../../testing/fake-excel/errors";
import { importPortfolio } from "../../../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../../support";
import { english } from "../../../support/english";
import { withoutRefreshMarks } from "../../../support/refresh-marks";

let vectorId: string | number;
let subproject: { id: string; name: string };

const service = usePaneTestService({ processingDelayMs: 0 });

beforeAll(async () => {
  vectorId = (await service.client.compositions.listVectors()).find((v) => v.name === "demo-losses")!.id;
  const ready = (await listSubprojects(service.client, "nc-demo")).find((s) => s.status === PROCESSING_COMPLETED)!;
  subproject = { id: ready.id, name: ready.name };
});

// ---- the portfolios ----

interface Asset {
  id: string;
  name: string;
  lat: number;
  lng: number;
}

/** Asset i: A<i>, "Asset <i>", each at a place of its own. */
const asset = (i: number): Asset => ({
  id: `A${i}`,
  name: `Asset ${i}`,
  lat: Number((((i * 37) % 1400) / 10 - 70).toFixed(3)),
  lng: Number((((i * 91) % 3500) / 10 - 175).toFixed(3)),
});

/** The portfolio's CSV; each asset's value (label:price) for the financial impact. */
const csvOf = (assets: readonly Asset[]): string =>
  [
    "entity_id,entity_name,lat,lng,label:price",
    ...assets.map((a) => `${a.id},${a.name},${a.lat},${a.lng},${Math.round(1_000_000 + a.lat * 1000)}`),
  ].join("\n");

/** A0..A4. */
const BASE = [0, 1, 2, 3, 4].map(asset);
/** A2 (in the middle) removed, A5 added: A3 and A4 move up a portfolio_index. */
const CHANGED = [0, 1, 3, 4, 5].map(asset);
/** The same assets imported in the other order: every portfolio_index changes. */
const REORDERED = [...BASE].reverse();
/** A2 has A1's entity_id (its own name and place). */
const REPEATED_ID = BASE.map((a, i) => (i === 2 ? { ...a, id: "A1" } : a));
/** A2 has no entity_id. */
const MISSING_ID = BASE.map((a, i) => (i === 2 ? { ...a, id: "" } : a));
/** A2 is A1 again: the same entity_id, name and place. */
const COLLIDING = BASE.map((a, i) => (i === 2 ? asset(1) : a));

// ---- the kinds ----

interface KindCase {
  operation: PasteOperation;
  /** What a row is: an asset's, or (label counts, nature) a label's or a metric's. */
  rows: "assets" | "labels" | "metrics";
  /** Pastes the kind as its panel does; the name of its sheet. */
  paste(run: ExcelRunner, portfolio: string): Promise<string>;
  /**
   * What the refresh says, changing nothing, when two assets share an entity_id, for a kind that
   * needs every entity_id to be one asset's (instead of telling assets apart by name and place).
   */
  refusesRepeatedIds?: RegExp;
}

/** The risk matrix of labels as its panel pastes it: the matrix sheet, then the label counts. */
const pasteLabelMatrix = (run: ExcelRunner, portfolio: string) =>
  pasteRiskMatrix({ client: service.client, run, portfolio, scenario: "ssp585", window: 30, cells: "label" });

const KINDS: KindCase[] = [
  {
    operation: "summary",
    rows: "assets",
    paste: async (run, portfolio) =>
      (await pasteSummary({ client: service.client, run, portfolio, scenario: "ssp245", extended: false }))[0]
        .sheetName,
  },
  {
    operation: "extended-summary",
    rows: "assets",
    // The summary panel pastes the extended summary as the second sheet.
    paste: async (run, portfolio) =>
      (await pasteSummary({ client: service.client, run, portfolio, scenario: "ssp245" }))[1].sheetName,
  },
  {
    operation: "timeseries",
    rows: "assets",
    paste: async (run, portfolio) =>
      (
        await pasteTimeseries({
          client: service.client,
          run,
          portfolio,
          filters: { hazard: "wildfire", scenario: "ssp585", measure: "mid", startDate: "2030", endDate: "2040" },
        })
      ).sheets[0].sheetName,
  },
  {
    operation: "risk-matrix",
    rows: "assets",
    paste: async (run, portfolio) => (await pasteLabelMatrix(run, portfolio))[0].sheetName,
  },
  {
    operation: "label-counts",
    rows: "labels",
    // The risk matrix's second sheet.
    paste: async (run, portfolio) => (await pasteLabelMatrix(run, portfolio))[1].sheetName,
  },
  {
    operation: "scenario-comparison",
    rows: "assets",
    paste: async (run, portfolio) =>
      (await pasteScenarioComparison({ client: service.client, run, portfolio, hazard: "wildfire", window: 15 }))[0]
        .sheetName,
  },
  {
    operation: "applied-layer",
    rows: "assets",
    paste: async (run, portfolio) =>
      (await pasteAppliedLayer({ client: service.client, run, vectorId, portfolio })).sheetName,
  },
  {
    operation: "export",
    rows: "assets",
    // One file of the unpacked ZIP (asset, hazard, indicator); the others are pasted beside it.
    paste: async (run, portfolio) => {
      await unpackExport({ run, download: await downloadExport(service.client, portfolio), client: service.client });
      const records = (await run((context) => readProvenance(context))).records;
      return records.find((r) => r.filters.file === "exposure_ssp585.csv")!.sheetName;
    },
  },
  {
    operation: "financial-impact",
    rows: "assets",
    // The data sheet, keyed by asset; the losses per asset and their roll-up follow it.
    // Values are matched to assets by entity_id, so a repeated one is refused, naming the assets.
    refusesRepeatedIds: /entity_id must name one asset each: 1 appears twice in .*: "A1" \(index 1 and 2\)/,
    paste: async (run, portfolio) =>
      (await pasteFinancialImpact({ client: service.client, run, portfolio, hazard: "flood", scenarios: ["ssp585"] }))
        .sheets[0].sheetName,
  },
  {
    operation: "disclosure-data",
    rows: "assets",
    paste: async (run, portfolio) => {
      await pasteDisclosureTables({
        client: service.client,
        run,
        portfolio,
        labels: { value_label: "price", currency: "USD" },
      });
      return (await run((context) => readProvenance(context))).records.find((r) => r.operation === "disclosure-data")!
        .sheetName;
    },
  },
  {
    operation: "nature-summary",
    rows: "metrics",
    paste: async (run) => (await pasteSubprojectSummary({ client: service.client, run, subproject })).sheetName,
  },
];

const ASSET_KINDS = KINDS.filter((k) => k.rows === "assets");

/** Not read from the service but computed from the workbook (see the comment at the top). */
const OWN_PANEL_KINDS: PasteOperation[] = ["disclosure-significant"];

test("the matrix covers every paste kind of the list (features/paste-kinds.ts)", () => {
  expect([...KINDS.map((k) => k.operation), ...OWN_PANEL_KINDS].sort()).toEqual(
    PASTE_KINDS.map((k) => k.operation).sort(),
  );
});

test("the list of paste kinds holds one kind for each operation a provenance may record", () => {
  // A refresh finds a sheet's kind by its recorded operation: one missing is a sheet it cannot refresh.
  expect(PASTE_KINDS.map((k) => k.operation).sort()).toEqual(Object.keys(OPERATION_LABELS).sort());
});

// ---- the service changing ----

/** The metric the changed nature answer lacks, and the one it adds. */
const NEW_METRIC = "added_metric_mean";

/**
 * A client whose nature export, read from the emulator, lacks `dropped` and has NEW_METRIC: the
 * service's answer for a sub-project whose summary lost a number and gained one.
 */
function natureChangedClient(dropped: string): RiskClient {
  const changing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!/\/nature\/.*\/export/.test(url) || !response.ok) return response;
    const body = (await response.json()) as { summary?: Record<string, unknown>; metadata?: Record<string, unknown> };
    if (dropped.startsWith("metadata:")) delete body.metadata?.[dropped.slice("metadata:".length)];
    else delete body.summary?.[dropped];
    body.summary = { ...body.summary, [NEW_METRIC]: 0.5 };
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  return service.clientWith({ fetch: changing });
}

/**
 * The service after the change: the portfolio re-imported as `assets` (the client as it is), or
 * for a nature summary a client whose answer lost `dropped` and gained NEW_METRIC.
 */
async function serviceChanges(
  kind: KindCase,
  portfolio: string,
  assets: readonly Asset[],
  dropped?: string,
): Promise<RiskClient> {
  if (kind.rows === "metrics") return dropped ? natureChangedClient(dropped) : service.client;
  await importPortfolio(service.client, portfolio, csvOf(assets));
  return service.client;
}

// ---- the sheet as the analyst sees it ----

const recordOf = async (run: ExcelRunner, sheetName: string): Promise<ProvenanceRecord> =>
  (await run((context) => readProvenance(context))).records.find((r) => r.sheetName === sheetName)!;

/** Where the table is: 0-based header row and first column, data width, body rows. */
function placeOf(record: ProvenanceRecord) {
  const at = parseA1(record.tableAddress);
  return { top: at.row, left: at.col, width: record.header.length, rows: record.rows };
}

/** The column a row is told by: entity_id for asset rows, else the key's first column (label, metric). */
const whoColumn = (record: ProvenanceRecord): number =>
  record.header.indexOf(record.rowKey?.asset ? "entity_id" : record.rowKey!.columns[0]);

/** What a row is about, as the analyst reads it: its asset (or label, metric) and the key's columns. */
function whoOf(record: ProvenanceRecord, line: readonly unknown[]): string {
  const names = record.rowKey!.asset ? ["entity_id", ...record.rowKey!.columns] : record.rowKey!.columns;
  return names.map((name) => String(line[record.header.indexOf(name)])).join(" · ");
}

/** The asset (or label, metric) a row is about. */
const subjectOf = (who: string): string => who.split(" · ")[0];

interface Line {
  /** 1-based sheet row. */
  row: number;
  who: string;
  values: unknown[];
  /** The formula of the analyst's column inside the table. */
  mine: unknown;
  /** The analyst's note beside the table. */
  note: unknown;
  hidden: boolean;
}

/**
 * The analyst's layout: the data columns, their own column inside the table ("mine", at the
 * table's right), an empty column, then their notes.
 */
const MINE = 0;
const NOTE = 2;

/** Every row of the table now, with the analyst's column and note beside it. */
async function linesOf(fake: FakeExcel, run: ExcelRunner, sheetName: string): Promise<Line[]> {
  const record = await recordOf(run, sheetName);
  const { top, left, width, rows } = placeOf(record);
  const range = rangeA1(top + 1, left, rows, width + NOTE + 1);
  const values = fake.read(sheetName, range);
  const formulas = fake.read(sheetName, range, "formulas");
  const hidden = fake.model.findSheet(sheetName)!.hiddenRows;
  return values.map((line, i) => ({
    row: top + 2 + i,
    who: whoOf(record, line),
    values: line.slice(0, width),
    mine: formulas[i][width + MINE],
    note: line[width + NOTE],
    hidden: hidden.has(top + 1 + i),
  }));
}

/** The analyst's formula in their own column at sheet row `row`: their row's asset, label or metric. */
const mineAt = (record: ProvenanceRecord, row: number): string =>
  `=${col(placeOf(record).left + whoColumn(record))}${row}&" (mine)"`;

/**
 * The analyst's work on a pasted table: a column of their own inside the table (relative A1
 * formulas reading their row), the table sorted by its asset (or label, metric) descending, and a
 * note beside every row naming what it is about. Returns the rows as they are then.
 */
async function workOn(fake: FakeExcel, run: ExcelRunner, sheetName: string): Promise<Line[]> {
  const record = await recordOf(run, sheetName);
  const { top, left, width, rows } = placeOf(record);
  await run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    sheet.getRangeByIndexes(top, left + width, 1, 1).values = [["mine"]];
    sheet.tables.getItemAt(0).resize(rangeA1(top, left, rows + 1, width + 1));
    sheet.getRangeByIndexes(top + 1, left + width, rows, 1).formulas = Array.from({ length: rows }, (_, i) => [
      mineAt(record, top + 2 + i),
    ]);
    await context.sync();
    sheet.tables.getItemAt(0).sort.apply([{ key: whoColumn(record), ascending: false }]);
  });
  const sorted = await linesOf(fake, run, sheetName);
  const note = col(left + width + NOTE);
  fake.setValues(sheetName, `${note}${top + 1}:${note}${top + 1 + rows}`, [
    ["note"],
    ...sorted.map((line) => [`about ${line.who}`]),
  ]);
  return linesOf(fake, run, sheetName);
}

/** Hides the sheet row of `line` (what a filter does). */
async function hide(run: ExcelRunner, sheetName: string, line: Line): Promise<void> {
  await run(async (context) => {
    context.workbook.worksheets.getItem(sheetName).getRange(`A${line.row}`).rowHidden = true;
  });
}

/** A formula on the sheet "Report" in `cell` pointing at the asset (label, metric) cell of `line`. */
async function pointAt(fake: FakeExcel, run: ExcelRunner, sheetName: string, cell: string, line: Line) {
  const record = await recordOf(run, sheetName);
  if (!fake.sheetNames().includes("Report")) fake.addSheet("Report");
  fake.setValues("Report", cell, [
    [`=${qualify(sheetName, `${col(placeOf(record).left + whoColumn(record))}${line.row}`)}`],
  ]);
}

/** What the formula in Report!`cell` points at now: the row it reads, or "#REF!". */
async function pointedAt(fake: FakeExcel, run: ExcelRunner, sheetName: string, cell: string): Promise<string> {
  const formula = String(fake.read("Report", cell, "formulas")[0][0]);
  if (formula.includes("#REF!")) return "#REF!";
  const row = parseA1(formula.slice(1)).row + 1;
  const line = (await linesOf(fake, run, sheetName)).find((l) => l.row === row);
  return line?.who ?? `(row ${row}, outside the table)`;
}

/** The outcome of the one sheet refreshed. */
function outcomeOf(result: PastedRefreshResult, sheetName: string): SheetRefreshOutcome {
  const outcome = result.outcomes.find((o) => o.sheetName === sheetName);
  if (!outcome) throw new Error(`no outcome for ${sheetName}: ${JSON.stringify(result.outcomes)}`);
  return outcome;
}

/** Refreshes only `sheetName`, with the pane (its choices) or without it. */
async function refresh(
  run: ExcelRunner,
  sheetName: string,
  how: { client?: RiskClient; pane?: boolean; choices?: (sheetId: string) => RefreshChoices; signal?: AbortSignal },
): Promise<SheetRefreshOutcome> {
  const { sheetId } = await recordOf(run, sheetName);
  const options = {
    kinds: PASTE_KINDS,
    client: how.client ?? service.client,
    run,
    sheetIds: [sheetId],
    signal: how.signal,
  };
  const result =
    how.pane === false
      ? await refreshPastedSheetsWithoutPane(options)
      : await refreshPastedSheets({ ...options, ...how.choices?.(sheetId) });
  return outcomeOf(result, sheetName);
}

/**
 * The whole workbook as the analyst could tell it apart: every sheet's cells (values, formulas,
 * formats), tables, charts, conditional formats and hidden rows, the store sheets included.
 */
function workbookImage(fake: FakeExcel) {
  return {
    snapshot: withoutRefreshMarks(fake.snapshot()),
    hidden: fake.sheetNames().map((name) => [name, [...fake.model.findSheet(name)!.hiddenRows].sort((a, b) => a - b)]),
    formats: fake.sheetNames().map((name) => fake.model.findSheet(name)!.conditionalFormats.map((cf) => cf.address)),
  };
}

/** The workbook is exactly as `image` shows it (compared as text first: a deep comparison of every cell is slow). */
function expectWorkbook(fake: FakeExcel, image: ReturnType<typeof workbookImage>, what: string): void {
  const now = workbookImage(fake);
  if (JSON.stringify(now) !== JSON.stringify(image)) expect([what, now]).toEqual([what, image]);
}

/** A paste of `kind` from a portfolio of its own (`BASE`), in a new workbook. */
async function pasted(kind: KindCase, behaviour: string) {
  // Portfolio names are at most 32 characters.
  const portfolio = `${kind.operation.slice(0, 12)}-${behaviour}`;
  if (kind.rows !== "metrics") await importPortfolio(service.client, portfolio, csvOf(BASE));
  const { fake, run } = newWorkbook();
  const sheetName = await kind.paste(run, portfolio);
  return { portfolio, fake, run, sheetName };
}

// ---- the behaviours ----

test.each(KINDS)(
  "$operation: sorted, filtered, a column of formulas inside, notes beside and formulas elsewhere stay with their row when the service removes a row and adds one",
  async (kind) => {
    const { portfolio, fake, run, sheetName } = await pasted(kind, "journey");
    const before = await workOn(fake, run, sheetName);
    // The rows the service will no longer return: asset A2's (in the middle of the sorted table),
    // or the second metric; label counts keep their three rows.
    const dropped = kind.rows === "metrics" ? before[1].who : kind.rows === "assets" ? "A2" : undefined;
    const removed = before.filter((line) => subjectOf(line.who) === dropped);
    expect(removed.length > 0).toBe(dropped !== undefined);
    // Below the removed rows: a hidden row, and the last row a formula elsewhere points at.
    const last = before[before.length - 1];
    const hiddenLine = before[before.length - 2];
    expect(before.indexOf(hiddenLine)).toBeGreaterThan(before.indexOf(removed[removed.length - 1] ?? before[0]));
    await hide(run, sheetName, hiddenLine);
    await pointAt(fake, run, sheetName, "A1", last);
    if (removed.length > 0) await pointAt(fake, run, sheetName, "A2", removed[0]);

    const changed = await serviceChanges(kind, portfolio, CHANGED, dropped);
    const outcome = await refresh(run, sheetName, { client: changed });
    expect(outcome).toMatchObject({ ok: true });
    const keyed = outcome.keyed!;
    expect(keyed.removed).toHaveLength(removed.length);
    for (const key of keyed.removed) expect(subjectOf(key)).toMatch(dropped === "A2" ? /^id:A2$/ : /./);
    const added = kind.rows === "assets" ? "id:A5" : kind.rows === "metrics" ? NEW_METRIC : undefined;
    expect(keyed.added.length > 0).toBe(added !== undefined);
    for (const key of keyed.added) expect(subjectOf(key)).toBe(added);

    const after = await linesOf(fake, run, sheetName);
    const record = await recordOf(run, sheetName);
    const kept = after.slice(0, after.length - keyed.added.length);
    // The analyst's order, without the removed rows; each kept row with its own note and formula.
    expect(kept.map((line) => line.who)).toEqual(before.filter((line) => !removed.includes(line)).map((l) => l.who));
    for (const line of kept) {
      expect(line.note).toBe(`about ${line.who}`);
      expect(line.mine).toBe(mineAt(record, line.row));
    }
    // The new rows at the end, no note beside them.
    for (const line of after.slice(kept.length)) {
      expect(subjectOf(line.who)).toBe(added === "id:A5" ? "A5" : added);
      expect(line.note).toBe("");
    }
    // The formula elsewhere follows its row; the one into a removed row shows #REF!.
    expect(await pointedAt(fake, run, sheetName, "A1")).toBe(last.who);
    if (removed.length > 0) expect(await pointedAt(fake, run, sheetName, "A2")).toBe("#REF!");
    // The removed rows' formulas and notes are kept in the block below, with their keys.
    if (removed.length > 0) {
      const block = fake.read(sheetName, keyed.removedBlock!);
      expect(block[1]).toEqual(["key", "mine", "(column 2)", "note"]);
      expect(block.slice(2).map((line) => line[3])).toEqual(removed.map((line) => `about ${line.who}`));
      expect(block.slice(2).map((line) => line[1])).toEqual(removed.map((line) => line.mine));
    } else expect(keyed.removedBlock).toBeUndefined();
    // The hidden row is still the one hidden.
    expect(after.filter((line) => line.hidden).map((line) => line.who)).toEqual([hiddenLine.who]);
  },
);

test.each(ASSET_KINDS)(
  "$operation: the portfolio imported in another order changes every portfolio_index; the ribbon's refresh keeps every note and formula with its asset",
  async (kind) => {
    const { portfolio, fake, run, sheetName } = await pasted(kind, "reordered");
    const before = await workOn(fake, run, sheetName);
    await serviceChanges(kind, portfolio, REORDERED);
    const outcome = await refresh(run, sheetName, { pane: false });
    expect(outcome).toMatchObject({ ok: true, keyed: { added: [], removed: [], deletedByHand: [], edited: [] } });
    const after = await linesOf(fake, run, sheetName);
    const record = await recordOf(run, sheetName);
    expect(after.map((line) => line.who)).toEqual(before.map((line) => line.who));
    const pi = record.header.indexOf("portfolio_index");
    for (const line of after) {
      expect(line.note).toBe(`about ${line.who}`);
      expect(line.mine).toBe(mineAt(record, line.row));
      // Each row shows its asset's place in the new import.
      expect(line.values[pi]).toBe(REORDERED.findIndex((a) => a.id === subjectOf(line.who)));
    }
  },
);

test.each(KINDS)(
  "$operation: a cell typed over is kept and listed without the pane; take-service and keep-mine are honoured",
  async (kind) => {
    const { fake, run, sheetName } = await pasted(kind, "edited");
    const record = await recordOf(run, sheetName);
    const { top, left, width } = placeOf(record);
    // The last column of the first row (a score, a count, a year's value, a metric's value).
    const cell = `${col(left + width - 1)}${top + 2}`;
    const original = fake.read(sheetName, cell)[0][0];
    const who = whoOf(record, fake.read(sheetName, rangeA1(top + 1, left, 1, width))[0]);
    fake.setValues(sheetName, cell, [[424242]]);

    const ribbon = await refresh(run, sheetName, { pane: false });
    expect(ribbon).toMatchObject({ ok: true });
    expect(ribbon.keyed!.edited).toEqual([
      expect.objectContaining({ address: cell, column: record.header[width - 1], mine: 424242, service: original }),
    ]);
    expect(ribbon.keyed!.edited[0].key.replace(/^id:/, "")).toBe(who);
    expect(fake.read(sheetName, cell)).toEqual([[424242]]);
    expect(await recordOf(run, sheetName)).toMatchObject({ pendingEdits: 1 });

    const taken = await refresh(run, sheetName, { choices: (id) => ({ edits: { [id]: "take-service" } }) });
    expect(taken.keyed!.edited).toHaveLength(1);
    expect(fake.read(sheetName, cell)).toEqual([[original]]);
    expect((await recordOf(run, sheetName)).editChoice).toMatchObject({ choice: "take-service", cells: 1 });

    fake.setValues(sheetName, cell, [[434343]]);
    const mine = await refresh(run, sheetName, { choices: (id) => ({ edits: { [id]: "keep-mine" } }) });
    expect(mine.keyed!.edited).toHaveLength(1);
    expect(fake.read(sheetName, cell)).toEqual([[434343]]);
    // Kept for good: not asked again, with the pane or without it.
    for (const pane of [true, false]) {
      const later = await refresh(run, sheetName, { pane });
      expect(later.keyed).toMatchObject({ edited: [], keptByEarlierChoice: 1 });
      expect(fake.read(sheetName, cell)).toEqual([[434343]]);
    }
  },
);

test.each(KINDS)(
  "$operation: a row deleted by hand is not added back, is listed, and comes back at the end when asked",
  async (kind) => {
    const { portfolio, fake, run, sheetName } = await pasted(kind, "deleted");
    const before = await workOn(fake, run, sheetName);
    const record = await recordOf(run, sheetName);
    const { left, width } = placeOf(record);
    // The analyst deletes the first row with its note (Excel's "Delete cells, shift up").
    const gone = before[0];
    await run(async (context) => {
      context.workbook.worksheets
        .getItem(sheetName)
        .getRangeByIndexes(gone.row - 1, left, 1, width + NOTE + 1)
        .delete("Up" as Excel.DeleteShiftDirection);
    });
    const changed = await serviceChanges(kind, portfolio, CHANGED, kind.rows === "metrics" ? before[2].who : undefined);
    // Not added back, at this refresh or the next, with the pane or without it.
    let key = "";
    for (const pane of [true, false]) {
      const outcome = await refresh(run, sheetName, { client: changed, pane });
      expect(outcome).toMatchObject({ ok: true });
      expect(outcome.keyed!.deletedByHand.map((d) => d.label.replace(/^id:/, ""))).toEqual([gone.who]);
      key = outcome.keyed!.deletedByHand[0].key;
      const after = await linesOf(fake, run, sheetName);
      expect(after.map((line) => line.who)).not.toContain(gone.who);
      for (const line of after) if (line.note !== "") expect(line.note).toBe(`about ${line.who}`);
    }
    // "Restore these rows".
    const restored = await refresh(run, sheetName, {
      client: changed,
      choices: (id) => ({ restoreKeys: { [id]: [key] } }),
    });
    expect(restored.keyed!.added.map((k) => k.replace(/^id:/, ""))).toEqual([gone.who]);
    const after = await linesOf(fake, run, sheetName);
    expect(after[after.length - 1].who).toBe(gone.who);
  },
);

/** Every note the analyst typed, beside its row in the table or in a "Removed at refresh" block. */
function notesKept(fake: FakeExcel, sheetName: string, lines: readonly Line[]): void {
  const everything = JSON.stringify(fake.snapshot().sheets.find((s) => s.name === sheetName)!.cells);
  for (const line of lines) expect(everything).toContain(`about ${line.who}`);
}

describe.each([
  ["repeated", REPEATED_ID],
  ["missing", MISSING_ID],
] as const)("entity_ids now %s", (problem, assets) => {
  test.each(ASSET_KINDS)(
    `$operation: the refresh says the assets are now told apart by name and location and changes nothing until accepted, then refreshes by the new key (or refuses, naming the assets, a kind that needs unique ids)`,
    async (kind) => {
      const { portfolio, fake, run, sheetName } = await pasted(kind, `ids-${problem}`);
      const before = await workOn(fake, run, sheetName);
      expect((await recordOf(run, sheetName)).rowKey).toMatchObject({ assetKind: "entity_id" });
      await serviceChanges(kind, portfolio, assets);
      const image = workbookImage(fake);
      if (problem === "repeated" && kind.refusesRepeatedIds) {
        const refused = await refresh(run, sheetName, { choices: (id) => ({ acceptKeyKindChange: [id] }) });
        expect(refused).toMatchObject({ ok: false });
        expect(english(refused.message)).toMatch(kind.refusesRepeatedIds);
        expectWorkbook(fake, image, "refused");
        return;
      }
      for (const pane of [false, true]) {
        const asked = await refresh(run, sheetName, { pane });
        expect(asked).toMatchObject({ ok: false, keyKindChanged: true });
        expect(english(asked.message)).toMatch(/told apart by entity_id .* and now by name and location/);
        expectWorkbook(fake, image, `refreshed ${pane ? "with" : "without"} the pane`);
      }
      const accepted = await refresh(run, sheetName, { choices: (id) => ({ acceptKeyKindChange: [id] }) });
      expect(accepted).toMatchObject({ ok: true });
      expect((await recordOf(run, sheetName)).rowKey).toMatchObject({ assetKind: "name_location" });
      // Every asset's rows are there, and nothing the analyst typed is lost.
      const after = await linesOf(fake, run, sheetName);
      expect(after).toHaveLength(before.length);
      notesKept(fake, sheetName, before);
      // The next refresh matches rows by name and location: nothing added or removed.
      const again = await refresh(run, sheetName, { pane: false });
      expect(again).toMatchObject({ ok: true, keyed: { added: [], removed: [] } });
    },
  );
});

test.each(ASSET_KINDS)(
  "$operation: when two assets share an entity_id, a name and a place, the refresh names them and changes nothing",
  async (kind) => {
    const { portfolio, fake, run, sheetName } = await pasted(kind, "colliding");
    await workOn(fake, run, sheetName);
    await serviceChanges(kind, portfolio, COLLIDING);
    const image = workbookImage(fake);
    const outcome = await refresh(run, sheetName, { choices: (id) => ({ acceptKeyKindChange: [id] }) });
    expect(outcome).toMatchObject({ ok: false });
    if (kind.refusesRepeatedIds) expect(english(outcome.message)).toMatch(kind.refusesRepeatedIds);
    else {
      expect(english(outcome.message)).toMatch(/cannot be told apart/);
      expect(english(outcome.message)).toContain(`"Asset 1" at ${asset(1).lat}, ${asset(1).lng}: portfolio_index 1, 2`);
    }
    expectWorkbook(fake, image, "refreshed");
  },
);

/** Operations that only read: a request of nothing else changes nothing. */
const READS = new Set(["load", "resolve", "getCount", "series.getDimensionDataSourceString"]);
const writes = (operations: readonly string[]) => operations.some((op) => !READS.has(op));

/**
 * How the k-th request that writes goes wrong: it never arrives (nothing of it applied); Excel
 * applies its operations up to one that fails (the first half of them applied); or the analyst
 * presses Cancel while it runs (it applies).
 */
type Mishap = "fails" | "fails part-way" | "cancelled";

/**
 * Refreshes `sheetName` (the pane, the service's values taken over cells typed over) with the k-th
 * request that writes going wrong; its operations when the refresh reached it, and the outcome or
 * the cancellation.
 */
async function refreshWithMishap(
  fake: FakeExcel,
  run: ExcelRunner,
  sheetName: string,
  changed: RiskClient,
  k: number,
  mishap: Mishap,
): Promise<{ reached?: string[]; outcome?: SheetRefreshOutcome; cancelled?: unknown }> {
  const controller = new AbortController();
  let seen = 0;
  let reached: string[] | undefined;
  fake.setFaultInjector((info) => {
    if (!writes(info.operations) || ++seen !== k) return undefined;
    reached = info.operations;
    if (mishap === "cancelled") {
      controller.abort();
      return undefined;
    }
    const applyFirst = mishap === "fails" ? 0 : Math.floor(info.operations.length / 2);
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected failure"), applyFirst };
  });
  try {
    const outcome = await refresh(run, sheetName, {
      client: changed,
      signal: controller.signal,
      choices: (id) => ({ edits: { [id]: "take-service" } }),
    });
    return { reached, outcome };
  } catch (cancelled) {
    return { reached, cancelled };
  } finally {
    fake.setFaultInjector(undefined);
  }
}

test.each(KINDS)(
  "$operation: a refresh that fails at any of its writes, or part-way through one, or is cancelled, leaves the workbook exactly as it was",
  async (kind) => {
    const { portfolio, fake, run, sheetName } = await pasted(kind, "failed");
    const before = await workOn(fake, run, sheetName);
    await hide(run, sheetName, before[before.length - 2]);
    await pointAt(fake, run, sheetName, "A1", before[before.length - 1]);
    await pointAt(fake, run, sheetName, "A2", before[1]);
    // A cell typed over, for the service's value to be written back ("take-service").
    const { left, width } = placeOf(await recordOf(run, sheetName));
    fake.setValues(sheetName, `${col(left + width - 1)}${before[0].row}`, [[424242]]);
    const changed = await serviceChanges(kind, portfolio, CHANGED, kind.rows === "metrics" ? before[1].who : undefined);
    const image = workbookImage(fake);
    let drilled = 0;
    let done: SheetRefreshOutcome | undefined;
    for (let k = 1; !done; k++) {
      for (const mishap of ["fails", "fails part-way", "cancelled"] as const) {
        const tried = await refreshWithMishap(fake, run, sheetName, changed, k, mishap);
        if (tried.outcome?.ok) {
          // The refresh had fewer writes, or went wrong at its last request (the deletion of the
          // removed rows, ending with the stamp in the record of what was written), which it
          // finished (applied in part) or had done (cancelled too late to stop it).
          if (tried.reached)
            expect([k, mishap, tried.reached.slice(-2)]).toEqual([
              k,
              expect.not.stringMatching(/^fails$/),
              ["set:numberFormat", "set:values"],
            ]);
          done = tried.outcome;
          break;
        }
        const what = `write ${k}, ${mishap}`;
        if (mishap === "cancelled") expect([what, tried.cancelled]).toEqual([what, expect.any(CancelledError)]);
        else expect([what, english(tried.outcome?.message)]).toEqual([what, expect.stringMatching(/injected failure/)]);
        expectWorkbook(fake, image, what);
        drilled++;
      }
    }
    // At least the first request that writes failed whole and part-way: a refresh writes in few
    // requests (a small one, all of it in the last: the changed cells, the new record of what was
    // written, the provenance, then the deletions; cancelled there, it is too late to stop).
    expect(drilled).toBeGreaterThanOrEqual(2);
    // Done, whichever way: the next refresh finds the sheet as a refresh leaves it.
    const again = await refresh(run, sheetName, { client: changed });
    expect(again.keyed).toMatchObject({ cellsChanged: 0, added: [], removed: [], unknownRows: [], edited: [] });
    // No record of what was written is left over: each store sheet is a pasted sheet's.
    const stores = (await run((context) => readProvenance(context))).records.flatMap((r) =>
      [r.writtenStore, r.followers?.store].filter((name) => name !== undefined),
    );
    expect(
      fake
        .sheetNames()
        .filter((name) => name.startsWith(WRITTEN_STORE_PREFIX))
        .sort(),
    ).toEqual(stores.sort());
  },
);

test("a deletion of removed rows that fails part-way twice says the sheet was refreshed and which rows may be left (the same code for every kind)", async () => {
  const { portfolio, fake, run, sheetName } = await pasted(KINDS[0], "interrupted");
  await workOn(fake, run, sheetName);
  // A2 and A0 removed: two runs of rows in the table sorted by asset descending (A4 … A0).
  await importPortfolio(service.client, portfolio, csvOf([1, 3, 4, 5].map(asset)));
  // The deletion's request applies the provenance's writes before it and its first deletion (A0's
  // rows, the bottom run), and fails; the request sending the rest fails too.
  let deletion = 0;
  fake.setFaultInjector((info) => {
    if (deletion === 0 && info.operations.includes("delete")) {
      deletion = 1;
      return { applyFirst: info.operations.indexOf("delete") + 1 };
    }
    if (deletion === 1 && writes(info.operations)) {
      deletion = 2;
      return {};
    }
    return undefined;
  });
  const outcome = await refresh(run, sheetName, {});
  fake.setFaultInjector(undefined);
  expect(outcome).toMatchObject({ ok: false });
  expect(english(outcome.message)).toMatch(
    /was refreshed, but its last step failed part-way .*: 3 rows the service no longer returns are still in the table/,
  );
  // On record as refreshed: the next refresh finds A2's three rows not on record and leaves them.
  const next = await refresh(run, sheetName, {});
  expect(next.keyed).toMatchObject({ added: [], removed: [], cellsChanged: 0 });
  expect(next.keyed!.unknownRows).toHaveLength(3);
  const left = (await linesOf(fake, run, sheetName)).filter((line) => subjectOf(line.who) === "A2");
  expect(left.map((line) => line.note)).toEqual([
    "about A2 · ssp245 · 5",
    "about A2 · ssp245 · 15",
    "about A2 · ssp245 · 30",
  ]);
});
