/**
 * The financial impact sheets refresh in place by asset ("Refresh pasted sheets", the keyed refresh
 * of pasted tables): a value the analyst typed into the data sheet and their notes beside it stay
 * with their asset through a sort and a portfolio that loses and gains assets; each row of the
 * per-asset losses finds its asset by key, so a sort of the data sheet changes nothing there, and
 * the roll-up is written over the rows there are now. Emulator over HTTP, fake workbook (the test
 * follows the losses sheet's lookups as Excel computes them: follow-formulas.ts).
 */
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import { SOURCES_SHEET } from "../../../../src/shaping/paste-provenance";
import { columnLetters as col } from "../../../../src/shaping/a1";
import { pasteFinancialImpact } from "../../../../src/taskpane/features/impact/impact-actions";
import {
  refreshPastedSheets,
  refreshPastedSheetsWithoutPane,
} from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { importPortfolio } from "../../../functions/support/emulator";
import { FakeErrorCodes, FakeExcelError } from "../../../../testing/fake-excel/errors";
import { pasteSummary } from "../../../../src/taskpane/features/summary/summary-actions";
import { newWorkbook, usePaneTestService } from "../../support";
import { evaluate } from "./follow-formulas";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";
import { english } from "../../../support/english";
import { withoutRefreshMarks } from "../../../support/refresh-marks";

const HEADER = "entity_id,entity_name,lat,lng,label:country,label:price";
const P1 = "P1,Paris depot,48.85,2.35,FR,1000000";
const P2 = "P2,Lyon plant,45.76,4.83,FR,2500000";
const B1 = "B1,Berlin office,52.52,13.40,DE,";
const H1 = "H1,Hamburg port,53.55,9.99,DE,400000";
const N1 = "N1,Nantes yard,47.22,-1.55,FR,800000";

const service = usePaneTestService();

const DATA = "Impact data impact-keyed";
const LOSSES = "Financial impact impact-keyed";
const ROLLUP = "Impact by country";

async function pasteTheSet() {
  await importPortfolio(service.client, "impact-keyed", [HEADER, P1, P2, B1, H1].join("\n"));
  const { fake, run } = newWorkbook();
  const result = await pasteFinancialImpact({
    client: service.client,
    run,
    portfolio: "impact-keyed",
    hazard: "flood",
    scenarios: ["ssp585"],
    rollupLabel: "country",
  });
  expect(result.sheets.map((s) => s.sheetName)).toEqual([DATA, LOSSES, ROLLUP]);
  return { fake, run, width: result.sheets[0].columnCount, lossWidth: result.sheets[1].columnCount };
}

test("the impact data sheet is a pasted sheet keyed by asset, with the per-asset and roll-up tables as its followers", async () => {
  const { run } = await pasteTheSet();
  const [record] = (await run((context) => readProvenance(context))).records;
  expect(record).toMatchObject({
    operation: "financial-impact",
    sheetName: DATA,
    portfolio: "impact-keyed",
    filters: { hazard: "flood", scenarios: "ssp585", value_label: "price", currency: "USD", rollup_label: "country" },
    rowKey: { asset: true, columns: [], assetKind: "entity_id" },
    followers: { mirror: "Financial_impact_impact_keyed", summary: "Impact_by_country_impact_keyed" },
  });
});

test("a refresh the losses sheet follows without losing a row asks Excel only what it needs, in few requests", async () => {
  const { fake, run } = await pasteTheSet();
  // An asset's value changes (no asset leaves): every row stays, the losses follow live.
  await importPortfolio(service.client, "impact-keyed", [HEADER, P1, P2, B1, H1, N1].join("\n"));
  const requests: string[][] = [];
  fake.setFaultInjector((info) => void requests.push(info.operations));
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(result.outcomes[0]).toMatchObject({ ok: true, keyed: { added: ["id:N1"], removed: [] } });
  expect(result.outcomes[0].followers?.failed ?? false).toBe(false);
  expect(lossIds(fake, 5)).toEqual(["P1", "P2", "B1", "H1", "N1"]);
  // The provenance (1); the follower tables with the data table and both records (1), their cells
  // (1); the data table's cells (1); its new row (2: inserted with the provenance's read, written);
  // the writes ending with the record's stamp (1); the losses sheet's rows by key with its tables
  // and the formats its writes take (1), its new row (1), its formulas (1), the last of them with
  // its record and the provenance naming it (1): 11 requests.
  expect(requests).toHaveLength(11);
});

