/**
 * In-memory fake of the Excel JavaScript API for tests and the browser harness (no Node APIs).
 *
 *   const fake = createFakeExcel();
 *   await fake.run(async (context) => { ... same code as inside Excel.run ... });
 *
 * `fake.run` is typed with the real Excel.RequestContext so workbook code under test compiles
 * against @types/office-js. The controller methods (sheetNames, readValues, setSelection,
 * failSync, onChange, ...) are for tests and the harness; add-in code never calls them.
 */
import { Rect, formatAddress, parseLocal, splitSheet } from "./a1";
import { FakeHost, FakeRequestContext, InjectedFault, SyncCost, SyncHold, SyncInfo, SyncRecord } from "./context";
import { FakeErrorCodes, FakeExcelError } from "./errors";
import { FakeCellValue, FakeChange, FormulaEvaluator, SheetModel, WorkbookModel } from "./model";
import { FakeApplication, FakeCultureInfo, FakeNumberFormatInfo, FakeWorkbook } from "./workbook";
import { FakeConditionalFormat, FakeConditionalFormatCollection, FakeRange, FakeRangeAreas } from "./range";
import { FakeWorksheet, FakeWorksheetCollection, FakeWorksheetProtection } from "./worksheet";
import { FakeAutoFilter, FakeTable, FakeTableCollection, FakeTableSort } from "./table";
import { FakeChart, FakeChartCollection, FakeChartSeries, FakeChartSeriesCollection } from "./chart";
import { FakeDataValidation } from "./data-validation";
import { FakeRequirements, RequirementLevel, guardApiSets, installFakeOffice, isSetSupportedAt } from "./requirements";

export { FakeErrorCodes, FakeExcelError } from "./errors";
export type {
  FakeCellValue,
  FakeChange,
  FormulaEvaluator,
  FormulaCell,
  ChartModel,
  ConditionalFormatModel,
  TableModel,
  ExcelCultureModel,
} from "./model";
export { EN_US_CULTURE } from "./model";
export type { SyncRecord, SyncInfo, InjectedFault, SyncCost, SyncHold } from "./context";
export { EXCEL_BUILDS, FAKE_API_SETS, fakeMembers, installFakeOffice, unguardedApiSets } from "./requirements";
export type { FakeRequirements, RequirementLevel } from "./requirements";

// Members above ExcelApi 1.1 refuse to run below their set (requirements.ts), as office.js does.
guardApiSets(FakeRange.prototype, "Range");
guardApiSets(FakeDataValidation.prototype, "DataValidation");
guardApiSets(FakeRangeAreas.prototype, "RangeAreas");
guardApiSets(FakeConditionalFormat.prototype, "ConditionalFormat");
guardApiSets(FakeConditionalFormatCollection.prototype, "ConditionalFormatCollection");
guardApiSets(FakeWorksheet.prototype, "Worksheet");
guardApiSets(FakeWorksheetProtection.prototype, "WorksheetProtection");
guardApiSets(FakeWorksheetCollection.prototype, "WorksheetCollection");
guardApiSets(FakeTable.prototype, "Table");
guardApiSets(FakeAutoFilter.prototype, "AutoFilter");
guardApiSets(FakeTableCollection.prototype, "TableCollection");
guardApiSets(FakeTableSort.prototype, "TableSort");
guardApiSets(FakeChartSeries.prototype, "ChartSeries");
guardApiSets(FakeChartSeriesCollection.prototype, "ChartSeriesCollection");
guardApiSets(FakeChart.prototype, "Chart");
guardApiSets(FakeChartCollection.prototype, "ChartCollection");
guardApiSets(FakeWorkbook.prototype, "Workbook");
guardApiSets(FakeApplication.prototype, "Application");
guardApiSets(FakeCultureInfo.prototype, "CultureInfo");
guardApiSets(FakeNumberFormatInfo.prototype, "NumberFormatInfo");

/** Excel on the web's request and response payload limit, as the fake applies it by default. */
export const DEFAULT_PAYLOAD_LIMIT_BYTES = 5_000_000;

/** Options of {@link createFakeExcel}. */
export interface FakeExcelOptions {
  /** Name of the one sheet a new workbook has. Default "Sheet1". */
  firstSheetName?: string;
  /** Request payload limit in bytes (UTF-8 JSON of the batch). Default 5,000,000. */
  requestLimitBytes?: number;
  /** Response payload limit in bytes. Default 5,000,000. */
  responseLimitBytes?: number;
  /** Evaluates formulas ("=RISK.SCORE(...)"); default: every formula shows "#NAME?". */
  evaluateFormula?: FormulaEvaluator;
  /** Requirement sets the fake supports, e.g. EXCEL_BUILDS.windows2101; default: all (the newest Excel). */
  requirements?: RequirementLevel;
  /** What each sync costs in time (context.ts, SyncCost); default nothing. */
  syncCost?: Partial<SyncCost>;
}

