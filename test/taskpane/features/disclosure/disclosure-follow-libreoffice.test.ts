/**
 * The disclosure tables follow the portfolio, recalculated by LibreOffice from the .xlsx the fake's
 * workbook makes (its tables real tables, the formulas as written): a refresh that adds assets, one
 * that removes one, a threshold change; and a workbook made before the formulas named the data
 * table (fixed ranges), which a refresh marks stale on the sheet and the pane upgrades. Every path
 * to a refresh does all of it in one refresh: "Refresh disclosure tables", "Refresh pasted sheets"
 * and the ribbon's refresh. Every E1-9 figure is compared with the independent computation from the
 * emulator's answers (support.ts).
 */
import type { RiskClient } from "../../../../src/api/client";
import type { RunningEmulator } from "../../../../emulator/server";
import {
  pasteDisclosureTables,
  refreshDisclosureTables,
  upgradeDisclosureTables,
} from "../../../../src/taskpane/features/disclosure/disclosure-actions";
import { ITEMS, SECTIONS } from "../../../../src/taskpane/features/disclosure/model/disclosure";
import { PASTE_KINDS } from "../../../../src/taskpane/features/paste-kinds";
import { refreshPastedSheets } from "../../../../src/taskpane/features/pasted/pasted-sheets-actions";
import { refreshPastedSheetsFromRibbon } from "../../../../src/taskpane/features/pasted/ribbon-refresh";
import {
  COUNTRY_HEADER,
  E19_HEADER,
  IFRS_HEADER,
  TCFD_HEADER,
  UNLISTED_COUNTRY,
} from "../../../../src/taskpane/features/disclosure/model/disclosure-tables";
import { columnLetters } from "../../../../src/shaping/a1";
import { HAZARDS, SCENARIOS } from "../../../../src/shared/vocabulary";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { newWorkbook, setSheetProtected, startPaneTestService } from "../../support";
import { describeWithLibreOffice, recalculateInLibreOffice, type Recalculated } from "../../../support/libreoffice";
import {
  ASSETS,
  MORE_ASSETS,
  expectE19,
  expectedFigures,
  expectedSignificant,
  recordsOf,
  importDisclosurePortfolio,
  methodologyRow,
  type ExpectedInputs,
  type TestAsset,
  typeInto,
} from "./support";
import { english } from "../../../support/english";

const TOTALS = { assets: 50_000_000, revenue: 10_000_000 };
const EUR_RATE = 1.1;

let emulator: RunningEmulator;
let client: RiskClient;

beforeAll(async () => {
  ({ emulator, client } = await startPaneTestService());
}, 60_000);
afterAll(() => emulator.close());

const sheetsOf = (portfolio: string) => ({
  data: `Disclosure data ${portfolio}`,
  methodology: `Methodology ${portfolio}`,
  e19: `E1-9 ${portfolio}`,
  ifrs: `IFRS S2 29(c) ${portfolio}`,
  tcfd: `TCFD ${portfolio}`,
  significant: `E1-9 66(c) ${portfolio}`,
  country: `By country ${portfolio}`,
});

/** Where the 66(c) sheet says whether its list is current (right of its 9 columns, one between). */
const LIST_CHECK = "K1";

/**
 * The by-country sheet against the independent computation: each listed country's amounts
 * (acute, chronic, any) from its assets, and the last row of each scenario and horizon the assets
 * of every other country, so the rows of any hazard add up to E1-9's (unless `listedOnly`: that row is
 * E1-9's total less the listed rows, wrong while E1-9 reads fixed ranges and says so).
 */
function expectByCountry(book: Recalculated, sheet: string, x: ExpectedInputs, listedOnly = false): Set<string> {
  const rows = recordsOf(book, sheet);
  const listed = new Set(rows.map((r) => r["country (ISO 3166-1)"]!).filter((c) => c !== UNLISTED_COUNTRY));
  for (const row of rows) {
    const amounts = COUNTRY_HEADER.slice(4).map((h) => row[h]);
    if (row["window (years)"] === "#N/A") {
      expect(amounts).toEqual(["#N/A", "#N/A", "#N/A"]);
      continue;
    }
    const code = row["country (ISO 3166-1)"]!;
    if (listedOnly && code === UNLISTED_COUNTRY) continue;
    const mine = expectedFigures(x, row.scenario!, Number(row["window (years)"])).rows.filter((a) =>
      code === UNLISTED_COUNTRY ? !listed.has(a.country) : a.country === code,
    );
    const sum = (kind: "acute" | "chronic" | "any") =>
      mine.filter((a) => a[kind] && a.amount !== undefined).reduce((t, a) => t + a.amount!, 0);
    amounts.forEach((text, i) => expect(Number(text)).toBeCloseTo(sum((["acute", "chronic", "any"] as const)[i]!), 4));
  }
  return listed;
}

