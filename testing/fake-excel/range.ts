/**
 * Range, RangeAreas and conditional formats of the fake. A range proxy knows how to find its
 * sheet and rectangle at sync time (fixed for getRange("A1:C3"), computed for getUsedRange or
 * getSelectedRange) and keeps them once found.
 */
import { FakeClientObject, FakeRequestContext } from "./context";
import { invalidArgument, propertyNotLoaded } from "./errors";
import { MAX_COLUMNS, Rect, formatAddress, formatLocal, intersection, intersects, parseLocal, splitSheet } from "./a1";
import type { ConditionalFormatModel, SheetModel, WorkbookModel } from "./model";
import { recorder } from "./recorder";
import { FakeCollection } from "./collection";
import { checkConditionalFormatSetting, checkConditionalFormatType } from "./rules";
import { FakeWorksheet } from "./worksheet";
import { FakeDataValidation } from "./data-validation";
import { FakeTableScopedCollection } from "./table";

/** What a range proxy points at. */
export interface RangeTarget {
  sheet: SheetModel;
  rect: Rect;
}

const RANGE_SCALARS = [
  "address",
  "addressLocal",
  "cellCount",
  "columnCount",
  "columnIndex",
  "formulas",
  "hyperlink",
  "numberFormat",
  "rowCount",
  "rowHidden",
  "rowIndex",
  "text",
  "values",
  "valueTypes",
] as const;

/** Excel.Range. */
export class FakeRange extends FakeClientObject<RangeTarget> {
  protected readonly typeName = "Range";
  protected readonly scalarProperties = RANGE_SCALARS;
  private readonly model: WorkbookModel;

  constructor(context: FakeRequestContext, path: string, resolver: () => RangeTarget | null, nullable = false) {
    super(context, path, resolver, nullable);
    this.model = context.host.model;
  }

  protected override isGone(target: RangeTarget): boolean {
    return target.sheet.deleted;
  }

  protected readProperty(target: RangeTarget, property: string): unknown {
    const { sheet, rect } = target;
    switch (property) {
      case "address":
      case "addressLocal":
        return formatAddress(sheet.name, rect);
      case "rowCount":
        return rect.rows;
      case "columnCount":
        return rect.cols;
      case "rowIndex":
        return rect.row;
      case "columnIndex":
        return rect.col;
      case "cellCount":
        return rect.rows * rect.cols;
      case "hyperlink":
        return this.model.readHyperlink(sheet, rect);
      case "rowHidden": {
        // Excel.Range.rowHidden: true when every row is hidden, false when none, null when mixed.
        let hidden = 0;
        for (let r = rect.row; r < rect.row + rect.rows; r++) if (sheet.hiddenRows.has(r)) hidden++;
        return hidden === 0 ? false : hidden === rect.rows ? true : null;
      }
      case "values":
      case "formulas":
      case "numberFormat":
      case "text":
      case "valueTypes":
        return this.model.read(sheet, rect, property);
      default:
        throw invalidArgument(`The fake Range cannot load '${property}'.`, `Range.${property}`);
    }
  }

  get address(): string {
    return this.get("address");
  }
  get addressLocal(): string {
    return this.get("addressLocal");
  }
  get rowCount(): number {
    return this.get("rowCount");
  }
  get columnCount(): number {
    return this.get("columnCount");
  }
  get rowIndex(): number {
    return this.get("rowIndex");
  }
  get columnIndex(): number {
    return this.get("columnIndex");
  }
  get cellCount(): number {
    return this.get("cellCount");
  }
  get text(): string[][] {
    return this.get("text");
  }
  get valueTypes(): string[][] {
    return this.get("valueTypes");
  }

