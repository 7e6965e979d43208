/** Table, TableCollection and TableRowCollection of the fake. */
import { FakeClientObject, FakeRequestContext } from "./context";
import { FakeErrorCodes, FakeExcelError, invalidArgument } from "./errors";
import { Rect, formatAddress, intersects, parseLocal, splitSheet } from "./a1";
import { FakeClientResult, FakeCollection } from "./collection";
import type { SheetModel, TableModel, WorkbookModel } from "./model";
import { FakeRange } from "./range";
import { FakeWorksheet } from "./worksheet";

const TABLE_SCALARS = ["id", "name", "showHeaders", "showTotals", "style"] as const;

/** Excel.Table. */
export class FakeTable extends FakeClientObject<TableModel> {
  protected readonly typeName = "Table";
  protected readonly scalarProperties = TABLE_SCALARS;
  private readonly model: WorkbookModel;

  constructor(context: FakeRequestContext, path: string, resolver: () => TableModel | null, nullable = false) {
    super(context, path, resolver, nullable);
    this.model = context.host.model;
  }

  protected override isGone(t: TableModel): boolean {
    return t.deleted;
  }

  protected readProperty(t: TableModel, property: string): unknown {
    switch (property) {
      case "id":
        return t.id;
      case "name":
        return t.name;
      case "showHeaders":
        return true;
      case "showTotals":
        return t.showTotals === true;
      case "style":
        return t.style ?? "TableStyleMedium2";
      default:
        throw invalidArgument(`The fake Table cannot load '${property}'.`);
    }
  }

  get id(): string {
    return this.get("id");
  }
  get name(): string {
    return this.get("name");
  }
  set name(value: string) {
    this.set("name", value, (t) => {
      this.model.checkTableName(value, t);
      t.name = value;
      this.model.note({ kind: "tables" });
    });
  }
  get style(): string {
    return this.get("style");
  }
  get showTotals(): boolean {
    return this.get("showTotals");
  }
  set showTotals(value: boolean) {
    this.set("showTotals", value, (t) => this.model.setTableTotals(t, value));
  }
  set style(value: string) {
    this.set("style", value, (t) => {
      t.style = value;
    });
  }

  private part(name: string, pick: (rect: Rect, t: TableModel) => Rect): FakeRange {
    return new FakeRange(this.context, `${this.path}.${name}`, () => {
      const t = this.resolve();
      return { sheet: t.sheet, rect: pick(t.rect, t) };
    });
  }

  getRange(): FakeRange {
    return this.part("getRange()", (r) => r);
  }
  getHeaderRowRange(): FakeRange {
    return this.part("getHeaderRowRange()", (r) => ({ ...r, rows: 1 }));
  }
  getDataBodyRange(): FakeRange {
    // The total row, when shown, is the range's last row and no part of the body.
    return this.part("getDataBodyRange()", (r, t) => ({
      ...r,
      row: r.row + 1,
      rows: r.rows - 1 - (t.showTotals ? 1 : 0),
    }));
  }

  get worksheet(): FakeWorksheet {
    return new FakeWorksheet(this.context, `${this.path}.worksheet`, () => this.resolve().sheet);
  }

  get rows(): FakeTableRowCollection {
    return new FakeTableRowCollection(this);
  }

  delete(): void {
    this.enqueueOn("delete", undefined, (t) => this.model.deleteTable(t));
  }

  /** Table.autoFilter (ExcelApi 1.9): the table's Excel.AutoFilter. */
  get autoFilter(): FakeAutoFilter {
    return new FakeAutoFilter(this.context, `${this.path}.autoFilter`, () => this.resolve());
  }

  /** Table.sort (ExcelApi 1.2): the table's Excel.TableSort. */
  get sort(): FakeTableSort {
    return new FakeTableSort(this);
  }

  /** Queues an operation on the table (for its TableSort). */
  queue(name: string, payload: unknown, apply: (t: TableModel) => void): void {
    this.enqueueOn(name, payload, apply);
  }

  /** Table.resize(newRange) (ExcelApi 1.13): an address on the same sheet, or a Range. */
  resize(newRange: FakeRange | string): void {
    const address = typeof newRange === "string" ? newRange : null;
    this.enqueueOn("resize", address ?? "range", (t) => {
      let rect: Rect;
      if (address !== null) {
        rect = parseLocal(splitSheet(address).local);
      } else {
        rect = (newRange as FakeRange).resolve().rect;
      }
      this.model.resizeTable(t, rect);
    });
  }
}