/** E1-9 rows with a window: the short term has none until the analyst picks one (#N/A). */
const withWindow = (rows: Array<Record<string, string>>) => rows.filter((r) => r["window (years)"] !== "#N/A");

/** The 66(c) list's asset ids, in order, as recalculated. */
const listOf = (book: Recalculated, sheet: string) => recordsOf(book, sheet).map((r) => r.entity_id);

/** A sheet's cells (address → [value, formula]) as JSON, to compare before and after. */
function cellsJson(fake: FakeExcel, sheet: string): string {
  return JSON.stringify(fake.snapshot().sheets.find((s) => s.name === sheet)!.cells);
}

/** Makes the tables for `assets` and types the analyst's inputs; answers what the computation needs. */
async function makeTables(portfolio: string, assets: readonly TestAsset[]) {
  await importDisclosurePortfolio(client, portfolio, assets);
  const { fake, run } = newWorkbook();
  await pasteDisclosureTables({ client, run, portfolio });
  const sheets = sheetsOf(portfolio);
  const m = (section: string, item: string) => `C${methodologyRow(fake, sheets.methodology, section, item)}`;
  await typeInto(fake, sheets.methodology, m(SECTIONS.fx, "EUR"), EUR_RATE);
  await typeInto(fake, sheets.methodology, m(SECTIONS.undertaking, ITEMS.totalAssets), TOTALS.assets);
  await typeInto(fake, sheets.methodology, m(SECTIONS.undertaking, ITEMS.netRevenue), TOTALS.revenue);
  // Each hazard's threshold at the median of its long-term ssp585 scores: some assets at risk, some not.
  const summary = await client.datasets.summary(portfolio, {}).all();
  const thresholds = new Map<string, number>();
  for (const { portfolio: hazard } of HAZARDS) {
    const scores = summary
      .filter((s) => s.scenario === "ssp585" && s.window === 30)
      .map((s) => s.risk_summaries.find((r) => r.hazard === hazard)?.risk_score ?? 0)
      .sort((x, y) => x - y);
    thresholds.set(hazard, scores[Math.floor(scores.length / 2)]!);
    await typeInto(fake, sheets.methodology, m(SECTIONS.threshold, hazard), thresholds.get(hazard)!);
  }
  const inputs: ExpectedInputs = {
    assets,
    summary,
    thresholds,
    rates: new Map([
      ["USD", 1],
      ["EUR", EUR_RATE],
    ]),
  };
  return { fake, run, sheets, inputs, m };
}

/** Replaces the portfolio's assets on the service and answers the inputs of the computation after it. */
async function portfolioBecomes(portfolio: string, inputs: ExpectedInputs, assets: readonly TestAsset[]) {
  await importDisclosurePortfolio(client, portfolio, assets);
  return { ...inputs, assets, summary: await client.datasets.summary(portfolio, {}).all() };
}