  get values(): unknown[][] {
    return this.get("values");
  }
  set values(v: unknown[][]) {
    this.set("values", v, (t) => this.model.writeValues(t.sheet, t.rect, v, "values"));
  }
  get formulas(): unknown[][] {
    return this.get("formulas");
  }
  set formulas(v: unknown[][]) {
    this.set("formulas", v, (t) => this.model.writeValues(t.sheet, t.rect, v, "formulas"));
  }
  get numberFormat(): unknown[][] {
    return this.get("numberFormat");
  }
  set numberFormat(v: unknown[][]) {
    this.set("numberFormat", v, (t) => this.model.writeNumberFormat(t.sheet, t.rect, v));
  }

  /** The range's hyperlink (Excel.RangeHyperlink, ExcelApi 1.7): the top-left cell's when read. */
  get hyperlink(): unknown {
    return this.get("hyperlink");
  }
  set hyperlink(link: unknown) {
    this.set("hyperlink", link, (t) => this.model.writeHyperlink(t.sheet, t.rect, link));
  }

  /** Range.rowHidden (ExcelApi 1.2): whether the range's rows are hidden (by the user or a filter). */
  get rowHidden(): boolean | null {
    return this.get("rowHidden");
  }
  set rowHidden(hidden: boolean) {
    this.set("rowHidden", hidden, (t) => this.model.setRowsHidden(t.sheet, t.rect, hidden));
  }

  /**
   * Range.delete(shift) (ExcelApi 1.1, Excel.DeleteShiftDirection): "Deletes the cells associated
   * with the range"; with "Up" the cells below move up and references follow them (model.ts
   * shiftCells, shift.ts).
   */
  delete(shift: string): void {
    this.enqueueOn("delete", shift, (t) => this.model.shiftCells(t.sheet, t.rect, shift, false));
  }

  /**
   * Range.insert(shift) (ExcelApi 1.1, Excel.InsertShiftDirection): "Inserts a cell or a range of
   * cells into the worksheet in place of this range, and shifts the other cells to make space.
   * Returns a new Range object at the now blank space."
   */
  insert(shift: string): FakeRange {
    let inserted: RangeTarget | null = null;
    this.enqueueOn("insert", shift, (t) => {
      this.model.shiftCells(t.sheet, t.rect, shift, true);
      inserted = { sheet: t.sheet, rect: { ...t.rect } };
    });
    return new FakeRange(this.context, `${this.path}.insert(${shift})`, () => inserted);
  }

  /** A range relative to this one, found at sync time. */
  private derived(name: string, make: (t: RangeTarget) => Rect | null, nullable = false): FakeRange {
    return new FakeRange(
      this.context,
      `${this.path}.${name}`,
      () => {
        const t = this.resolve();
        const rect = make(t);
        return rect ? { sheet: t.sheet, rect } : null;
      },
      nullable,
    );
  }