/** A batch function, as passed to Excel.run. */
export type Batch<T> = (context: Excel.RequestContext) => Promise<T>;

/** The object installed as the global `Excel`: run, ErrorCodes and the enums code refers to. */
export interface FakeExcelNamespace {
  run<T>(batch: Batch<T>): Promise<T>;
  run<T>(object: unknown, batch: Batch<T>): Promise<T>;
  ErrorCodes: typeof FakeErrorCodes;
  Error: typeof FakeExcelError;
  [enumName: string]: unknown;
}

/** The fake plus its controls. */
export interface FakeExcel {
  /** Same contract as Excel.run. */
  run<T>(batch: Batch<T>): Promise<T>;
  /** Drop-in for the global Excel namespace. */
  readonly Excel: FakeExcelNamespace;
  /** Direct access to the state (tests may inspect, the harness may render). */
  readonly model: WorkbookModel;
  /** One record per sync, oldest first. */
  readonly syncs: readonly SyncRecord[];
  /** Forget recorded syncs (the sync counter keeps counting). */
  resetSyncs(): void;
  /** Number of syncs sent so far. */
  readonly syncCount: number;
  /** Change the request payload limit. */
  setRequestLimit(bytes: number): void;
  /** Play an Excel build with these requirement sets (undefined: the newest Excel, everything supported). */
  setRequirementLevel(level: RequirementLevel | undefined): void;
  /** `Office.context.requirements` of this fake host: isSetSupported answers for its level. */
  readonly requirements: FakeRequirements;
  /** Fail the n-th sync from now (1 = the next one); see {@link InjectedFault}. */
  failSync(n: number, fault?: InjectedFault): void;
  /** Charge each sync from now on a round trip and a time per byte (context.ts, SyncCost). */
  setSyncCost(cost: Partial<SyncCost>): void;
  /** Milliseconds during which at least one sync waited on Excel's side (round trips, holds). */
  syncWaitMs(): number;
  /**
   * Hold the next sync (or the next for which `when` holds) pending, as Excel on the web does
   * while its server is busy: until `release()`, or forever when it is never called.
   * `applied: true` applies the batch at once and holds only its answer (Excel did the work, the
   * add-in never heard); default: held before it is applied.
   */
  holdNextSync(options?: { applied?: boolean; when?: (info: SyncInfo) => boolean }): SyncHold;
  /**
   * The analyst starts editing a cell (F2, or typing into it) until `exit()`: meanwhile each sync
   * fails with InvalidOperationInCellEditMode, or waits when its Excel.run asked `delayForCellEdit`.
   */
  enterCellEdit(): { exit(): void };
  /** Any policy: return a fault for the sync to fail it. */
  setFaultInjector(injector: ((info: SyncInfo) => InjectedFault | undefined) | undefined): void;
  /** Install or remove the formula evaluator and re-evaluate every formula. */
  setFormulaEvaluator(evaluator: FormulaEvaluator | undefined): void;
  /** Tell the fake where anchors spilled (the calculation engine knows), for getSpillingToRangeOrNullObject. */
  setSpillResolver(resolver: ((sheet: SheetModel, row: number, col: number) => Rect | undefined) | undefined): void;
  /** Set the shown result of one formula cell (async results, streaming). */
  setFormulaResult(sheetName: string, address: string, value: FakeCellValue): void;
  /** Re-evaluate every formula cell. */
  recalculate(): void;
  /** Be told after each sync or direct edit what changed; returns the unsubscribe function. */
  onChange(listener: (changes: FakeChange[]) => void): () => void;
  /** Sheet names in tab order (hidden ones included). */
  sheetNames(): string[];
  /** Name of the active sheet. */
  activeSheetName(): string;
  /** The selection as a sheet-qualified address. */
  selectionAddress(): string;
  /** Make a range the selection, as a user clicking would. */
  setSelection(sheetName: string, address: string): void;
  /** Add a sheet as a user would (fails like Excel on a bad or duplicate name). */
  addSheet(name: string): void;
  /** Type into cells as a user would (same input rules as `values`). */
  setValues(sheetName: string, address: string, values: unknown[][]): void;
  /** Merge cells as a user would. */
  merge(sheetName: string, address: string): void;
  /** Read without a sync: values, formulas, numberFormat, text or valueTypes. */
  read(
    sheetName: string,
    address: string,
    property?: "values" | "formulas" | "numberFormat" | "text" | "valueTypes",
  ): unknown[][];
  /** The used range of a sheet ("Sheet1!A1:C9"), or null when empty. */
  usedAddress(sheetName: string): string | null;
  /** Everything about the workbook as plain JSON, to compare before and after an operation. */
  snapshot(): WorkbookSnapshot;
}

