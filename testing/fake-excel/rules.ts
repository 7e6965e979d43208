/**
 * What Excel refuses in conditional formats and charts, so the fake refuses it too (at sync, as an
 * InvalidArgument, like Excel). Sources, the Office.js reference (learn.microsoft.com/javascript/api/excel/):
 *  - excel.conditionalformatcollection#excel-excel-conditionalformatcollection-add-member(1):
 *    `add(type)` takes an Excel.ConditionalFormatType.
 *  - excel.conditionalformat: `textComparison`, `colorScale`, ... "Returns the specific conditional
 *    format properties if the current conditional format is a <type> type"; the others are not
 *    there (their *OrNullObject twins are null objects), so setting them fails.
 *  - excel.conditionaltextcomparisonrule: `operator` (Excel.ConditionalTextOperator) and `text`.
 *  - excel.conditionalcolorscalecriteria: `minimum` and `maximum` required, `midpoint` optional;
 *    excel.conditionalcolorscalecriterion: `type` (Excel.ConditionalFormatColorCriterionType),
 *    `formula` required unless the type is lowestValue / highestValue, `color` an HTML colour.
 *  - excel.chartcollection#excel-excel-chartcollection-add-member(1): `add(type, sourceData,
 *    seriesBy)`, type an Excel.ChartType, seriesBy an Excel.ChartSeriesBy (Auto, Columns, Rows).
 *  - excel.chartseries#excel-excel-chartseries-setvalues-member(1) / setxaxisvalues: the source is
 *    a Range; a series' values are one row or one column.
 */
import { invalidArgument } from "./errors";
import type { Rect } from "./a1";

/** Excel.ConditionalFormatType values (Invalid excluded) and the property each exposes. */
export const CONDITIONAL_FORMAT_PROPERTY: Record<string, string> = {
  Custom: "custom",
  DataBar: "dataBar",
  ColorScale: "colorScale",
  IconSet: "iconSet",
  TopBottom: "topBottom",
  PresetCriteria: "preset",
  ContainsText: "textComparison",
  CellValue: "cellValue",
};

const TEXT_OPERATORS = ["Contains", "NotContains", "BeginsWith", "EndsWith"];
const COLOR_CRITERION_TYPES = ["LowestValue", "HighestValue", "Number", "Percent", "Formula", "Percentile"];
const HTML_COLOUR = /^(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}|[A-Za-z]+)$/;

/** Excel.ChartType values (Invalid excluded). */
export const CHART_TYPES = new Set(
  (
    "ColumnClustered ColumnStacked ColumnStacked100 3DColumnClustered 3DColumnStacked 3DColumnStacked100 BarClustered BarStacked BarStacked100 " +
    "3DBarClustered 3DBarStacked 3DBarStacked100 LineStacked LineStacked100 LineMarkers LineMarkersStacked LineMarkersStacked100 PieOfPie " +
    "PieExploded 3DPieExploded BarOfPie XYScatterSmooth XYScatterSmoothNoMarkers XYScatterLines XYScatterLinesNoMarkers AreaStacked " +
    "AreaStacked100 3DAreaStacked 3DAreaStacked100 DoughnutExploded RadarMarkers RadarFilled Surface SurfaceWireframe SurfaceTopView " +
    "SurfaceTopViewWireframe Bubble Bubble3DEffect StockHLC StockOHLC StockVHLC StockVOHLC CylinderColClustered CylinderColStacked " +
    "CylinderColStacked100 CylinderBarClustered CylinderBarStacked CylinderBarStacked100 CylinderCol ConeColClustered ConeColStacked " +
    "ConeColStacked100 ConeBarClustered ConeBarStacked ConeBarStacked100 ConeCol PyramidColClustered PyramidColStacked PyramidColStacked100 " +
    "PyramidBarClustered PyramidBarStacked PyramidBarStacked100 PyramidCol 3DColumn Line 3DLine 3DPie Pie XYScatter 3DArea Area Doughnut " +
    "Radar Histogram Boxwhisker Pareto RegionMap Treemap Waterfall Sunburst Funnel"
  ).split(" "),
);

