/**
 * A portfolio for the disclosure tests: values in two currencies (label:value with label:currency),
 * one asset without a value, one without revenue, adapted assets; and helpers to find and edit the
 * Methodology sheet's input cells in the fake workbook, as an analyst types into them.
 */
import type { RiskClient } from "../../../../src/api/client";
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

/** Imports {@link ASSETS} as `portfolio` (coordinates spread so that scores differ). */
export async function importDisclosurePortfolio(client: RiskClient, portfolio: string): Promise<void> {
  const csv = [
    "entity_id,entity_name,lat,lng,label:country,label:value,label:currency,label:revenue,label:adapted",
    ...ASSETS.map(
      (a, i) =>
        `${a.id},Site ${a.id},${(5 + i * 9.13).toFixed(2)},${(-70 + i * 23.7).toFixed(2)},${a.country},${a.value ?? ""},${a.currency},${a.revenue ?? ""},${a.adapted}`,
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