  getCell(row: number, column: number): FakeRange {
    return this.derived(`getCell(${row},${column})`, (t) => ({
      row: t.rect.row + row,
      col: t.rect.col + column,
      rows: 1,
      cols: 1,
    }));
  }
  getRow(row: number): FakeRange {
    return this.derived(`getRow(${row})`, (t) => ({ ...t.rect, row: t.rect.row + row, rows: 1 }));
  }
  /** Range.getEntireRow() (ExcelApi 1.1): "Gets an object that represents the entire row of the range". */
  getEntireRow(): FakeRange {
    return this.derived("getEntireRow", (t) => ({ ...t.rect, col: 0, cols: MAX_COLUMNS }));
  }
  getColumn(column: number): FakeRange {
    return this.derived(`getColumn(${column})`, (t) => ({ ...t.rect, col: t.rect.col + column, cols: 1 }));
  }
  getOffsetRange(rowOffset: number, columnOffset: number): FakeRange {
    return this.derived(`getOffsetRange(${rowOffset},${columnOffset})`, (t) => ({
      ...t.rect,
      row: t.rect.row + rowOffset,
      col: t.rect.col + columnOffset,
    }));
  }
  getResizedRange(deltaRows: number, deltaColumns: number): FakeRange {
    return this.derived(`getResizedRange(${deltaRows},${deltaColumns})`, (t) => {
      const rect = { ...t.rect, rows: t.rect.rows + deltaRows, cols: t.rect.cols + deltaColumns };
      if (rect.rows < 1 || rect.cols < 1) throw invalidArgument("The resized range would be empty.");
      return rect;
    });
  }
  /**
   * Range.getSpillingToRangeOrNullObject() (ExcelApi 1.12): "Gets the range object containing the
   * spill range when called on an anchor cell. If the range isn't an anchor cell or the spill range
   * can't be found, then this method returns an object with its isNullObject property set to true."
   * The spill comes from the calculation engine (FakeExcel.setSpillResolver).
   */
  getSpillingToRangeOrNullObject(): FakeRange {
    return this.derived(
      "getSpillingToRangeOrNullObject",
      (t) => this.model.spillAreaOf?.(t.sheet, t.rect.row, t.rect.col) ?? null,
      true,
    );
  }
  /**
   * Range.getSpillParentOrNullObject() (ExcelApi 1.12): "Gets the range object containing the anchor
   * cell for the cell getting spilled into. If it's not a spilled cell, or more than one cell is
   * given, then this method returns an object with its isNullObject property set to true." The
   * anchor is a cell of its own spill (Excel's Range.SpillParent gives the anchor for any member of
   * the spill range), so on the anchor it answers the anchor. The anchor is the formula cell, above
   * and to the left, whose spill (FakeExcel.setSpillResolver) holds the cell.
   */
  getSpillParentOrNullObject(): FakeRange {
    return this.derived(
      "getSpillParentOrNullObject",
      (t) => {
        if (t.rect.rows !== 1 || t.rect.cols !== 1) return null;
        const { row, col } = t.rect;
        const parents: Rect[] = [];
        t.sheet.forEachStored({ row: 0, col: 0, rows: row + 1, cols: col + 1 }, (cell, r, c) => {
          if (cell.formula === undefined) return;
          const spill = this.model.spillAreaOf?.(t.sheet, r, c);
          if (spill && intersects(spill, t.rect)) parents.push({ row: r, col: c, rows: 1, cols: 1 });
        });
        return parents[0] ?? null;
      },
      true,
    );
  }
  getIntersectionOrNullObject(other: FakeRange | string): FakeRange {
    return this.derived(
      "getIntersectionOrNullObject",
      (t) => {
        const o = typeof other === "string" ? parseLocal(splitSheet(other).local) : other.resolve().rect;
        return intersection(t.rect, o);
      },
      true,
    );
  }

  /** Range.getTables (ExcelApi 1.9): the tables overlapping the range (or inside it). */
  getTables(fullyContained = false): FakeTableScopedCollection {
    return new FakeTableScopedCollection(
      this.context,
      `${this.path}.getTables(${fullyContained})`,
      () => this.resolve(),
      fullyContained,
    );
  }

  /** The sheet this range is on. */
  get worksheet(): FakeWorksheet {
    return new FakeWorksheet(this.context, `${this.path}.worksheet`, () => this.resolve().sheet);
  }

  select(): void {
    this.enqueueOn("select", undefined, (t) => this.model.select(t.sheet, t.rect));
  }
  clear(applyTo: string = "All"): void {
    this.enqueueOn("clear", applyTo, (t) => this.model.clear(t.sheet, t.rect, applyTo));
  }
  merge(across = false): void {
    this.enqueueOn("merge", across, (t) => this.model.merge(t.sheet, t.rect, across));
  }
  unmerge(): void {
    this.enqueueOn("unmerge", undefined, (t) => this.model.unmerge(t.sheet, t.rect));
  }

  /** Merged areas inside this range, or a null object when there are none (ExcelApi 1.13). */
  getMergedAreasOrNullObject(): FakeRangeAreas {
    return new FakeRangeAreas(this.context, `${this.path}.getMergedAreasOrNullObject`, () => {
      const t = this.resolve();
      const areas = this.model.mergedAreasIn(t.sheet, t.rect);
      return areas.length ? { sheet: t.sheet, rects: areas } : null;
    });
  }

