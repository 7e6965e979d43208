/**
 * A portfolio for the disclosure tests: values in two currencies (label:value with label:currency),
 * one asset without a value, one without revenue, adapted assets; and helpers to find and edit the
 * Methodology sheet's input cells in the fake workbook, as an analyst types into them.
 */
import type { RiskClient } from "../../../../src/api/client";
import type { SummaryItem } from "../../../../src/api/types";
import { E19_HEADER } from "../../../../src/taskpane/features/disclosure/model/disclosure-tables";
import { HAZARDS } from "../../../../src/shared/vocabulary";
import type { Recalculated } from "../../../support/libreoffice";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { importPortfolio } from "../../../functions/support/emulator";

/** The assets, with the test's own reading of each label. */
export const ASSETS = [
  { id: "A1", country: "FR", value: 1_000_000, currency: "EUR", revenue: 200_000, adapted: "yes" },
  { id: "A2", country: "US", value: 2_500_000, currency: "USD", revenue: undefined, adapted: "no" },
  { id: "A3", country: "DE", value: undefined, currency: "EUR", revenue: 50_000, adapted: "no" },
  { id: "A4", country: "US", value: 400_000, currency: "USD", revenue: 80_000, adapted: "" },
  { id: "A5", country: "IT", value: 750_000, currency: "EUR", revenue: 10_000, adapted: "yes" },
  { id: "A6", country: "US", value: 5_000_000, currency: "USD", revenue: 900_000, adapted: "no" },
] as const;

/** One asset of a test portfolio, with the test's own reading of each label. */
export interface TestAsset {
  id: string;
  country: string;
  value: number | undefined;
  currency: string;
  revenue: number | undefined;
  adapted: string;
}

/** Two more assets, for a refresh that adds assets (A7 in EUR, A8 in USD). */
export const MORE_ASSETS: readonly TestAsset[] = [
  { id: "A7", country: "FR", value: 3_200_000, currency: "EUR", revenue: 400_000, adapted: "" },
  { id: "A8", country: "JP", value: 1_700_000, currency: "USD", revenue: 300_000, adapted: "yes" },
];

/**
 * Imports `assets` (default {@link ASSETS}) as `portfolio`, replacing the assets it had
 * (coordinates spread by position in the full list so that scores differ and an asset keeps its place).
 */
export async function importDisclosurePortfolio(
  client: RiskClient,
  portfolio: string,
  assets: readonly TestAsset[] = ASSETS,
): Promise<void> {
  const place = (a: TestAsset) => Number(a.id.slice(1)) - 1;
  const csv = [
    "entity_id,entity_name,lat,lng,label:country,label:value,label:currency,label:revenue,label:adapted",
    ...assets.map(
      (a) =>
        `${a.id},Site ${a.id},${(5 + place(a) * 9.13).toFixed(2)},${(-70 + place(a) * 23.7).toFixed(2)},${a.country},${a.value ?? ""},${a.currency},${a.revenue ?? ""},${a.adapted}`,
    ),
  ].join("\n");
  await importPortfolio(client, portfolio, csv);
}

/** The sheet row (1-based) of a Methodology item, found by its section and item cells. */
export function methodologyRow(fake: FakeExcel, sheet: string, section: string, item: string): number {
  const cells = fake.snapshot().sheets.find((s) => s.name === sheet)!.cells;
  const text = new Map(
    cells.map(([address, value]) => [address.replace(/^.*!/, "").replace(/\$/g, ""), String(value)]),
  );
  for (let row = 2; row < 200; row++) if (text.get(`A${row}`) === section && text.get(`B${row}`) === item) return row;
  throw new Error(`no ${section} / ${item} on ${sheet}`);
}

/** Types `value` into a cell of `sheet`, as the analyst would. */
export async function typeInto(fake: FakeExcel, sheet: string, address: string, value: string | number): Promise<void> {
  await fake.run(async (context) => {
    context.workbook.worksheets.getItem(sheet).getRange(address).values = [[value]];
    await context.sync();
  });
}

/** Hazards counted acute by the Methodology's defaults (the test's own list). */
const ACUTE = new Set(["flood_potential", "cyclone", "wildfire", "heatwave"]);

/** What the test set: the assets now, the service's summary, the thresholds and FX rates typed. */
export interface ExpectedInputs {
  assets: readonly TestAsset[];
  summary: readonly SummaryItem[];
  thresholds: ReadonlyMap<string, number>;
  /** Units of the reporting currency (USD) per unit; absent, zero or negative: no rate. */
  rates: ReadonlyMap<string, number>;
  /** A score the test cleared on the data sheet: no data there. */
  cleared?: { id: string; hazard: string; scenario: string; window: number };
}

/** The score of the service's summary for an asset, or undefined where there is none (or the test cleared it). */
export function scoreOf(x: ExpectedInputs, id: string, hazard: string, scenario: string, window: number) {
  const c = x.cleared;
  if (c && id === c.id && hazard === c.hazard && scenario === c.scenario && window === c.window) return undefined;
  const item = x.summary.find((s) => s.entity_id === id && s.scenario === scenario && s.window === window);
  return item?.risk_summaries.find((r) => r.hazard === hazard)?.risk_score;
}

