/**
 * The pure part of the disclosure tables (ESRS E1-9, IFRS S2 29(c), TCFD): the data sheet they are
 * formulas over, the Methodology sheet's vocabulary (its sections and items, which the formulas
 * and the significant-assets list read), and the significant-assets list itself.
 *
 * The data sheet is the default summary flattened as the summary paste flattens it (one row per
 * asset × scenario × window, class and score per hazard, flatten-summary.ts), with the asset's
 * coordinates, a location label, its value and the value's currency, an optional revenue and an
 * optional adaptation flag. An asset the summary has no row for (no data) still gets its rows,
 * with empty scores, so that coverage counts it instead of losing it. Values are read as the
 * financial impact reads them (money.ts): `label:price` is USD by the service's definition; any
 * other value label is in the asset's `label:currency`, else the currency the analyst states.
 */
import type { Asset, SummaryItem } from "../../../../api/types";
import { SCENARIOS, WINDOWS, HAZARDS } from "../../../../shared/vocabulary";
import { flattenSummary } from "../../../../shaping/flatten-summary";
import { PRICE_CURRENCY, PRICE_LABEL, normalizeCurrency, readMoney } from "../../../../shaping/money";
import type { CellValue } from "../../../../shaping/types";
import { columnLetters, qualify } from "../../../../shaping/a1";
import { message, type Message } from "../../../../i18n/messages";
import { MessageError } from "../../../../i18n/message-error";

/** Input the disclosure tables cannot be built from; the message says what and where. */
export class DisclosureInputError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "DisclosureInputError";
  }
}

/** The data sheet's asset columns after the summary's: their header names, which the formulas find. */
export const DATA_ASSET_COLUMNS = ["lat", "lng", "location", "value", "currency", "revenue", "adapted"] as const;

/** Which asset labels the data sheet reads (recorded in the paste's provenance filters). */
export interface DisclosureLabels {
  /** The value label; default the first of `price`, `value` the assets carry. */
  value_label?: string;
  /** The currency of values that are not label:price and carry no label:currency. */
  currency?: string;
  /** The revenue label (net revenue per asset, same currency as its value); default `revenue` when present. */
  revenue_label?: string;
  /** The adaptation label (yes/no); default `adapted`. */
  adaptation_label?: string;
  /** The location label shown in the significant-assets list; default `country`. */
  location_label?: string;
  /** A column of the synced range holding the value, in place of the value label. */
  value_column?: string;
  /** A column of the synced range holding each value's currency, before label:currency. */
  currency_column?: string;
  /** A column of the synced range holding the revenue, in place of the revenue label. */
  revenue_column?: string;
  /** A column of the synced range holding the adaptation (yes/no), in place of the adaptation label. */
  adaptation_column?: string;
}

/** The data sheet, what it was read from, and the currencies its values are in. */
export interface DisclosureData {
  header: string[];
  rows: CellValue[][];
  /** Every currency of a value or revenue, sorted. */
  currencies: string[];
  /** The labels actually read (defaults resolved), for the provenance. */
  labels: Required<Pick<DisclosureLabels, "location_label">> & Omit<DisclosureLabels, "location_label">;
  /** Values that are not amounts: listed with their asset, never guessed (the cell is left empty). */
  problems: Message[];
}

const YES = new Set(["yes", "y", "true", "1", "adapted"]);
const NO = new Set(["no", "n", "false", "0", "not adapted"]);

/** `yes`, `no`, or "" (unknown) from an adaptation label. */
function adaptation(raw: string | undefined): CellValue {
  const text = (raw ?? "").trim().toLowerCase();
  return YES.has(text) ? "yes" : NO.has(text) ? "no" : "";
}

/** A column of the synced range, read by asset (src/taskpane/features/synced-columns.ts). */
export interface DisclosureColumn {
  /** Where it was read, e.g. "Value of Sites!A1:E9". */
  name: string;
  /** portfolio_index → the cell's value and its address. */
  byIndex: ReadonlyMap<number, { value: CellValue; address: string }>;
}

/** The inputs read from columns of the synced range rather than labels. */
export type DisclosureColumns = Partial<Record<"value" | "currency" | "revenue" | "adaptation", DisclosureColumn>>;

/**
 * Builds the data sheet from the default summary (every scenario and window it gives) and the
 * portfolio's asset list (labels and coordinates). Throws {@link DisclosureInputError} when no
 * asset carries the value label, or values outside label:price have no currency.
 */