  /**
   * Range.getSpecialCellsOrNullObject(cellType) (ExcelApi 1.9): "Gets the RangeAreas object,
   * comprising one or more ranges, that represents all the cells that match the specified type and
   * value. If no special cells are found, then this method returns an object with its isNullObject
   * property set to true." The fake knows `formulas` without a value type (the cells holding a
   * formula); the rectangles are each row's runs of such cells, rows with the same runs merged.
   */
  getSpecialCellsOrNullObject(cellType: string, cellValueType?: string): FakeRangeAreas {
    if (cellType !== "Formulas" || cellValueType !== undefined)
      throw invalidArgument(`The fake's getSpecialCellsOrNullObject knows only "Formulas" (got "${cellType}").`);
    return new FakeRangeAreas(this.context, `${this.path}.getSpecialCellsOrNullObject(${cellType})`, () => {
      const t = this.resolve();
      const rects = formulaAreas(t.sheet, t.rect);
      return rects.length > 0 ? { sheet: t.sheet, rects } : null;
    });
  }

  /** Formatting is recorded on the sheet (format.fill.color, autofitColumns(), ...). */
  get format(): unknown {
    return recorder(this.context, this.path, "format", () => {
      const t = this.resolve();
      const address = formatAddress(t.sheet.name, t.rect);
      return (path, value) => {
        t.sheet.formatSettings.push({ address, path, value });
        this.model.note({ kind: "formats", sheetName: t.sheet.name, address });
      };
    });
  }

  get conditionalFormats(): FakeConditionalFormatCollection {
    return new FakeConditionalFormatCollection(this);
  }

  /**
   * Range.dataValidation (ExcelApi 1.8): the rules of the range's cells (data-validation.ts). One
   * object per range proxy, as office.js keeps it: what is loaded through it is read through it.
   */
  get dataValidation(): FakeDataValidation {
    this.validation ??= new FakeDataValidation(this.context, `${this.path}.dataValidation`, () => this.resolve());
    return this.validation;
  }
  private validation?: FakeDataValidation;
}

/** Excel.RangeAreas, as returned by getMergedAreasOrNullObject and getSpecialCellsOrNullObject. */
export class FakeRangeAreas extends FakeClientObject<{ sheet: SheetModel; rects: Rect[] }> {
  protected readonly typeName = "RangeAreas";
  protected readonly scalarProperties = ["address", "areaCount"] as const;

  constructor(context: FakeRequestContext, path: string, resolver: () => { sheet: SheetModel; rects: Rect[] } | null) {
    super(context, path, resolver, true);
  }

  protected readProperty(target: { sheet: SheetModel; rects: Rect[] }, property: string): unknown {
    if (property === "address") return target.rects.map((r) => formatAddress(target.sheet.name, r)).join(",");
    if (property === "areaCount") return target.rects.length;
    throw invalidArgument(`The fake RangeAreas cannot load '${property}'.`);
  }

  get address(): string {
    return this.get("address");
  }
  get areaCount(): number {
    return this.get("areaCount");
  }

  /**
   * RangeAreas.areas (ExcelApi 1.9): "Returns a collection of rectangular ranges that comprise
   * this RangeAreas object."
   */
  get areas(): FakeRangeCollection {
    return new FakeRangeCollection(this.context, `${this.path}.areas`, () => {
      const t = this.resolve();
      return t.rects.map((rect) => ({ sheet: t.sheet, rect }));
    });
  }
}

/** Excel.RangeCollection (RangeAreas.areas): its ranges load as any range does. */
export class FakeRangeCollection extends FakeCollection<RangeTarget, FakeRange> {
  protected readonly typeName = "RangeCollection";

  constructor(
    context: FakeRequestContext,
    path: string,
    private readonly targets: () => RangeTarget[],
  ) {
    super(context, path);
  }

  protected list(): RangeTarget[] {
    return this.targets();
  }

  protected itemProxy(target: RangeTarget, path: string): FakeRange {
    return new FakeRange(this.context, path, () => target);
  }
}

