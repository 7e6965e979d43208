/**
 * The disclosure tables' inputs from columns of the synced range, as the financial impact reads its
 * value: a portfolio whose assets carry no value or adaptation label, synced from a sheet whose
 * columns hold them. The data sheet reads them by entity_id (the sheet's rows in another order),
 * the header matched through the sync's synonyms ("Adaptation" for `adapted`), recorded in the
 * provenance so a refresh reads the same columns again; LibreOffice recalculates the tables and
 * every E1-9 figure equals the independent computation from the emulator's summary and the sheet.
 */
import type { SummaryItem } from "../../../../src/api/types";
import { readProvenance } from "../../../../src/excel/provenance-sheets";
import {
  pasteDisclosureTables,
  refreshDisclosureTables,
} from "../../../../src/taskpane/features/disclosure/disclosure-actions";
import { ITEMS, SECTIONS } from "../../../../src/taskpane/features/disclosure/model/disclosure";
import { rememberAssetSource } from "../../../../src/taskpane/ui/asset-source-actions";
import { columnLetters } from "../../../../src/shaping/a1";
import { HAZARDS, SCENARIOS } from "../../../../src/shared/vocabulary";
import type { FakeExcel } from "../../../../testing/fake-excel";
import { importPortfolio } from "../../../functions/support/emulator";
import { describeWithLibreOffice, recalculateInLibreOffice } from "../../../support/libreoffice";
import { englishTranslator } from "../../../../src/i18n/translator";
import { newWorkbook, usePaneTestService } from "../../support";
import { ASSETS, expectE19, methodologyRow, scoreOf, typeInto, type ExpectedInputs, type TestAsset } from "./support";

const PORTFOLIO = "disclosure-cols";
const DATA = `Disclosure data ${PORTFOLIO}`;
const METHODOLOGY = `Methodology ${PORTFOLIO}`;
const EUR_RATE = 1.1;
const TOTALS = { assets: 40_000_000, revenue: 8_000_000 };

const service = usePaneTestService();
let summary: SummaryItem[];

beforeAll(async () => {
  // The labels hold the location, currency and revenue only: no label:value, no label:adapted.
  const place = (a: TestAsset) => Number(a.id.slice(1)) - 1;
  await importPortfolio(
    service.client,
    PORTFOLIO,
    [
      "entity_id,entity_name,lat,lng,label:country,label:currency,label:revenue",
      ...ASSETS.map(
        (a) =>
          `${a.id},Site ${a.id},${(5 + place(a) * 9.13).toFixed(2)},${(-70 + place(a) * 23.7).toFixed(2)},${a.country},${a.currency},${a.revenue ?? ""}`,
      ),
    ].join("\n"),
  );
  summary = await service.client.datasets.summary(PORTFOLIO, {}).all();
}, 60_000);

/** The synced sheet: entity_id, the value and the adaptation, rows in reverse order of the portfolio. */
async function syncedSheet(run: ReturnType<typeof newWorkbook>["run"], assets: readonly TestAsset[]) {
  const rows = [...assets].reverse().map((a) => [a.id, a.value ?? "", a.adapted]);
  await run(async (context) => {
    context.workbook.worksheets.getItem("Sites").getRange(`A1:C${rows.length + 1}`).values = [
      ["entity_id", "Asset value", "Adaptation"],
      ...rows,
    ];
    await context.sync();
  });
  await rememberAssetSource(run, PORTFOLIO, `Sites!A1:C${rows.length + 1}`, "synced");
}

/** The data sheet's rows as header-keyed objects. */
function dataRows(fake: FakeExcel): Array<Record<string, unknown>> {
  const sheet = fake.snapshot().sheets.find((s) => s.name === DATA)!;
  const grid = new Map(sheet.cells.map(([address, value]) => [address.replace(/^.*!|\$/g, ""), value]));
  const header: string[] = [];
  for (let c = 0; grid.has(`${columnLetters(c)}1`); c++) header.push(String(grid.get(`${columnLetters(c)}1`)));
  const rows: Array<Record<string, unknown>> = [];
  for (let r = 2; grid.has(`A${r}`) && grid.get(`A${r}`) !== ""; r++)
    rows.push(Object.fromEntries(header.map((h, c) => [h, grid.get(`${columnLetters(c)}${r}`) ?? ""])));
  return rows;
}

const LABELS = { value_column: "asset value", adaptation_column: "adapted" };

test("value and adaptation from the synced range's columns, by entity_id; recorded, and read again at a refresh", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  await syncedSheet(run, ASSETS);
  const result = await pasteDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO, labels: LABELS });
  expect(result.currencies).toEqual(["EUR", "USD"]);
  const byAsset = (rows: Array<Record<string, unknown>>) =>
    new Map(rows.map((r) => [r.entity_id, [r.value, r.currency, r.revenue, r.adapted]]));
  expect(byAsset(dataRows(fake))).toEqual(
    new Map(ASSETS.map((a) => [a.id, [a.value ?? "", a.currency, a.revenue ?? "", a.adapted]])),
  );
  const record = (await run((context) => readProvenance(context))).records.find((r) => r.sheetName === DATA)!;
  expect(record.filters).toMatchObject({ value_column: "asset value", adaptation_column: "adapted" });
  expect(record.filters.value_label).toBeUndefined();

  // The analyst changes A1's value and adaptation in the synced sheet: the refresh reads them there.
  const a1 = 1 + ASSETS.length - ASSETS.findIndex((a) => a.id === "A1");
  await typeInto(fake, "Sites", `B${a1}`, 1_234_000);
  await typeInto(fake, "Sites", `C${a1}`, "no");
  const refreshed = await refreshDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO });
  expect(refreshed.refused).toBe(0);
  const again = byAsset(dataRows(fake));
  expect(again.get("A1")).toEqual([1_234_000, "EUR", 200_000, "no"]);
  expect(again.get("A2")).toEqual([2_500_000, "USD", "", "no"]);
});

