/** Worksheet and WorksheetCollection of the fake. */
import { FakeClientObject, FakeRequestContext } from "./context";
import { invalidArgument } from "./errors";
import { MAX_COLUMNS, MAX_ROWS } from "./a1";
import { FakeCollection } from "./collection";
import type { SheetModel, WorkbookModel } from "./model";
import { FakeRange, rangeFromAddress } from "./range";
import { FakeTableCollection } from "./table";
import { FakeChartCollection } from "./chart";

const SHEET_SCALARS = ["id", "name", "position", "visibility"] as const;

/** Excel.Worksheet. */
export class FakeWorksheet extends FakeClientObject<SheetModel> {
  protected readonly typeName = "Worksheet";
  protected readonly scalarProperties = SHEET_SCALARS;
  private readonly model: WorkbookModel;

  constructor(context: FakeRequestContext, path: string, resolver: () => SheetModel | null, nullable = false) {
    super(context, path, resolver, nullable);
    this.model = context.host.model;
  }

  /** Path prefix for proxies derived from this one. */
  get pathForChildren(): string {
    return this.path;
  }

  protected override isGone(target: SheetModel): boolean {
    return target.deleted;
  }

  protected readProperty(sheet: SheetModel, property: string): unknown {
    switch (property) {
      case "id":
        return sheet.id;
      case "name":
        return sheet.name;
      case "position":
        return this.model.liveSheets().indexOf(sheet);
      case "visibility":
        return sheet.visibility;
      default:
        throw invalidArgument(`The fake Worksheet cannot load '${property}'.`, `Worksheet.${property}`);
    }
  }

  get id(): string {
    return this.get("id");
  }
  get position(): number {
    return this.get("position");
  }
  get name(): string {
    return this.get("name");
  }
  set name(value: string) {
    this.set("name", value, (s) => this.model.renameSheet(s, value));
  }
  get visibility(): string {
    return this.get("visibility");
  }
  set visibility(value: string) {
    this.set("visibility", value, (s) => this.model.setVisibility(s, value));
  }

  getRange(address?: string): FakeRange {
    return rangeFromAddress(this.context, this, address);
  }

  getRangeByIndexes(startRow: number, startColumn: number, rowCount: number, columnCount: number): FakeRange {
    return this.rangeByIndexes(startRow, startColumn, rowCount, columnCount);
  }

  // getCell (ExcelApi 1.1) shares the work without going through getRangeByIndexes (ExcelApi 1.7),
  // which a lower requirement level refuses.
  private rangeByIndexes(startRow: number, startColumn: number, rowCount: number, columnCount: number): FakeRange {
    return new FakeRange(
      this.context,
      `${this.path}.getRangeByIndexes(${startRow},${startColumn},${rowCount},${columnCount})`,
      () => {
        const sheet = this.resolve();
        const ok =
          [startRow, startColumn, rowCount, columnCount].every((n) => Number.isInteger(n)) &&
          startRow >= 0 &&
          startColumn >= 0 &&
          rowCount >= 1 &&
          columnCount >= 1 &&
          startRow + rowCount <= MAX_ROWS &&
          startColumn + columnCount <= MAX_COLUMNS;
        if (!ok)
          throw invalidArgument(
            `getRangeByIndexes(${startRow}, ${startColumn}, ${rowCount}, ${columnCount}) is outside the grid.`,
          );
        return { sheet, rect: { row: startRow, col: startColumn, rows: rowCount, cols: columnCount } };
      },
    );
  }

  getCell(row: number, column: number): FakeRange {
    return this.rangeByIndexes(row, column, 1, 1);
  }

  /** The used range; A1 on an empty sheet, as in Excel. */
  getUsedRange(valuesOnly = false): FakeRange {
    return new FakeRange(this.context, `${this.path}.getUsedRange(${valuesOnly})`, () => {
      const sheet = this.resolve();
      return { sheet, rect: sheet.usedRect(valuesOnly) ?? { row: 0, col: 0, rows: 1, cols: 1 } };
    });
  }