test("sorted, a typed value and notes: after an asset leaves and one joins, each stays with its asset and the losses follow", async () => {
  const { fake, run, width, lossWidth } = await pasteTheSet();
  // The analyst sorts the data sheet by entity_id descending, types B1's value (it has no
  // label:price) and a note beside every asset, and a note beside each row of the losses sheet.
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(DATA)
      .tables.getItemAt(0)
      .sort.apply([{ key: 1, ascending: false }]);
  });
  const ids = fake.read(DATA, "B2:B5").map(([id]) => String(id));
  expect(ids).toEqual(["P2", "P1", "H1", "B1"]);
  const b1 = ids.indexOf("B1") + 2;
  fake.setValues(DATA, `E${b1}`, [[750_000]]);
  const note = col(width);
  fake.setValues(DATA, `${note}1:${note}5`, [["note"], ...ids.map((id) => [`about ${id}`])]);
  const lossNote = col(lossWidth);
  // The losses sheet is as it was: each row shows its own asset, B1 with the value typed.
  const shown = lossIds(fake, 4);
  expect(shown).toEqual(["P1", "P2", "B1", "H1"]);
  expect(evaluate(fake, LOSSES, "E4")).toBe(750_000);
  fake.setValues(LOSSES, `${lossNote}1:${lossNote}5`, [["checked by"], ...shown.map((id) => [`reviewer of ${id}`])]);

  // P1 leaves the portfolio (every portfolio_index after it shifts); N1 joins at the end.
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes).toHaveLength(1);
  const outcome = result.outcomes[0];
  expect(outcome).toMatchObject({ ok: true, rows: 4 });
  expect(outcome.keyed!.removed).toEqual([expect.stringContaining("P1")]);
  expect(outcome.keyed!.added).toEqual([expect.stringContaining("N1")]);
  // The typed value is the analyst's: kept, listed for their choice.
  expect(outcome.keyed!.edited).toEqual([
    expect.objectContaining({ column: "value (USD)", mine: 750_000, service: "" }),
  ]);
  expect(outcome.followers).toMatchObject({ failed: false });
  expect(english(outcome.followers!.messages)).toMatch(/losses per asset followed its assets: 1 row removed, 1 added/);

  // The data sheet: the analyst's order for the assets kept, N1 at the end; notes and the value beside their asset.
  const data = fake.read(DATA, `A2:${note}5`);
  expect(data.map((r) => r[1])).toEqual(["P2", "H1", "B1", "N1"]);
  for (const row of data.slice(0, 3)) expect(row[width]).toBe(`about ${String(row[1])}`);
  expect(data[3][width]).toBe("");
  expect(data.find((r) => r[1] === "B1")![4]).toBe(750_000);
  expect(data.find((r) => r[1] === "N1")![4]).toBe(800_000);
  // What the note beside P1 said is kept below the data table.
  expect(fake.read(DATA, "A9:B10")).toEqual([
    ["key", "note"],
    [expect.stringContaining("P1"), "about P1"],
  ]);

  // The losses sheet: each row finds its asset by its new portfolio_index, no #REF!, one row per
  // asset, notes with their asset, B1's typed value in its losses.
  const losses = fake.read(LOSSES, `A2:${lossNote}5`, "formulas");
  losses.forEach((row) => expect(row.join("")).not.toContain("#REF!"));
  expect(fake.read(LOSSES, "A6:B6")).toEqual([["", ""]]);
  const lossNotes = lossIds(fake, 4).map((id, i) => [id, losses[i][lossWidth]]);
  expect(lossNotes).toEqual([
    ["P2", "reviewer of P2"],
    ["B1", "reviewer of B1"],
    ["H1", "reviewer of H1"],
    ["N1", ""],
  ]);
  const indexes = fake.read(DATA, "A2:B5").map(([index, id]) => [id, index]);
  expect(losses.map((row, i) => [lossIds(fake, 4)[i], row[0]])).toEqual(
    ["P2", "B1", "H1", "N1"].map((id) => indexes.find(([dataId]) => dataId === id)),
  );
  expect(evaluate(fake, LOSSES, "E3")).toBe(750_000);
  expect(english(outcome.followers!.messages)).toContain(`kept at '${LOSSES}'!A8:B10`);
  expect(fake.read(LOSSES, "A9:B10")).toEqual([
    ["key", "checked by"],
    [expect.stringContaining("P1"), "reviewer of P1"],
  ]);
  await run(async (context) => {
    const range = context.workbook.tables.getItem("Financial_impact_impact_keyed").getRange();
    range.load("address");
    await context.sync();
    expect(range.address).toMatch(/!A1:[A-Z]+5$/);
  });
  // The roll-up's totals run over the four rows there are now.
  const rollup = fake.read(ROLLUP, "G2", "formulas")[0][0];
  expect(rollup).toContain(`'${LOSSES}'!$E$2:$E$5`);
  expect(rollup).not.toContain("$6");
});

