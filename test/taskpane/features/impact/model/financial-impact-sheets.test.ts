/**
 * The money-at-risk sheets' shape: the values' currency in every money header, asked when the service does
 * not define it; the all-hazards sum.
 */
import {
  ALL_DAMAGE_HAZARDS,
  CurrencyNeededError,
  ImpactInputError,
  buildFinancialImpact,
  buildImpactFollowers,
  type ImpactRequest,
} from "../../../../../src/taskpane/features/impact/model/financial-impact";
import type { ExtendedSummaryItem } from "../../../../../src/shaping/types";
import { englishTranslator } from "../../../../../src/i18n/translator";

function item(index: number, labels: Record<string, string>): ExtendedSummaryItem {
  const metrics = { structural_damage_2050: 0.01, structural_damage_2050_lbd: 0.005, structural_damage_2050_ubd: 0.02 };
  return {
    portfolio_index: index,
    entity_id: `A${index}`,
    entity_name: `Site ${index}`,
    labels,
    scenario_analytics: { ssp585: { flood: metrics, cyclone: metrics, wildfire: metrics } },
  } as unknown as ExtendedSummaryItem;
}

const request = (labels: Array<Record<string, string>>, extra: Partial<ImpactRequest> = {}): ImpactRequest => ({
  portfolio: "p",
  hazard: "flood",
  itemsByScenario: new Map([["ssp585", labels.map((l, i) => item(i, l))]]),
  sheetNames: { data: "D", impact: "I", rollup: "R" },
  ...extra,
});

test("label:price is USD, named in every money header; other text is listed with its asset and left out", () => {
  const built = buildFinancialImpact(request([{ price: "$3,950,000.00" }, { price: "€1.2m" }, { price: "12,345.00" }]));
  expect(built.currency).toBe("USD");
  expect(built.sheets[0].rows.map((r) => r[4])).toEqual([3_950_000, "", 12_345]);
  expect(built.sheets[1].header).toContain("value (USD)");
  expect(built.sheets[1].header).toContain("loss_ssp585_2050_upper (USD)");
  expect(built.sheets[2].header).toContain("total (USD)");
  // (Only 2050 damages are given here: the other periods are listed as missing damages in their own columns.)
  expect(
    built.problems.filter((p) => p.column === "E").map((p) => [p.address, englishTranslator.format(p.message)]),
  ).toEqual([
    [
      "D!E3",
      expect.stringMatching(/label:price of A1 is "€1.2m", not an amount \(12345.00, 12,345.00 or \$12,345.00\)/),
    ],
  ]);
  expect(() => buildFinancialImpact(request([{ price: "5" }], { currency: "EUR" }))).toThrow(
    /label:price is the asset's value in USD by the service's definition, not EUR/,
  );
});

test("any other value source needs the currency the analyst states, never an assumed USD", () => {
  const values = [{ value: "1,000.00" }, { value: "2000" }];
  expect(() => buildFinancialImpact(request(values))).toThrow(CurrencyNeededError);
  expect(() => buildFinancialImpact(request(values, { currency: "euro" }))).toThrow(ImpactInputError);
  const built = buildFinancialImpact(request(values, { currency: "eur" }));
  expect(built.currency).toBe("EUR");
  expect(built.sheets[1].header).toContain("loss_ssp585_2050 (EUR)");
});

test("all hazards: each hazard's losses with bounds, and their central sum without a percentile bound", () => {
  const built = buildFinancialImpact(request([{ price: "100" }], { hazard: ALL_DAMAGE_HAZARDS }));
  const header = built.sheets[1].header;
  expect(header.filter((h) => h.startsWith("loss_") && h.includes("2050"))).toEqual([
    "loss_flood_ssp585_2050 (USD)",
    "loss_flood_ssp585_2050_lower (USD)",
    "loss_flood_ssp585_2050_upper (USD)",
    "loss_cyclone_ssp585_2050 (USD)",
    "loss_cyclone_ssp585_2050_lower (USD)",
    "loss_cyclone_ssp585_2050_upper (USD)",
    "loss_wildfire_ssp585_2050 (USD)",
    "loss_wildfire_ssp585_2050_lower (USD)",
    "loss_wildfire_ssp585_2050_upper (USD)",
    "loss_all_hazards_ssp585_2050 (USD)",
  ]);
  expect(header).toContain("ssp585_cyclone_business_interruption_2050 (days)");
  const sum = built.sheets[1].rows[0]![header.indexOf("loss_all_hazards_ssp585_2050 (USD)")];
  expect(sum).toMatch(/^=IF\(COUNT\(\$\w+2,\$\w+2,\$\w+2\)=3,\$\w+2\+\$\w+2\+\$\w+2,NA\(\)\)$/);
  const row = built.sheets[2].rows.find((r) => r[1] === "loss_all_hazards_ssp585_2050 (USD)")!;
  expect(row.slice(0, 6)).toEqual([
    "All assets",
    "loss_all_hazards_ssp585_2050 (USD)",
    "All hazards with structural damage",
    "ssp585",
    "2050",
    "central (the sum of the hazards' central losses; percentile bounds do not add)",
  ]);
});

test("the followers' row builders alone are the whole build's: the per-asset rows and the roll-up's", () => {
  for (const hazard of ["flood", ALL_DAMAGE_HAZARDS]) {
    const asked = request([{ price: "100" }, { price: "" }, { price: "2,500.00" }], { hazard, rollupLabel: "region" });
    const whole = buildFinancialImpact(asked);
    const followers = buildImpactFollowers(asked);
    // The rows a refresh by key appends (any sheet row, any index) and the roll-up over any length.
    for (const [row, index] of [
      [2, 0],
      [4, 2],
      [9, 17],
    ])
      expect(followers.impactRowAt(row, index)).toEqual(whole.impactRowAt(row, index));
    expect(whole.impactRowAt(2, 0)).toEqual(whole.sheets[1].rows[0]);
    for (const rows of [1, 3, 40]) expect(followers.rollupRowsFor(rows)).toEqual(whole.rollupRowsFor(rows));
    expect(whole.rollupRowsFor(3)).toEqual(whole.sheets[2].rows);
  }
});
