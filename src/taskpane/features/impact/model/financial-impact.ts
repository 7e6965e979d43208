/**
 * Money at risk: value × structural damage per asset, per scenario, period and
 * bound, laid out as three sheets whose numbers are Excel formulas over the data they came from,
 * so an analyst can audit every cell and change a value to see the loss move:
 *
 * - "Impact data": the numbers as the extended summary gives them (structural damage and business
 *   interruption per scenario and period, with `_lbd`/`_ubd`), one row per asset, and its value;
 * - "Financial impact": per asset, `=IF(COUNT(value, damage)=2, value*damage, NA())` for each
 *   scenario, period and bound, and business interruption as given (a reference). Each row finds
 *   its asset in the data sheet by key: its first column holds the asset's portfolio_index as a
 *   value, its last (`data row`) the row of the data sheet holding it (`MATCH`), and every other
 *   cell reads that row (`INDEX`). Sorting the data sheet moves values, not references, so a row
 *   that read a place would show another asset; a row that looks its asset up does not;
 * - "Impact by <label>": all assets and each value of a label the user picks, one row per total
 *   (group × measure), each total beside what it covers: the assets it sums, those it leaves out
 *   by reason (no value, no damage) and the share of the assets and of their value it covers.
 *
 * One hazard, or "all hazards with structural damage" (flood, cyclone and wildfire): then each
 * hazard's losses, with their bounds, and per asset and in the totals their sum, central losses
 * only: the `_lbd`/`_ubd` bounds are 16th and 84th percentiles, which do not add. Business
 * interruption stays per hazard, in days.
 *
 * Values are read as the service writes `label:price` (`12345.00`, `12,345.00`, `$12,345.00`,
 * money.ts) and carry a currency: USD for `label:price`, else the one the analyst states; it is
 * named in every money header. A missing or unreadable value, or a missing damage, is an empty
 * data cell and `#N/A` in the per-asset loss, never 0; each is listed as a problem with its cell
 * address or asset. Totals sum the assets that have both. No value column at all, a value other
 * than label:price without a currency, or an entity_id on two assets is an {@link ImpactInputError}:
 * nothing is written.
 */
import { PERIODS, STRUCTURAL_DAMAGE_HAZARDS } from "../../../../shared/vocabulary";
import { cellA1, columnLetters, qualify } from "../../../../shaping/a1";
import { PRICE_CURRENCY, PRICE_LABEL, normalizeCurrency, readMoney } from "../../../../shaping/money";
import type { RangeProblem } from "../../../../shaping/problems";
import { message, type Message } from "../../../../i18n/messages";
import { MessageError } from "../../../../i18n/message-error";
import type { CellValue, ExtendedSummaryItem, FormulaSheet } from "../../../../shaping/types";

/** The periods of the extended summary's metrics, in time order. */
export const IMPACT_PERIODS = PERIODS;
/** Metric suffixes: central value, 16th percentile, 84th percentile (docs/service.md#what-the-numbers-mean). */
const BOUNDS = [
  { suffix: "", name: "", label: "central" },
  { suffix: "_lbd", name: "_lower", label: "16th percentile" },
  { suffix: "_ubd", name: "_upper", label: "84th percentile" },
] as const;

/**
 * The roll-up's bound of a total: a total of the assets' 16th (84th) percentiles is their sum, not
 * the portfolio's 16th (84th) percentile, which the service does not give (percentiles do not add).
 */
export function rollupBound(bound: string): string {
  return /percentile$/.test(bound) ? `sum of the assets' ${bound}s (not the portfolio's ${bound})` : bound;
}

/** The per-asset sheet's last column: the data sheet row of the row's asset, found by its portfolio_index. */
export const DATA_ROW_HEADER = "data row";

/** The `hazard` of a request that sums the hazards with structural damage. */
export const ALL_DAMAGE_HAZARDS = "all";

/** How the pane and the roll-up name {@link ALL_DAMAGE_HAZARDS}. */
export const ALL_DAMAGE_HAZARDS_TITLE = "All hazards with structural damage";

/** Label keys read as an asset's value when the user picks none, in this order. */
export const VALUE_LABELS = ["price", "value"] as const;

/** Input the impact sheets cannot be built from; the message says what and where. */
export class ImpactInputError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "ImpactInputError";
  }
}

