/**
 * Money at risk: value × structural damage per asset, per scenario, period and
 * bound, laid out as three sheets whose numbers are Excel formulas over the data they came from,
 * so an analyst can audit every cell and change a value to see the loss move:
 *
 * - "Impact data": the numbers as the extended summary gives them (structural damage and business
 *   interruption per scenario and period, with `_lbd`/`_ubd`), one row per asset, and its value;
 * - "Financial impact": per asset, `=IF(COUNT(value, damage)=2, value*damage, NA())` for each
 *   scenario, period and bound, and business interruption as given (a reference);
 * - "Impact by <label>": all assets and each value of a label the user picks, summed with SUM /
 *   SUMIFS over the per-asset sheet.
 *
 * A missing value or damage is an empty data cell and `#N/A` in the loss, never 0 (a total over
 * it is #N/A too, so no total quietly leaves an asset out); each is listed as a problem with its
 * cell address. Text in a value, no value at all, or an entity_id on two assets is an
 * {@link ImpactInputError}: nothing is written.
 */
import { cellA1, columnLetters, qualify } from "../../../../shaping/a1";
import type { RangeProblem } from "../../../../shaping/problems";
import type { CellValue, ExtendedSummaryItem } from "../../../../shaping/types";

/** The periods of the extended summary's metrics, in time order. */
export const IMPACT_PERIODS = ["baseline", "2030", "2050", "2080"] as const;
/** Metric suffixes: central value, 16th percentile, 84th percentile (docs/service.md#what-the-numbers-mean). */
const BOUNDS = [
  { suffix: "", name: "" },
  { suffix: "_lbd", name: "_lower" },
  { suffix: "_ubd", name: "_upper" },
] as const;

/** Label keys read as an asset's value when the user picks none, in this order. */
export const VALUE_LABELS = ["price", "value"] as const;

/** Input the impact sheets cannot be built from; the message says what and where. */
export class ImpactInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImpactInputError";
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
  /** Extended-summary hazard key, e.g. `flood`. */
  hazard: string;
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
export interface ImpactSheet {
  sheetName: string;
  tableName: string;
  header: string[];
  rows: CellValue[][];
  /** 0-based columns holding formulas. */
  formulaColumns: number[];
  numberFormats: Record<number, string>;
}

/** The three sheets and what is missing. */
export interface ImpactWorkbook {
  sheets: [ImpactSheet, ImpactSheet, ImpactSheet];
  /** Missing values and damages, each with the data cell's address. */
  problems: RangeProblem[];
  assetCount: number;
  valueSource: string;
}

