/**
 * A workbook made in one language refreshes in any other (issue 40): what the add-in reads back
 * (sheet, table and header names, the provenance store, the Methodology sheet's section and item
 * keys, service identifiers) is the same whatever the pane's language; only words written for a
 * reader follow it (the Sources sheet's operation column). Pasted in German (summary, extended
 * summary, timeseries, risk matrix and label counts, scenario comparison, disclosure tables), then
 * "Refresh pasted sheets" in English and in French: every sheet refreshes, nothing is added,
 * removed or taken for the analyst's edit, and the workbook reads back as it was made.
 * Emulator over HTTP on 127.0.0.1, fake workbook.
 */
import { writeRemovedBlock } from "../../src/excel/keyed-replace";
import { readProvenance } from "../../src/excel/provenance-sheets";
import { rangeA1 } from "../../src/shaping/a1";
import { setSheetWords } from "../../src/excel/sheet-words";
import type { Language } from "../../src/i18n/languages";
import { createTranslator, loadCatalog } from "../../src/i18n/translator";
import {
  OPERATION_LABELS,
  SOURCES_HEADER,
  SOURCES_SHEET,
  type PasteOperation,
} from "../../src/shaping/paste-provenance";
import { pasteDisclosureTables } from "../../src/taskpane/features/disclosure/disclosure-actions";
import { ITEMS, METHODOLOGY_HEADER, SECTIONS } from "../../src/taskpane/features/disclosure/model/disclosure";
import { PASTE_KINDS } from "../../src/taskpane/features/paste-kinds";
import { refreshPastedSheets } from "../../src/taskpane/features/pasted/pasted-sheets-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { pasteTimeseries } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { pasteRiskMatrix, pasteScenarioComparison } from "../../src/taskpane/features/visual/risk-views-actions";
import type { FakeExcel } from "../../testing/fake-excel";
import { importPortfolio } from "../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../taskpane/support";

const service = usePaneTestService();
const PORTFOLIO = "sprachen";

/** Four assets, each with a value (label:price) for the disclosure tables. */
const CSV = [
  "entity_id,entity_name,lat,lng,label:price",
  ...[0, 1, 2, 3].map(
    (i) => `A${i},Asset ${i},${(i * 3.7 - 20).toFixed(3)},${(i * 9.1 - 60).toFixed(3)},${1_000_000 + i}`,
  ),
].join("\n");

/** Writes sheets' words in `language`, as the pane does once its language is known. */
async function writeIn(language: Language): Promise<void> {
  setSheetWords(createTranslator(language, await loadCatalog(language)).format);
}

afterAll(() => writeIn("en"));

/** A sheet's used range as read back. */
function usedRows(fake: FakeExcel, sheet: string): unknown[][] {
  const used = fake.usedAddress(sheet)!;
  return fake.read(sheet, used.slice(used.indexOf("!") + 1));
}

/** The Sources sheet's rows as read back. */
function sourcesRows(fake: FakeExcel): unknown[][] {
  return usedRows(fake, SOURCES_SHEET);
}

/**
 * `cells` with each "YYYY-MM-DD HH:MM UTC" replaced: a check formula states when it was computed,
 * and a refresh in the next minute rewrites it with that minute (the run crossing a minute is not
 * a change of the workbook).
 */
function withoutMinutes<T>(cells: T): T {
  return JSON.parse(JSON.stringify(cells).replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, "<minute> UTC")) as T;
}

/**
 * What the add-in reads back: every sheet's name, every table's name, place and cells (header
 * included), every other visible sheet's cells (the Methodology sheet's keys and the analyst's
 * inputs, the formula sheets' formulas, the minute a check formula was computed), the provenance
 * records but their time. Everything but
 * the Sources sheet, which is rewritten for a reader.
 */
function readBack(fake: FakeExcel, records: Awaited<ReturnType<typeof readProvenance>>["records"]) {
  // The stores of what a refresh wrote (_ClimateRiskWritten…) are rewritten under new names by
  // every refresh, in any language: bookkeeping, compared through the records' other fields.
  const visible = fake.snapshot().sheets.filter((s) => s.visibility === "Visible");
  return {
    sheets: visible.map((s) => s.name),
    tables: fake.snapshot().tables,
    cells: visible
      .filter((s) => s.name !== SOURCES_SHEET)
      .map((s) => ({ name: s.name, cells: withoutMinutes(s.cells) })),
    records: records.map((r) => ({
      ...r,
      writtenAt: undefined,
      writtenStore: undefined,
      pendingEdits: r.pendingEdits ?? 0,
    })),
  };
}