test("a refresh without the pane keeps the typed value, and a follower table gone refuses before anything changes", async () => {
  const { fake, run } = await pasteTheSet();
  fake.setValues(DATA, "E4", [[123]]);
  const quiet = await refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client: service.client, run });
  expect(quiet.outcomes[0]).toMatchObject({ ok: true, keyed: { edited: [expect.objectContaining({ mine: 123 })] } });
  expect(fake.read(DATA, "E4")).toEqual([[123]]);

  const before = fake.read(DATA, "A1:E5");
  // A losses sheet that reads data rows by place (an earlier version wrote it so): refused, nothing changed.
  fake.setValues(LOSSES, "A2", [[`='${DATA}'!$A2`]]);
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const byPlace = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(byPlace.outcomes[0]).toMatchObject({ ok: false });
  expect(english(byPlace.outcomes[0].message)).toMatch(
    /read the data sheet by place .*paste the financial impact anew/,
  );
  expect(fake.read(DATA, "A1:E5")).toEqual(before);
  fake.setValues(LOSSES, "A2", [[0]]);
  await run(async (context) => {
    context.workbook.tables.getItem("Impact_by_country_impact_keyed").delete();
    await context.sync();
  });
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const refused = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(refused.outcomes[0]).toMatchObject({ ok: false });
  expect(english(refused.outcomes[0].message)).toMatch(
    /"Impact_by_country_impact_keyed" of the formulas over it was deleted or renamed/,
  );
  expect(fake.read(DATA, "A1:E5")).toEqual(before);
});

test("a filtered losses sheet: a refresh that changes no asset goes on; one that would add or remove its rows says so first, nothing changed", async () => {
  const { fake, run } = await pasteTheSet();
  await run(async (context) => {
    const losses = context.workbook.worksheets.getItem(LOSSES).tables.getItemAt(0);
    losses.autoFilter.apply(losses.getRange(), 0, { filterOn: "Custom" as Excel.FilterOn, criterion1: ">0" });
    await context.sync();
  });
  const same = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(same.outcomes[0]).toMatchObject({ ok: true });
  // P1 leaves and N1 comes: the losses sheet's rows would have to follow, which Excel refuses.
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const before = fake.snapshot();
  const refused = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(refused.outcomes[0]).toMatchObject({ ok: false });
  expect(english(refused.outcomes[0].message)).toMatch(
    new RegExp(`on sheet "${LOSSES}" is filtered, and this refresh adds or removes its rows`),
  );
  expect(withoutRefreshMarks(fake.snapshot())).toEqual(withoutRefreshMarks(before));
});