/** A JSON image of the workbook (cells as [address, value, formula?, format?]). */
export interface WorkbookSnapshot {
  activeSheet: string;
  sheets: Array<{
    name: string;
    visibility: string;
    cells: Array<[string, FakeCellValue, string | undefined, string | undefined]>;
    merges: string[];
    charts: number;
    conditionalFormats: number;
  }>;
  tables: Array<{ name: string; address: string }>;
}

/** Create a fresh fake workbook with one sheet. */
export function createFakeExcel(options: FakeExcelOptions = {}): FakeExcel {
  const model = new WorkbookModel(options.firstSheetName ?? "Sheet1");
  model.evaluator = options.evaluateFormula;
  const listeners = new Set<(changes: FakeChange[]) => void>();
  const host: FakeHost = {
    model,
    requestLimitBytes: options.requestLimitBytes ?? DEFAULT_PAYLOAD_LIMIT_BYTES,
    responseLimitBytes: options.responseLimitBytes ?? DEFAULT_PAYLOAD_LIMIT_BYTES,
    syncs: [],
    syncCount: 0,
    syncCost: { roundTripMs: 0, msPerByte: 0, ...options.syncCost },
    waiting: { now: 0, since: 0, totalMs: 0 },
    requirements: options.requirements,
    emit: (changes) => {
      if (changes.length === 0) return;
      for (const l of listeners) l(changes);
    },
  };

  const newContext = (): Excel.RequestContext => {
    const context = new FakeRequestContext(host);
    context.workbook = new FakeWorkbook(context);
    return context as unknown as Excel.RequestContext;
  };

  async function run<T>(a: unknown, b?: unknown): Promise<T> {
    const batch = (typeof a === "function" ? a : b) as Batch<T>;
    if (typeof batch !== "function")
      throw new FakeExcelError(FakeErrorCodes.invalidArgument, "Excel.run needs a batch function.");
    const context = newContext();
    // Excel.run(options, batch): a plain object of Excel.RunOptions (an API object, or an array of
    // them, is the other overload's first argument).
    const options =
      a !== null && typeof a === "object" && Object.getPrototypeOf(a) === Object.prototype ? a : undefined;
    if (options && (options as { delayForCellEdit?: unknown }).delayForCellEdit === true)
      (context as unknown as FakeRequestContext).delayForCellEdit = true;
    const result = await batch(context);
    await context.sync();
    return result;
  }

  const sheet = (name: string): SheetModel => {
    const found = model.findSheet(name);
    if (!found) throw new FakeExcelError(FakeErrorCodes.itemNotFound, `No sheet named '${name}'.`);
    return found;
  };
  const rectOf = (address: string): Rect => parseLocal(splitSheet(address).local);
  const flush = (): void => host.emit(model.takeChanges());

  const Excel: FakeExcelNamespace = {
    run: run as FakeExcelNamespace["run"],
    ErrorCodes: FakeErrorCodes,
    Error: FakeExcelError,
    ...EXCEL_ENUMS,
  };

  return {
    run: (batch) => run(batch),
    Excel,
    model,
    get syncs() {
      return host.syncs;
    },
    resetSyncs: () => {
      host.syncs = [];
    },
    get syncCount() {
      return host.syncCount;
    },
    setRequestLimit: (bytes) => {
      host.requestLimitBytes = bytes;
    },
    setRequirementLevel: (level) => {
      host.requirements = level;
    },
    requirements: { isSetSupported: (name, minVersion) => isSetSupportedAt(host.requirements, name, minVersion) },
    failSync: (n, fault) => {
      const target = host.syncCount + n;
      const previous = host.faultInjector;
      host.faultInjector = (info) => {
        if (info.index === target) {
          host.faultInjector = previous;
          return fault ?? {};
        }
        return previous?.(info);
      };
    },
    setSyncCost: (cost) => {
      host.syncCost = { ...host.syncCost, ...cost };
    },
    syncWaitMs: () => host.waiting.totalMs + (host.waiting.now > 0 ? performance.now() - host.waiting.since : 0),
    holdNextSync: (holdOptions = {}) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let caught!: (info: SyncInfo) => void;
      const held = new Promise<SyncInfo>((resolve) => (caught = resolve));
      host.hold = { applied: holdOptions.applied ?? false, when: holdOptions.when, caught, released };
      return { held, release };
    },
    enterCellEdit: () => {
      let exit!: () => void;
      const ended = new Promise<void>((resolve) => (exit = resolve));
      const edit = { ended };
      host.cellEdit = edit;
      return {
        exit: () => {
          if (host.cellEdit === edit) host.cellEdit = undefined;
          exit();
        },
      };
    },
    setFaultInjector: (injector) => {
      host.faultInjector = injector;
    },
    setSpillResolver: (resolver) => {
      model.spillAreaOf = resolver;
    },
    setFormulaEvaluator: (evaluator) => {
      model.evaluator = evaluator;
      model.recalculate();
      flush();
    },
    setFormulaResult: (sheetName, address, value) => {
      const s = sheet(sheetName);
      const rect = rectOf(address);
      const cell = s.cell(rect.row, rect.col);
      if (!cell || cell.formula === undefined)
        throw new FakeExcelError(FakeErrorCodes.invalidArgument, `${address} holds no formula.`);
      cell.value = value;
      model.note({ kind: "cells", sheetName: s.name, address: formatAddress(s.name, rect) });
      flush();
    },
    recalculate: () => {
      model.recalculate();
      flush();
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sheetNames: () => model.liveSheets().map((s) => s.name),
    activeSheetName: () => model.activeSheet.name,
    selectionAddress: () => formatAddress(model.activeSheet.name, model.activeSheet.selection),
    setSelection: (sheetName, address) => {
      model.select(sheet(sheetName), rectOf(address));
      flush();
    },
    addSheet: (name) => {
      model.addSheet(name);
      flush();
    },
    setValues: (sheetName, address, values) => {
      model.writeValues(sheet(sheetName), rectOf(address), values, "values");
      flush();
    },
    merge: (sheetName, address) => {
      model.merge(sheet(sheetName), rectOf(address), false);
      flush();
    },
    read: (sheetName, address, property = "values") => model.read(sheet(sheetName), rectOf(address), property),
    usedAddress: (sheetName) => {
      const s = sheet(sheetName);
      const rect = s.usedRect(true);
      return rect ? formatAddress(s.name, rect) : null;
    },
    snapshot: () => snapshotOf(model),
  };
}

