/**
 * Money at risk, end to end: emulator over HTTP, fake workbook. The fake does
 * not calculate Excel's own functions, so the test follows each loss formula to the data sheet's
 * cells it reads (follow-formulas.ts), evaluates it on them, and compares with a hand computation
 * from the extended summary the emulator serves.
 */
import { columnLetters as col } from "../../../../src/shaping/a1";
import { CurrencyNeededError } from "../../../../src/taskpane/features/impact/model/financial-impact";
import { rememberAssetSource } from "../../../../src/taskpane/ui/asset-source-actions";
import { pasteFinancialImpact } from "../../../../src/taskpane/features/impact/impact-actions";
import { importPortfolio } from "../../../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../../support";
import { evaluate } from "./follow-formulas";
import { englishTranslator } from "../../../../src/i18n/translator";

const CSV = [
  "entity_id,entity_name,lat,lng,label:country,label:price",
  "P1,Paris depot,48.85,2.35,FR,1000000",
  "P2,Lyon plant,45.76,4.83,FR,2500000",
  "B1,Berlin office,52.52,13.40,DE,",
  "H1,Hamburg port,53.55,9.99,DE,400000",
].join("\n");

const service = usePaneTestService();

beforeAll(async () => {
  await importPortfolio(service.client, "impact-test", CSV);
});

test("per-asset losses are value × structural damage formulas for each scenario, period and bound; a missing price is #N/A and listed, never 0", async () => {
  const { fake, run } = newWorkbook();
  const result = await pasteFinancialImpact({
    client: service.client,
    run,
    portfolio: "impact-test",
    hazard: "flood",
    scenarios: ["ssp245", "ssp585"],
    rollupLabel: "country",
  });
  expect(result.valueSource).toBe("label:price");
  expect(result.sheets.map((s) => s.sheetName)).toEqual([
    "Impact data impact-test",
    "Financial impact impact-test",
    "Impact by country",
  ]);
  const impact = result.sheets[1]!;
  const header = fake.read(impact.sheetName, `A1:${col(impact.columnCount - 1)}1`)[0]!;
  expect(header.slice(0, 8)).toEqual([
    "portfolio_index",
    "entity_id",
    "entity_name",
    "label:country",
    "value (USD)",
    "loss_ssp245_baseline (USD)",
    "loss_ssp245_baseline_lower (USD)",
    "loss_ssp245_baseline_upper (USD)",
  ]);
  expect(header).toContain("ssp585_business_interruption_2080_ubd (days)");

  const extended = new Map<string, Awaited<ReturnType<typeof read>>>();
  async function read(scenario: string) {
    return service.client.datasets.extendedSummary("impact-test", { scenario }).all();
  }
  for (const scenario of ["ssp245", "ssp585"]) extended.set(scenario, await read(scenario));
  const damage = (scenario: string, entity: string, metric: string) =>
    extended.get(scenario)!.find((i) => i.entity_id === entity)!.scenario_analytics![scenario]!.flood![
      metric
    ] as number;

  // Hand computations for three assets, rows in portfolio_index order (P1, P2, B1, H1 → rows 2..5).
  const cellOf = (row: number, name: string) => `${col(header.indexOf(name))}${row}`;
  const cases: Array<[number, string, number, string, string]> = [
    [2, "P1", 1_000_000, "ssp585", "2050"],
    [3, "P2", 2_500_000, "ssp245", "2080"],
    [5, "H1", 400_000, "ssp585", "baseline"],
  ];
  for (const [row, entity, price, scenario, period] of cases) {
    // The row finds its asset by portfolio_index (a value), in the data row MATCH finds.
    expect(fake.read(impact.sheetName, cellOf(row, "data row"), "formulas")[0]![0]).toBe(
      `=MATCH($A${row},'Impact data impact-test'!$A:$A,0)`,
    );
    expect(evaluate(fake, impact.sheetName, cellOf(row, "entity_id"))).toBe(entity);
    const central = evaluate(fake, impact.sheetName, cellOf(row, `loss_${scenario}_${period} (USD)`));
    expect(central).toBeCloseTo(price * damage(scenario, entity, `structural_damage_${period}`), 6);
    expect(evaluate(fake, impact.sheetName, cellOf(row, `loss_${scenario}_${period}_lower (USD)`))).toBeCloseTo(
      price * damage(scenario, entity, `structural_damage_${period}_lbd`),
      6,
    );
    expect(evaluate(fake, impact.sheetName, cellOf(row, `loss_${scenario}_${period}_upper (USD)`))).toBeCloseTo(
      price * damage(scenario, entity, `structural_damage_${period}_ubd`),
      6,
    );
    // Business interruption as given, not multiplied.
    expect(evaluate(fake, impact.sheetName, cellOf(row, `${scenario}_business_interruption_${period} (days)`))).toBe(
      damage(scenario, entity, `business_interruption_${period}`),
    );
  }
  // B1 has no price: its losses are #N/A, and the problem names the data cell.
  expect(evaluate(fake, impact.sheetName, cellOf(4, "loss_ssp585_2050 (USD)"))).toBe("#N/A");
  expect(fake.read("Impact data impact-test", "E4")[0]![0]).toBe("");
  expect(result.problems.map((p) => ({ ...p, message: englishTranslator.format(p.message) }))).toEqual([
    expect.objectContaining({
      address: "'Impact data impact-test'!E4",
      message: expect.stringMatching(/No value for B1.*#N\/A/),
    }),
  ]);

  // Roll-up by country: one row per group and measure, each total summing the assets whose loss is a
  // number (LibreOffice checks the numbers: impact-libreoffice.test.ts), beside what it covers.
  const rollupHeader = fake.read("Impact by country", "A1:L1")[0]!;
  expect(rollupHeader).toEqual([
    "label:country",
    "measure",
    "hazard",
    "scenario",
    "period",
    "bound",
    "total (USD)",
    "assets in the total",
    "left out: no value",
    "left out: no damage",
    "share of assets",
    "share of value",
  ]);
  const rollup = fake.read("Impact by country", "A2:L200", "formulas").filter((r) => r[0] !== "");
  const measures = 1 + 2 * 4 * 3; // value, then 2 scenarios × 4 periods × 3 bounds
  expect(rollup.map((r) => r[0])).toEqual([
    ...Array(measures).fill("All assets"),
    ...Array(measures).fill("DE"),
    ...Array(measures).fill("FR"),
  ]);
  const lossCol = col(header.indexOf("loss_ssp585_2050 (USD)"));
  const losses = `'Financial impact impact-test'!$${lossCol}$2:$${lossCol}$5`;
  const labels = "'Financial impact impact-test'!$D$2:$D$5";
  const de = rollup.findIndex((r) => r[0] === "DE" && r[1] === "loss_ssp585_2050 (USD)");
  expect(rollup[de]!.slice(2, 8)).toEqual([
    "flood",
    "ssp585",
    "2050",
    "central",
    `=SUMIFS(${losses},${labels},$A${de + 2},${losses},"<>#N/A")`,
    `=COUNTIFS(${labels},$A${de + 2},${losses},"<>#N/A")`,
  ]);
  // Money columns are formatted as amounts.
  expect(fake.read(impact.sheetName, cellOf(2, "loss_ssp585_2050 (USD)"), "numberFormat")[0]![0]).toBe("#,##0");
});

test("a value column the user picks in the synced range needs its currency, asked once; matched by entity_id; text in it is listed with its cell", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  await run(async (context) => {
    context.workbook.worksheets.getItem("Sites").getRange("A1:C5").values = [
      ["entity_id", "lat", "insured"],
      ["H1", 53.55, 9],
      ["P1", 48.85, 7],
      ["P2", 45.76, 5],
      ["B1", 52.52, 3],
    ];
    await context.sync();
  });
  await rememberAssetSource(run, "impact-test", "Sites!A1:C5", "synced");
  const options = {
    client: service.client,
    run,
    portfolio: "impact-test",
    hazard: "flood",
    scenarios: ["ssp585"],
    value: { column: "Insured" },
  };
  const unasked = fake.sheetNames();
  await expect(pasteFinancialImpact(options)).rejects.toThrow(CurrencyNeededError);
  expect(fake.sheetNames()).toEqual(unasked);
  const result = await pasteFinancialImpact({ ...options, currency: "eur" });
  expect(result.valueSource).toBe("Insured of Sites!A1:C5");
  expect(result.currency).toBe("EUR");
  expect(fake.read("Impact data impact-test", "E1")).toEqual([["value (EUR)"]]);
  expect(result.problems).toEqual([]);
  // Data rows are in portfolio_index order P1, P2, B1, H1: values come by entity_id, not by row.
  expect(fake.read("Impact data impact-test", "B2:E5").map((r) => [r[0], r[3]])).toEqual([
    ["P1", 7],
    ["P2", 5],
    ["B1", 3],
    ["H1", 9],
  ]);

  const before = fake.sheetNames();
  await run(async (context) => {
    context.workbook.worksheets.getItem("Sites").getRange("C3").values = [["seven"]];
    await context.sync();
  });
  // The currency stated once is remembered with the workbook: not asked again.
  const again = await pasteFinancialImpact({ ...options, value: { column: "insured" } });
  expect(again.currency).toBe("EUR");
  expect(again.problems.map((p) => ({ ...p, message: englishTranslator.format(p.message) }))).toEqual([
    expect.objectContaining({
      address: "Sites!C3",
      message: expect.stringMatching(
        /Sites!C3 is "seven", not an amount .*P1's losses are #N\/A and the totals leave it out/,
      ),
    }),
  ]);
  // Three sheets, the data sheet's record of what was written and the losses sheet's record of
  // which asset each row is about (two very hidden sheets).
  expect(fake.sheetNames().length).toBe(before.length + 5);
});