export function buildDisclosureData(
  summary: readonly SummaryItem[],
  assets: readonly Asset[],
  labels: DisclosureLabels,
  portfolio: string,
  columns: DisclosureColumns = {},
): DisclosureData {
  if (assets.length === 0) throw new DisclosureInputError(message("disclosure.error.noAssets", { portfolio }));
  const has = (key: string) => assets.some((a) => a.labels && key in a.labels);
  const valueLabel = columns.value
    ? undefined
    : (labels.value_label ?? "").replace(/^label:/, "") || ["price", "value"].find(has);
  if (!columns.value && (!valueLabel || !has(valueLabel)))
    throw new DisclosureInputError(
      message("disclosure.error.noValueLabel", { portfolio, label: valueLabel ? `label:${valueLabel}` : "none" }),
    );
  const revenueLabel = columns.revenue
    ? undefined
    : (labels.revenue_label ?? "").replace(/^label:/, "") || (has("revenue") ? "revenue" : undefined);
  const adaptationLabel = (labels.adaptation_label ?? "").replace(/^label:/, "") || "adapted";
  const locationLabel = (labels.location_label ?? "").replace(/^label:/, "") || "country";
  const stated = labels.currency?.trim() ? normalizeCurrency(labels.currency) : undefined;
  if (labels.currency?.trim() && !stated)
    throw new DisclosureInputError(message("disclosure.error.notCurrency", { text: labels.currency }));
  if (valueLabel === PRICE_LABEL && stated && stated !== PRICE_CURRENCY)
    throw new DisclosureInputError(message("disclosure.error.priceIsUsd", { currency: stated }));

  // Every asset × scenario × window: the summary's rows, and empty ones where it has none.
  const scenarios = [...new Set(summary.map((s) => s.scenario))];
  const windows = [...new Set(summary.map((s) => s.window))];
  const keyOf = (index: number, scenario: string, window: number) => `${index}|${scenario}|${window}`;
  const given = new Set(summary.map((s) => keyOf(s.portfolio_index, s.scenario, s.window)));
  const startYear = new Map(summary.map((s) => [s.window, s.window_start_year]));
  const items: SummaryItem[] = [...summary];
  for (const asset of assets)
    for (const scenario of scenarios.length ? scenarios : SCENARIOS)
      for (const window of windows.length ? windows : WINDOWS)
        if (!given.has(keyOf(asset.portfolio_index, scenario, window)))
          items.push({
            portfolio_name: portfolio,
            portfolio_index: asset.portfolio_index,
            entity_id: asset.entity_id,
            entity_name: asset.entity_name,
            scenario,
            window,
            window_start_year: startYear.get(window) ?? ("" as unknown as number),
            risk_summaries: [],
          });
  items.sort(
    (a, b) =>
      a.portfolio_index - b.portfolio_index ||
      scenarioOrder(a.scenario) - scenarioOrder(b.scenario) ||
      a.window - b.window,
  );
  const flat = flattenSummary(items);
  // Every hazard gets its columns, so the formulas have a score to read (empty: no data).
  const header = [...flat.header];
  const missing = HAZARDS.map((h) => h.portfolio).filter((h) => !header.includes(`${h}_risk_score`));
  for (const h of missing) header.push(`${h}_risk_class`, `${h}_risk_score`);
  header.push(...DATA_ASSET_COLUMNS);

  const byIndex = new Map(assets.map((a) => [a.portfolio_index, a]));
  const currencies = new Set<string>();
  const problems: Message[] = [];
  const noCurrency: string[] = [];
  const perAsset = new Map<number, CellValue[]>();
  for (const asset of assets) {
    const who = asset.entity_id || `index ${asset.portfolio_index}`;
    const cell = (column: DisclosureColumn | undefined) => column?.byIndex.get(asset.portfolio_index);
    // Where a figure was read, for the messages: the cell of the synced range, or the label.
    const notAmount = (
      revenue: boolean,
      column: DisclosureColumn | undefined,
      label: string | undefined,
      text: string,
    ) => {
      const at = cell(column)?.address;
      return message(revenue ? "disclosure.problem.revenue" : "disclosure.problem.value", {
        where: at ? "cell" : column ? "column" : "label",
        at: at ?? column?.name ?? `label:${label}`,
        asset: who,
        text: text.slice(0, 40),
      });
    };
    const value = readMoney(columns.value ? cell(columns.value)?.value : asset.labels?.[valueLabel!]);
    const revenue = columns.revenue
      ? readMoney(cell(columns.revenue)?.value)
      : revenueLabel
        ? readMoney(asset.labels?.[revenueLabel])
        : ({ kind: "blank" } as const);
    if (value.kind === "text") problems.push(notAmount(false, columns.value, valueLabel, value.text));
    if (revenue.kind === "text") problems.push(notAmount(true, columns.revenue, revenueLabel, revenue.text));
    const fromColumn = columns.currency ? cell(columns.currency)?.value : undefined;
    const own =
      normalizeCurrency(typeof fromColumn === "string" ? fromColumn : "") ??
      normalizeCurrency(asset.labels?.currency ?? "");
    const currency = valueLabel === PRICE_LABEL ? PRICE_CURRENCY : (own ?? stated ?? "");
    const amounts = value.kind === "number" || revenue.kind === "number";
    if (amounts && currency === "") noCurrency.push(who);
    if (amounts && currency !== "") currencies.add(currency);
    perAsset.set(asset.portfolio_index, [
      asset.lat ?? "",
      asset.lng ?? "",
      asset.labels?.[locationLabel] ?? "",
      value.kind === "number" ? value.value : "",
      currency,
      revenue.kind === "number" ? revenue.value : "",
      adaptation(columns.adaptation ? String(cell(columns.adaptation)?.value ?? "") : asset.labels?.[adaptationLabel]),
    ]);
  }
  if (noCurrency.length > 0)
    throw new DisclosureInputError(
      message("disclosure.error.noCurrency", {
        source: columns.value ? columns.value.name : `label:${valueLabel}`,
        count: noCurrency.length,
        currencyColumn: columns.currency?.name ?? "none",
        assets: `${noCurrency.slice(0, 5).join(", ")}${noCurrency.length > 5 ? ", …" : ""}`,
      }),
    );
  const pi = header.indexOf("portfolio_index");
  const rows = flat.rows.map((row) => {
    const padded = [...row, ...missing.flatMap(() => ["", ""] as CellValue[])];
    const asset = perAsset.get(Number(row[pi]));
    return [...padded, ...(asset ?? (["", "", "", "", "", "", ""] as CellValue[]))];
  });
  for (const item of summary)
    if (!byIndex.has(item.portfolio_index))
      problems.push(message("disclosure.problem.unknownIndex", { index: String(item.portfolio_index) }));
  return {
    header,
    rows,
    currencies: [...currencies].sort(),
    labels: {
      ...(valueLabel ? { value_label: valueLabel } : {}),
      ...(columns.adaptation ? {} : { adaptation_label: adaptationLabel }),
      location_label: locationLabel,
      ...(revenueLabel ? { revenue_label: revenueLabel } : {}),
      ...(stated ? { currency: stated } : {}),
      // The columns as the analyst named them: a refresh reads the same columns again.
      ...(columns.value ? { value_column: labels.value_column?.trim() } : {}),
      ...(columns.currency ? { currency_column: labels.currency_column?.trim() } : {}),
      ...(columns.revenue ? { revenue_column: labels.revenue_column?.trim() } : {}),
      ...(columns.adaptation ? { adaptation_column: labels.adaptation_column?.trim() } : {}),
    },
    problems,
  };
}