/** The cells of `rect` holding a formula, as rectangles: each row's runs, rows with the same runs merged. */
function formulaAreas(sheet: SheetModel, rect: Rect): Rect[] {
  const done: Rect[] = [];
  // The rectangles still growing downwards, by their runs' columns ("col:cols").
  let open = new Map<string, Rect>();
  let lastRow = -2;
  const closeRow = (row: number, runs: Array<[number, number]>) => {
    const next = new Map<string, Rect>();
    for (const [col, cols] of runs) {
      const key = `${col}:${cols}`;
      const above = row === lastRow + 1 ? open.get(key) : undefined;
      if (above) {
        above.rows++;
        next.set(key, above);
        open.delete(key);
      } else next.set(key, { row, col, rows: 1, cols });
    }
    for (const r of open.values()) done.push(r);
    open = next;
    lastRow = row;
  };
  let row = -1;
  let runs: Array<[number, number]> = [];
  sheet.forEachStored(rect, (cell, r, c) => {
    if (cell.formula === undefined) return;
    if (r !== row) {
      if (row >= 0) closeRow(row, runs);
      row = r;
      runs = [];
    }
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === c) last[1]++;
    else runs.push([c, 1]);
  });
  if (row >= 0) closeRow(row, runs);
  for (const r of open.values()) done.push(r);
  return done.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** A recorded conditional format; its rule and format objects are recorders. */
export class FakeConditionalFormat {
  constructor(
    private readonly sink: () => Record<string, unknown>,
    private readonly context: FakeRequestContext,
    private readonly path: string,
    private readonly type: string,
    private readonly recorded: () => { sheet: SheetModel; cf: ConditionalFormatModel },
  ) {}

  /**
   * The one range the format applies to, or a null object when it applies to several
   * (excel.conditionalformat#excel-excel-conditionalformat-getrangeornullobject-member(1), ExcelApi 1.6).
   */
  getRangeOrNullObject(): FakeRange {
    return new FakeRange(
      this.context,
      `${this.path}.getRangeOrNullObject()`,
      () => {
        const { sheet, cf } = this.recorded();
        const local = splitSheet(cf.address).local;
        return local.includes(",") ? null : { sheet, rect: parseLocal(local) };
      },
      true,
    );
  }

  /**
   * Sets the ranges the format applies to: a Range or an address on the format's sheet
   * (excel.conditionalformat#excel-excel-conditionalformat-setranges-member(1), ExcelApi 1.17).
   */
  setRanges(ranges: FakeRange | string): void {
    this.context.enqueue({
      name: "conditionalFormat.setRanges",
      target: this.path,
      payload: typeof ranges === "string" ? ranges : "range",
      apply: () => {
        const { sheet, cf } = this.recorded();
        let rect: Rect;
        if (typeof ranges === "string") {
          const split = splitSheet(ranges);
          if (split.sheet !== undefined && split.sheet.toLowerCase() !== sheet.name.toLowerCase())
            throw invalidArgument(`The address '${ranges}' refers to another sheet.`, "ConditionalFormat.setRanges");
          rect = parseLocal(split.local);
        } else {
          const t = ranges.resolve();
          if (t.sheet !== sheet) throw invalidArgument("The range is on another sheet.", "ConditionalFormat.setRanges");
          rect = t.rect;
        }
        cf.address = formatAddress(sheet.name, rect);
        this.context.host.model.note({ kind: "formats", sheetName: sheet.name, address: cf.address });
      },
    });
  }

  private sub(name: string): unknown {
    return recorder(this.context, this.path, name, () => {
      const settings = this.sink();
      return (path, value) => {
        checkConditionalFormatSetting(this.type, path, value); // rules.ts: Excel refuses these too
        settings[path] = value;
      };
    });
  }
  get textComparison(): unknown {
    return this.sub("textComparison");
  }
  get cellValue(): unknown {
    return this.sub("cellValue");
  }
  get custom(): unknown {
    return this.sub("custom");
  }
  get colorScale(): unknown {
    return this.sub("colorScale");
  }
  get dataBar(): unknown {
    return this.sub("dataBar");
  }
  get iconSet(): unknown {
    return this.sub("iconSet");
  }
  get preset(): unknown {
    return this.sub("preset");
  }
  get topBottom(): unknown {
    return this.sub("topBottom");
  }
}