/**
 * Excel.TableSort (ExcelApi 1.2): `apply(fields)` sorts the body rows (model.ts sortTable) and is
 * remembered; `reapply()` "Reapplies the current sorting parameters to the table" (a table never
 * sorted is left as it is).
 */
export class FakeTableSort {
  constructor(private readonly table: FakeTable) {}

  apply(fields: Array<{ key: number; ascending?: boolean }>): void {
    this.table.queue("sort.apply", fields, (t) => {
      this.table.context.host.model.sortTable(t, fields);
      t.sortFields = fields.map((f) => ({ ...f }));
    });
  }

  reapply(): void {
    this.table.queue("sort.reapply", undefined, (t) => {
      if (t.sortFields) this.table.context.host.model.sortTable(t, t.sortFields);
    });
  }
}

/**
 * Excel.TableRow (ExcelApi 1.1): a row of a table by its index. "A TableRow object represents the
 * physical location of the table row, but not the data": it is resolved at sync by its index.
 */
export class FakeTableRow {
  constructor(
    private readonly table: FakeTable,
    private readonly index: number,
  ) {}

  /** The row's cells, in the table's columns. */
  getRange(): FakeRange {
    return new FakeRange(this.table.context, `table.rows.getItemAt(${this.index}).getRange()`, () => {
      const t = this.table.resolve();
      if (this.index < 0 || this.index >= t.rect.rows - 1)
        throw invalidArgument(`The table has no row ${this.index}.`, "TableRowCollection.getItemAt");
      return {
        sheet: t.sheet,
        rect: { row: t.rect.row + 1 + this.index, col: t.rect.col, rows: 1, cols: t.rect.cols },
      };
    });
  }

  /** TableRow.delete(): removes the row, shifting the table's cells below it up (model.ts deleteTableRows). */
  delete(): void {
    const context = this.table.context;
    context.enqueue({
      name: "tableRow.delete",
      target: `table.rows.getItemAt(${this.index})`,
      apply: () => context.host.model.deleteTableRows(withoutTotals(this.table.resolve()), this.index, 1),
    });
  }
}

/** table.rows: add(index, values), getItemAt(index) and getCount(). */
export class FakeTableRowCollection {
  constructor(private readonly table: FakeTable) {}

  /** TableRowCollection.getItemAt(index) (ExcelApi 1.1). */
  getItemAt(index: number): FakeTableRow {
    return new FakeTableRow(this.table, index);
  }

  add(index?: number | null, values?: unknown[][]): void {
    const context = this.table.context;
    context.enqueue({
      name: "rows.add",
      target: "table.rows",
      payload: values,
      apply: () => context.host.model.addTableRows(withoutTotals(this.table.resolve()), index, values),
    });
  }

  getCount(): FakeClientResult<number> {
    const result = new FakeClientResult<number>();
    this.table.context.enqueue({
      name: "rows.getCount",
      target: "table.rows",
      apply: () => {
        const count = this.table.resolve().rect.rows - 1;
        return () => {
          result.deliver(count);
          return count;
        };
      },
    });
    return result;
  }
}

/** workbook.tables (sheet undefined) or worksheet.tables. */
export class FakeTableCollection extends FakeCollection<TableModel, FakeTable> {
  protected readonly typeName: string = "TableCollection";

  constructor(
    context: FakeRequestContext,
    path: string,
    private readonly sheet?: () => SheetModel,
  ) {
    super(context, path);
  }

  protected list(): TableModel[] {
    const tables = this.context.host.model.tables.filter((t) => !t.deleted);
    if (!this.sheet) return tables;
    const sheet = this.sheet();
    return tables.filter((t) => t.sheet === sheet);
  }

  protected itemProxy(t: TableModel, path: string): FakeTable {
    return new FakeTable(this.context, path, () => t);
  }

  /** add(address, hasHeaders): address is a Range or an A1 string (sheet-qualified on the workbook). */
  add(address: FakeRange | string, hasHeaders: boolean): FakeTable {
    let created: TableModel | null = null;
    const model = this.context.host.model;
    this.context.enqueue({
      name: "tables.add",
      target: this.path,
      payload: [typeof address === "string" ? address : "range", hasHeaders],
      apply: () => {
        let sheet: SheetModel;
        let rect: Rect;
        if (typeof address === "string") {
          const split = splitSheet(address);
          const named = split.sheet !== undefined ? model.findSheet(split.sheet) : undefined;
          if (split.sheet !== undefined && !named)
            throw invalidArgument(`No sheet '${split.sheet}' for table address '${address}'.`);
          const own = this.sheet?.();
          if (own && named && named !== own) throw invalidArgument(`The address '${address}' is on another sheet.`);
          sheet = own ?? named ?? model.activeSheet;
          rect = parseLocal(split.local);
        } else {
          const t = address.resolve();
          sheet = t.sheet;
          rect = t.rect;
        }
        created = model.addTable(sheet, rect, hasHeaders);
      },
    });
    return new FakeTable(this.context, `${this.path}.add`, () => created);
  }