function scenarioOrder(scenario: string): number {
  const i = (SCENARIOS as readonly string[]).indexOf(scenario);
  return i < 0 ? SCENARIOS.length : i;
}

// ---- The Methodology sheet's vocabulary ----

/** The Methodology table's columns: section, item, value (the input cell), acute/chronic, note. */
export const METHODOLOGY_HEADER = ["section", "item", "value", "acute or chronic", "note"];

/** Sections of the Methodology table, as its first column names them. */
export const SECTIONS = {
  threshold: "Materiality threshold",
  horizon: "Time horizon",
  scenario: "Scenario",
  currency: "Reporting currency",
  fx: "FX rate to reporting currency",
  undertaking: "Undertaking",
  significance: "Significant assets",
  dataset: "Dataset",
  limitation: "Limitation",
} as const;

/** Items of the sections whose items are fixed. */
export const ITEMS = {
  medium: "medium term (window, years)",
  long: "long term (window, years)",
  short: "short term",
  currency: "currency",
  totalAssets: "total assets (carrying amount)",
  netRevenue: "net revenue",
  significantValue: "value at least (reporting currency)",
  topN: "else the top N by value",
} as const;

/** The settings the significant-assets list reads from the Methodology table. */
export interface MethodologySettings {
  /** Portfolio hazard name → threshold (material when the score is above it). */
  thresholds: Map<string, number>;
  longWindow: number;
  scenarios: string[];
  /** Currency code → rate to the reporting currency. */
  fx: Map<string, number>;
  significantValue?: number;
  topN?: number;
}

