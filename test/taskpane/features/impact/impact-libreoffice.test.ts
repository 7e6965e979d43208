/**
 * The money-at-risk sheets recalculated by a real spreadsheet: the fake workbook after the paste is
 * saved as .xlsx, LibreOffice Calc recalculates it headless (one soffice run for the whole file),
 * and every number it computed is compared with an independent computation from the service's
 * answers (the emulator's extended summary over HTTP): per-asset losses, the all-hazards sums,
 * and each total with its coverage (assets in it, left out by reason, shares of assets and value).
 * The flood data sheet is sorted before the save, as an analyst sorts it (the fake's sort, like
 * Excel's, moves values and not the references into them): every loss row, which looks its asset
 * up by key, still shows its own asset's losses.
 */
import { RiskClient } from "../../../../src/api/client";
import { type RunningEmulator } from "../../../../emulator/server";
import { writeSheetsAtomically } from "../../../../src/excel/write-sheets";
import {
  ALL_DAMAGE_HAZARDS,
  IMPACT_PERIODS,
  buildFinancialImpact,
  type ImpactWorkbook,
  rollupBound,
} from "../../../../src/taskpane/features/impact/model/financial-impact";
import type { ExtendedSummaryItem } from "../../../../src/shaping/types";
import { DEMO_API_KEY, DEMO_PROJECT, SCENARIOS, STRUCTURAL_DAMAGE_HAZARDS } from "../../../../src/shared/vocabulary";
import { createFakeExcel } from "../../../../testing/fake-excel";
import { importPortfolio } from "../../../functions/support/emulator";
import { describeWithLibreOffice, recalculateInLibreOffice, type Recalculated } from "../../../support/libreoffice";
import { startTestEmulator } from "../../../support/emulator";
import { englishTranslator } from "../../../../src/i18n/translator";

/** Prices as the service writes them, and two it cannot read; the test's own reading of each. */
const ASSETS = [
  { id: "P1", country: "FR", price: "$3,950,000.00", value: 3_950_000 },
  { id: "P2", country: "FR", price: "12,345.00", value: 12_345 },
  { id: "B1", country: "DE", price: "", value: undefined },
  { id: "H1", country: "DE", price: "400000", value: 400_000 },
  { id: "M1", country: "US", price: "€1.2m", value: undefined },
  { id: "T1", country: "US", price: "$250,000", value: 250_000 },
];
const CSV = [
  "entity_id,entity_name,lat,lng,label:country,label:price",
  ...ASSETS.map(
    (a, i) =>
      `${a.id},Site ${a.id},${(10 + i * 7.31).toFixed(2)},${(-20 + i * 11.7).toFixed(2)},${a.country},"${a.price}"`,
  ),
].join("\n");

/** One damage the service does not give (cyclone, ssp585, 2050, T1): that loss is #N/A and its totals leave T1 out. */
const MISSING = { scenario: "ssp585", hazard: "cyclone", metric: "structural_damage_2050", id: "T1" };

let emulator: RunningEmulator;
let itemsByScenario: Map<string, ExtendedSummaryItem[]>;

beforeAll(async () => {
  emulator = await startTestEmulator({ processingDelayMs: 50 });
  const client = new RiskClient(
    { baseUrl: emulator.baseUrl, natureUrl: emulator.natureUrl, apiKey: DEMO_API_KEY, project: DEMO_PROJECT },
    { maxRetries: 0, timeoutMs: 10_000 },
  );
  await importPortfolio(client, "impact-lo", CSV);
  itemsByScenario = new Map();
  for (const scenario of SCENARIOS) {
    const items = (await client.datasets
      .extendedSummary("impact-lo", { scenario })
      .all()) as unknown as ExtendedSummaryItem[];
    itemsByScenario.set(scenario, items);
  }
  const t1 = itemsByScenario.get(MISSING.scenario)!.find((item) => item.entity_id === MISSING.id)!;
  delete (t1.scenario_analytics![MISSING.scenario]![MISSING.hazard] as Record<string, unknown>)[MISSING.metric];
});
afterAll(() => emulator.close());