describeWithLibreOffice(__filename)("the tables follow the data table's rows", () => {
  const portfolio = "disclosure-follow";
  let made: Awaited<ReturnType<typeof makeTables>>;
  let inputs: ExpectedInputs;

  beforeAll(async () => {
    made = await makeTables(portfolio, ASSETS);
    inputs = made.inputs;
  }, 120_000);

  test("a refresh that adds two assets: every figure and the coverage count them; the formula sheets are not written", async () => {
    const { fake, run, sheets } = made;
    const formulaSheets = [sheets.methodology, sheets.e19, sheets.ifrs, sheets.tcfd];
    const before = formulaSheets.map((s) => cellsJson(fake, s));
    inputs = await portfolioBecomes(portfolio, inputs, [...ASSETS, ...MORE_ASSETS]);
    const result = await refreshDisclosureTables({ client, run, portfolio });
    expect(result.refused).toBe(0);
    expect(result.outdated).toEqual([]);
    expect(formulaSheets.map((s) => cellsJson(fake, s))).toEqual(before);

    const book = await recalculateInLibreOffice(fake.snapshot());
    const rows = expectE19(book, sheets.e19, inputs, TOTALS);
    expect(rows).toHaveLength(SCENARIOS.length * 3);
    expect(withWindow(rows).every((r) => r["coverage: assets"] === String(ASSETS.length + MORE_ASSETS.length))).toBe(
      true,
    );
    // The 66(c) list was computed from the data after this refresh: the new assets are in it.
    const list = listOf(book, sheets.significant);
    expect(list).toEqual(expectedSignificant(inputs, SCENARIOS));
    expect(list.filter((id) => MORE_ASSETS.some((a) => a.id === id)).length).toBeGreaterThan(0);
    expect(book.text(sheets.significant, LIST_CHECK)).toMatch(/^current: computed /);
    // By country: the rows are rewritten for the countries now (JP came with the refresh), and the
    // last row of each scenario and horizon reconciles with E1-9.
    const listed = expectByCountry(book, sheets.country, inputs);
    expect([...listed].sort()).toEqual(["DE", "FR", "IT", "JP", "US"]);
  }, 120_000);

  test("a refresh that removes an asset, by “Refresh pasted sheets”: it drops out of every figure", async () => {
    const { fake, run, sheets } = made;
    inputs = await portfolioBecomes(
      portfolio,
      inputs,
      [...ASSETS, ...MORE_ASSETS].filter((a) => a.id !== "A6"),
    );
    // The shared refresh of every pasted sheet, as the pane's "Pasted sheets & sources" runs it.
    const result = await refreshPastedSheets({ client, run, kinds: PASTE_KINDS });
    expect(result.refused).toBe(0);
    expect(result.followUps).toEqual([]);
    const book = await recalculateInLibreOffice(fake.snapshot());
    const rows = expectE19(book, sheets.e19, inputs, TOTALS);
    expect(
      withWindow(rows).every((r) => r["coverage: assets"] === String(ASSETS.length + MORE_ASSETS.length - 1)),
    ).toBe(true);
    expect(listOf(book, sheets.significant)).toEqual(expectedSignificant(inputs, SCENARIOS));
    expect(book.text(sheets.significant, LIST_CHECK)).toMatch(/^current: computed /);
    expectByCountry(book, sheets.country, inputs);
  }, 120_000);

  test("a refresh that leaves the data sheet as it was: the Methodology says when and why, by formula, until a refresh goes through", async () => {
    const { fake, run, sheets, m } = made;
    // The data sheet's name as made (a sheet name is at most 31 characters).
    const data = fake.sheetNames().find((name) => name.startsWith("Disclosure data"))!;
    const marks = (book: Recalculated) =>
      ["read (UTC)", "not refreshed (UTC)", "why not refreshed"].map((item) =>
        book.text(sheets.methodology, m(SECTIONS.dataset, item)),
      );
    await setSheetProtected(run, data, true);
    const refused = await refreshPastedSheets({ client, run, kinds: PASTE_KINDS });
    expect(refused.outcomes.find((o) => o.sheetName === data)).toMatchObject({ ok: false });
    let book = await recalculateInLibreOffice(fake.snapshot());
    const [read, notRefreshed, why] = marks(book);
    expect(notRefreshed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(notRefreshed >= read).toBe(true);
    expect(why).toContain(`Sheet "${data}" is protected`);
    // Every figure is still the last refresh's (the sheet was left whole).
    expectE19(book, sheets.e19, inputs, TOTALS);
    await setSheetProtected(run, data, false);
    const result = await refreshPastedSheets({ client, run, kinds: PASTE_KINDS });
    expect(result.refused).toBe(0);
    book = await recalculateInLibreOffice(fake.snapshot());
    expect(marks(book).slice(1)).toEqual(["", ""]);
  }, 120_000);

  test("a threshold changed on the Methodology sheet: every figure follows", async () => {
    const { fake, sheets, m } = made;
    const hazard = HAZARDS[0]!.portfolio;
    const thresholds = new Map(inputs.thresholds).set(hazard, -1);
    inputs = { ...inputs, thresholds };
    await typeInto(fake, sheets.methodology, m(SECTIONS.threshold, hazard), -1);
    let book = await recalculateInLibreOffice(fake.snapshot());
    expectE19(book, sheets.e19, inputs, TOTALS);
    // The 66(c) list was computed before: its sheet says so until refreshed, then follows.
    expect(book.text(sheets.significant, LIST_CHECK)).toBe("stale: refresh");
    expect(listOf(book, sheets.significant)).not.toEqual(expectedSignificant(inputs, SCENARIOS));
    await refreshDisclosureTables({ client, run: made.run, portfolio });
    book = await recalculateInLibreOffice(fake.snapshot());
    expect(listOf(book, sheets.significant)).toEqual(expectedSignificant(inputs, SCENARIOS));
    expect(book.text(sheets.significant, LIST_CHECK)).toMatch(/^current: computed /);
  }, 120_000);

  test("an FX rate of 0 leaves its currency's assets out of every table, the 66(c) list included", async () => {
    const { fake, run, sheets, m } = made;
    inputs = { ...inputs, rates: new Map([...inputs.rates, ["EUR", 0]]) };
    await typeInto(fake, sheets.methodology, m(SECTIONS.fx, "EUR"), 0);
    await refreshDisclosureTables({ client, run, portfolio });
    const book = await recalculateInLibreOffice(fake.snapshot());
    const rows = expectE19(book, sheets.e19, inputs, TOTALS);
    const eur = [...ASSETS, ...MORE_ASSETS].filter((a) => a.currency === "EUR").length;
    expect(
      withWindow(rows).every((r) => Number(r["coverage: without a value or FX rate (left out of the amounts)"]) >= eur),
    ).toBe(true);
    const list = listOf(book, sheets.significant);
    expect(list).toEqual(expectedSignificant(inputs, SCENARIOS));
    expect(list.some((id) => [...ASSETS, ...MORE_ASSETS].find((a) => a.id === id)!.currency === "EUR")).toBe(false);
    expectByCountry(book, sheets.country, inputs);
  }, 120_000);

  test("66(b): the value whose adaptation is unknown and the share if it were adapted are stated, not folded in", async () => {
    const book = await recalculateInLibreOffice(made.fake.snapshot());
    const rows = expectE19(book, made.sheets.e19, inputs, TOTALS);
    // The test's portfolio has at-risk assets of unknown adaptation (A4): the range is not one point.
    expect(
      rows.some((r) => Number(r["66(b) value at risk whose adaptation is unknown (reporting currency)"]) > 0),
    ).toBe(true);
  }, 120_000);

  test("the short term: #N/A with its reason until a window is picked; the 5-year window says it is the medium term's", async () => {
    const { fake, sheets } = made;
    let book = await recalculateInLibreOffice(fake.snapshot());
    const shortRows = () => recordsOf(book, sheets.e19).filter((r) => r["time horizon"].startsWith("short term"));
    expect(shortRows()).toHaveLength(SCENARIOS.length);
    expect(shortRows().every((r) => r["window (years)"] === "#N/A")).toBe(true);
    const limitation = (text: RegExp) =>
      book.rows(sheets.methodology).some((row) => row[0] === SECTIONS.limitation && text.test(row[2] ?? ""));
    expect(limitation(/^No short-term figure/)).toBe(true);

    const shortRow = methodologyRow(fake, sheets.methodology, SECTIONS.horizon, ITEMS.short);
    await typeInto(fake, sheets.methodology, `C${shortRow}`, 5);
    book = await recalculateInLibreOffice(fake.snapshot());
    expect(shortRows().map((r) => r["time horizon"])).toEqual(
      SCENARIOS.map(() => "short term (the medium term's window)"),
    );
    // Every figure of the short-term rows: the 5-year window's, computed independently.
    expectE19(book, sheets.e19, inputs, TOTALS);
    expect(shortRows().every((r) => r["window (years)"] === "5")).toBe(true);
    expect(limitation(/5-year window, the medium term's window, and stand in for the reporting period/)).toBe(true);
  }, 120_000);
});

/** The cell right of a disclosure sheet's table (from column A) where a stale notice goes. */
function noticeCell(book: Recalculated, sheet: string): string {
  const width = sheet.startsWith("IFRS S2")
    ? IFRS_HEADER.length
    : sheet.startsWith("TCFD")
      ? TCFD_HEADER.length
      : sheet.startsWith("By country")
        ? COUNTRY_HEADER.length
        : E19_HEADER.length;
  return book.text(sheet, `${columnLetters(width + 1)}1`);
}

/**
 * The E1-9 formulas as the add-in wrote them before they named the data table: each column of the
 * data table as a fixed range of the data sheet over the rows there were (what a workbook made
 * then holds; the test makes one by rewriting, the add-in never writes them).
 */
async function asMadeBefore(fake: FakeExcel, sheets: ReturnType<typeof sheetsOf>, dataTable: string) {
  const snapshot = fake.snapshot();
  const table = snapshot.tables.find((t) => t.name === dataTable)!;
  const lastRow = Number(/(\d+)$/.exec(table.address)![1]);
  const data = snapshot.sheets.find((s) => s.name === sheets.data)!;
  const header = new Map<string, string>();
  for (const [address, value] of data.cells) {
    const m = /^(?:.*!)?\$?([A-Z]+)\$?1$/.exec(address);
    if (m) header.set(String(value), m[1]!);
  }
  const e19 = snapshot.sheets.find((s) => s.name === sheets.e19)!;
  await fake.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheets.e19);
    for (const [address, , formula] of e19.cells)
      if (formula?.includes(`${dataTable}[`))
        sheet.getRange(address.replace(/^.*!/, "")).formulas = [
          [
            formula.replace(new RegExp(`${dataTable}\\[([^\\]]+)\\]`, "g"), (_, name: string) => {
              const col = header.get(name)!;
              return `'${sheets.data}'!$${col}$2:$${col}$${lastRow}`;
            }),
          ],
        ];
    await context.sync();
  });
  return lastRow;
}