  getItem(key: string): FakeTable {
    return new FakeTable(this.context, `${this.path}.getItem(${JSON.stringify(key)})`, () => this.find(key));
  }

  getItemOrNullObject(key: string): FakeTable {
    return new FakeTable(
      this.context,
      `${this.path}.getItemOrNullObject(${JSON.stringify(key)})`,
      () => this.find(key),
      true,
    );
  }

  /** TableCollection.getItemAt(index) (ExcelApi 1.1): the table at that position of the collection. */
  getItemAt(index: number): FakeTable {
    return new FakeTable(this.context, `${this.path}.getItemAt(${index})`, () => this.list()[index] ?? null);
  }

  private find(key: string): TableModel | null {
    const t = this.context.host.model.findTable(key);
    return t && this.list().includes(t) ? t : null;
  }
}

export { formatAddress };

/**
 * Range.getTables(fullyContained) (ExcelApi 1.9): "Gets a scoped collection of tables that overlap
 * with the range", or only those inside it when `fullyContained`.
 */
export class FakeTableScopedCollection extends FakeTableCollection {
  protected override readonly typeName = "TableScopedCollection";

  constructor(
    context: FakeRequestContext,
    path: string,
    private readonly area: () => { sheet: SheetModel; rect: Rect },
    private readonly fullyContained: boolean,
  ) {
    super(context, path);
  }

  protected override list(): TableModel[] {
    const { sheet, rect } = this.area();
    return super
      .list()
      .filter((t) => t.sheet === sheet && (this.fullyContained ? contains(rect, t.rect) : intersects(rect, t.rect)));
  }
}

function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.row >= outer.row &&
    inner.col >= outer.col &&
    inner.row + inner.rows <= outer.row + outer.rows &&
    inner.col + inner.cols <= outer.col + outer.cols
  );
}

/** A table whose rows are added or removed: the fake does not model that with a total row (model.ts setTableTotals). */
function withoutTotals(t: TableModel): TableModel {
  if (t.showTotals)
    throw new FakeExcelError(
      FakeErrorCodes.unsupportedOperation,
      `The fake does not add or remove rows of a table with a total row ('${t.name}').`,
    );
  return t;
}

/**
 * Excel.AutoFilter of a table (ExcelApi 1.9): `isDataFiltered` ("Specifies if the AutoFilter has
 * filter criteria"), `apply(range, columnIndex, criteria)` and `clearCriteria()`. Only whether it
 * has criteria is kept; they are not evaluated: a test hides the rows they would hide itself. A filtered table's
 * cells cannot be moved (model.ts checkNotFiltered).
 */
export class FakeAutoFilter extends FakeClientObject<TableModel> {
  protected readonly typeName = "AutoFilter";
  protected readonly scalarProperties = ["isDataFiltered", "enabled"] as const;

  protected override isGone(t: TableModel): boolean {
    return t.deleted;
  }

  protected readProperty(t: TableModel, property: string): unknown {
    if (property === "isDataFiltered") return t.filtered === true;
    if (property === "enabled") return true;
    throw invalidArgument(`The fake AutoFilter cannot load '${property}'.`, `AutoFilter.${property}`);
  }

  get isDataFiltered(): boolean {
    return this.get("isDataFiltered");
  }
  get enabled(): boolean {
    return this.get("enabled");
  }

  /** Filters the table (with a column and criteria; without them the filter is only enabled). */
  apply(_range: unknown, columnIndex?: number, criteria?: unknown): void {
    this.enqueueOn("apply", { columnIndex, criteria }, (t) => {
      if (columnIndex !== undefined && criteria !== undefined) t.filtered = true;
    });
  }

  /** Clears the filter criteria (the rows they hid are for the test to show again). */
  clearCriteria(): void {
    this.enqueueOn("clearCriteria", undefined, (t) => {
      t.filtered = false;
    });
  }
}