const SERIES_BY = ["Auto", "Columns", "Rows"];

/** `conditionalFormats.add(type)`: the type must be a ConditionalFormatType. */
export function checkConditionalFormatType(type: string): void {
  if (!(type in CONDITIONAL_FORMAT_PROPERTY)) {
    throw invalidArgument(
      `'${type}' is not a conditional format type (${Object.keys(CONDITIONAL_FORMAT_PROPERTY).join(", ")}).`,
      "ConditionalFormatCollection.add",
    );
  }
}

/** A setting on `cf.<property>.<path>` of a format of `type`: the right property, a valid rule. */
export function checkConditionalFormatSetting(type: string, path: string, value: unknown): void {
  const property = path.split(".")[0];
  const own = CONDITIONAL_FORMAT_PROPERTY[type];
  if (property !== own) {
    throw invalidArgument(
      `A ${type} conditional format has no '${property}' (only '${own}').`,
      `ConditionalFormat.${property}`,
    );
  }
  if (path === "textComparison.rule") {
    const rule = value as { operator?: unknown; text?: unknown } | null;
    if (!rule || !TEXT_OPERATORS.includes(String(rule.operator))) {
      throw invalidArgument(
        `The text rule's operator '${String(rule?.operator)}' is not one of ${TEXT_OPERATORS.join(", ")}.`,
        "ConditionalTextComparisonFormat.rule",
      );
    }
    if (typeof rule.text !== "string" || rule.text === "")
      throw invalidArgument("The text rule needs a non-empty text.", "ConditionalTextComparisonFormat.rule");
  }
  if (path === "colorScale.criteria") {
    const criteria = value as Record<string, { type?: unknown; formula?: unknown; color?: unknown } | undefined> | null;
    for (const key of ["minimum", "maximum"])
      if (!criteria?.[key])
        throw invalidArgument(`A colour scale needs a ${key} criterion.`, "ColorScaleConditionalFormat.criteria");
    for (const key of ["minimum", "midpoint", "maximum"]) {
      const c = criteria![key];
      if (!c) continue;
      if (!COLOR_CRITERION_TYPES.includes(String(c.type)))
        throw invalidArgument(
          `The ${key} criterion's type '${String(c.type)}' is not one of ${COLOR_CRITERION_TYPES.join(", ")}.`,
          "ColorScaleConditionalFormat.criteria",
        );
      if (
        c.type !== "LowestValue" &&
        c.type !== "HighestValue" &&
        (typeof c.formula !== "string" || c.formula === "")
      ) {
        throw invalidArgument(
          `The ${key} criterion of type ${String(c.type)} needs a formula.`,
          "ColorScaleConditionalFormat.criteria",
        );
      }
      if (typeof c.color !== "string" || !HTML_COLOUR.test(c.color))
        throw invalidArgument(
          `The ${key} criterion's colour '${String(c.color)}' is not an HTML colour.`,
          "ColorScaleConditionalFormat.criteria",
        );
    }
  }
  if (/\.color$/.test(path) && (typeof value !== "string" || !HTML_COLOUR.test(value))) {
    throw invalidArgument(`'${String(value)}' is not an HTML colour (#RRGGBB or a name).`, `ConditionalFormat.${path}`);
  }
}

/** `charts.add(type, source, seriesBy)`. */
export function checkChartAdd(type: string, seriesBy: string): void {
  if (!CHART_TYPES.has(type)) throw invalidArgument(`'${type}' is not a chart type.`, "ChartCollection.add");
  if (!SERIES_BY.includes(seriesBy))
    throw invalidArgument(`seriesBy '${seriesBy}' is not one of ${SERIES_BY.join(", ")}.`, "ChartCollection.add");
}

/** A series' values or categories: one row or one column. */
export function checkSeriesRange(rect: Rect, what: "setValues" | "setXAxisValues"): void {
  if (rect.rows !== 1 && rect.cols !== 1)
    throw invalidArgument(
      `A series' ${what === "setValues" ? "values" : "categories"} must be one row or one column, not ${rect.rows} × ${rect.cols}.`,
      `ChartSeries.${what}`,
    );
}
