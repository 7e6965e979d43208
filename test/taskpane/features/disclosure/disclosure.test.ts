/**
 * "Disclosure tables → new sheets" against the Excel fake and the emulator over HTTP: what is
 * written where (formulas over the data and Methodology cells, no dynamic arrays, no RISK.*), the
 * Methodology's defaults, and a refresh in place that keeps the analyst's edits to the input and
 * Methodology cells while the significant-assets list follows them.
 */
import type { SummaryItem, Asset } from "../../../../src/api/types";
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import {
  pasteDisclosureTables,
  refreshDisclosureTables,
} from "../../../../src/taskpane/features/disclosure/disclosure-actions";
import {
  ACUTE_HAZARDS,
  E19_HEADER,
  buildDisclosureSheets,
} from "../../../../src/taskpane/features/disclosure/model/disclosure-tables";
import {
  DisclosureInputError,
  ITEMS,
  SECTIONS,
  SIGNIFICANT_HEADER,
  buildDisclosureData,
} from "../../../../src/taskpane/features/disclosure/model/disclosure";
import { englishTranslator } from "../../../../src/i18n/translator";
import { columnLetters } from "../../../../src/shaping/a1";
import { HAZARDS, SCENARIOS } from "../../../../src/shared/vocabulary";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { newWorkbook, usePaneTestService } from "../../support";
import { ASSETS, importDisclosurePortfolio, methodologyRow, typeInto } from "./support";

const PORTFOLIO = "disclosure-fake";
const SHEETS = {
  data: `Disclosure data ${PORTFOLIO}`,
  methodology: `Methodology ${PORTFOLIO}`,
  e19: `E1-9 ${PORTFOLIO}`,
  significant: `E1-9 66(c) ${PORTFOLIO}`,
  ifrs: `IFRS S2 29(c) ${PORTFOLIO}`,
  tcfd: `TCFD ${PORTFOLIO}`,
};

const TABLES = { data: `Disclosure_data_${PORTFOLIO.replace(/-/g, "_")}` };

const service = usePaneTestService();

beforeAll(async () => {
  await importDisclosurePortfolio(service.client, PORTFOLIO);
}, 60_000);

/** Cell → [value, formula] of a sheet of the fake. */
function cellsOf(fake: FakeExcel, sheet: string): Map<string, { value: unknown; formula?: string }> {
  const found = fake.snapshot().sheets.find((s) => s.name === sheet);
  if (!found) throw new Error(`no sheet ${sheet}`);
  return new Map(found.cells.map(([address, value, formula]) => [address.replace(/^.*!|\$/g, ""), { value, formula }]));
}

/** A table of the fake as header-keyed rows of values. */
function tableRows(fake: FakeExcel, sheet: string): Array<Record<string, unknown>> {
  const cells = cellsOf(fake, sheet);
  const header: string[] = [];
  for (let c = 0; cells.has(`${columnLetters(c)}1`); c++) header.push(String(cells.get(`${columnLetters(c)}1`)!.value));
  const rows: Array<Record<string, unknown>> = [];
  for (let r = 2; header.some((_, c) => (cells.get(`${columnLetters(c)}${r}`)?.value ?? "") !== ""); r++)
    rows.push(Object.fromEntries(header.map((h, c) => [h, cells.get(`${columnLetters(c)}${r}`)?.value ?? ""])));
  return rows;
}