interface AssetRow {
  index: number;
  entityId: string;
  name: string;
  label: string;
  value: number | "";
  valueAddress?: string;
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

/** A value cell: a number (also from text that reads as one, as labels are text), blank, or text (refused). */
function readValue(raw: unknown): number | "" | { text: string } {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : "";
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return "";
  const number = Number(String(raw).trim());
  return Number.isFinite(number) ? number : { text: String(raw) };
}

/** The default value label: the first of VALUE_LABELS the assets carry. */
export function defaultValueLabel(items: readonly ExtendedSummaryItem[]): string | undefined {
  return VALUE_LABELS.find((key) => items.some((item) => item.labels && key in item.labels));
}

/** Builds the three sheets, or throws {@link ImpactInputError} naming what is wrong. */
export function buildFinancialImpact(request: ImpactRequest): ImpactWorkbook {
  const scenarios = [...request.itemsByScenario.keys()];
  const first = request.itemsByScenario.get(scenarios[0] ?? "") ?? [];
  if (scenarios.length === 0 || first.length === 0)
    throw new ImpactInputError(`${request.portfolio} has no extended summary to compute an impact from.`);

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
      `entity_id must name one asset each: ${duplicates.length} appear${duplicates.length === 1 ? "s" : ""} twice in ${request.portfolio}: ${duplicates.slice(0, 5).join(", ")}${duplicates.length > 5 ? ", …" : ""}. Make them unique and sync again.`,
    );
  }

  const valueLabel =
    request.value?.kind === "label" ? request.value.key : request.value ? undefined : defaultValueLabel(first);
  if (!request.value && !valueLabel) {
    throw new ImpactInputError(
      `No asset value: ${request.portfolio} has no label:price or label:value column. Add one and sync, or pick a value column.`,
    );
  }
  const valueSource = request.value?.kind === "column" ? request.value.name : `label:${valueLabel}`;
  if (valueLabel && !first.some((item) => item.labels && valueLabel in item.labels)) {
    throw new ImpactInputError(`No asset of ${request.portfolio} has a label:${valueLabel}.`);
  }

  const sorted = [...first].sort((a, b) => a.portfolio_index - b.portfolio_index);
  const textValues: string[] = [];
  const assets: AssetRow[] = sorted.map((item) => {
    let raw: unknown;
    let where: string;
    let valueAddress: string | undefined;
    if (request.value?.kind === "column") {
      const cell = request.value.byIndex.get(item.portfolio_index);
      raw = cell?.value;
      valueAddress = cell?.address;
      where = cell?.address ?? `index ${item.portfolio_index}`;
    } else {
      raw = item.labels?.[valueLabel!];
      where = `label:${valueLabel} of ${text(item.entity_id) || `index ${item.portfolio_index}`}`;
    }
    const value = readValue(raw);
    if (typeof value === "object") {
      textValues.push(`${where} holds "${value.text.slice(0, 20)}"`);
      return { index: item.portfolio_index, entityId: "", name: "", label: "", value: "" };
    }
    const label = request.rollupLabel ? text(item.labels?.[request.rollupLabel]) : "";
    return {
      index: item.portfolio_index,
      entityId: text(item.entity_id),
      name: text(item.entity_name),
      label: label || "(none)",
      value,
      valueAddress,
    };
  });
  if (textValues.length > 0) {
    throw new ImpactInputError(
      `Asset values must be numbers: ${textValues.length} ${textValues.length === 1 ? "is" : "are"} text: ${textValues.slice(0, 5).join("; ")}${textValues.length > 5 ? "; …" : ""}.`,
    );
  }

  const byScenario = new Map(
    scenarios.map((scenario) => [
      scenario,
      new Map(
        (request.itemsByScenario.get(scenario) ?? []).map((item) => [
          item.portfolio_index,
          item.scenario_analytics?.[scenario]?.[request.hazard],
        ]),
      ),
    ]),
  );
  const { data: dataName, impact: impactName, rollup: rollupName } = request.sheetNames;
  const labelHeader = request.rollupLabel ? `label:${request.rollupLabel}` : "label";
  const problems: RangeProblem[] = [];
  const problem = (sheet: string, row: number, col: number, message: string) => {
    const cell = cellA1(row, col);
    problems.push({ row: row + 1, column: columnLetters(col), address: qualify(sheet, cell), cell, message });
  };

  // Impact data: asset columns, value, then per scenario × period: damage ×3 and interruption ×3.
  const dataHeader = ["portfolio_index", "entity_id", "entity_name", labelHeader, "value"];
  const VALUE_COL = 4;
  const metricColumns: Array<{
    scenario: string;
    period: string;
    family: "structural_damage" | "business_interruption";
    bound: (typeof BOUNDS)[number];
  }> = [];
  for (const scenario of scenarios) {
    for (const period of IMPACT_PERIODS) {
      for (const family of ["structural_damage", "business_interruption"] as const) {
        for (const bound of BOUNDS) {
          metricColumns.push({ scenario, period, family, bound });
          dataHeader.push(`${scenario}_${family}_${period}${bound.suffix}`);
        }
      }
    }
  }
  const dataRows: CellValue[][] = assets.map((asset, r) => {
    if (asset.value === "") {
      problem(
        dataName,
        r + 1,
        VALUE_COL,
        `No value for ${asset.entityId || `index ${asset.index}`}${asset.valueAddress ? ` (${asset.valueAddress} is empty)` : ` (${valueSource} is empty)`}: its losses are #N/A.`,
      );
    }
    const row: CellValue[] = [asset.index, asset.entityId, asset.name, asset.label, asset.value];
    metricColumns.forEach((column, k) => {
      const metrics = byScenario.get(column.scenario)?.get(asset.index);
      const value = metrics?.[`${column.family}_${column.period}${column.bound.suffix}`];
      const ok = typeof value === "number" && Number.isFinite(value);
      if (!ok && column.family === "structural_damage") {
        problem(
          dataName,
          r + 1,
          dataHeader.length - metricColumns.length + k,
          `No ${request.hazard} ${column.family}_${column.period}${column.bound.suffix} in ${column.scenario} for ${asset.entityId || `index ${asset.index}`}: that loss is #N/A.`,
        );
      }
      row.push(ok ? (value as number) : "");
    });
    return row;
  });
  const firstMetric = dataHeader.length - metricColumns.length;

  // Financial impact: references and loss formulas, row r of data ↔ row r here.
  const ref = (col: number, sheetRow: number) => `${qualify(dataName, `$${columnLetters(col)}${sheetRow}`)}`;
  const impactHeader = ["portfolio_index", "entity_id", "entity_name", labelHeader, "value"];
  const impactFormulas: Array<(sheetRow: number) => string> = [
    (n) => `=${ref(0, n)}`,
    (n) => `=${ref(1, n)}&""`,
    (n) => `=${ref(2, n)}&""`,
    (n) => `=${ref(3, n)}&""`,
    (n) => `=IF(COUNT(${ref(VALUE_COL, n)})=1,${ref(VALUE_COL, n)},NA())`,
  ];
  const lossColumns: number[] = [];
  metricColumns.forEach((column, k) => {
    const dataCol = firstMetric + k;
    if (column.family === "structural_damage") {
      lossColumns.push(impactHeader.length);
      impactHeader.push(`loss_${column.scenario}_${column.period}${column.bound.name}`);
      impactFormulas.push(
        (n) => `=IF(COUNT(${ref(VALUE_COL, n)},${ref(dataCol, n)})=2,${ref(VALUE_COL, n)}*${ref(dataCol, n)},NA())`,
      );
    } else {
      impactHeader.push(`${column.scenario}_business_interruption_${column.period}${column.bound.suffix}`);
      impactFormulas.push((n) => `=IF(COUNT(${ref(dataCol, n)})=1,${ref(dataCol, n)},NA())`);
    }
  });
  const impactRows: CellValue[][] = assets.map((_, r) => impactFormulas.map((formula) => formula(r + 2)));

  // Roll-up: all assets, then each label value; money columns only (value and losses).
  const lastRow = assets.length + 1;
  const impactRange = (col: number) =>
    qualify(impactName, `$${columnLetters(col)}$2:$${columnLetters(col)}$${lastRow}`);
  const moneyColumns = [VALUE_COL, ...lossColumns];
  const rollupHeader = [labelHeader, "assets", ...moneyColumns.map((c) => impactHeader[c]!)];
  const groups = request.rollupLabel ? [...new Set(assets.map((a) => a.label))].sort((a, b) => a.localeCompare(b)) : [];
  const rollupRows: CellValue[][] = [
    ["All assets", `=ROWS(${impactRange(0)})`, ...moneyColumns.map((c) => `=SUM(${impactRange(c)})`)],
    ...groups.map((group, g) => {
      const labelCell = `$A${g + 3}`;
      return [
        group,
        `=COUNTIFS(${impactRange(3)},${labelCell})`,
        ...moneyColumns.map((c) => `=SUMIFS(${impactRange(c)},${impactRange(3)},${labelCell})`),
      ];
    }),
  ];

  const money = "#,##0";
  const formats = (cols: number[], format: string) => Object.fromEntries(cols.map((c) => [c, format]));
  const safe = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_");
  return {
    sheets: [
      {
        sheetName: dataName,
        tableName: `Impact_data_${safe(request.portfolio)}`,
        header: dataHeader,
        rows: dataRows,
        formulaColumns: [],
        numberFormats: { [VALUE_COL]: money },
      },
      {
        sheetName: impactName,
        tableName: `Financial_impact_${safe(request.portfolio)}`,
        header: impactHeader,
        rows: impactRows,
        formulaColumns: impactHeader.map((_, c) => c),
        numberFormats: formats([VALUE_COL, ...lossColumns], money),
      },
      {
        sheetName: rollupName,
        tableName: `Impact_by_${safe(request.rollupLabel ?? "total")}_${safe(request.portfolio)}`,
        header: rollupHeader,
        rows: rollupRows,
        formulaColumns: rollupHeader.map((_, c) => c).slice(1),
        numberFormats: formats(
          moneyColumns.map((_, i) => i + 2),
          money,
        ),
      },
    ],
    problems,
    assetCount: assets.length,
    valueSource,
  };
}