/** Reads the Methodology table (header row first) back into settings; cells the analyst left empty are absent. */
export function readMethodology(values: readonly (readonly CellValue[])[]): MethodologySettings {
  const settings: MethodologySettings = { thresholds: new Map(), longWindow: NaN, scenarios: [], fx: new Map() };
  const num = (v: CellValue | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  for (const [section, item, value] of values.slice(1)) {
    const name = String(item ?? "").trim();
    const n = num(value);
    if (section === SECTIONS.threshold && n !== undefined) settings.thresholds.set(name, n);
    else if (section === SECTIONS.horizon && name === ITEMS.long && n !== undefined) settings.longWindow = n;
    else if (section === SECTIONS.scenario && String(value ?? "").trim() !== "")
      settings.scenarios.push(String(value).trim());
    // Rates of a code's rows add up, as the tables' SUMIF does.
    else if (section === SECTIONS.fx && n !== undefined && name !== "")
      settings.fx.set(name.toUpperCase(), (settings.fx.get(name.toUpperCase()) ?? 0) + n);
    else if (section === SECTIONS.significance && name === ITEMS.significantValue && n !== undefined)
      settings.significantValue = n;
    else if (section === SECTIONS.significance && name === ITEMS.topN && n !== undefined) settings.topN = n;
  }
  return settings;
}

// ---- E1-9 paragraph 66(c): the significant assets at material physical risk ----

/** The significant-assets table's header; keyed by asset (ROW_KEYS["disclosure-significant"]). */
export const SIGNIFICANT_HEADER = [
  "portfolio_index",
  "entity_id",
  "entity_name",
  "location",
  "lat",
  "lng",
  "value (reporting currency)",
  "hazards at material risk (long term)",
  "scenarios",
];

/**
 * The assets at material physical risk in the long-term window of any listed scenario (a score
 * above its hazard's threshold), with a value and an FX rate, sorted by value in the reporting
 * currency (largest first; the largest of its rows, where the analyst changed one), kept when
 * significant: a value at least the threshold when one is set, else the top N (default 10).
 * Read from the data sheet as it is now (the analyst's edits included) and the Methodology settings.
 */
export function significantAssets(
  header: readonly string[],
  rows: readonly (readonly CellValue[])[],
  settings: MethodologySettings,
): CellValue[][] {
  const at = (name: string) => header.indexOf(name);
  const [pi, id, name, scenario, window, location, lat, lng, value, currency] = [
    "portfolio_index",
    "entity_id",
    "entity_name",
    "scenario",
    "window",
    "location",
    "lat",
    "lng",
    "value",
    "currency",
  ].map(at);
  const hazards = [...settings.thresholds.keys()].filter((h) => at(`${h}_risk_score`) >= 0);
  const byAsset = new Map<
    string,
    { row: readonly CellValue[]; amount: number; hazards: Set<string>; scenarios: Set<string> }
  >();
  for (const row of rows) {
    if (row[window] !== settings.longWindow || !settings.scenarios.includes(String(row[scenario]))) continue;
    const rate = settings.fx.get(String(row[currency] ?? "").toUpperCase());
    // A missing, zero or negative rate: no rate, as in every table (the formulas' rate > 0).
    if (typeof row[value] !== "number" || rate === undefined || !(rate > 0)) continue;
    const material = hazards.filter((h) => {
      const score = row[at(`${h}_risk_score`)];
      return typeof score === "number" && score > settings.thresholds.get(h)!;
    });
    if (material.length === 0) continue;
    const key = String(row[pi]);
    const amount = (row[value] as number) * rate;
    const entry = byAsset.get(key) ?? { row, amount, hazards: new Set<string>(), scenarios: new Set<string>() };
    // Each row carries the asset's value: an analyst's correction on one scenario's row counts.
    entry.amount = Math.max(entry.amount, amount);
    material.forEach((h) => entry.hazards.add(h));
    entry.scenarios.add(String(row[scenario]));
    byAsset.set(key, entry);
  }
  const sorted = [...byAsset.values()].sort(
    (a, b) => b.amount - a.amount || String(a.row[id]).localeCompare(String(b.row[id])),
  );
  const kept =
    settings.significantValue !== undefined
      ? sorted.filter((e) => e.amount >= settings.significantValue!)
      : sorted.slice(0, settings.topN ?? 10);
  return kept.map((e) => [
    e.row[pi] ?? "",
    e.row[id] ?? "",
    e.row[name] ?? "",
    e.row[location] ?? "",
    e.row[lat] ?? "",
    e.row[lng] ?? "",
    e.amount,
    [...e.hazards].join(", "),
    settings.scenarios.filter((s) => e.scenarios.has(s)).join(", "),
  ]);
}

// ---- The 66(c) list's check: stale when an input it read or the data changed ----

/** What the significant-assets list was computed from, for its check cell. */
export interface SignificantInputs {
  /** The Methodology table's sheet, its first (header) row and column (0-based), and its values. */
  methodology: { sheet: string; row: number; col: number; values: readonly (readonly CellValue[])[] };
  /** The data table's name, and its header and rows as read. */
  dataTable: string;
  dataHeader: readonly string[];
  dataRows: readonly (readonly CellValue[])[];
  /** When it was computed (shown while current). */
  computedAt: Date;
}

/** The Methodology sections the list reads: thresholds, long window, scenarios, FX rates, significance. */
const LIST_SECTIONS = new Set<string>([SECTIONS.threshold, SECTIONS.scenario, SECTIONS.fx, SECTIONS.significance]);

/** Whether the 66(c) list reads a Methodology row (of the horizons, the long term's only). */
const readByList = (row: readonly CellValue[] | undefined) =>
  LIST_SECTIONS.has(String(row?.[0] ?? "")) || (row?.[0] === SECTIONS.horizon && row?.[1] === ITEMS.long);

/**
 * A cell as Excel's `cell&""` shows it: text as is, a number in General format (15 significant
 * digits), empty as "". The check compares every input so, whatever its type.
 */
function asExcelText(value: CellValue): string {
  if (typeof value === "number") {
    const text = Number(value.toPrecision(15)).toString();
    return text.replace(
      /e\+?(-?)(\d+)$/,
      (_, sign: string, digits: string) => `E${sign || "+"}${digits.padStart(2, "0")}`,
    );
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value ?? "");
}

/** A column's numbers summed, as SUM does (text and empty cells skipped). */
function columnSum(rows: readonly (readonly CellValue[])[], column: number): number {
  return rows.reduce<number>((sum, row) => sum + (typeof row[column] === "number" ? (row[column] as number) : 0), 0);
}

/**
 * The formula of the 66(c) list's check cell: "current: computed …" while every Methodology input
 * the list read (item and value of each row of its sections, compared as `cell&""` with the text
 * recorded) and the data table's checksum (rows, sum of the values, sum of each score) are as when
 * it was computed; "stale: refresh" when one differs or a reference is gone. No dynamic array.
 */
export function significantCheckFormula(
  inputs: SignificantInputs,
  column: (table: string, name: string) => string,
): string {
  const { methodology: m } = inputs;
  const terms: string[] = [];
  // Runs of consecutive rows of the list's sections: one comparison of their item and value cells each.
  const body = m.values.slice(1);
  for (let i = 0; i < body.length;) {
    if (!readByList(body[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < body.length && readByList(body[j + 1])) j++;
    const first = m.row + 2 + i;
    const last = m.row + 2 + j;
    const from = columnLetters(m.col + 1);
    const to = columnLetters(m.col + 2);
    const range = qualify(m.sheet, `$${from}$${first}:$${to}$${last}`);
    const constant = body
      .slice(i, j + 1)
      .map((row) => [row[1], row[2]].map((v) => `"${asExcelText(v).replace(/"/g, '""')}"`).join(","))
      .join(";");
    terms.push(`SUMPRODUCT(--(${range}&""={${constant}}))=${2 * (j - i + 1)}`);
    i = j + 1;
  }
  const { dataHeader: header, dataRows: rows, dataTable } = inputs;
  const sumOf = (name: string) => {
    const sum = columnSum(rows, header.indexOf(name));
    return `ABS(SUM(${column(dataTable, name)})-(${sum}))<=${Math.max(1, Math.abs(sum)) * 1e-9}`;
  };
  terms.push(`ROWS(${column(dataTable, "value")})=${rows.length}`, sumOf("value"));
  for (const name of header) if (name.endsWith("_risk_score")) terms.push(sumOf(name));
  const when = `${inputs.computedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `=IFERROR(IF(AND(${terms.join(",")}),"current: computed ${when} from the data and the Methodology inputs as they are now","${SIGNIFICANT_STALE}"),"${SIGNIFICANT_STALE}")`;
}

/** What the 66(c) list's check cell says when an input or the data changed since the list was computed. */
export const SIGNIFICANT_STALE = "stale: refresh";
