/**
 * The disclosure tables recalculated by a real spreadsheet: the tables are made from a portfolio
 * on the emulator (over HTTP), the analyst's inputs are typed into the Methodology sheet (an FX
 * rate, the undertaking's totals, thresholds) and one score is cleared on the data sheet (no data
 * for a hazard); the fake workbook is saved as .xlsx and LibreOffice recalculates it headless.
 * Every figure of E1-9, IFRS S2 29(c) and TCFD is compared with an independent computation from
 * the emulator's summary: a missing value, a missing revenue, adapted assets and two currencies.
 */
import type { SummaryItem } from "../../../../src/api/types";
import { pasteDisclosureTables } from "../../../../src/taskpane/features/disclosure/disclosure-actions";
import { IFRS_HEADER, TCFD_HEADER } from "../../../../src/taskpane/features/disclosure/model/disclosure-tables";
import { ITEMS, SECTIONS } from "../../../../src/taskpane/features/disclosure/model/disclosure";
import { columnLetters } from "../../../../src/shaping/a1";
import { HAZARDS, SCENARIOS } from "../../../../src/shared/vocabulary";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { newWorkbook, usePaneTestService } from "../../support";
import { describeWithLibreOffice, recalculateInLibreOffice, type Recalculated } from "../../../support/libreoffice";
import {
  ASSETS,
  expectE19,
  expectedFigures,
  importDisclosurePortfolio,
  methodologyRow,
  recordsOf,
  scoreOf,
  typeInto,
  type ExpectedInputs,
} from "./support";

const PORTFOLIO = "disclosure-lo";
const SHEETS = {
  data: `Disclosure data ${PORTFOLIO}`,
  methodology: `Methodology ${PORTFOLIO}`,
  e19: `E1-9 ${PORTFOLIO}`,
  ifrs: `IFRS S2 29(c) ${PORTFOLIO}`,
  tcfd: `TCFD ${PORTFOLIO}`,
};
const EUR_RATE = 1.1;
const TOTAL_ASSETS = 50_000_000;
const NET_REVENUE = 10_000_000;
/** The score the test clears on the data sheet: no data for that hazard, asset, scenario and window. */
const CLEARED = { id: "A4", hazard: "flood_potential", scenario: "ssp585", window: 30 };
let summary: SummaryItem[];
const thresholds = new Map<string, number>();
let fake: FakeExcel;
let book: Recalculated;

/** The test's inputs, for the independent computation (support.ts expectedFigures). */
const inputs = (): ExpectedInputs => ({
  assets: ASSETS,
  summary,
  thresholds,
  rates: new Map([
    ["USD", 1],
    ["EUR", EUR_RATE],
  ]),
  cleared: CLEARED,
});
const expected = (scenario: string, window: number) => expectedFigures(inputs(), scenario, window);
const score = (id: string, hazard: string, scenario: string, window: number) =>
  scoreOf(inputs(), id, hazard, scenario, window);
const records = (sheet: string) => recordsOf(book, sheet);
const near = (actual: string | undefined, value: number) => expect(Number(actual)).toBeCloseTo(value, 4);

const service = usePaneTestService();

beforeAll(async () => {
  await importDisclosurePortfolio(service.client, PORTFOLIO);
  summary = await service.client.datasets.summary(PORTFOLIO, {}).all();
}, 60_000);

