import { message } from "../../../i18n/messages";
import { sheetWords } from "../../../excel/sheet-words";
import { MessageError } from "../../../i18n/message-error";
import type { RiskClient } from "../../../api/client";
import { listSheetNames } from "../../../excel/read-range";
import { readValueCurrency, rememberValueCurrency } from "../../../excel/value-currencies";
import {
  buildFinancialImpact,
  buildImpactFollowers,
  defaultValueLabel,
  ImpactInputError,
  type ImpactWorkbook,
  type ValueSource,
} from "./model/financial-impact";
import { uniqueSheetName } from "../../../shaping/sheet-names";
import type { ExtendedSummaryItem } from "../../../shaping/types";
import { readSyncedColumns, SyncedColumnError } from "../synced-columns";
import { unlessCancelled, type ExcelRunner, type PastedSheet, type PasteOptions } from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import { SCENARIOS } from "../../../shared/vocabulary";
import type { SharedReads } from "../../../api/shared-reads";
import { OPERATION_LABELS } from "../../../shaping/paste-provenance";
import { ROW_KEYS } from "../../../shaping/row-keys";
import { provenanceOf, rowKeysFor, type FetchedTable, type PasteKind, type PasteSource } from "../pasted";

/** Scenarios of the impact sheets when none are chosen. */
export const IMPACT_SCENARIOS = SCENARIOS;

/** Options of {@link pasteFinancialImpact}. */
export interface FinancialImpactOptions extends PasteOptions {
  portfolio: string;
  /**
   * Extended-summary hazard key: flood, cyclone, water_stress, heatwave, sea_level_rise, wildfire,
   * or `all` (ALL_DAMAGE_HAZARDS): flood, cyclone and wildfire and the sum of their central losses.
   */
  hazard: string;
  /**
   * The values' currency when they are not label:price (USD by the service's definition). Given,
   * it is remembered for this portfolio and value source once the sheets are written; omitted,
   * the remembered one is used, else CurrencyNeededError (model/financial-impact.ts) asks for it.
   */
  currency?: string;
  scenarios?: readonly string[];
  /**
   * The asset value: a label key (`price`), or `{column}` a header of the range synced to the
   * portfolio from this pane. Default: label:price, else label:value.
   */
  value?: { label: string } | { column: string };
  /** Label key to roll up by (country, type); default: the total only. */
  rollupLabel?: string;
}

/** What was written, and the missing values and damages (with their cell addresses). */
export interface FinancialImpactResult {
  sheets: PastedSheet[];
  problems: ImpactWorkbook["problems"];
  assetCount: number;
  valueSource: string;
  /** The values' currency, as the money headers name it. */
  currency: string;
}

/** What the sheets are built from: each scenario's extended summary, the value source and its currency. */
interface ImpactInputs {
  itemsByScenario: Map<string, readonly ExtendedSummaryItem[]>;
  value?: ValueSource;
  /** How the value source is remembered for its currency: `label:price`, or the column's header. */
  sourceKey: string;
  currency?: string;
}

/**
 * Reads the extended summary of each scenario, the value column if one is picked, and the currency.
 * `shared`: at a refresh of several pasted sheets, a scenario another sheet reads too is read once.
 */