test("made in German, refreshed in English and in French: every sheet refreshes and reads back as made", async () => {
  await importPortfolio(service.client, PORTFOLIO, CSV);
  const { fake, run } = newWorkbook();
  await writeIn("de");
  await pasteSummary({ client: service.client, run, portfolio: PORTFOLIO, scenario: "ssp245" });
  const timeseries = await pasteTimeseries({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    filters: { hazard: "wildfire", scenario: "ssp585", measure: "mid", startDate: "2030", endDate: "2040" },
    chartAssets: [0],
  });
  await pasteRiskMatrix({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    scenario: "ssp585",
    window: 30,
    cells: "label",
  });
  await pasteScenarioComparison({ client: service.client, run, portfolio: PORTFOLIO, hazard: "wildfire", window: 15 });
  await pasteDisclosureTables({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    labels: { value_label: "price", currency: "USD" },
  });
  const made = await run((context) => readProvenance(context));
  const operations = made.records.map((r) => r.operation);
  expect(new Set(operations)).toEqual(
    new Set<PasteOperation>([
      "summary",
      "extended-summary",
      "timeseries",
      "risk-matrix",
      "label-counts",
      "scenario-comparison",
      "disclosure-data",
      "disclosure-significant",
    ]),
  );
  const before = readBack(fake, made.records);
  // The Sources sheet: its header as everywhere, the operations in German.
  const operationColumn = SOURCES_HEADER.indexOf("Operation");
  expect(sourcesRows(fake)[0]).toEqual(SOURCES_HEADER);
  expect(sourcesRows(fake)[1 + operations.indexOf("summary")][operationColumn]).toBe("Zusammenfassung");
  expect(sourcesRows(fake)[1 + operations.indexOf("risk-matrix")][operationColumn]).toBe("Risikomatrix");
  // The Methodology sheet: its header, sections and items as in every language (formulas look them
  // up), its notes and limitations for the reader in German.
  const methodology = usedRows(fake, `Methodology ${PORTFOLIO}`);
  expect(methodology[0]).toEqual(METHODOLOGY_HEADER);
  const row = (section: string, item: string) => methodology.find((r) => r[0] === section && r[1] === item)!;
  expect(row(SECTIONS.currency, ITEMS.currency)[4]).toBe(
    "Alle Beträge lauten auf diese Währung. label:price ist laut Definition des Dienstes USD.",
  );
  expect(row(SECTIONS.threshold, "wildfire")[4]).toBe(
    "Wesentlich, wenn der Score (jährliche Wahrscheinlichkeit) darüber liegt. Der Dienst stuft einen Score über 0.01 als HIGH und ab 0.001 als MEDIUM ein; voreingestellt ist seine HIGH-Grenze.",
  );
  expect(methodology.filter((r) => r[0] === SECTIONS.limitation).map((r) => r[2])).toContain(
    "Alle Zeiträume beginnen im Startjahr des Datensatzes: Die langfristige Zahl schließt die ersten Jahre ein.",
  );
  expect(usedRows(fake, `TCFD ${PORTFOLIO}`)[1]![0]).toMatch(/^Physische Risiken: /);
  // The timeseries chart's title, a reader's words, in German (the portfolio's name as it is).
  expect(fake.model.findSheet(timeseries.sheetName)!.charts[0]!.settings["title.text"]).toBe(
    `Zeitreihen · ${PORTFOLIO}`,
  );
  // The risk views' title lines (and the counts chart's title) in German.
  expect(usedRows(fake, `Matrix ${PORTFOLIO}`)[0]![0]).toBe(
    `${PORTFOLIO} · Risikomatrix · Szenario ssp585 · Zeitraum 30 Jahre · Stufen`,
  );
  expect(usedRows(fake, `Compare wildfire ${PORTFOLIO}`)[0]![0]).toMatch(/^sprachen · Szenariovergleich · wildfire · /);

  for (const [language, summaryWord] of [
    ["en", "Summary"],
    ["fr", "Synthèse"],
  ] as const) {
    await writeIn(language);
    const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
    expect(result.outcomes.map((o) => [o.sheetName, o.ok])).toEqual(made.records.map((r) => [r.sheetName, true]));
    for (const outcome of result.outcomes) {
      if (outcome.keyed)
        expect([outcome.sheetName, outcome.keyed]).toMatchObject([
          outcome.sheetName,
          { added: [], removed: [], edited: [] },
        ]);
    }
    const after = await run((context) => readProvenance(context));
    expect(readBack(fake, after.records)).toEqual(before);
    const rows = sourcesRows(fake);
    expect(rows[0]).toEqual(SOURCES_HEADER);
    expect(rows[1 + operations.indexOf("summary")][operationColumn]).toBe(summaryWord);
    // Sheet and table names in the Sources sheet are the same in every language.
    expect(rows.slice(1).map((row) => [row[0], row[1]])).toEqual(made.records.map((r) => [r.sheetName, r.tableName]));
  }
});

test("the English catalog names the operations as the pane's sections do", async () => {
  const english = await loadCatalog("en");
  for (const [operation, label] of Object.entries(OPERATION_LABELS)) {
    expect([operation, english[`sheet.operation.${operation as PasteOperation}`]]).toEqual([operation, label]);
  }
});

test("a note for the reader is in the pane's language, its key column and keys are not", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Notes" });
  await writeIn("fr");
  const place = await run((context) =>
    writeRemovedBlock(
      context,
      context.workbook.worksheets.getItem("Notes"),
      0,
      ["note"],
      [{ key: "id:A · ssp585 · 30", cells: ["ma note"] }],
      new Date("2026-11-28T03:00:00Z"),
    ),
  );
  const block = fake.read("Notes", rangeA1(place.row, 0, place.rows, place.cols));
  expect(block).toEqual([
    [
      "Supprimées lors de l’actualisation du 2026-11-28T03:00:00Z (UTC)\u00a0: le service ne renvoie plus ces lignes\u00a0; ce que vous y aviez saisi, ou à côté, est conservé ici",
      "",
    ],
    ["key", "note"],
    ["id:A · ssp585 · 30", "ma note"],
  ]);
});