describeWithLibreOffice(__filename)("LibreOffice recalculates the disclosure tables", () => {
  beforeAll(async () => {
    const workbook = newWorkbook();
    fake = workbook.fake;
    const run = workbook.run;
    await pasteDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO });

    // The analyst's inputs: an FX rate, the undertaking's totals, and each hazard's threshold at
    // the median of its long-term ssp585 scores (so some assets are at material risk, some not).
    const m = (section: string, item: string) => methodologyRow(fake, SHEETS.methodology, section, item);
    await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.fx, "EUR")}`, EUR_RATE);
    await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.undertaking, ITEMS.totalAssets)}`, TOTAL_ASSETS);
    await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.undertaking, ITEMS.netRevenue)}`, NET_REVENUE);
    for (const { portfolio: hazard } of HAZARDS) {
      const scores = ASSETS.map((a) => score(a.id, hazard, "ssp585", 30) ?? 0).sort((x, y) => x - y);
      const median = scores[Math.floor(scores.length / 2)]!;
      thresholds.set(hazard, median);
      await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.threshold, hazard)}`, median);
    }
    // No data for one hazard: the cell cleared on the data sheet.
    const data = fake.snapshot().sheets.find((s) => s.name === SHEETS.data)!;
    const grid = new Map(data.cells.map(([address, value]) => [address.replace(/^.*!|\$/g, ""), value]));
    const header: string[] = [];
    for (let c = 0; grid.has(`${columnLetters(c)}1`); c++) header.push(String(grid.get(`${columnLetters(c)}1`)));
    const col = (name: string) => columnLetters(header.indexOf(name));
    let row = 2;
    while (!(
      grid.get(`${col("entity_id")}${row}`) === CLEARED.id &&
      grid.get(`${col("scenario")}${row}`) === CLEARED.scenario &&
      grid.get(`${col("window")}${row}`) === CLEARED.window
    ))
      row++;
    await typeInto(fake, SHEETS.data, `${col(`${CLEARED.hazard}_risk_score`)}${row}`, "");

    book = await recalculateInLibreOffice(fake.snapshot());
  }, 180_000);

  test("E1-9: every figure per scenario and horizon matches the computation from the service's answers", () => {
    const rows = expectE19(book, SHEETS.e19, inputs(), { assets: TOTAL_ASSETS, revenue: NET_REVENUE });
    expect(rows).toHaveLength(SCENARIOS.length * 3);
    // The test's inputs make a mixed portfolio: some at risk, some not, in both currencies.
    const long585 = expected("ssp585", 30);
    expect(long585.counts[2]).toBeGreaterThan(0);
    expect(long585.counts[2]).toBeLessThan(ASSETS.length);
    expect(long585.withoutValue).toBe(1);
    expect(long585.withoutSomeData).toBe(1);
  });

  test("the Methodology's dataset version and digest are read from the Sources sheet", async () => {
    const meta = await service.client.datasets.metadata(PORTFOLIO);
    expect(meta.version && meta.sha256_digest).toBeTruthy();
    const row = (item: string) => methodologyRow(fake, SHEETS.methodology, SECTIONS.dataset, item);
    expect(book.text(SHEETS.methodology, `C${row("version")}`)).toBe(String(meta.version));
    expect(book.text(SHEETS.methodology, `C${row("sha256")}`)).toBe(String(meta.sha256_digest));
  });

  test("IFRS S2 29(c) and the TCFD line give the same figures", () => {
    const e19 = records(SHEETS.e19);
    const ifrs = records(SHEETS.ifrs);
    const tcfd = records(SHEETS.tcfd);
    expect(ifrs).toHaveLength(e19.length);
    ifrs.forEach((row, i) => {
      expect(row.scenario).toBe(e19[i]!.scenario);
      expect(row["time horizon"]).toBe(e19[i]!["time horizon"]);
      // The short term without a window: #N/A throughout, as on E1-9.
      if (e19[i]!["window (years)"] === "#N/A") {
        expect([row[IFRS_HEADER[3]], tcfd[i]![TCFD_HEADER[3]]]).toEqual(["#N/A", "#N/A"]);
        return;
      }
      const x = expected(e19[i]!.scenario!, Number(e19[i]!["window (years)"]));
      near(row[IFRS_HEADER[3]], x.any);
      near(row[IFRS_HEADER[4]], x.any / TOTAL_ASSETS);
      near(row[IFRS_HEADER[7]], x.revenue);
      expect(Number(row[IFRS_HEADER[10]])).toBe(x.withoutValue);
      near(tcfd[i]![TCFD_HEADER[3]], x.any);
      near(tcfd[i]![TCFD_HEADER[6]], x.revenue / NET_REVENUE);
    });
  });
});
