/**
 * The Excel fake refuses conditional formats and charts that Excel refuses (testing/fake-excel/rules.ts,
 * after the Office.js reference), so a workbook test passing on the fake means the calls are valid.
 */
import { createFakeExcel, FakeExcelError } from "../../testing/fake-excel";

async function attempt(batch: (context: Excel.RequestContext) => void): Promise<string | undefined> {
  const fake = createFakeExcel();
  fake.setValues("Sheet1", "A1:C3", [
    ["x", 2030, 2050],
    ["LOW", 1, 2],
    ["HIGH", 3, 4],
  ]);
  try {
    await fake.run(async (context) => {
      batch(context);
      await context.sync();
    });
    return undefined;
  } catch (error) {
    return error instanceof FakeExcelError ? `${error.code}: ${error.message}` : String(error);
  }
}

const sheet = (context: Excel.RequestContext) => context.workbook.worksheets.getItem("Sheet1");

describe("conditional formats", () => {
  it("accepts a text rule with its fill and font colours, and a three-colour scale", async () => {
    expect(
      await attempt((c) => {
        const cf = sheet(c)
          .getRange("A2:A3")
          .conditionalFormats.add("ContainsText" as Excel.ConditionalFormatType);
        cf.textComparison.format.fill.color = "#C6EFCE";
        cf.textComparison.rule = { operator: "Contains", text: "LOW" };
        const scale = sheet(c)
          .getRange("B2:B3")
          .conditionalFormats.add("ColorScale" as Excel.ConditionalFormatType);
        scale.colorScale.criteria = {
          minimum: { type: "LowestValue", color: "#00FF00" },
          midpoint: { type: "Percentile", formula: "50", color: "yellow" },
          maximum: { type: "HighestValue", color: "#FF0000" },
        };
      }),
    ).toBeUndefined();
  });

  it("refuses an unknown type, the wrong sub-object, a bad operator, an empty text and a bad colour", async () => {
    expect(
      await attempt(
        (c) =>
          void sheet(c)
            .getRange("A2")
            .conditionalFormats.add("Rainbow" as Excel.ConditionalFormatType),
      ),
    ).toMatch(/InvalidArgument: 'Rainbow' is not a conditional format type/);
    expect(
      await attempt((c) => {
        const cf = sheet(c)
          .getRange("A2")
          .conditionalFormats.add("ColorScale" as Excel.ConditionalFormatType);
        cf.textComparison.rule = { operator: "Contains", text: "LOW" };
      }),
    ).toMatch(/A ColorScale conditional format has no 'textComparison'/);
    expect(
      await attempt((c) => {
        sheet(c)
          .getRange("A2")
          .conditionalFormats.add("ContainsText" as Excel.ConditionalFormatType).textComparison.rule = {
          operator: "Equals" as Excel.ConditionalTextOperator,
          text: "LOW",
        };
      }),
    ).toMatch(/operator 'Equals'/);
    expect(
      await attempt((c) => {
        sheet(c)
          .getRange("A2")
          .conditionalFormats.add("ContainsText" as Excel.ConditionalFormatType).textComparison.rule = {
          operator: "Contains",
          text: "",
        };
      }),
    ).toMatch(/non-empty text/);
    expect(
      await attempt((c) => {
        sheet(c)
          .getRange("A2")
          .conditionalFormats.add("ContainsText" as Excel.ConditionalFormatType).textComparison.format.fill.color =
          "greenish!";
      }),
    ).toMatch(/not an HTML colour/);
    expect(
      await attempt((c) => {
        sheet(c)
          .getRange("B2:B3")
          .conditionalFormats.add("ColorScale" as Excel.ConditionalFormatType).colorScale.criteria = {
          minimum: { type: "Number", color: "#00FF00" },
          maximum: { type: "HighestValue", color: "#FF0000" },
        };
      }),
    ).toMatch(/minimum criterion of type Number needs a formula/);
  });
});

describe("charts", () => {
  it("accepts a stacked column chart by rows with one-row series", async () => {
    expect(
      await attempt((c) => {
        const chart = sheet(c).charts.add(
          "ColumnStacked" as Excel.ChartType,
          sheet(c).getRange("B2:C2"),
          "Rows" as Excel.ChartSeriesBy,
        );
        const s = chart.series.add("HIGH");
        s.setValues(sheet(c).getRange("B3:C3"));
        s.setXAxisValues(sheet(c).getRange("B1:C1"));
      }),
    ).toBeUndefined();
  });

  it("refuses an unknown chart type, a bad seriesBy and a two-dimensional series", async () => {
    expect(
      await attempt((c) => void sheet(c).charts.add("Sparkly" as Excel.ChartType, sheet(c).getRange("B2:C3"))),
    ).toMatch(/'Sparkly' is not a chart type/);
    expect(
      await attempt(
        (c) =>
          void sheet(c).charts.add(
            "Line" as Excel.ChartType,
            sheet(c).getRange("B2:C3"),
            "Diagonal" as Excel.ChartSeriesBy,
          ),
      ),
    ).toMatch(/seriesBy 'Diagonal'/);
    expect(
      await attempt((c) => {
        const chart = sheet(c).charts.add(
          "Line" as Excel.ChartType,
          sheet(c).getRange("B2:C2"),
          "Rows" as Excel.ChartSeriesBy,
        );
        chart.series.add("x").setValues(sheet(c).getRange("B2:C3"));
      }),
    ).toMatch(/one row or one column, not 2 × 2/);
  });
});
