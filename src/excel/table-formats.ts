/**
 * What a written table gets beside its cells, the same for whole writes (write-sheets.ts) and
 * streamed ones (stream-sheets.ts): LOW / MEDIUM / HIGH colours, a score colour scale and a native
 * chart of some of its rows. All are conditional formats or chart series over the table's ranges,
 * so Excel recolours an edited cell itself and a refresh in place (table-followers.ts) moves them.
 */
import { columnLetters } from "../shaping/a1";
import { TableShapeError } from "./write-errors";
import { message } from "../i18n/messages";

/** Excel's Good / Neutral / Bad cell styles, for LOW / MEDIUM / HIGH. */
export const LABEL_COLOURS: Record<"LOW" | "MEDIUM" | "HIGH", { fill: string; font: string }> = {
  LOW: { fill: "#C6EFCE", font: "#006100" },
  MEDIUM: { fill: "#FFEB9C", font: "#9C5700" },
  HIGH: { fill: "#FFC7CE", font: "#9C0006" },
};

const MAX_CHART_SERIES = 20;

/** A native chart of table rows over the header's categories (e.g. years, or hazards). */
export interface ChartSpec {
  /** Excel chart type, e.g. "Line" or "ColumnStacked" (Excel.ChartType). */
  type: string;
  /** 0-based data rows (header excluded), one series each; at most 20 are drawn. */
  dataRows: number[];
  /** 0-based first value column, to the last column; the header cells above the values are the x axis. */
  firstValueColumn: number;
  /** Name of each series, in dataRows order (default "Row n", its row on the sheet). */
  seriesNames: string[];
  title?: string;
}

/**
 * LOW / MEDIUM / HIGH fills as three "text contains" conditional formats, so a label typed over
 * later is recoloured by Excel itself (Excel.ConditionalFormatType.containsText; rule operator
 * "Contains", learn.microsoft.com/javascript/api/excel/excel.conditionaltextcomparisonrule).
 */
export function addLabelColours(range: Excel.Range): void {
  for (const [text, colour] of Object.entries(LABEL_COLOURS)) {
    const cf = range.conditionalFormats.add("ContainsText");
    cf.textComparison.format.fill.color = colour.fill;
    cf.textComparison.format.font.color = colour.font;
    cf.textComparison.rule = { operator: "Contains", text };
  }
}

/**
 * A three-colour scale over scores: lowest green, middle yellow, highest red, so a score edited
 * later is recoloured (Excel.ConditionalFormatType.colorScale with a ConditionalColorScaleCriteria
 * of minimum / midpoint / maximum, learn.microsoft.com/javascript/api/excel/excel.colorscaleconditionalformat).
 */
export function addScoreScale(range: Excel.Range): void {
  const cf = range.conditionalFormats.add("ColorScale");
  cf.colorScale.criteria = {
    minimum: { type: "LowestValue", color: LABEL_COLOURS.LOW.fill },
    midpoint: { formula: "50", type: "Percentile", color: LABEL_COLOURS.MEDIUM.fill },
    maximum: { type: "HighestValue", color: LABEL_COLOURS.HIGH.fill },
  };
}

/**
 * Draws `chart` from a table whose header is on 0-based row `top` of `sheet`, `width` columns
 * wide with `rowCount` data rows, and places it two columns right of the table.
 */
export function addTableChart(
  sheet: Excel.Worksheet,
  chart: ChartSpec,
  top: number,
  width: number,
  rowCount: number,
): void {
  const first = chart.firstValueColumn;
  const count = width - first;
  if (first < 0 || count < 1)
    throw new TableShapeError(message("excel.shape.chartOutside", { first, last: width - 1 }));
  const picked = chart.dataRows
    .map((r, i) => ({ r, name: chart.seriesNames[i] ?? `Row ${r + top + 2}` }))
    .filter((x) => x.r >= 0 && x.r < rowCount)
    .slice(0, MAX_CHART_SERIES);
  if (picked.length === 0) return;
  const categories = sheet.getRangeByIndexes(top, first, 1, count);
  const seriesRange = (r: number) => sheet.getRangeByIndexes(top + 1 + r, first, 1, count);
  const made = sheet.charts.add(chart.type as Excel.ChartType, seriesRange(picked[0].r), "Rows");
  if (chart.title) made.title.text = chart.title;
  const s0 = made.series.getItemAt(0);
  s0.name = picked[0].name;
  s0.setXAxisValues(categories);
  for (const { r, name } of picked.slice(1)) {
    const s = made.series.add(name);
    s.setValues(seriesRange(r));
    s.setXAxisValues(categories);
  }
  made.setPosition(`${columnLetters(width + 1)}${top + 1}`);
}