describeWithLibreOffice(__filename)("a workbook made before the tables followed their data", () => {
  test("a refresh marks its E1-9 sheet stale in a cell; the upgrade makes every figure count the new assets", async () => {
    const portfolio = "disclosure-old";
    const made = await makeTables(portfolio, ASSETS);
    const { fake, run, sheets } = made;
    const dataTable = `Disclosure_data_${portfolio.replace(/-/g, "_")}`;
    const lastRow = await asMadeBefore(fake, sheets, dataTable);

    const inputs = await portfolioBecomes(portfolio, made.inputs, [...ASSETS, ...MORE_ASSETS]);
    const result = await refreshDisclosureTables({ client, run, portfolio });
    // IFRS S2, TCFD and the by-country rows compute from E1-9's cells: as stale, and said so too.
    const following = [sheets.ifrs, sheets.tcfd, sheets.country].sort();
    expect(result.outdated).toEqual([
      { dataSheet: sheets.data, sheets: [sheets.e19], following: expect.any(Array), lastRow },
    ]);
    expect([...result.outdated[0]!.following].sort()).toEqual(following);
    // The sheet itself says so, by formula, beside the table (one column right of its last).
    const notice = `${columnLetters(E19_HEADER.length + 1)}1`;
    let book = await recalculateInLibreOffice(fake.snapshot());
    const rowsNow = (ASSETS.length + MORE_ASSETS.length) * SCENARIOS.length * 3;
    expect(book.text(sheets.e19, notice)).toMatch(
      new RegExp(`^Stale: .* rows 2 to ${lastRow} .* has ${rowsNow} rows now`),
    );
    // Until upgraded, the old ranges miss the new assets (row 3: the first scenario's medium term).
    expect(book.text(sheets.e19, "R3")).toBe(String(ASSETS.length));
    for (const sheet of following)
      expect(noticeCell(book, sheet)).toMatch(
        new RegExp(`^Stale: .* use those of ${sheets.e19}, which read rows 2 to ${lastRow} `),
      );

    expect(await upgradeDisclosureTables({ run, portfolio })).toEqual([sheets.e19]);
    book = await recalculateInLibreOffice(fake.snapshot());
    expect(book.text(sheets.e19, notice)).toBe("");
    for (const sheet of following) expect(noticeCell(book, sheet)).toBe("");
    expectE19(book, sheets.e19, inputs, TOTALS);
    expect(book.text(sheets.e19, "R3")).toBe(String(ASSETS.length + MORE_ASSETS.length));
    // A second refresh finds nothing to upgrade.
    expect((await refreshDisclosureTables({ client, run, portfolio })).outdated).toEqual([]);
  }, 180_000);
});