test("when the formula sheets cannot follow, the data sheet's refresh stands, says so, and stays on record for the next refresh", async () => {
  const { fake, run } = await pasteTheSet();
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  let failed = false;
  fake.setFaultInjector((info) => {
    if (failed || !info.operations.includes("set:formulas")) return undefined;
    failed = true;
    return { error: new FakeExcelError(FakeErrorCodes.generalException, "injected formula write failure") };
  });
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  fake.setFaultInjector(undefined);
  expect(failed).toBe(true);
  expect(result.outcomes[0]).toMatchObject({ ok: true, followers: { failed: true } });
  expect(english(result.outcomes[0].followers!.messages)).toMatch(
    /could not be brought in line \(injected formula write failure\): paste the financial impact anew/,
  );
  // The data sheet was refreshed and its record kept: the next refresh goes by key again.
  expect(fake.read(DATA, "B2:B5").map(([id]) => id)).toEqual(["P2", "B1", "H1", "N1"]);
  const again = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(again.outcomes[0]).toMatchObject({ ok: true, keyed: { added: [], removed: [] } });
});

test.each([
  ["near its end, the old record's deletion applied", (ops: number) => ops - 2, false],
  ["before anything of it was applied", () => 0, true],
] as const)(
  "when the losses sheet's last request fails %s, the data sheet's refresh stands and every record, the losses sheet's too, reads back whole",
  async (_when, applyFirst, followersFailed) => {
    const { fake, run } = await pasteTheSet();
    await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
    // The followers' last request: the losses sheet's new record (a sheet added), the old one's
    // deletion, then the provenance naming the new one (its Sources sheet's links last).
    let failed = false;
    fake.setFaultInjector((info) => {
      const ops = info.operations;
      if (failed || !ops.includes("add") || !ops.includes("set:hyperlink")) return undefined;
      failed = true;
      return {
        error: new FakeExcelError(FakeErrorCodes.generalException, "injected last request failure"),
        applyFirst: applyFirst(ops.length),
      };
    });
    const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
    fake.setFaultInjector(undefined);
    expect(failed).toBe(true);
    expect(result.outcomes[0].ok).toBe(true);
    // Applied up to the provenance, the followers are in line (their writes came first) and their
    // new record is the one left; applied not at all, they are not, and the old record stands.
    expect(result.outcomes[0].followers?.failed ?? false).toBe(followersFailed);
    if (followersFailed)
      expect(english(result.outcomes[0].followers!.messages)).toMatch(/injected last request failure/);
    // The provenance was written again: every record reads back, naming a record that is there.
    const read = await run((context) => readProvenance(context));
    expect(read.problems).toEqual([]);
    const data = read.records.find((r) => r.sheetName === DATA)!;
    expect(data.rows).toBe(4);
    expect(fake.sheetNames()).toContain(data.followers?.store);
    // The Sources sheet too: each sheet's row links to its sheet (the failed request's last writes).
    const links = await run(async (context) => {
      const sources = context.workbook.worksheets.getItem(SOURCES_SHEET);
      const cells = read.records.map((_, i) => sources.getCell(i + 1, 0).load("values, hyperlink"));
      await context.sync();
      return cells.map((c) => [c.values[0][0], c.hyperlink?.documentReference ?? ""]);
    });
    expect(links.map(([sheet]) => sheet).sort()).toEqual(read.records.map((r) => r.sheetName).sort());
    expect(links.every(([, link]) => link !== "")).toBe(true);
    expect(fake.read(DATA, "B2:B5").map(([id]) => id)).toEqual(["P2", "B1", "H1", "N1"]);
    const again = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
    expect(again.outcomes[0]).toMatchObject({ ok: true, keyed: { added: [], removed: [] } });
  },
);

/** The asset (entity_id) each of the first `rows` rows of the losses sheet shows. */
function lossIds(fake: ReturnType<typeof newWorkbook>["fake"], rows: number): string[] {
  return Array.from({ length: rows }, (_, i) => String(evaluate(fake, LOSSES, `B${i + 2}`)));
}