/**
 * range.conditionalFormats: add(type) records a rule on the range's sheet; load() lists the formats
 * that intersect the range ("The collection of ConditionalFormats that intersect the range",
 * excel.range#excel-excel-range-conditionalformats-member, ExcelApi 1.6).
 */
export class FakeConditionalFormatCollection {
  private loaded: FakeConditionalFormat[] | undefined;

  constructor(private readonly range: FakeRange) {}

  /** The formats listed by the last load(), after its sync. */
  get items(): FakeConditionalFormat[] {
    if (!this.loaded) throw propertyNotLoaded("ConditionalFormatCollection", "items");
    return this.loaded;
  }

  /** Lists the formats intersecting the range at sync (their type is all a proxy carries). */
  load(): this {
    const context = this.range.context;
    context.enqueue({
      name: "load",
      target: "range.conditionalFormats",
      apply: () => {
        const t = this.range.resolve();
        const found = t.sheet.conditionalFormats.filter((cf) =>
          splitSheet(cf.address)
            .local.split(",")
            .some((local) => intersection(parseLocal(local), t.rect) !== null),
        );
        return () => {
          this.loaded = found.map(
            (cf, i) =>
              new FakeConditionalFormat(
                () => cf.settings,
                context,
                `range.conditionalFormats.items[${i}]`,
                cf.type,
                () => ({ sheet: t.sheet, cf }),
              ),
          );
          return found.length;
        };
      },
    });
    return this;
  }

  add(type: string): FakeConditionalFormat {
    const context = this.range.context;
    const holder: { settings?: Record<string, unknown>; sheet?: SheetModel; cf?: ConditionalFormatModel } = {};
    context.enqueue({
      name: "conditionalFormats.add",
      target: "range",
      payload: type,
      apply: () => {
        checkConditionalFormatType(type);
        const t = this.range.resolve();
        const settings: Record<string, unknown> = {};
        const address = formatAddress(t.sheet.name, t.rect);
        const cf = { id: context.host.model.newId("cf"), type, address, settings };
        t.sheet.conditionalFormats.push(cf);
        context.host.model.note({ kind: "formats", sheetName: t.sheet.name, address });
        holder.settings = settings;
        holder.sheet = t.sheet;
        holder.cf = cf;
      },
    });
    return new FakeConditionalFormat(
      () => {
        if (!holder.settings) throw invalidArgument("The conditional format was not created.");
        return holder.settings;
      },
      context,
      `conditionalFormat(${type})`,
      type,
      () => {
        if (!holder.sheet || !holder.cf) throw invalidArgument("The conditional format was not created.");
        return { sheet: holder.sheet, cf: holder.cf };
      },
    );
  }
}

/** A range on a sheet proxy from an A1 address ("A1:C3", "Sheet2!B2" is rejected as in Excel). */
export function rangeFromAddress(
  context: FakeRequestContext,
  sheet: FakeWorksheet,
  address: string | undefined,
): FakeRange {
  return new FakeRange(context, `${sheet.pathForChildren}.getRange(${address ?? ""})`, () => {
    const s = sheet.resolve();
    if (address === undefined || address === "")
      return { sheet: s, rect: { row: 0, col: 0, rows: 1_048_576, cols: 16_384 } };
    const split = splitSheet(address);
    if (split.sheet !== undefined && split.sheet.toLowerCase() !== s.name.toLowerCase()) {
      throw invalidArgument(`The address '${address}' refers to another sheet.`);
    }
    return { sheet: s, rect: parseLocal(split.local) };
  });
}

export { formatLocal };