test("a column the synced range lacks, or no synced range: a clear message and nothing written", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  await expect(
    pasteDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO, labels: LABELS }),
  ).rejects.toThrow(
    `No range synced to ${PORTFOLIO} is known in this workbook: sync it first, or name asset labels instead of columns.`,
  );
  await syncedSheet(run, ASSETS);
  const before = fake.sheetNames();
  await expect(
    pasteDisclosureTables({
      client: service.client,
      run,
      portfolio: PORTFOLIO,
      labels: { ...LABELS, revenue_column: "Turnover" },
    }),
  ).rejects.toThrow(
    /The synced range Sites!A1:C7 has no column "Turnover" \(its columns: entity_id, asset value, adaptation\)/,
  );
  expect(fake.sheetNames()).toEqual(before);
});

describeWithLibreOffice(__filename)("LibreOffice recalculates tables whose inputs are columns", () => {
  test("every E1-9 figure equals the computation from the service's summary and the synced sheet", async () => {
    const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
    await syncedSheet(run, ASSETS);
    await pasteDisclosureTables({ client: service.client, run, portfolio: PORTFOLIO, labels: LABELS });
    const thresholds = new Map<string, number>();
    const inputs = (): ExpectedInputs => ({
      assets: ASSETS,
      summary,
      thresholds,
      rates: new Map([
        ["USD", 1],
        ["EUR", EUR_RATE],
      ]),
    });
    const m = (section: string, item: string) => methodologyRow(fake, METHODOLOGY, section, item);
    await typeInto(fake, METHODOLOGY, `C${m(SECTIONS.fx, "EUR")}`, EUR_RATE);
    await typeInto(fake, METHODOLOGY, `C${m(SECTIONS.undertaking, ITEMS.totalAssets)}`, TOTALS.assets);
    await typeInto(fake, METHODOLOGY, `C${m(SECTIONS.undertaking, ITEMS.netRevenue)}`, TOTALS.revenue);
    for (const { portfolio: hazard } of HAZARDS) {
      const scores = ASSETS.map((a) => scoreOf(inputs(), a.id, hazard, "ssp585", 30) ?? 0).sort((x, y) => x - y);
      const median = scores[Math.floor(scores.length / 2)]!;
      thresholds.set(hazard, median);
      await typeInto(fake, METHODOLOGY, `C${m(SECTIONS.threshold, hazard)}`, median);
    }
    const book = await recalculateInLibreOffice(fake.snapshot());
    const rows = expectE19(book, `E1-9 ${PORTFOLIO}`, inputs(), TOTALS);
    expect(rows).toHaveLength(SCENARIOS.length * 3);
  }, 180_000);
});

test("currency and revenue from columns: the column's currency before label:currency, text in a cell named by its address", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  await syncedSheet(run, ASSETS);
  // Two more columns: A2's currency written as EUR over its label:currency USD; A5's revenue is text.
  const rows = [...ASSETS].reverse();
  await typeInto(fake, "Sites", "D1", "Currency");
  await typeInto(fake, "Sites", "E1", "Turnover");
  for (const [k, a] of rows.entries()) {
    await typeInto(fake, "Sites", `D${k + 2}`, a.id === "A2" ? "eur" : "");
    await typeInto(fake, "Sites", `E${k + 2}`, a.id === "A5" ? "ten thousand" : (a.revenue ?? ""));
  }
  await rememberAssetSource(run, PORTFOLIO, `Sites!A1:E${rows.length + 1}`, "synced");
  const result = await pasteDisclosureTables({
    client: service.client,
    run,
    portfolio: PORTFOLIO,
    labels: { ...LABELS, currency_column: "currency", revenue_column: "Turnover" },
  });
  const a5 = 2 + rows.findIndex((a) => a.id === "A5");
  expect(result.problems.map(englishTranslator.format)).toEqual([
    `Sites!E${a5} (A5) is "ten thousand", not an amount: it counts as without revenue.`,
  ]);
  const byAsset = new Map(dataRows(fake).map((r) => [r.entity_id, [r.currency, r.revenue]]));
  expect(byAsset.get("A2")).toEqual(["EUR", ""]);
  expect(byAsset.get("A5")).toEqual(["EUR", ""]);
  expect(byAsset.get("A6")).toEqual(["USD", 900_000]);
  const record = (await run((context) => readProvenance(context))).records.find((r) => r.sheetName === DATA)!;
  expect(record.filters).toMatchObject({ currency_column: "currency", revenue_column: "Turnover" });
});