  getUsedRangeOrNullObject(valuesOnly = false): FakeRange {
    return new FakeRange(
      this.context,
      `${this.path}.getUsedRangeOrNullObject(${valuesOnly})`,
      () => {
        const sheet = this.resolve();
        const rect = sheet.usedRect(valuesOnly);
        return rect ? { sheet, rect } : null;
      },
      true,
    );
  }

  activate(): void {
    this.enqueueOn("activate", undefined, (s) => this.model.activate(s));
  }

  delete(): void {
    this.enqueueOn("delete", undefined, (s) => this.model.deleteSheet(s));
  }

  get tables(): FakeTableCollection {
    return new FakeTableCollection(this.context, `${this.path}.tables`, () => this.resolve());
  }

  get charts(): FakeChartCollection {
    return new FakeChartCollection(this.context, `${this.path}.charts`, () => this.resolve());
  }

  /** Worksheet.protection (ExcelApi 1.2). */
  get protection(): FakeWorksheetProtection {
    return new FakeWorksheetProtection(this.context, `${this.path}.protection`, () => this.resolve());
  }
}

/** Excel.WorksheetProtection: `protected`, protect() and unprotect() (no options, no password). */
export class FakeWorksheetProtection extends FakeClientObject<SheetModel> {
  protected readonly typeName = "WorksheetProtection";
  protected readonly scalarProperties = ["protected"] as const;

  protected override isGone(target: SheetModel): boolean {
    return target.deleted;
  }

  protected readProperty(sheet: SheetModel, property: string): unknown {
    if (property === "protected") return sheet.protected;
    throw invalidArgument(`The fake WorksheetProtection cannot load '${property}'.`, `WorksheetProtection.${property}`);
  }

  get protected(): boolean {
    return this.get("protected");
  }

  protect(): void {
    this.enqueueOn("protect", undefined, (s) => this.context.host.model.setProtected(s, true));
  }

  unprotect(): void {
    this.enqueueOn("unprotect", undefined, (s) => this.context.host.model.setProtected(s, false));
  }
}

/** Excel.WorksheetCollection. */
export class FakeWorksheetCollection extends FakeCollection<SheetModel, FakeWorksheet> {
  protected readonly typeName = "WorksheetCollection";

  protected list(): SheetModel[] {
    return this.context.host.model.liveSheets();
  }

  protected itemProxy(sheet: SheetModel, path: string): FakeWorksheet {
    return new FakeWorksheet(this.context, path, () => sheet);
  }

  /** add(name?): the new sheet is appended and not activated. */
  add(name?: string): FakeWorksheet {
    let created: SheetModel | null = null;
    this.context.enqueue({
      name: "add",
      target: this.path,
      payload: name ?? null,
      apply: () => {
        created = this.context.host.model.addSheet(name);
      },
    });
    return new FakeWorksheet(this.context, `${this.path}.add(${JSON.stringify(name ?? "")})`, () => created);
  }

  getItem(key: string): FakeWorksheet {
    return new FakeWorksheet(
      this.context,
      `${this.path}.getItem(${JSON.stringify(key)})`,
      () => this.context.host.model.findSheet(key) ?? null,
    );
  }

  getItemOrNullObject(key: string): FakeWorksheet {
    return new FakeWorksheet(
      this.context,
      `${this.path}.getItemOrNullObject(${JSON.stringify(key)})`,
      () => this.context.host.model.findSheet(key) ?? null,
      true,
    );
  }

  getActiveWorksheet(): FakeWorksheet {
    return new FakeWorksheet(
      this.context,
      `${this.path}.getActiveWorksheet()`,
      () => this.context.host.model.activeSheet,
    );
  }

  getFirst(): FakeWorksheet {
    return new FakeWorksheet(
      this.context,
      `${this.path}.getFirst()`,
      () => this.context.host.model.liveSheets()[0] ?? null,
    );
  }
}