async function readImpactInputs(
  options: Pick<
    FinancialImpactOptions,
    "client" | "run" | "portfolio" | "currency" | "value" | "signal" | "onProgress"
  > & {
    /** At a refresh, the assets the data sheet held (one item each in every scenario's list). */
    assets?: number;
  },
  scenarios: readonly string[],
  shared?: SharedReads,
): Promise<ImpactInputs> {
  const { client, run, portfolio, signal, onProgress } = options;
  const itemsByScenario = new Map<string, readonly ExtendedSummaryItem[]>();
  // The scenarios are read at once (each list's pages with the client's read-ahead): the time is
  // the service's, and one scenario waiting for another would only add to it.
  // The first failure stops the other scenarios' reads.
  const readSoFar = scenarios.map(() => 0);
  const reading = new AbortController();
  const stop = () => reading.abort();
  if (signal?.aborted) stop();
  signal?.addEventListener("abort", stop, { once: true });
  // Progress lines are text (../../ui/pane-types): worded with the pane's formatter.
  const words = await sheetWords();
  onProgress?.({ message: words(message("impact.progress.reading")) });
  const readScenarios = async () => {
    try {
      const lists = await Promise.all(
        scenarios.map((scenario, k) =>
          shared
            ? shared.extendedSummary(portfolio, scenario, options.assets)
            : client.datasets.extendedSummary(portfolio, { scenario }).all({
                signal: reading.signal,
                onProgress: ({ itemsRead }) => {
                  readSoFar[k] = itemsRead;
                  const read = readSoFar.reduce((sum, n) => sum + n, 0);
                  onProgress?.({ message: words(message("impact.progress.read", { count: read })) });
                },
              }),
        ),
      );
      scenarios.forEach((scenario, k) => itemsByScenario.set(scenario, lists[k]!));
    } catch (error) {
      stop();
      throw error;
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  };
  await unlessCancelled(readScenarios(), signal);

  let value: ValueSource | undefined;
  if (options.value && "label" in options.value)
    value = { kind: "label", key: options.value.label.replace(/^label:/, "") };
  else if (options.value && "column" in options.value)
    value = await readValueColumn(run, portfolio, options.value.column, itemsByScenario.get(scenarios[0]!) ?? []);

  // The currency: USD for label:price (the model checks it), else stated now or remembered.
  const sourceKey =
    options.value && "column" in options.value
      ? options.value.column.trim().toLowerCase()
      : `label:${value?.kind === "label" ? value.key : (defaultValueLabel(itemsByScenario.get(scenarios[0]!) ?? []) ?? "")}`;
  const stated = options.currency?.trim() ? options.currency.trim() : undefined;
  const currency =
    stated ??
    (sourceKey === "label:price"
      ? undefined
      : await run((context) => readValueCurrency(context, portfolio, sourceKey)));
  return { itemsByScenario, value, sourceKey, currency };
}

/**
 * The "Financial impact" button: reads the extended summary of each scenario, builds the data,
 * per-asset and roll-up sheets (see model/financial-impact.ts) and writes them all or none. Bad
 * input (no value, text in values, duplicate entity_ids) rejects with {@link ImpactInputError}
 * before anything is written. The data sheet is a pasted sheet of kind `financial-impact`, keyed
 * by asset: "Refresh pasted sheets" refreshes it by key (values the analyst typed stay with their
 * asset) and brings the per-asset and roll-up sheets in line (src/excel/formula-followers.ts).
 */
export async function pasteFinancialImpact(options: FinancialImpactOptions): Promise<FinancialImpactResult> {
  const { client, run, portfolio, signal, onProgress } = options;
  const scenarios = options.scenarios?.length ? options.scenarios : IMPACT_SCENARIOS;
  const inputs = await readImpactInputs(options, scenarios);
  const { sourceKey } = inputs;
  const stated = options.currency?.trim() ? options.currency.trim() : undefined;

  const taken = await run(listSheetNames);
  const name = (desired: string) => {
    const unique = uniqueSheetName(desired, taken);
    taken.push(unique);
    return unique;
  };
  const sheetNames = {
    data: name(`Impact data ${portfolio}`),
    impact: name(`Financial impact ${portfolio}`),
    rollup: name(options.rollupLabel ? `Impact by ${options.rollupLabel}` : `Impact total ${portfolio}`),
  };
  const built = buildFinancialImpact({
    portfolio,
    hazard: options.hazard,
    itemsByScenario: inputs.itemsByScenario,
    value: inputs.value,
    currency: inputs.currency,
    rollupLabel: options.rollupLabel,
    sheetNames,
  });
  const [data, ...formulaSheets] = built.sheets;
  const provenance = await provenanceOf(
    client,
    FINANCIAL_IMPACT_KIND,
    portfolio,
    {
      hazard: options.hazard,
      scenarios: scenarios.join(","),
      ...(options.value && "column" in options.value
        ? { value_column: options.value.column.trim() }
        : { value_label: sourceKey.replace(/^label:/, "") }),
      currency: built.currency,
      rollup_label: options.rollupLabel,
    },
    signal,
  );
  const rowKeys = await rowKeysFor(client, FINANCIAL_IMPACT_KIND, portfolio, data, signal);
  const written = await writeNewSheets(
    run,
    [{ ...data, provenance, rowKeys, followers: { mirror: 1, summary: 2 } }, ...formulaSheets],
    { signal, onProgress },
  );
  if (stated && sourceKey !== "label:price") {
    await run((context) => rememberValueCurrency(context, { portfolio, source: sourceKey, currency: built.currency }));
  }
  return {
    sheets: written.map(pastedSheet),
    problems: built.problems,
    assetCount: built.assetCount,
    valueSource: built.valueSource,
    currency: built.currency,
  };
}

/**
 * The financial impact's data sheet again, from the filters its provenance records (the paste
 * kind's fetch, FINANCIAL_IMPACT_KIND below): each scenario's extended summary, the
 * value from the label or the synced range's column, in the recorded currency; with the per-asset
 * and roll-up formulas for the sheets' names at the time of the refresh. `shared`: the lists the
 * refresh reads once for every sheet that needs them (a scenario also pasted on its own sheet).
 */
export async function fetchFinancialImpact(
  client: RiskClient,
  source: PasteSource,
  signal: AbortSignal | undefined,
  run: ExcelRunner | undefined,
  shared?: SharedReads,
): Promise<FetchedTable> {
  const f = source.filters;
  const portfolio = source.portfolio ?? "";
  const column = f.value_column === undefined ? undefined : String(f.value_column);
  if (column !== undefined && !run)
    throw new MessageError(message("impact.error.columnNeedsPane", { sheet: source.sheetName ?? "", column }));
  const options = {
    client,
    run: run!,
    portfolio,
    currency: f.currency === undefined ? undefined : String(f.currency),
    value: column !== undefined ? { column } : { label: String(f.value_label ?? "price") },
    signal,
    assets: source.rows,
  };
  const scenarios = String(f.scenarios ?? "")
    .split(",")
    .filter((x) => x !== "");
  const inputs = await readImpactInputs(options, scenarios.length > 0 ? scenarios : IMPACT_SCENARIOS, shared);
  const rollupLabel = f.rollup_label === undefined ? undefined : String(f.rollup_label);
  const request = (names: { data: string; impact: string; rollup: string }) => ({
    portfolio,
    hazard: String(f.hazard ?? ""),
    itemsByScenario: inputs.itemsByScenario,
    value: inputs.value,
    currency: inputs.currency,
    rollupLabel,
    sheetNames: names,
  });
  // The data sheet holds no formulas: the names matter only to the followers, built below.
  const sheet = source.sheetName ?? `Impact data ${portfolio}`;
  const data = buildFinancialImpact(request({ data: sheet, impact: sheet, rollup: sheet })).sheets[0];
  return {
    header: data.header,
    rows: data.rows,
    // Asked for by the followers' check and again by their refresh (a fifth of a second each at
    // 5,000 assets when the data sheet was built with them): without the data sheet.
    followers: (names) => {
      const built = buildImpactFollowers(request({ data: names.keyed, impact: names.mirror, rollup: names.summary }));
      return { mirrorRowAt: built.impactRowAt, summaryRows: built.rollupRowsFor };
    },
  };
}

/**
 * The financial impact's paste kind, beside the paste that builds its sheets (pasteFinancialImpact
 * records it) and its fetch, with which it shares the reading of its inputs. Its panel writes
 * several related sheets of its own, so it has no `sheet`.
 */
export const FINANCIAL_IMPACT_KIND: PasteKind = {
  operation: "financial-impact",
  label: OPERATION_LABELS["financial-impact"],
  dataset: true,
  rowKey: () => ROW_KEYS["financial-impact"],
  fetch: (client, source, signal, run, extras) => fetchFinancialImpact(client, source, signal, run, extras?.shared),
};

/** Reads the value column of the range synced to the portfolio (../synced-columns.ts). */
async function readValueColumn(
  run: ExcelRunner,
  portfolio: string,
  header: string,
  items: readonly ExtendedSummaryItem[],
): Promise<ValueSource> {
  try {
    const [column] = await readSyncedColumns(run, portfolio, [header], items, "impact");
    return { kind: "column", ...column! };
  } catch (error) {
    throw error instanceof SyncedColumnError ? new ImpactInputError(error.said ?? error.message) : error;
  }
}
