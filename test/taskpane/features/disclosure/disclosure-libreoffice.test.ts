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
import {
  E19_HEADER,
  IFRS_HEADER,
  TCFD_HEADER,
} from "../../../../src/taskpane/features/disclosure/model/disclosure-tables";
import { ITEMS, SECTIONS } from "../../../../src/taskpane/features/disclosure/model/disclosure";
import { columnLetters } from "../../../../src/shaping/a1";
import { HAZARDS, SCENARIOS } from "../../../../src/shared/vocabulary";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { newWorkbook, usePaneTestService } from "../../support";
import { describeWithLibreOffice, recalculateInLibreOffice, type Recalculated } from "../../../support/libreoffice";
import { ASSETS, importDisclosurePortfolio, methodologyRow, typeInto } from "./support";

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
const ACUTE = new Set(["flood_potential", "cyclone", "wildfire", "heatwave"]);
/** The score the test clears on the data sheet: no data for that hazard, asset, scenario and window. */
const CLEARED = { id: "A4", hazard: "flood_potential", scenario: "ssp585", window: 30 };
let summary: SummaryItem[];
let thresholds: Map<string, number>;
let fake: FakeExcel;
let book: Recalculated;

/** The score of the emulator's summary for an asset, or undefined where the test cleared it. */
function score(id: string, hazard: string, scenario: string, window: number): number | undefined {
  if (id === CLEARED.id && hazard === CLEARED.hazard && scenario === CLEARED.scenario && window === CLEARED.window)
    return undefined;
  const item = summary.find((s) => s.entity_id === id && s.scenario === scenario && s.window === window);
  return item?.risk_summaries.find((r) => r.hazard === hazard)?.risk_score;
}

const rate = (currency: string) => (currency === "EUR" ? EUR_RATE : 1);

/** The figures of one scenario and window, computed from the service's answers and the test's inputs. */
function expected(scenario: string, window: number) {
  const hazards = HAZARDS.map((h) => h.portfolio);
  const rows = ASSETS.map((a) => {
    const material = hazards.filter((h) => {
      const s = score(a.id, h, scenario, window);
      return s !== undefined && s > thresholds.get(h)!;
    });
    const known = hazards.filter((h) => score(a.id, h, scenario, window) !== undefined).length;
    return {
      ...a,
      amount: a.value === undefined ? undefined : a.value * rate(a.currency),
      revenueAmount: a.revenue === undefined ? undefined : a.revenue * rate(a.currency),
      acute: material.some((h) => ACUTE.has(h)),
      chronic: material.some((h) => !ACUTE.has(h)),
      any: material.length > 0,
      known,
    };
  });
  const sum = (pick: (r: (typeof rows)[number]) => boolean) =>
    rows.filter((r) => pick(r) && r.amount !== undefined).reduce((s, r) => s + r.amount!, 0);
  const any = sum((r) => r.any);
  const portfolioValue = sum(() => true);
  const revenue = rows.filter((r) => r.any && r.revenueAmount !== undefined).reduce((s, r) => s + r.revenueAmount!, 0);
  return {
    acute: sum((r) => r.acute),
    chronic: sum((r) => r.chronic),
    any,
    portfolioValue,
    counts: [
      rows.filter((r) => r.acute).length,
      rows.filter((r) => r.chronic).length,
      rows.filter((r) => r.any).length,
    ],
    adapted: sum((r) => r.any && r.adapted === "yes"),
    revenue,
    assets: rows.length,
    withoutValue: rows.filter((r) => r.amount === undefined).length,
    atRiskWithoutValue: rows.filter((r) => r.any && r.amount === undefined).length,
    withoutSomeData: rows.filter((r) => r.known < hazards.length).length,
    withoutAnyData: rows.filter((r) => r.known === 0).length,
    atRiskWithoutRevenue: rows.filter((r) => r.any && r.revenueAmount === undefined).length,
  };
}

/** A sheet's rows as objects keyed by header. */
function records(sheet: string): Array<Record<string, string>> {
  const [header, ...rows] = book.rows(sheet);
  return rows
    .filter((row) => row.some((cell) => cell !== ""))
    .map((row) => Object.fromEntries(header!.map((h, c) => [h, row[c] ?? ""])));
}

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
    thresholds = new Map();
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
    const rows = records(SHEETS.e19);
    expect(rows).toHaveLength(SCENARIOS.length * 2);
    for (const row of rows) {
      const window = Number(row["window (years)"]);
      const x = expected(row.scenario!, window);
      const h = (i: number) => row[E19_HEADER[i]];
      near(h(3), x.acute);
      near(h(4), x.chronic);
      near(h(5), x.any);
      near(h(6), x.acute / TOTAL_ASSETS);
      near(h(7), x.chronic / TOTAL_ASSETS);
      near(h(8), x.any / TOTAL_ASSETS);
      near(h(9), x.any / x.portfolioValue);
      expect([h(10), h(11), h(12)].map(Number)).toEqual(x.counts);
      if (x.any > 0) near(h(13), x.adapted / x.any);
      else expect(h(13)).toBe("#N/A");
      near(h(14), x.revenue);
      near(h(15), x.revenue / NET_REVENUE);
      near(h(16), x.portfolioValue);
      expect([h(17), h(18), h(19), h(20), h(21), h(22)].map(Number)).toEqual([
        x.assets,
        x.withoutValue,
        x.atRiskWithoutValue,
        x.withoutSomeData,
        x.withoutAnyData,
        x.atRiskWithoutRevenue,
      ]);
    }
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
      const x = expected(e19[i]!.scenario!, Number(e19[i]!["window (years)"]));
      expect(row.scenario).toBe(e19[i]!.scenario);
      near(row[IFRS_HEADER[3]], x.any);
      near(row[IFRS_HEADER[4]], x.any / TOTAL_ASSETS);
      near(row[IFRS_HEADER[7]], x.revenue);
      expect(Number(row[IFRS_HEADER[10]])).toBe(x.withoutValue);
      near(tcfd[i]![TCFD_HEADER[3]], x.any);
      near(tcfd[i]![TCFD_HEADER[6]], x.revenue / NET_REVENUE);
    });
  });
});
