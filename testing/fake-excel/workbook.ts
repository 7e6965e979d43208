/** Workbook and Application of the fake. */
import { FakeClientObject, type FakeRequestContext } from "./context";
import { invalidArgument } from "./errors";
import type { ExcelCultureModel, WorkbookModel } from "./model";
import { FakeRange } from "./range";
import { FakeTableCollection } from "./table";
import { FakeWorksheetCollection } from "./worksheet";

/**
 * Excel.Application: calculate() re-runs the formula evaluator; the separators and cultureInfo
 * (ExcelApi 1.11) come from the model's culture. decimalSeparator and thousandsSeparator are the
 * separators Excel uses: the system culture's while useSystemSeparators is true, else the ones set
 * in Excel's options ("Excel.Application", Office.js reference: "based on Excel's local settings").
 */
export class FakeApplication extends FakeClientObject<WorkbookModel> {
  protected readonly typeName = "Application";
  protected readonly scalarProperties = [
    "decimalSeparator",
    "thousandsSeparator",
    "useSystemSeparators",
    "calculationMode",
  ] as const;

  constructor(context: FakeRequestContext) {
    super(context, "workbook.application", () => context.host.model);
  }

  protected readProperty(model: WorkbookModel, property: string): unknown {
    const culture = model.culture;
    if (property === "calculationMode") return model.calculationMode;
    if (property === "useSystemSeparators") return culture.useSystemSeparators;
    if (property === "decimalSeparator")
      return culture.useSystemSeparators ? culture.cultureDecimal : culture.customDecimal;
    if (property === "thousandsSeparator")
      return culture.useSystemSeparators ? culture.cultureGroup : culture.customThousands;
    throw invalidArgument(`The fake Application cannot load '${property}'.`);
  }

  get decimalSeparator(): string {
    return this.get("decimalSeparator");
  }
  get thousandsSeparator(): string {
    return this.get("thousandsSeparator");
  }
  get useSystemSeparators(): boolean {
    return this.get("useSystemSeparators");
  }
  get cultureInfo(): FakeCultureInfo {
    return new FakeCultureInfo(this.context, "workbook.application.cultureInfo", () => this.context.host.model.culture);
  }

  calculate(calculationType: string = "Recalculate"): void {
    this.context.enqueue({
      name: "calculate",
      target: "application",
      payload: calculationType,
      apply: () => this.context.host.model.recalculate(),
    });
  }

  /**
   * Application.calculationMode: "Automatic", "AutomaticExceptTables" or "Manual" (settable from
   * ExcelApi 1.8). The fake computes no dependents of a write in any mode (formulas show what the
   * evaluator gave when written or at calculate()), so in Manual it is calculate() that updates them,
   * as F9 does in Excel.
   */
  get calculationMode(): string {
    return this.get("calculationMode");
  }
  set calculationMode(value: string) {
    this.set("calculationMode", value, (model) => {
      if (value !== "Automatic" && value !== "AutomaticExceptTables" && value !== "Manual")
        throw invalidArgument(`'${value}' is not a calculation mode.`);
      model.calculationMode = value;
    });
  }
}

/** Excel.CultureInfo (ExcelApi 1.11): the system culture's name and number format. */
export class FakeCultureInfo extends FakeClientObject<ExcelCultureModel> {
  protected readonly typeName = "CultureInfo";
  protected readonly scalarProperties = ["name"] as const;

  protected readProperty(culture: ExcelCultureModel, property: string): unknown {
    if (property === "name") return culture.name;
    throw invalidArgument(`The fake CultureInfo cannot load '${property}'.`);
  }

  get name(): string {
    return this.get("name");
  }
  get numberFormat(): FakeNumberFormatInfo {
    return new FakeNumberFormatInfo(this.context, `${this.path}.numberFormat`, () => this.resolve());
  }
}

/** Excel.NumberFormatInfo (ExcelApi 1.11): the system culture's decimal and group separators. */
export class FakeNumberFormatInfo extends FakeClientObject<ExcelCultureModel> {
  protected readonly typeName = "NumberFormatInfo";
  protected readonly scalarProperties = ["numberDecimalSeparator", "numberGroupSeparator"] as const;

  protected readProperty(culture: ExcelCultureModel, property: string): unknown {
    if (property === "numberDecimalSeparator") return culture.cultureDecimal;
    if (property === "numberGroupSeparator") return culture.cultureGroup;
    throw invalidArgument(`The fake NumberFormatInfo cannot load '${property}'.`);
  }

  get numberDecimalSeparator(): string {
    return this.get("numberDecimalSeparator");
  }
  get numberGroupSeparator(): string {
    return this.get("numberGroupSeparator");
  }
}

/** Excel.Workbook. */
export class FakeWorkbook {
  readonly worksheets: FakeWorksheetCollection;
  readonly tables: FakeTableCollection;
  readonly application: FakeApplication;

  constructor(private readonly context: FakeRequestContext) {
    this.worksheets = new FakeWorksheetCollection(context, "workbook.worksheets");
    this.tables = new FakeTableCollection(context, "workbook.tables");
    this.application = new FakeApplication(context);
  }

  /** The selection on the active sheet. */
  getSelectedRange(): FakeRange {
    return new FakeRange(this.context, "workbook.getSelectedRange()", () => {
      const sheet = this.context.host.model.activeSheet;
      return { sheet, rect: sheet.selection };
    });
  }

  /** The top-left cell of the selection. */
  getActiveCell(): FakeRange {
    return new FakeRange(this.context, "workbook.getActiveCell()", () => {
      const sheet = this.context.host.model.activeSheet;
      return { sheet, rect: { row: sheet.selection.row, col: sheet.selection.col, rows: 1, cols: 1 } };
    });
  }
}