async function sortByColumn(run: ReturnType<typeof newWorkbook>["run"], sheet: string, key: number): Promise<void> {
  await run(async (context) => {
    context.workbook.worksheets
      .getItem(sheet)
      .tables.getItemAt(0)
      .sort.apply([{ key, ascending: false }]);
  });
}

/** What each of the first `rows` rows of the losses sheet shows: asset, value, a loss, business interruption. */
function lossFigures(fake: ReturnType<typeof newWorkbook>["fake"], rows: number): unknown[][] {
  return Array.from({ length: rows }, (_, i) =>
    ["B", "E", "F", "I"].map((c) => evaluate(fake, LOSSES, `${c}${i + 2}`)),
  );
}

test("sorting the data sheet changes nothing on the losses sheet: each row shows its own asset's figures, live and after a refresh", async () => {
  const { fake, run, lossWidth } = await pasteTheSet();
  const note = col(lossWidth);
  const before = lossFigures(fake, 4);
  expect(before.map(([id]) => id)).toEqual(["P1", "P2", "B1", "H1"]);
  expect(before[1][1]).toBe(2_500_000);
  expect(typeof before[1][2]).toBe("number");
  expect(before[2].slice(1, 3)).toEqual(["#N/A", "#N/A"]); // B1 has no price
  fake.setValues(LOSSES, `${note}1:${note}5`, [["checked by"], ...before.map(([id]) => [`reviewer of ${id}`])]);
  const formulas = fake.read(LOSSES, `A1:${note}5`, "formulas");

  // Excel's sort moves the data sheet's values, not the references into it (the fake's too).
  await sortByColumn(run, DATA, 1);
  expect(fake.read(DATA, "B2:B5").map(([id]) => id)).toEqual(["P2", "P1", "H1", "B1"]);
  expect(fake.read(LOSSES, `A1:${note}5`, "formulas")).toEqual(formulas);
  expect(lossFigures(fake, 4)).toEqual(before);

  // P1 leaves, N1 joins, Lyon's value changes; refresh.
  const P2_CHANGED = P2.replace("2500000", "2600000");
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2_CHANGED, B1, H1, N1].join("\n"));
  const outcome = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(outcome).toMatchObject({ ok: true, rows: 4 });
  expect(outcome.followers).toMatchObject({ failed: false });
  expect(english(outcome.followers!.messages)).not.toMatch(/sorted/);
  const after = lossFigures(fake, 4);
  expect(after.map(([id], i) => [id, fake.read(LOSSES, `${note}${i + 2}`)[0][0]])).toEqual([
    ["P2", "reviewer of P2"],
    ["B1", "reviewer of B1"],
    ["H1", "reviewer of H1"],
    ["N1", ""],
  ]);
  // Lyon's losses use its new value; Nantes, new, has its own.
  expect(after[0][1]).toBe(2_600_000);
  expect(after[0][2]).toBeCloseTo(((before[1][2] as number) * 2_600_000) / 2_500_000, 6);
  expect(after[3][1]).toBe(800_000);
  // P1's note is kept below the losses table, and the pane says where.
  const where = /kept at '([^']+)'!(A\d+:B\d+)/.exec(english(outcome.followers!.messages))!;
  expect(where[1]).toBe(LOSSES);
  expect(fake.read(LOSSES, where[2]).slice(1)).toEqual([
    ["key", "checked by"],
    [expect.stringContaining("P1"), "reviewer of P1"],
  ]);
  expect(fake.read(LOSSES, "A1:A10", "formulas").flat().join("")).not.toContain("#REF!");
  // The roll-up runs over the four rows.
  expect(fake.read(ROLLUP, "G2", "formulas")[0][0]).toContain(`'${LOSSES}'!$E$2:$E$5`);
});