/** A value of the data sheet the losses cannot use, at its cell; the pane words `message`. */
export type ImpactProblem = Omit<RangeProblem, "message"> & { message: Message };

/** The value source is not label:price and no currency was given: the pane asks the analyst for it. */
export class CurrencyNeededError extends ImpactInputError {
  constructor(
    /** The value source, e.g. `label:value` or `Insured of 'Sites'!A1:D9`. */
    readonly valueSource: string,
  ) {
    super(message("impact.error.currencyNeeded", { source: valueSource }));
    this.name = "CurrencyNeededError";
  }
}

/** Where asset values come from: a label of the assets, or values the user picked (by portfolio_index). */
export type ValueSource =
  | { kind: "label"; key: string }
  | {
      kind: "column";
      /** Says where the values were read, e.g. "'Sites'!F2:F41". */
      name: string;
      /** portfolio_index → the cell's value and its address (for messages). */
      byIndex: ReadonlyMap<number, { value: CellValue; address: string }>;
    };

/** What to build. */
export interface ImpactRequest {
  portfolio: string;
  /** Extended-summary hazard key, e.g. `flood`, or {@link ALL_DAMAGE_HAZARDS}. */
  hazard: string;
  /**
   * Currency of the values (three letters): USD for label:price, which is the service's own
   * definition; required for any other source ({@link CurrencyNeededError} without it).
   */
  currency?: string;
  /** scenario → the extended summary items read for it (each carrying `scenario_analytics[scenario]`). */
  itemsByScenario: ReadonlyMap<string, readonly ExtendedSummaryItem[]>;
  /** Default: the first of `label:price`, `label:value` the assets carry. */
  value?: ValueSource;
  /** Label key to roll up by (e.g. `country`); default: no roll-up by label, the total only. */
  rollupLabel?: string;
  /** The sheet names to use (already unique in the workbook: the formulas name them). */
  sheetNames: { data: string; impact: string; rollup: string };
}

/** One sheet of the result, as the workbook writer takes it. */
export type ImpactSheet = FormulaSheet;

/** The three sheets and what is missing. */
export interface ImpactWorkbook {
  sheets: [ImpactSheet, ImpactSheet, ImpactSheet];
  /** Missing and unreadable values and missing damages, each with the cell's address. */
  problems: ImpactProblem[];
  assetCount: number;
  valueSource: string;
  /** The values' currency, as named in the headers. */
  currency: string;
  /**
   * The per-asset sheet's row at a 1-based sheet row for the asset whose portfolio_index is
   * `portfolioIndex`: that index (the key the row looks its asset up by), the formulas that read
   * the asset's data row wherever it is, and the `data row` that finds it (a refresh by key
   * appends rows for new assets with it, and writes a kept row's index anew when it changed).
   */
  impactRowAt(sheetRow: number, portfolioIndex: CellValue): CellValue[];
  /** The roll-up's rows over a per-asset sheet of `assetRows` rows (its ranges end there). */
  rollupRowsFor(assetRows: number): CellValue[][];
}