/** The service's damage for an asset, or undefined when it gives none. */
function damage(id: string, scenario: string, hazard: string, metric: string): number | undefined {
  const item = itemsByScenario.get(scenario)!.find((i) => i.entity_id === id)!;
  const value = (item.scenario_analytics?.[scenario]?.[hazard] as Record<string, unknown> | undefined)?.[metric];
  return typeof value === "number" ? value : undefined;
}

/** Expected per-asset loss: value × damage, or undefined (#N/A) when either is missing. */
function loss(id: string, scenario: string, hazard: string, metric: string): number | undefined {
  const value = ASSETS.find((a) => a.id === id)!.value;
  const d = damage(id, scenario, hazard, metric);
  return value === undefined || d === undefined ? undefined : value * d;
}

/** The all-hazards central loss: the three hazards' central losses, or undefined when one is missing. */
function allHazardsLoss(id: string, scenario: string, period: string): number | undefined {
  const parts = STRUCTURAL_DAMAGE_HAZARDS.map((h) => loss(id, scenario, h, `structural_damage_${period}`));
  return parts.some((p) => p === undefined) ? undefined : parts.reduce((a, b) => a! + b!, 0);
}

/** A sheet's rows as objects keyed by header. */
function records(book: Recalculated, sheet: string): Array<Record<string, string>> {
  const [header, ...rows] = book.rows(sheet);
  return rows
    .filter((row) => row.some((cell) => cell !== ""))
    .map((row) => Object.fromEntries(header!.map((h, c) => [h, row[c] ?? ""])));
}

const close = (actual: string, expected: number | undefined) => {
  if (expected === undefined) expect(actual).toBe("#N/A");
  else expect(Number(actual)).toBeCloseTo(expected, 6);
};