test("notes beside the losses sheet written before it was sorted follow their asset back at the next refresh", async () => {
  const { fake, run, lossWidth } = await pasteTheSet();
  const note = col(lossWidth);
  const readNotes = (rows: number) =>
    lossIds(fake, rows).map((id, i) => [id, fake.read(LOSSES, `${note}${i + 2}`)[0][0]]);
  // Notes beside each asset of the losses sheet, then a refresh that changes nothing (it records them).
  const first = lossIds(fake, 4);
  fake.setValues(LOSSES, `${note}1:${note}5`, [["checked by"], ...first.map((id) => [`reviewer of ${id}`])]);
  expect((await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0]).toMatchObject({
    ok: true,
  });

  // The analyst sorts the losses table by portfolio_index: its rows move, the notes beside it do not.
  await sortByColumn(run, LOSSES, 0);
  expect(readNotes(4)).toEqual([
    ["H1", "reviewer of P1"],
    ["B1", "reviewer of P2"],
    ["P2", "reviewer of B1"],
    ["P1", "reviewer of H1"],
  ]);

  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const outcome = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(outcome).toMatchObject({ ok: true, rows: 4 });
  // Each note is beside its own asset again, in place; the new asset gets a row at the end.
  expect(readNotes(4)).toEqual([
    ["P2", "reviewer of P2"],
    ["B1", "reviewer of B1"],
    ["H1", "reviewer of H1"],
    ["N1", ""],
  ]);
  expect(english(outcome.followers!.messages)).toMatch(
    /losses sheet was sorted since the last refresh.*each reads their asset again/,
  );
  expect(english(outcome.followers!.messages)).toMatch(/kept at '[^']+'!A\d+:B\d+/);
});

test("notes typed beside the losses sheet after it was sorted stay with the asset shown beside them", async () => {
  const { fake, run, lossWidth } = await pasteTheSet();
  const note = col(lossWidth);
  expect((await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0]).toMatchObject({
    ok: true,
  });
  await sortByColumn(run, LOSSES, 0);
  const shown = lossIds(fake, 4);
  expect(shown).toEqual(["H1", "B1", "P2", "P1"]);
  fake.setValues(LOSSES, `${note}1:${note}5`, [["checked by"], ...shown.map((id) => [`reviewer of ${id}`])]);

  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const outcome = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(outcome).toMatchObject({ ok: true, rows: 4 });
  expect(lossIds(fake, 4).map((id, i) => [id, fake.read(LOSSES, `${note}${i + 2}`)[0][0]])).toEqual([
    ["H1", "reviewer of H1"],
    ["B1", "reviewer of B1"],
    ["P2", "reviewer of P2"],
    ["N1", ""],
  ]);
  expect(english(outcome.followers!.messages)).toMatch(
    /typed or changed beside the losses sheet since the last refresh/,
  );
  expect(english(outcome.followers!.messages)).toMatch(/kept at '[^']+'!A\d+:B\d+/);
});

test("the paste records which asset each losses row is about, so the first refresh keeps notes as later ones do", async () => {
  const { fake, run, lossWidth } = await pasteTheSet();
  const note = col(lossWidth);
  // The record is there from the paste: losses row n is about the asset it shows.
  const [record] = (await run((context) => readProvenance(context))).records;
  expect(record.followers!.store).toMatch(/^_ClimateRiskWritten\d+$/);
  const owners = fake.read(record.followers!.store!, "A2:B5").map(([locator, key]) => [locator, String(key)]);
  expect(owners.map(([locator]) => locator)).toEqual(["0", "1", "2", "3"]);
  lossIds(fake, 4).forEach((id, n) => expect(owners[n][1]).toContain(id));

  // Before any refresh: the data sheet sorted, a note beside each losses row, then the losses sheet sorted.
  await sortByColumn(run, DATA, 1);
  const shown = lossIds(fake, 4);
  expect(shown).toEqual(["P1", "P2", "B1", "H1"]);
  fake.setValues(LOSSES, `${note}1:${note}5`, [["checked by"], ...shown.map((id) => [`reviewer of ${id}`])]);
  await sortByColumn(run, LOSSES, 0);
  expect(lossIds(fake, 4)).toEqual(["H1", "B1", "P2", "P1"]);

  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const outcome = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(outcome).toMatchObject({ ok: true, rows: 4 });
  // Typed since the paste while the losses sheet's order changed: kept beside the asset shown, and
  // the first refresh says so, as any later one does.
  expect(english(outcome.followers!.messages)).toMatch(
    /typed or changed beside the losses sheet since the last refresh/,
  );
  expect(lossIds(fake, 4).map((id, i) => [id, fake.read(LOSSES, `${note}${i + 2}`)[0][0]])).toEqual([
    ["H1", "reviewer of P1"],
    ["B1", "reviewer of P2"],
    ["P2", "reviewer of B1"],
    ["N1", ""],
  ]);
});

