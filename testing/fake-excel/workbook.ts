/** Workbook and Application of the fake. */
import type { FakeRequestContext } from "./context";
import { FakeRange } from "./range";
import { FakeTableCollection } from "./table";
import { FakeWorksheetCollection } from "./worksheet";

/** Excel.Application: calculate() re-runs the formula evaluator. */
export class FakeApplication {
  constructor(private readonly context: FakeRequestContext) {}

  calculate(calculationType: string = "Recalculate"): void {
    this.context.enqueue({
      name: "calculate",
      target: "application",
      payload: calculationType,
      apply: () => this.context.host.model.recalculate(),
    });
  }

  /** Always automatic in the fake. */
  get calculationMode(): string {
    return "Automatic";
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