/** The figures of one scenario and window, computed from the service's answers and the test's inputs. */
export function expectedFigures(x: ExpectedInputs, scenario: string, window: number) {
  const hazards = HAZARDS.map((h) => h.portfolio);
  const rows = x.assets.map((a) => {
    const material = hazards.filter((h) => {
      const s = scoreOf(x, a.id, h, scenario, window);
      return s !== undefined && s > x.thresholds.get(h)!;
    });
    const known = hazards.filter((h) => scoreOf(x, a.id, h, scenario, window) !== undefined).length;
    const rate = x.rates.get(a.currency) ?? 0;
    return {
      ...a,
      amount: a.value === undefined || !(rate > 0) ? undefined : a.value * rate,
      revenueAmount: a.revenue === undefined || !(rate > 0) ? undefined : a.revenue * rate,
      acute: material.some((h) => ACUTE.has(h)),
      chronic: material.some((h) => !ACUTE.has(h)),
      any: material.length > 0,
      known,
    };
  });
  type Row = (typeof rows)[number];
  const sum = (pick: (r: Row) => boolean) =>
    rows.filter((r) => pick(r) && r.amount !== undefined).reduce((s, r) => s + r.amount!, 0);
  const any = sum((r) => r.any);
  return {
    acute: sum((r) => r.acute),
    chronic: sum((r) => r.chronic),
    any,
    portfolioValue: sum(() => true),
    counts: [
      rows.filter((r) => r.acute).length,
      rows.filter((r) => r.chronic).length,
      rows.filter((r) => r.any).length,
    ],
    adapted: sum((r) => r.any && r.adapted === "yes"),
    unknownAdaptation: sum((r) => r.any && r.adapted === ""),
    revenue: rows.filter((r) => r.any && r.revenueAmount !== undefined).reduce((s, r) => s + r.revenueAmount!, 0),
    assets: rows.length,
    withoutValue: rows.filter((r) => r.amount === undefined).length,
    atRiskWithoutValue: rows.filter((r) => r.any && r.amount === undefined).length,
    withoutSomeData: rows.filter((r) => r.known < hazards.length).length,
    withoutAnyData: rows.filter((r) => r.known === 0).length,
    atRiskWithoutRevenue: rows.filter((r) => r.any && r.revenueAmount === undefined).length,
    rows,
  };
}

/** A recalculated sheet's rows as objects keyed by header. */
export function recordsOf(book: Recalculated, sheet: string): Array<Record<string, string>> {
  const [header, ...rows] = book.rows(sheet);
  return rows
    .filter((row) => row.some((cell) => cell !== ""))
    .map((row) => Object.fromEntries(header!.map((h, c) => [h, row[c] ?? ""])));
}

const near = (actual: string | undefined, value: number) => expect(Number(actual)).toBeCloseTo(value, 4);

/**
 * Every E1-9 figure of every row of the recalculated sheet against {@link expectedFigures}, with
 * the undertaking's totals the test typed. Answers the rows checked.
 */
export function expectE19(
  book: Recalculated,
  sheet: string,
  x: ExpectedInputs,
  totals: { assets: number; revenue: number },
): Array<Record<string, string>> {
  const rows = recordsOf(book, sheet);
  for (const row of rows) {
    // A short-term row without a window: every figure #N/A, the reason in its horizon cell.
    if (row["window (years)"] === "#N/A") {
      expect(row["time horizon"]).toMatch(/^short term: none \(no one-year figure/);
      for (const name of E19_HEADER.slice(3)) expect(row[name]).toBe("#N/A");
      continue;
    }
    const f = expectedFigures(x, row.scenario!, Number(row["window (years)"]));
    const at = (i: number) => row[E19_HEADER[i]];
    near(at(3), f.acute);
    near(at(4), f.chronic);
    near(at(5), f.any);
    near(at(6), f.acute / totals.assets);
    near(at(7), f.chronic / totals.assets);
    near(at(8), f.any / totals.assets);
    near(at(9), f.any / f.portfolioValue);
    expect([at(10), at(11), at(12)].map(Number)).toEqual(f.counts);
    if (f.any > 0) near(at(13), f.adapted / f.any);
    else expect(at(13)).toBe("#N/A");
    near(at(14), f.revenue);
    near(at(15), f.revenue / totals.revenue);
    near(at(16), f.portfolioValue);
    expect([at(17), at(18), at(19), at(20), at(21), at(22)].map(Number)).toEqual([
      f.assets,
      f.withoutValue,
      f.atRiskWithoutValue,
      f.withoutSomeData,
      f.withoutAnyData,
      f.atRiskWithoutRevenue,
    ]);
    near(at(23), f.unknownAdaptation);
    if (f.any > 0) near(at(24), (f.adapted + f.unknownAdaptation) / f.any);
    else expect(at(24)).toBe("#N/A");
  }
  return rows;
}

/**
 * The 66(c) list by the test's own reading: assets at material risk in the long-term (30-year)
 * window of any scenario, with a value and a rate, largest amount first, the top `topN`.
 */
export function expectedSignificant(x: ExpectedInputs, scenarios: readonly string[], topN = 10): string[] {
  const amounts = new Map<string, number>();
  for (const scenario of scenarios)
    for (const row of expectedFigures(x, scenario, 30).rows)
      if (row.any && row.amount !== undefined) amounts.set(row.id, row.amount);
  return [...amounts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, topN)
    .map(([id]) => id);
}