describeWithLibreOffice(__filename)("every refresh runs the disclosure's steps, whichever path starts it", () => {
  /**
   * Tables made before they followed their data, for a portfolio then joined by an asset in a new
   * country (A8, JP) and one more (A7): what one refresh must bring in line.
   */
  async function madeBeforeAndGrown(portfolio: string) {
    const made = await makeTables(portfolio, ASSETS);
    const lastRow = await asMadeBefore(made.fake, made.sheets, `Disclosure_data_${portfolio.replace(/-/g, "_")}`);
    const inputs = await portfolioBecomes(portfolio, made.inputs, [...ASSETS, ...MORE_ASSETS]);
    return { ...made, lastRow, inputs };
  }

  /** After ONE refresh: the by-country rows, the 66(c) list and its check, and the old E1-9 sheet marked stale. */
  async function expectInLine(grown: Awaited<ReturnType<typeof madeBeforeAndGrown>>) {
    const { fake, sheets, inputs, lastRow } = grown;
    const book = await recalculateInLibreOffice(fake.snapshot());
    // Until E1-9 is upgraded the last row (E1-9 less the listed rows) misses the new assets: it is checked after.
    const listed = expectByCountry(book, sheets.country, inputs, true);
    expect([...listed].sort()).toEqual(["DE", "FR", "IT", "JP", "US"]);
    const list = listOf(book, sheets.significant);
    expect(list).toEqual(expectedSignificant(inputs, SCENARIOS));
    expect(list.filter((id) => MORE_ASSETS.some((a) => a.id === id)).length).toBeGreaterThan(0);
    expect(book.text(sheets.significant, LIST_CHECK)).toMatch(/^current: computed /);
    expect(book.text(sheets.e19, `${columnLetters(E19_HEADER.length + 1)}1`)).toMatch(
      new RegExp(`^Stale: .* rows 2 to ${lastRow} `),
    );
  }

  const staleLine = (sheets: ReturnType<typeof sheetsOf>, lastRow: number) =>
    `"${sheets.e19}" were made before the tables followed their data: they read rows 2 to ${lastRow} of "${sheets.data}" only, and say so on the sheet. "${sheets.country}", "${sheets.ifrs}", "${sheets.tcfd}" use their figures and say so too. Upgrade them with “Upgrade disclosure tables” (here, or in the Disclosure tables section).`;

  test("“Refresh pasted sheets”: one refresh brings every table in line, reports the old one and offers its upgrade", async () => {
    const grown = await madeBeforeAndGrown("disclosure-sh");
    const { run, sheets, lastRow } = grown;
    const result = await refreshPastedSheets({ client, run, kinds: PASTE_KINDS });
    expect(result.refused).toBe(0);
    expect(result.followUps).toHaveLength(1);
    expect(result.followUps[0]!.messages).toEqual([staleLine(sheets, lastRow)]);
    await expectInLine(grown);

    // The offer the pane shows under the outcome upgrades the old table: every figure counts the new assets.
    expect(await result.followUps[0]!.offer!.work(run)).toMatch(new RegExp(`^Upgraded "${sheets.e19}": `));
    const book = await recalculateInLibreOffice(grown.fake.snapshot());
    expectE19(book, sheets.e19, grown.inputs, TOTALS);
    expectByCountry(book, sheets.country, grown.inputs);
    expect((await refreshPastedSheets({ client, run, kinds: PASTE_KINDS })).followUps).toEqual([]);
  }, 240_000);

  test("the ribbon's refresh: the same steps, and its outcome line lists the old table to upgrade", async () => {
    const grown = await madeBeforeAndGrown("disclosure-rb");
    const { run, sheets, lastRow } = grown;
    const outcome = await refreshPastedSheetsFromRibbon({ client, run, kinds: PASTE_KINDS });
    expect(english(outcome.message)).toBe("Refreshed 2 of 2 pasted sheets.");
    expect(outcome.attention).toEqual([staleLine(sheets, lastRow)]);
    await expectInLine(grown);
  }, 240_000);
});