function snapshotOf(model: WorkbookModel): WorkbookSnapshot {
  return {
    activeSheet: model.activeSheet.name,
    sheets: model.liveSheets().map((s) => {
      const cells: WorkbookSnapshot["sheets"][number]["cells"] = [];
      s.rows.forEach((row, r) =>
        row?.forEach((cell, c) => {
          if (cell && (cell.value !== "" || cell.formula !== undefined || cell.numberFormat !== undefined)) {
            cells.push([
              formatAddress(s.name, { row: r, col: c, rows: 1, cols: 1 }),
              cell.value,
              cell.formula,
              cell.numberFormat,
            ]);
          }
        }),
      );
      return {
        name: s.name,
        visibility: s.visibility,
        cells,
        merges: s.merges.map((m) => formatAddress(s.name, m)),
        charts: s.charts.filter((c) => !c.deleted).length,
        conditionalFormats: s.conditionalFormats.length,
      };
    }),
    tables: model.tables.map((t) => ({ name: t.name, address: formatAddress(t.sheet.name, t.rect) })),
  };
}

/** The enum objects add-in code commonly reads at run time (values as Excel spells them). */
const EXCEL_ENUMS: Record<string, Record<string, string>> = {
  SheetVisibility: { visible: "Visible", hidden: "Hidden", veryHidden: "VeryHidden" },
  ChartType: {
    line: "Line",
    lineMarkers: "LineMarkers",
    columnClustered: "ColumnClustered",
    barClustered: "BarClustered",
    xyscatter: "XYScatter",
  },
  ChartSeriesBy: { auto: "Auto", columns: "Columns", rows: "Rows" },
  ConditionalFormatType: {
    custom: "Custom",
    dataBar: "DataBar",
    colorScale: "ColorScale",
    iconSet: "IconSet",
    topBottom: "TopBottom",
    presetCriteria: "PresetCriteria",
    containsText: "ContainsText",
    cellValue: "CellValue",
  },
  ConditionalTextOperator: {
    invalid: "Invalid",
    contains: "Contains",
    notContains: "NotContains",
    beginsWith: "BeginsWith",
    endsWith: "EndsWith",
  },
  ClearApplyTo: {
    all: "All",
    formats: "Formats",
    contents: "Contents",
    hyperlinks: "Hyperlinks",
    removeHyperlinks: "RemoveHyperlinks",
  },
  CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
  DeleteShiftDirection: { up: "Up", left: "Left" },
  InsertShiftDirection: { down: "Down", right: "Right" },
};

/**
 * Install the fake as the global `Excel` when no real Excel exists (the browser harness, or a
 * page opened outside Office), and make `Office.context.requirements` answer for the fake's
 * requirement level. Returns the fake, or null when a real Excel is already there.
 */
export function installFakeExcel(
  target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
  options?: FakeExcelOptions,
): FakeExcel | null {
  const existing = target.Excel as { run?: unknown } | undefined;
  if (existing && typeof existing.run === "function" && !(existing as { __fake?: boolean }).__fake) return null;
  const fake = createFakeExcel(options);
  target.Excel = Object.assign(fake.Excel, { __fake: true });
  installFakeOffice(target, fake.requirements);
  return fake;
}