describe("disclosure tables in the workbook", () => {
  let fake: FakeExcel;
  let run: ReturnType<typeof newWorkbook>["run"];

  beforeAll(async () => {
    ({ fake, run } = newWorkbook());
    const result = await pasteDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO });
    expect(result.sheets.map((s) => s.sheetName)).toEqual([
      SHEETS.data,
      SHEETS.methodology,
      SHEETS.e19,
      SHEETS.significant,
      SHEETS.ifrs,
      SHEETS.tcfd,
      `By country ${PORTFOLIO}`,
    ]);
    expect(result.currencies).toEqual(["EUR", "USD"]);
  }, 60_000);

  test("the data sheet: one row per asset, scenario and window, with value, currency, revenue and adaptation", () => {
    const rows = tableRows(fake, SHEETS.data);
    expect(rows).toHaveLength(ASSETS.length * SCENARIOS.length * 3);
    for (const asset of ASSETS) {
      const mine = rows.filter((r) => r.entity_id === asset.id);
      expect(new Set(mine.map((r) => `${String(r.scenario)}/${String(r.window)}`)).size).toBe(9);
      for (const row of mine) {
        expect(row.value).toBe(asset.value ?? "");
        expect(row.currency).toBe(asset.currency);
        expect(row.revenue).toBe(asset.revenue ?? "");
        expect(row.adapted).toBe(asset.adapted);
        expect(row.location).toBe(asset.country);
      }
    }
  });

  test("the Methodology defaults: each hazard's HIGH bound, the acute/chronic split, windows 5 and 30, the scenarios, FX rows", () => {
    const rows = tableRows(fake, SHEETS.methodology);
    for (const hazard of HAZARDS) {
      const row = rows.find((r) => r.section === SECTIONS.threshold && r.item === hazard.portfolio)!;
      expect(row.value).toBe(hazard.thresholds.medium);
      expect(row["acute or chronic"]).toBe(ACUTE_HAZARDS.includes(hazard.portfolio) ? "acute" : "chronic");
    }
    const item = (section: string, name: string) => rows.find((r) => r.section === section && r.item === name)!;
    expect(item(SECTIONS.horizon, ITEMS.medium).value).toBe(5);
    expect(item(SECTIONS.horizon, ITEMS.long).value).toBe(30);
    expect(String(item(SECTIONS.horizon, ITEMS.long).note)).toMatch(/starts at the dataset's start year/);
    expect(rows.filter((r) => r.section === SECTIONS.scenario).map((r) => r.value)).toEqual([...SCENARIOS]);
    expect(item(SECTIONS.currency, ITEMS.currency).value).toBe("USD");
    expect(item(SECTIONS.fx, "USD").value).toBe(1);
    // EUR has no rate until the analyst enters one: its assets are counted as without a value.
    expect(item(SECTIONS.fx, "EUR").value).toBe("");
    expect(rows.filter((r) => r.section === SECTIONS.limitation).length).toBeGreaterThanOrEqual(4);
    // The dataset's version and digest: formulas over the Sources sheet, so they follow a refresh.
    const cells = cellsOf(fake, SHEETS.methodology);
    const version = methodologyRow(fake, SHEETS.methodology, SECTIONS.dataset, "version");
    expect(cells.get(`C${version}`)!.formula).toMatch(/^=IFERROR\(INDEX\('Climate Risk sources'!\$H:\$H,MATCH\(/);
  });

  test("every E1-9, IFRS S2 and TCFD figure is a formula over the data and Methodology cells, none a dynamic array or RISK.*", () => {
    const e19 = cellsOf(fake, SHEETS.e19);
    expect(E19_HEADER.map((_, c) => e19.get(`${columnLetters(c)}1`)!.value)).toEqual([...E19_HEADER]);
    for (let r = 2; r <= SCENARIOS.length * 3 + 1; r++) {
      for (let c = 3; c < E19_HEADER.length; c++) {
        const formula = e19.get(`${columnLetters(c)}${r}`)!.formula ?? "";
        expect(formula).toMatch(/^=/);
        expect(formula).not.toMatch(/RISK\.|FILTER\(|SORT\(|SORTBY\(|UNIQUE\(|SEQUENCE\(|XLOOKUP\(|LET\(/);
      }
      // (a) any hazard: the data's rows of this scenario and window, scores over the thresholds.
      const any = e19.get(`F${r}`)!.formula!;
      expect(any).toContain("SUMPRODUCT(");
      // The data table's columns by name, never a fixed range of the data sheet: they follow its rows.
      expect(any).toContain(`${TABLES.data}[scenario]=$A${r}`);
      expect(any).not.toContain(`'${SHEETS.data}'!`);
      expect(any).toContain(`'${SHEETS.methodology}'!$C$2`);
    }
    expect(e19.get("A2")!.formula).toBe(
      `='${SHEETS.methodology}'!$C$${methodologyRow(fake, SHEETS.methodology, SECTIONS.scenario, "scenario 1")}&""`,
    );
    expect(cellsOf(fake, SHEETS.ifrs).get("D2")!.formula).toBe(`='${SHEETS.e19}'!$F$2`);
    expect(cellsOf(fake, SHEETS.tcfd).get("D2")!.formula).toBe(`='${SHEETS.ifrs}'!$D$2`);
  });

  test("the data sheet and the significant assets are on record, keyed, for a refresh in place", async () => {
    const records = (await run((context) => readProvenance(context))).records;
    const data = records.find((r) => r.sheetName === SHEETS.data)!;
    expect(data.operation).toBe("disclosure-data");
    expect(data.rowKey).toMatchObject({ asset: true, columns: ["scenario", "window"] });
    expect(data.filters).toMatchObject({ value_label: "value", revenue_label: "revenue", adaptation_label: "adapted" });
    const significant = records.find((r) => r.sheetName === SHEETS.significant)!;
    expect(significant.operation).toBe("disclosure-significant");
    expect(significant.header).toEqual(SIGNIFICANT_HEADER);
  });

  test("a refresh keeps the analyst's Methodology and data edits, and the significant assets follow them", async () => {
    const m = (section: string, name: string) => methodologyRow(fake, SHEETS.methodology, section, name);
    // Every asset at material risk (threshold below any score), EUR at 1.1, the top 2 significant.
    for (const hazard of HAZARDS)
      await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.threshold, hazard.portfolio)}`, -1);
    await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.fx, "EUR")}`, 1.1);
    await typeInto(fake, SHEETS.methodology, `C${m(SECTIONS.significance, ITEMS.topN)}`, 2);
    // The analyst corrects A5's value (EUR) on the long-term ssp585 row: it becomes the largest.
    const data = tableRows(fake, SHEETS.data);
    const header = Object.keys(data[0]!);
    const at = data.findIndex((r) => r.entity_id === "A5" && r.scenario === "ssp585" && r.window === 30);
    const valueCell = `${columnLetters(header.indexOf("value"))}${at + 2}`;
    await typeInto(fake, SHEETS.data, valueCell, 90_000_000);
    const methodologyBefore = cellsOf(fake, SHEETS.methodology);

    const result = await refreshDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO });
    expect(result.refused).toBe(0);
    expect(result.refreshed).toBe(2);
    const dataOutcome = result.outcomes.find((o) => o.sheetName === SHEETS.data)!;
    expect(dataOutcome.keyed!.edited.map((e) => e.address)).toEqual([valueCell]);

    // The analyst's value is kept; the Methodology sheet is as they left it.
    expect(cellsOf(fake, SHEETS.data).get(valueCell)!.value).toBe(90_000_000);
    const methodologyAfter = cellsOf(fake, SHEETS.methodology);
    for (const [address, cell] of methodologyBefore) expect(methodologyAfter.get(address)).toEqual(cell);

    // The list: the two largest at-risk values in USD, A5 first at its corrected value × 1.1.
    const significant = tableRows(fake, SHEETS.significant);
    expect(significant.map((r) => r.entity_id)).toEqual(["A5", "A6"]);
    expect(significant[0]!["value (reporting currency)"]).toBeCloseTo(99_000_000, 2);
    expect(significant[1]!["value (reporting currency)"]).toBe(5_000_000);
  }, 60_000);
});

describe("the data sheet's rules", () => {
  const asset = (i: number, labels: Record<string, string>): Asset => ({
    portfolio_name: "p",
    portfolio_index: i,
    entity_id: `E${i}`,
    entity_name: `Site ${i}`,
    lat: 1,
    lng: 2,
    labels,
  });
  const item = (i: number, scenario: string, window: number): SummaryItem => ({
    portfolio_name: "p",
    portfolio_index: i,
    entity_id: `E${i}`,
    entity_name: `Site ${i}`,
    scenario,
    window,
    window_start_year: 2025,
    risk_summaries: [{ hazard: "wildfire", risk_class: "HIGH", risk_score: 0.02 }],
  });

  test("an asset the summary has no row for keeps its rows, with empty scores, so that coverage counts it", () => {
    const data = buildDisclosureData(
      [item(0, "ssp585", 30)],
      [asset(0, { price: "100" }), asset(1, { price: "$2,000.00" })],
      {},
      "p",
    );
    expect(data.rows).toHaveLength(2);
    const score = data.header.indexOf("wildfire_risk_score");
    expect(data.rows.map((r) => r[score])).toEqual([0.02, ""]);
    expect(data.rows.map((r) => r[data.header.indexOf("value")])).toEqual([100, 2000]);
    // Every hazard has its columns, data or not.
    for (const hazard of HAZARDS) expect(data.header).toContain(`${hazard.portfolio}_risk_score`);
  });

  test("values outside label:price need a currency: the assets without one are named", () => {
    expect(() => buildDisclosureData([item(0, "ssp585", 30)], [asset(0, { value: "100" })], {}, "p")).toThrow(
      DisclosureInputError,
    );
    expect(() => buildDisclosureData([item(0, "ssp585", 30)], [asset(0, { value: "100" })], {}, "p")).toThrow(/E0/);
    const stated = buildDisclosureData([item(0, "ssp585", 30)], [asset(0, { value: "100" })], { currency: "eur" }, "p");
    expect(stated.currencies).toEqual(["EUR"]);
    expect(() => buildDisclosureData([], [asset(0, { price: "1" })], { currency: "EUR" }, "p")).toThrow(/USD/);
  });

  test("a value that is not an amount is listed, never guessed", () => {
    const data = buildDisclosureData([item(0, "ssp585", 30)], [asset(0, { price: "€1.2m" })], {}, "p");
    expect(data.rows[0]![data.header.indexOf("value")]).toBe("");
    expect(data.problems.map(englishTranslator.format)).toEqual([
      expect.stringMatching(/label:price of E0 is "€1.2m", not an amount/),
    ]);
  });
});

describe("the formulas' length", () => {
  test("every formula stays under Excel's 8,192 characters with 30 currencies and the longest names", () => {
    const portfolio = "p".repeat(60);
    const currencies = Array.from(
      { length: 30 },
      (_, i) => `C${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
    );
    const data = buildDisclosureData(
      [],
      [
        {
          portfolio_name: portfolio,
          portfolio_index: 0,
          entity_id: "E0",
          entity_name: "E0",
          lat: 1,
          lng: 2,
          labels: { price: "1" },
        },
      ],
      {},
      portfolio,
    );
    const sheet = (prefix: string) => `${prefix} ${portfolio}`.slice(0, 31);
    const table = (prefix: string) => `${prefix}_${portfolio}`;
    const built = buildDisclosureSheets({
      words: englishTranslator.format,
      portfolio,
      dataSheet: sheet("Disclosure data"),
      dataTable: table("Disclosure_data"),
      dataHeader: data.header,
      currencies,
      sheetNames: {
        methodology: sheet("Methodology"),
        e19: sheet("E1-9"),
        ifrs: sheet("IFRS S2 29(c)"),
        tcfd: sheet("TCFD"),
        country: sheet("By country"),
      },
      tableNames: {
        methodology: table("Methodology"),
        e19: table("E1_9"),
        ifrs: table("IFRS"),
        tcfd: table("TCFD"),
        country: table("By_country"),
      },
      countries: new Map([["FR", ["FR", "France"]]]),
    });
    const formulas = Object.values(built).flatMap((s) =>
      s.rows.flat().filter((c: unknown): c is string => typeof c === "string" && c.startsWith("=")),
    );
    // Every currency has its FX row, and the longest formula is far from the limit.
    expect(
      built.methodology.rows.filter((r) => r[0] === SECTIONS.fx && currencies.includes(String(r[1]))),
    ).toHaveLength(30);
    const longest = Math.max(...formulas.map((f) => f.length));
    expect(longest).toBeGreaterThan(1000);
    expect(longest).toBeLessThan(8192);
  });
});