interface AssetRow {
  index: number;
  entityId: string;
  name: string;
  label: string;
  value: number | "";
  valueAddress?: string;
  /** The value's text when it is not an amount (listed, never guessed). */
  unreadable?: string;
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

/** The default value label: the first of VALUE_LABELS the assets carry. */
export function defaultValueLabel(items: readonly ExtendedSummaryItem[]): string | undefined {
  return VALUE_LABELS.find((key) => items.some((item) => item.labels && key in item.labels));
}

/** A data column of the extended summary's metrics. */
interface MetricColumn {
  scenario: string;
  period: string;
  hazard: string;
  family: "structural_damage" | "business_interruption";
  bound: (typeof BOUNDS)[number];
  /** The metric's name in the extended summary's analytics (`structural_damage_2050_p90`). */
  metric: string;
}

/** A total of the roll-up: a money column of the per-asset sheet and what it is. */
interface Measure {
  column: number;
  measure: string;
  hazard: string;
  scenario: string;
  period: string;
  bound: string;
}

/** Builds the three sheets, or throws {@link ImpactInputError} naming what is wrong. */
export function buildFinancialImpact(request: ImpactRequest): ImpactWorkbook {
  const { common, scenarios, valueSource, currency } = impactColumns(request);
  const data = buildDataSheet(common, scenarios, valueSource);
  const impact = buildImpactSheet(common);
  const rollup = buildRollupSheet(common, impact.measures);
  return {
    sheets: [data.sheet, impact.sheet, rollup.sheet],
    problems: data.problems,
    assetCount: common.assets.length,
    valueSource,
    currency,
    impactRowAt: impact.impactRowAt,
    rollupRowsFor: rollup.rollupRowsFor,
  };
}

/**
 * The per-asset and roll-up sheets' row builders alone, as {@link buildFinancialImpact} gives them,
 * for the sheets that follow a refreshed data sheet: the data sheet's rows, most of the cost, are
 * not built again (a refresh built them once already).
 */
export function buildImpactFollowers(request: ImpactRequest): Pick<ImpactWorkbook, "impactRowAt" | "rollupRowsFor"> {
  const { common } = impactColumns(request);
  const impact = buildImpactSheet(common);
  const rollup = buildRollupSheet(common, impact.measures);
  return { impactRowAt: impact.impactRowAt, rollupRowsFor: rollup.rollupRowsFor };
}

/** What every sheet of a request is built from: its assets with their values, scenarios and columns. */
function impactColumns(request: ImpactRequest): {
  common: ImpactColumns;
  scenarios: string[];
  valueSource: string;
  currency: string;
} {
  const scenarios = [...request.itemsByScenario.keys()];
  const first = request.itemsByScenario.get(scenarios[0] ?? "") ?? [];
  if (scenarios.length === 0 || first.length === 0)
    throw new ImpactInputError(message("impact.error.noSummary", { portfolio: request.portfolio }));
  const { assets, valueSource, currency } = readAssets(request, first);
  const allHazards = request.hazard === ALL_DAMAGE_HAZARDS;
  const hazards = allHazards ? [...STRUCTURAL_DAMAGE_HAZARDS] : [request.hazard];
  const money = (name: string) => `${name} (${currency})`;
  const common: ImpactColumns = {
    request,
    assets,
    allHazards,
    labelHeader: request.rollupLabel ? `label:${request.rollupLabel}` : "label",
    valueHeader: money("value"),
    money,
    metricColumns: metricColumnsOf(scenarios, hazards),
  };
  return { common, scenarios, valueSource, currency };
}

/** What the three sheets' builders share: the request, its assets and the data sheet's metric columns. */
interface ImpactColumns {
  request: ImpactRequest;
  assets: AssetRow[];
  /** The request sums the hazards with structural damage. */
  allHazards: boolean;
  /** The roll-up label's header, and the value's (with its currency). */
  labelHeader: string;
  valueHeader: string;
  /** A money header: the name with the currency. */
  money: (name: string) => string;
  metricColumns: MetricColumn[];
}

/** The data sheet's column of the asset's value; its metrics follow the first five columns. */
const VALUE_COL = 4;
const FIRST_METRIC = 5;
const MONEY_FORMAT = "#,##0";

/** A table name's part made of a name: letters, digits and underscores. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * The assets (by portfolio_index) with their value, read from the label or the picked column, the
 * value's source and its currency. Throws {@link ImpactInputError} when an entity_id names two
 * assets or there is no value to read, {@link CurrencyNeededError} when the currency is needed.
 */
function readAssets(
  request: ImpactRequest,
  first: readonly ExtendedSummaryItem[],
): { assets: AssetRow[]; valueSource: string; currency: string } {
  // Assets from the first scenario's items (every scenario covers the same assets).
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  for (const item of first) {
    const id = text(item.entity_id);
    if (id === "") continue;
    const before = seen.get(id);
    if (before !== undefined) duplicates.push(`"${id}" (index ${before} and ${item.portfolio_index})`);
    else seen.set(id, item.portfolio_index);
  }
  if (duplicates.length > 0) {
    throw new ImpactInputError(
      message("impact.error.duplicates", {
        count: duplicates.length,
        portfolio: request.portfolio,
        duplicates: `${duplicates.slice(0, 5).join(", ")}${duplicates.length > 5 ? ", …" : ""}`,
      }),
    );
  }

  const valueLabel =
    request.value?.kind === "label" ? request.value.key : request.value ? undefined : defaultValueLabel(first);
  if (!request.value && !valueLabel) {
    throw new ImpactInputError(message("impact.error.noValueColumn", { portfolio: request.portfolio }));
  }
  const valueSource = request.value?.kind === "column" ? request.value.name : `label:${valueLabel}`;
  if (valueLabel && !first.some((item) => item.labels && valueLabel in item.labels)) {
    throw new ImpactInputError(
      message("impact.error.noValueLabel", { portfolio: request.portfolio, label: valueLabel }),
    );
  }
  const currency = valueCurrency(valueLabel, valueSource, request.currency);

  const sorted = [...first].sort((a, b) => a.portfolio_index - b.portfolio_index);
  const assets: AssetRow[] = sorted.map((item) => {
    let raw: unknown;
    let valueAddress: string | undefined;
    if (request.value?.kind === "column") {
      const cell = request.value.byIndex.get(item.portfolio_index);
      raw = cell?.value;
      valueAddress = cell?.address;
    } else {
      raw = item.labels?.[valueLabel!];
    }
    const reading = readMoney(raw as CellValue | undefined);
    const label = request.rollupLabel ? text(item.labels?.[request.rollupLabel]) : "";
    return {
      index: item.portfolio_index,
      entityId: text(item.entity_id),
      name: text(item.entity_name),
      label: label || "(none)",
      value: reading.kind === "number" ? reading.value : "",
      valueAddress,
      unreadable: reading.kind === "text" ? reading.text : undefined,
    };
  });
  return { assets, valueSource, currency };
}

/** The data sheet's metric columns: per scenario × period × hazard, damage ×3 bounds and interruption ×3. */
function metricColumnsOf(scenarios: readonly string[], hazards: readonly string[]): MetricColumn[] {
  const metricColumns: MetricColumn[] = [];
  for (const scenario of scenarios)
    for (const period of IMPACT_PERIODS)
      for (const hazard of hazards)
        for (const family of ["structural_damage", "business_interruption"] as const)
          for (const bound of BOUNDS)
            metricColumns.push({
              scenario,
              period,
              hazard,
              family,
              bound,
              metric: `${family}_${period}${bound.suffix}`,
            });
  return metricColumns;
}

/** The part of a header naming the hazard, when the request sums several. */
function hazardPart(common: ImpactColumns, hazard: string): string {
  return common.allHazards ? `${hazard}_` : "";
}

/**
 * "Impact data": asset columns, value, then the metrics as the extended summary gives them, with
 * each missing or unreadable value and missing damage as a problem at its cell.
 */
function buildDataSheet(
  common: ImpactColumns,
  scenarios: readonly string[],
  valueSource: string,
): { sheet: ImpactSheet; problems: ImpactProblem[] } {
  const { request, assets, metricColumns } = common;
  const dataName = request.sheetNames.data;
  // Each scenario's analytics by portfolio_index, in the order of `scenarios`.
  const scenarioMaps = scenarios.map(
    (scenario) =>
      new Map(
        (request.itemsByScenario.get(scenario) ?? []).map((item) => [
          item.portfolio_index,
          item.scenario_analytics?.[scenario],
        ]),
      ),
  );
  // Each asset's metrics are found once per scenario and hazard, not once per cell (5,000 × 216
  // cells in a three-scenario sheet): each metric column knows its group's place, and a cell is one
  // lookup in its group's metrics. Found per cell, the two lookups were about 0.2 s of the add-in's
  // thread at each weekly refresh (a CPU profile of Refresh pasted sheets).
  const groupScenario: number[] = [];
  const groupHazard: string[] = [];
  const groupOf = metricColumns.map((column) => {
    const scenario = scenarios.indexOf(column.scenario);
    const at = groupScenario.findIndex((s, g) => s === scenario && groupHazard[g] === column.hazard);
    if (at >= 0) return at;
    groupHazard.push(column.hazard);
    return groupScenario.push(scenario) - 1;
  });
  const analytics = new Array<Record<string, unknown> | undefined>(scenarios.length);
  const metricOf = metricColumns.map((column) => column.metric);
  const groupMetrics = new Array<Record<string, unknown> | undefined>(groupScenario.length);
  const problems: ImpactProblem[] = [];
  const problem = (row: number, col: number, message: Message) => {
    const cell = cellA1(row, col);
    problems.push({ row: row + 1, column: columnLetters(col), address: qualify(dataName, cell), cell, message });
  };
  const dataHeader = [
    "portfolio_index",
    "entity_id",
    "entity_name",
    common.labelHeader,
    common.valueHeader,
    ...metricColumns.map(
      (c) => `${c.scenario}_${hazardPart(common, c.hazard)}${c.family}_${c.period}${c.bound.suffix}`,
    ),
  ];
  const dataRows: CellValue[][] = assets.map((asset, r) => {
    const who = asset.entityId || `index ${asset.index}`;
    if (asset.unreadable !== undefined) {
      const notAmount = message("impact.problem.notAmount", {
        where: asset.valueAddress ? "cell" : "label",
        at: asset.valueAddress ?? valueSource,
        asset: who,
        text: asset.unreadable.slice(0, 40),
      });
      if (asset.valueAddress) {
        const at = asset.valueAddress.replace(/^.*!/, "");
        problems.push({ ...problemAt(asset.valueAddress, at), message: notAmount });
      } else problem(r + 1, VALUE_COL, notAmount);
    } else if (asset.value === "") {
      problem(
        r + 1,
        VALUE_COL,
        message("impact.problem.noValue", { asset: who, empty: asset.valueAddress ?? valueSource }),
      );
    }
    // Sized once (five asset cells, then the metrics): pushed, a row's store grew and was copied.
    const row = new Array<CellValue>(FIRST_METRIC + metricColumns.length);
    row[0] = asset.index;
    row[1] = asset.entityId;
    row[2] = asset.name;
    row[3] = asset.label;
    row[4] = asset.value;
    for (let s = 0; s < scenarioMaps.length; s++) {
      analytics[s] = scenarioMaps[s]!.get(asset.index) as Record<string, unknown> | undefined;
    }
    for (let g = 0; g < groupMetrics.length; g++) {
      groupMetrics[g] = analytics[groupScenario[g]!]?.[groupHazard[g]!] as Record<string, unknown> | undefined;
    }
    for (let k = 0; k < metricOf.length; k++) {
      const value = groupMetrics[groupOf[k]!]?.[metricOf[k]!];
      const ok = typeof value === "number" && Number.isFinite(value);
      if (ok) {
        row[FIRST_METRIC + k] = value;
        continue;
      }
      row[FIRST_METRIC + k] = "";
      const column = metricColumns[k]!;
      if (column.family === "structural_damage") {
        problem(
          r + 1,
          FIRST_METRIC + k,
          message("impact.problem.noDamage", {
            hazard: column.hazard,
            metric: `${column.family}_${column.period}${column.bound.suffix}`,
            scenario: column.scenario,
            asset: who,
          }),
        );
      }
    }
    return row;
  });
  return {
    sheet: {
      sheetName: dataName,
      tableName: `Impact_data_${safeName(request.portfolio)}`,
      header: dataHeader,
      rows: dataRows,
      formulaColumns: [],
      numberFormats: { [VALUE_COL]: MONEY_FORMAT },
    },
    problems,
  };
}

/**
 * "Financial impact": per asset, its portfolio_index (a value: the key), lookups and loss formulas
 * over its data row, found once per row by MATCH in the last column (one MATCH per cell would
 * cost a search of the data sheet per cell: 5,000 assets × 100 columns). Excel's sort moves
 * values, not references ("references from elsewhere into the sorted range are not changed"), so
 * the row is found by its asset's index, never by place: a sort of the data sheet changes nothing
 * here. The data table sits at A1 (the followers' refresh checks it): MATCH over the whole column
 * answers the sheet row, and the header never matches a number. Returns the sheet, the roll-up's
 * measures (its money columns) and the row builder a refresh by key uses.
 */
function buildImpactSheet(common: ImpactColumns): {
  sheet: ImpactSheet;
  measures: Measure[];
  impactRowAt: ImpactWorkbook["impactRowAt"];
} {
  const { request, metricColumns, money } = common;
  // Written for every cell of the per-asset sheet: the quoted sheet name and the columns' letters once.
  const dataPrefix = qualify(request.sheetNames.data, "");
  const columns: string[] = [];
  const dataColumn = (col: number) => {
    const letter = columnLetters(col);
    return (columns[col] ??= `${dataPrefix}$${letter}:$${letter}`);
  };
  let dataRowLetter = "";
  const ref = (col: number, sheetRow: number) => `INDEX(${dataColumn(col)},$${dataRowLetter}${sheetRow})`;
  const impactHeader = ["portfolio_index", "entity_id", "entity_name", common.labelHeader, common.valueHeader];
  const impactFormulas: Array<(sheetRow: number) => string> = [
    (n) => `=${ref(1, n)}&""`,
    (n) => `=${ref(2, n)}&""`,
    (n) => `=${ref(3, n)}&""`,
    (n) => `=IF(COUNT(${ref(VALUE_COL, n)})=1,${ref(VALUE_COL, n)},NA())`,
  ];
  const measures: Measure[] = [
    { column: VALUE_COL, measure: common.valueHeader, hazard: "", scenario: "", period: "", bound: "" },
  ];
  const lossColumns: number[] = [];
  metricColumns.forEach((column, k) => {
    const dataCol = FIRST_METRIC + k;
    if (column.family === "structural_damage") {
      const header = money(
        `loss_${hazardPart(common, column.hazard)}${column.scenario}_${column.period}${column.bound.name}`,
      );
      measures.push({
        column: impactHeader.length,
        measure: header,
        hazard: column.hazard,
        scenario: column.scenario,
        period: column.period,
        bound: column.bound.label,
      });
      lossColumns.push(impactHeader.length);
      impactHeader.push(header);
      impactFormulas.push(
        (n) => `=IF(COUNT(${ref(VALUE_COL, n)},${ref(dataCol, n)})=2,${ref(VALUE_COL, n)}*${ref(dataCol, n)},NA())`,
      );
    } else {
      impactHeader.push(
        `${column.scenario}_${hazardPart(common, column.hazard)}business_interruption_${column.period}${column.bound.suffix} (days)`,
      );
      impactFormulas.push((n) => `=IF(COUNT(${ref(dataCol, n)})=1,${ref(dataCol, n)},NA())`);
    }
    // After the last hazard of a scenario and period: the sum of the hazards' central losses.
    const lastOfPeriod = k === metricColumns.length - 1 || metricColumns[k + 1]!.period !== column.period;
    if (common.allHazards && lastOfPeriod) {
      const centrals = measures.filter(
        (m) => m.scenario === column.scenario && m.period === column.period && m.bound === "central" && m.hazard !== "",
      );
      const cells = (n: number) => centrals.map((m) => `$${columnLetters(m.column)}${n}`);
      const header = money(`loss_all_hazards_${column.scenario}_${column.period}`);
      measures.push({
        column: impactHeader.length,
        measure: header,
        hazard: ALL_DAMAGE_HAZARDS_TITLE,
        scenario: column.scenario,
        period: column.period,
        bound: "central (the sum of the hazards' central losses; percentile bounds do not add)",
      });
      lossColumns.push(impactHeader.length);
      impactHeader.push(header);
      impactFormulas.push((n) => `=IF(COUNT(${cells(n).join(",")})=${centrals.length},${cells(n).join("+")},NA())`);
    }
  });
  const dataRowColumn = impactHeader.length;
  impactHeader.push(DATA_ROW_HEADER);
  dataRowLetter = columnLetters(dataRowColumn);
  const impactRowAt = (sheetRow: number, portfolioIndex: CellValue): CellValue[] => [
    portfolioIndex,
    ...impactFormulas.map((formula) => formula(sheetRow)),
    `=MATCH($A${sheetRow},${dataColumn(0)},0)`,
  ];
  let impactRows: CellValue[][] | undefined;
  const formats = (cols: number[], format: string) => Object.fromEntries(cols.map((c) => [c, format]));
  return {
    sheet: {
      sheetName: request.sheetNames.impact,
      tableName: `Financial_impact_${safeName(request.portfolio)}`,
      header: impactHeader,
      // Built when read: a refresh by key asks only for the rows it adds (impactRowAt).
      get rows(): CellValue[][] {
        return (impactRows ??= common.assets.map((asset, r) => impactRowAt(r + 2, asset.index)));
      },
      formulaColumns: impactHeader.map((_, c) => c).slice(1),
      numberFormats: formats([VALUE_COL, ...lossColumns], MONEY_FORMAT),
    },
    measures,
    impactRowAt,
  };
}

/**
 * "Impact by <label>": one row per group (all assets, then each label value) × measure, each total
 * beside what it covers. A loss total sums the assets whose loss is a number (value and damage
 * known). Its ranges run over the per-asset sheet's `assetRows` rows (the assets, or after a
 * refresh by key the rows the sheets hold then).
 */
function buildRollupSheet(
  common: ImpactColumns,
  measures: readonly Measure[],
): { sheet: ImpactSheet; rollupRowsFor: ImpactWorkbook["rollupRowsFor"] } {
  const { request, assets, money } = common;
  const impactName = request.sheetNames.impact;
  const known = `"<>#N/A"`;
  const rollupHeader = [
    common.labelHeader,
    "measure",
    "hazard",
    "scenario",
    "period",
    "bound",
    money("total"),
    "assets in the total",
    "left out: no value",
    "left out: no damage",
    "share of assets",
    "share of value",
  ];
  const groups = request.rollupLabel ? [...new Set(assets.map((a) => a.label))].sort((a, b) => a.localeCompare(b)) : [];
  const rollupRowsFor = (assetRows: number): CellValue[][] => {
    const lastRow = assetRows + 1;
    const range = (col: number) => qualify(impactName, `$${columnLetters(col)}$2:$${columnLetters(col)}$${lastRow}`);
    const labels = range(3);
    const values = range(VALUE_COL);
    const rollupRows: CellValue[][] = [];
    for (const group of [undefined, ...groups]) {
      for (const measure of measures) {
        const n = rollupRows.length + 2;
        const total = range(measure.column);
        // Criteria on the group's label (none for all assets), then those given.
        const criteria = (pairs: string[]) =>
          [...(group === undefined ? [] : [`${labels},$A${n}`]), ...pairs].join(",");
        const count = (...pairs: string[]) =>
          group === undefined && pairs.length === 0 ? `ROWS(${labels})` : `COUNTIFS(${criteria(pairs)})`;
        const sum = (sumRange: string, ...pairs: string[]) => `SUMIFS(${sumRange},${criteria(pairs)})`;
        const isValue = measure.column === VALUE_COL;
        const withTotal = `${total},${known}`;
        const withValue = `${values},${known}`;
        rollupRows.push([
          group ?? "All assets",
          measure.measure,
          measure.hazard,
          measure.scenario,
          measure.period,
          rollupBound(measure.bound),
          `=${sum(total, withTotal)}`,
          `=${count(withTotal)}`,
          `=${count()}-${count(withValue)}`,
          isValue ? 0 : `=${count(withValue)}-${count(withTotal)}`,
          `=IF(${count()}=0,NA(),$H${n}/${count()})`,
          `=IF(${sum(values, withValue)}=0,NA(),${sum(values, withTotal)}/${sum(values, withValue)})`,
        ]);
      }
    }
    return rollupRows;
  };
  return {
    sheet: {
      sheetName: request.sheetNames.rollup,
      tableName: `Impact_by_${safeName(request.rollupLabel ?? "total")}_${safeName(request.portfolio)}`,
      header: rollupHeader,
      rows: rollupRowsFor(assets.length),
      formulaColumns: [6, 7, 8, 9, 10, 11],
      numberFormats: { 6: MONEY_FORMAT, 7: "0", 8: "0", 9: "0", 10: "0.0%", 11: "0.0%" },
    },
    rollupRowsFor,
  };
}

/** USD for label:price (the service's definition), else the currency given, else {@link CurrencyNeededError}. */
function valueCurrency(valueLabel: string | undefined, valueSource: string, given: string | undefined): string {
  if (valueLabel === PRICE_LABEL) {
    if (given !== undefined && normalizeCurrency(given) !== PRICE_CURRENCY) {
      throw new ImpactInputError(message("impact.error.priceIsUsd", { currency: given }));
    }
    return PRICE_CURRENCY;
  }
  if (given === undefined || given.trim() === "") throw new CurrencyNeededError(valueSource);
  const code = normalizeCurrency(given);
  if (!code) throw new ImpactInputError(message("impact.error.notCurrency", { text: given }));
  return code;
}

/** A problem at a sheet-qualified cell of the analyst's range. */
function problemAt(address: string, cell: string): Omit<RangeProblem, "message"> {
  const match = /^([A-Z]+)(\d+)$/.exec(cell.replace(/\$/g, ""));
  return { row: match ? Number(match[2]) : 0, column: match ? match[1]! : "", address, cell };
}