test("no value column, an entity_id on two assets, or a value without its currency: a clear message and nothing written", async () => {
  const { fake, run } = newWorkbook();
  const before = fake.sheetNames();
  await expect(
    pasteFinancialImpact({
      client: service.client,
      run,
      portfolio: "demo-portfolio",
      hazard: "flood",
      scenarios: ["ssp585"],
    }),
  ).rejects.toThrow(/No asset value: demo-portfolio has no label:price or label:value column/);
  await importPortfolio(
    service.client,
    "impact-dupes",
    "entity_id,lat,lng,label:value\nX1,10,10,5\nX1,11,11,6\nX2,12,12,7",
  );
  await expect(
    pasteFinancialImpact({
      client: service.client,
      run,
      portfolio: "impact-dupes",
      hazard: "flood",
      scenarios: ["ssp585"],
    }),
  ).rejects.toThrow(/1 appears twice in impact-dupes: "X1" \(index 0 and 1\)/);
  await importPortfolio(service.client, "impact-text", "entity_id,lat,lng,label:value\nX1,10,10,5\nX2,12,12,about 7");
  await expect(
    pasteFinancialImpact({
      client: service.client,
      run,
      portfolio: "impact-text",
      hazard: "flood",
      scenarios: ["ssp585"],
    }),
  ).rejects.toThrow(/label:value holds asset values in a currency the service does not define/);
  expect(fake.sheetNames()).toEqual(before);
});