describeWithLibreOffice(__filename)("LibreOffice recalculates the money-at-risk sheets", () => {
  let book: Recalculated;
  let flood: ImpactWorkbook;
  let all: ImpactWorkbook;

  beforeAll(async () => {
    const fake = createFakeExcel();
    const names = (suffix: string) => ({
      data: `Impact data ${suffix}`,
      impact: `Financial impact ${suffix}`,
      rollup: `Impact by country ${suffix}`,
    });
    const base = { portfolio: "impact-lo", itemsByScenario, rollupLabel: "country" };
    flood = buildFinancialImpact({ ...base, hazard: "flood", sheetNames: names("flood") });
    all = buildFinancialImpact({ ...base, hazard: ALL_DAMAGE_HAZARDS, sheetNames: names("all") });
    await fake.run((context) => writeSheetsAtomically(context, [...flood.sheets, ...all.sheets]));
    // The analyst sorts the flood data sheet by value, largest first (unreadable and missing values last).
    await fake.run(async (context) => {
      context.workbook.worksheets
        .getItem(flood.sheets[0].sheetName)
        .tables.getItemAt(0)
        .sort.apply([{ key: 4, ascending: false }]);
      await context.sync();
    });
    book = await recalculateInLibreOffice(fake.snapshot());
  }, 120_000);

  test("per-asset losses are value × damage for every scenario, period and bound, #N/A where a value or damage is missing", () => {
    // The data sheet is in the analyst's order; the losses sheet in its own, each row its asset's.
    expect(records(book, "Impact data flood").map((r) => r.entity_id)).toEqual(["P1", "H1", "T1", "P2", "B1", "M1"]);
    const rows = records(book, "Financial impact flood");
    expect(rows.map((r) => r.entity_id)).toEqual(ASSETS.map((a) => a.id));
    expect(rows.map((r) => r["value (USD)"])).toEqual(
      ASSETS.map((a) => (a.value === undefined ? "#N/A" : String(a.value))),
    );
    let checked = 0;
    for (const row of rows) {
      for (const scenario of SCENARIOS) {
        for (const period of IMPACT_PERIODS) {
          for (const [suffix, name] of [
            ["", ""],
            ["_lbd", "_lower"],
            ["_ubd", "_upper"],
          ] as const) {
            close(
              row[`loss_${scenario}_${period}${name} (USD)`]!,
              loss(row.entity_id!, scenario, "flood", `structural_damage_${period}${suffix}`),
            );
            checked++;
          }
          const days = damage(row.entity_id!, scenario, "flood", `business_interruption_${period}`);
          close(row[`${scenario}_business_interruption_${period} (days)`]!, days);
        }
      }
    }
    expect(checked).toBe(ASSETS.length * SCENARIOS.length * IMPACT_PERIODS.length * 3);
    // The unreadable price is listed with its asset, never guessed.
    expect(flood.problems.map((p) => englishTranslator.format(p.message))).toContainEqual(
      expect.stringMatching(/label:price of M1 is "€1.2m", not an amount/),
    );
  });

  test("all hazards with structural damage: the sum of flood, cyclone and wildfire central losses, per asset, #N/A where one is missing", () => {
    const rows = records(book, "Financial impact all");
    for (const row of rows) {
      for (const scenario of SCENARIOS) {
        for (const period of IMPACT_PERIODS) {
          close(row[`loss_all_hazards_${scenario}_${period} (USD)`]!, allHazardsLoss(row.entity_id!, scenario, period));
          for (const hazard of STRUCTURAL_DAMAGE_HAZARDS)
            close(
              row[`loss_${hazard}_${scenario}_${period}_upper (USD)`]!,
              loss(row.entity_id!, scenario, hazard, `structural_damage_${period}_ubd`),
            );
        }
      }
    }
    // No percentile bound for the sum.
    expect(Object.keys(rows[0]!).filter((h) => h.startsWith("loss_all_hazards") && /_(lower|upper)/.test(h))).toEqual(
      [],
    );
    expect(rows.find((r) => r.entity_id === "T1")![`loss_all_hazards_ssp585_2050 (USD)`]).toBe("#N/A");
  });

  test("totals sum the assets that have a value and a damage, with the assets left out by reason and the shares covered", () => {
    for (const [sheet, hazardOf] of [
      ["Impact by country flood", () => ["flood"]],
      [
        "Impact by country all",
        (h: string) => (h === "All hazards with structural damage" ? [...STRUCTURAL_DAMAGE_HAZARDS] : [h]),
      ],
    ] as const) {
      const rows = records(book, sheet);
      let checked = 0;
      for (const row of rows) {
        const group = row["label:country"]!;
        const members = ASSETS.filter((a) => group === "All assets" || a.country === group);
        const withValue = members.filter((a) => a.value !== undefined);
        let covered: typeof members;
        let expectedTotal: number;
        if (row.measure === "value (USD)") {
          covered = withValue;
          expectedTotal = withValue.reduce((sum, a) => sum + a.value!, 0);
        } else {
          const { scenario, period } = row;
          const hazards = hazardOf(row.hazard!);
          const suffix =
            {
              central: "",
              [rollupBound("16th percentile")]: "_lbd",
              [rollupBound("84th percentile")]: "_ubd",
            }[row.bound!] ?? "";
          const each = (id: string) =>
            hazards.length > 1
              ? allHazardsLoss(id, scenario!, period!)
              : loss(id, scenario!, hazards[0]!, `structural_damage_${period}${suffix}`);
          covered = members.filter((a) => each(a.id) !== undefined);
          expectedTotal = covered.reduce((sum, a) => sum + each(a.id)!, 0);
        }
        close(row["total (USD)"]!, expectedTotal);
        expect(Number(row["assets in the total"])).toBe(covered.length);
        expect(Number(row["left out: no value"])).toBe(members.length - withValue.length);
        expect(Number(row["left out: no damage"])).toBe(withValue.length - covered.length);
        close(row["share of assets"]!, covered.length / members.length);
        const knownValue = withValue.reduce((sum, a) => sum + a.value!, 0);
        close(
          row["share of value"]!,
          knownValue === 0 ? undefined : covered.reduce((s, a) => s + a.value!, 0) / knownValue,
        );
        checked++;
      }
      expect(checked).toBe(rows.length);
      expect(rows.length).toBeGreaterThan(4 * 36);
    }
    // T1 has no cyclone damage in ssp585 2050: its totals leave it out, and say so.
    const us = records(book, "Impact by country all").find(
      (r) => r["label:country"] === "US" && r.measure === "loss_all_hazards_ssp585_2050 (USD)",
    )!;
    expect(us).toMatchObject({ "assets in the total": "0", "left out: no value": "1", "left out: no damage": "1" });
  });
});