test("notes typed beside the losses sheet after the paste and after the first refresh stay beside their asset through sorts of the data sheet", async () => {
  const { fake, run, lossWidth } = await pasteTheSet();
  const first = col(lossWidth);
  const second = col(lossWidth + 1);
  const notesOf = (column: string) =>
    lossIds(fake, 4).map((id, i) => [id, fake.read(LOSSES, `${column}${i + 2}`)[0][0]]);
  fake.setValues(LOSSES, `${first}1:${first}5`, [
    ["checked by"],
    ...lossIds(fake, 4).map((id) => [`reviewer of ${id}`]),
  ]);
  await sortByColumn(run, DATA, 1);
  expect(fake.read(DATA, "B2:B5").map(([id]) => id)).toEqual(["P2", "P1", "H1", "B1"]);
  const outcome = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(outcome).toMatchObject({ ok: true });
  expect(english(outcome.followers?.messages)).not.toMatch(/sorted/);
  expect(notesOf(first)).toEqual(["P1", "P2", "B1", "H1"].map((id) => [id, `reviewer of ${id}`]));

  // After the first refresh: a second note, the data sheet sorted again, an asset gone and one new.
  fake.setValues(LOSSES, `${second}1:${second}5`, [["signed off"], ...lossIds(fake, 4).map((id) => [`signed ${id}`])]);
  await sortByColumn(run, DATA, 4);
  await importPortfolio(service.client, "impact-keyed", [HEADER, P2, B1, H1, N1].join("\n"));
  const again = (await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run })).outcomes[0];
  expect(again).toMatchObject({ ok: true, rows: 4 });
  expect(english(again.followers!.messages)).not.toMatch(/sorted/);
  expect(notesOf(first)).toEqual([...["P2", "B1", "H1"].map((id) => [id, `reviewer of ${id}`]), ["N1", ""]]);
  expect(notesOf(second)).toEqual([...["P2", "B1", "H1"].map((id) => [id, `signed ${id}`]), ["N1", ""]]);
});

test("one refresh reads a scenario's extended summary once when its own sheet and the financial impact both need it, and the next refresh reads it again", async () => {
  await importPortfolio(service.client, "impact-shared", [HEADER, P1, P2, H1].join("\n"));
  const { fake, run } = newWorkbook();
  await pasteSummary({ client: service.client, run, portfolio: "impact-shared", extendedScenario: "ssp585" });
  await pasteFinancialImpact({
    client: service.client,
    run,
    portfolio: "impact-shared",
    hazard: "flood",
    scenarios: ["ssp585", "ssp245"],
  });
  // The requests the refresh sends, over HTTP to the emulator.
  const urls: string[] = [];
  const counting = service.clientWith({
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
  const extendedReads = (scenario: string) =>
    urls.filter(
      (url) =>
        /\/datasets\/physical\/summary\?/.test(url) &&
        /extended=true/.test(url) &&
        url.includes(`scenario=${scenario}`),
    ).length;
  const dataBefore = fake.read("Impact data impact-shared", "A1:H4");

  const result = await refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client: counting, run });
  expect(result.outcomes.map((o) => o.ok)).toEqual([true, true, true]);
  // Three assets fit in one page: one request per scenario, though two sheets read ssp585.
  expect(extendedReads("ssp585")).toBe(1);
  expect(extendedReads("ssp245")).toBe(1);
  expect(fake.read("Impact data impact-shared", "A1:H4")).toEqual(dataBefore);

  urls.length = 0;
  await refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client: counting, run });
  expect(extendedReads("ssp585")).toBe(1);
});
