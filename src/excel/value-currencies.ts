/**
 * The currency of an asset-value column, asked once and remembered with the workbook's other
 * records: `label:price` is USD by the service's definition, but any other value (`label:value`, a
 * column of the synced range) is in the currency the analyst states, never an assumed USD. A very
 * hidden sheet (`_ClimateRiskValueCurrencies`), one row per portfolio and value source, kept like
 * the other stores (src/excel/storeSheets.ts).
 */
import { VALUE_CURRENCY_STORE_SHEET } from "../shaping/paste-provenance";
import { addStoreSheet, readStoreRows, writeStoreRows } from "./store-sheets";

/** One remembered currency. */
export interface ValueCurrencyRecord {
  /** The portfolio's name in lower case. */
  portfolio: string;
  /** The value source as the impact sheets name it: `label:value`, or a column header of the synced range. */
  source: string;
  /** Three letters, e.g. EUR. */
  currency: string;
}

const STORE_HEADER = ["portfolio", "value source", "currency"];

async function readRecords(context: Excel.RequestContext): Promise<ValueCurrencyRecord[]> {
  const rows = (await readStoreRows(context, VALUE_CURRENCY_STORE_SHEET)) ?? [];
  return rows.flatMap(({ cells: [portfolio, source, currency] }) =>
    typeof portfolio === "string" && typeof source === "string" && typeof currency === "string" && currency !== ""
      ? [{ portfolio, source, currency }]
      : [],
  );
}

/** The currency stated for this portfolio's value source, or undefined when none was. */
export async function readValueCurrency(
  context: Excel.RequestContext,
  portfolio: string,
  source: string,
): Promise<string | undefined> {
  const key = { portfolio: portfolio.toLowerCase(), source: source.toLowerCase() };
  return (await readRecords(context)).find(
    (r) => r.portfolio === key.portfolio && r.source.toLowerCase() === key.source,
  )?.currency;
}

/** Remembers the currency of this portfolio's value source (replacing what was stated before); syncs. */
export async function rememberValueCurrency(context: Excel.RequestContext, record: ValueCurrencyRecord): Promise<void> {
  const portfolio = record.portfolio.toLowerCase();
  const kept = (await readRecords(context)).filter(
    (r) => !(r.portfolio === portfolio && r.source.toLowerCase() === record.source.toLowerCase()),
  );
  let store = context.workbook.worksheets.getItemOrNullObject(VALUE_CURRENCY_STORE_SHEET);
  await context.sync();
  if (store.isNullObject) store = addStoreSheet(context, VALUE_CURRENCY_STORE_SHEET);
  writeStoreRows(
    store,
    STORE_HEADER,
    [...kept, { ...record, portfolio }].map((r) => [r.portfolio, r.source, r.currency]),
  );
  await context.sync();
}
