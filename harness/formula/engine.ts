/**
 * The harness's calculation engine: the fake workbook's formula evaluator, playing Excel's part for
 * `=RISK.*(...)` cells. Evaluating a formula parses it, reads the referenced cells, calls the
 * function the real functions bundle registered (with a fake invocation whose `onCanceled` is
 * called when the cell is recalculated or overwritten), shows `#BUSY!` until the promise settles,
 * then writes the value, spills an array across the cells below and to the right (`#SPILL!` when
 * they are not empty), or shows the error code and keeps its message for the grid.
 * When a result changes, formulas that reference the cell are recalculated, as Excel does.
 *
 * Arguments are passed as Excel passes them: a range as rows of values; for a parameter that
 * functions.json declares `"dimensionality": "matrix"`, a single value as a 1×1 array too (see
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-parameter-options).
 * A `#SPILL!` anchor is recalculated when the cells that blocked it are edited, as in Excel.
 */
import { isExcelErrorValue } from "../../src/shaping/excel-errors";
import type { FakeCellValue, FakeExcel, FormulaCell } from "../../testing/fake-excel";
import { formatAddress, formatLocal, parseLocal, splitSheet, type Rect } from "../../testing/fake-excel/a1";
import type { SheetModel } from "../../testing/fake-excel/model";
import { asCellError, type FunctionRegistry } from "../custom-functions-registry";
import { FormulaSyntaxError, parseFormula, referencesOf, type Expr, type RefExpr } from "./parse";
import type { MetadataIndex } from "./metadata";

/** The add-in's function namespace (manifest.xml, Functions.Namespace). */
export const FUNCTION_NAMESPACE = "RISK";

/** An error a formula cell shows, with the message Excel would show on hover. */
export interface CellError {
  code: string;
  message: string;
}

/** The invocation object a function receives as its last argument. */
export interface HarnessInvocation {
  address: string;
  functionName: string;
  parameterAddresses?: string[];
  onCanceled?: () => void;
}

interface Pending {
  generation: number;
  invocation: HarnessInvocation;
  startedAt: number;
}

interface Spill {
  sheet: SheetModel;
  rect: Rect;
}

/** Runs the formulas of one fake workbook against one function registry. */
export class FormulaEngine {
  private readonly pending = new Map<string, Pending>();
  /** Formula cells that wait for a referenced cell still showing #BUSY!. */
  private readonly waiting = new Set<string>();
  private readonly errors = new Map<string, CellError>();
  private readonly spills = new Map<string, Spill>();
  private readonly spilledBy = new Map<string, string>();
  /** Anchors showing #SPILL!, with the area they need: editing a cell there recalculates them. */
  private readonly blocked = new Map<string, Spill>();
  private readonly parsed = new Map<string, Expr | FormulaSyntaxError>();
  private generation = 0;
  /**
   * Keys of the formula cells that reference cells, by the sheet they reference (`id:<sheet id>`
   * for their own sheet, `name:<lower-case name>` for a sheet named in the formula): a superset (a
   * key may since hold another formula, or none), so that finding a changed cell's dependents looks
   * only at the formulas that reference its sheet instead of every cell of the workbook. Rebuilt by
   * a full scan when cells moved.
   */
  private readonly referencing = new Map<string, Set<string>>();
  private referencingBuiltAt = -1;
  private readonly activityListeners = new Set<() => void>();
  /** Number of function calls made since the page loaded (shown in the status line, read by tests). */
  calls = 0;
  /**
   * Told after each stretch of calculation (evaluating formulas, showing results, spilling) how
   * long it took, the registered functions' own synchronous time apart: in Excel the calculation
   * runs in Excel's process and the functions in the add-in's, so a benchmark counts them apart.
   */
  onCalculated?: (calculationMs: number, functionMs: number) => void;
  private calculating = 0;
  private functionMs = 0;

  constructor(
    private readonly fake: FakeExcel,
    private readonly registry: FunctionRegistry,
    private metadata: MetadataIndex,
  ) {}

  /** Replace the functions.json index (it is fetched after the engine exists). */
  setMetadata(metadata: MetadataIndex): void {
    this.metadata = metadata;
  }

  /** The evaluator to install into the fake (`fake.setFormulaEvaluator(engine.evaluator)`). */
  readonly evaluator = (formula: string, cell: FormulaCell): FakeCellValue | undefined => this.evaluate(formula, cell);

  /** Formula calls still waiting for their function (or for a referenced #BUSY! cell). */
  get busyCount(): number {
    return this.pending.size + this.waiting.size;
  }

  /** Be told when calculation starts or settles; returns the unsubscribe function. */
  onActivity(listener: () => void): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  /** The error shown by a cell and its message, if the cell shows one. */
  errorAt(sheet: SheetModel, row: number, col: number): CellError | undefined {
    const key = cellKey(sheet, row, col);
    const error = this.errors.get(key);
    if (error) return error;
    const value = sheet.cell(row, col)?.value;
    if (isExcelErrorValue(value) && value !== "#BUSY!") return { code: String(value), message: "" };
    return undefined;
  }

  /** The address of the formula cell whose array spilled into this cell (undefined for anchors and plain cells). */
  spillAnchorOf(sheet: SheetModel, row: number, col: number): string | undefined {
    const key = this.spilledBy.get(cellKey(sheet, row, col));
    const found = key === undefined ? undefined : this.locate(key);
    return found && formatAddress(found.sheet.name, { row: found.row, col: found.col, rows: 1, cols: 1 });
  }

  /** The rectangle a formula cell spilled into, if it did. */
  spillOf(sheet: SheetModel, row: number, col: number): Rect | undefined {
    const spill = this.spills.get(cellKey(sheet, row, col));
    return spill && !spill.sheet.deleted ? spill.rect : undefined;
  }

  /**
   * Called before a user overwrites cells: cancels their pending calls and clears the spills they
   * anchor. Returns the anchors of spills the edit lands in, to recalculate after the edit.
   */
  beforeUserEdit(sheet: SheetModel, rect: Rect): string[] {
    const blockedAnchors = new Set<string>();
    for (let r = rect.row; r < rect.row + rect.rows; r++) {
      for (let c = rect.col; c < rect.col + rect.cols; c++) {
        const key = cellKey(sheet, r, c);
        this.cancel(key);
        this.errors.delete(key);
        this.waiting.delete(key);
        this.clearSpill(key);
        const anchor = this.spilledBy.get(key);
        if (anchor) {
          this.spilledBy.delete(key);
          blockedAnchors.add(anchor);
        }
      }
    }
    for (const [anchor, want] of this.blocked) {
      if (want.sheet === sheet && overlaps(want.rect, rect)) blockedAnchors.add(anchor);
    }
    this.emitActivity();
    return [...blockedAnchors];
  }

  /** Recalculate the formula cells with these keys (spill anchors blocked by an edit). */
  recalculateKeys(keys: string[]): void {
    for (const key of keys) {
      const found = this.locate(key);
      if (!found) continue;
      const cell = found.sheet.cell(found.row, found.col);
      if (cell?.formula === undefined) continue;
      const local = formatLocal({ row: found.row, col: found.col, rows: 1, cols: 1 });
      this.fake.setFormulaResult(
        found.sheet.name,
        local,
        this.evaluate(cell.formula, {
          sheetName: found.sheet.name,
          address: formatAddress(found.sheet.name, { row: found.row, col: found.col, rows: 1, cols: 1 }),
          row: found.row,
          col: found.col,
        }),
      );
    }
  }

  /**
   * Recalculate the formulas that reference any cell of `rect` on `sheet` (after a user edit or a
   * new result), except those inside `except` (just written, so just evaluated).
   */
  recalculateDependents(sheet: SheetModel, rect: Rect, except?: Rect): void {
    for (const target of this.dependentsOf(sheet, rect)) {
      if (except && target.sheet === sheet && overlaps(except, { row: target.row, col: target.col, rows: 1, cols: 1 }))
        continue;
      const local = formatLocal({ row: target.row, col: target.col, rows: 1, cols: 1 });
      const value = this.evaluate(target.formula, {
        sheetName: target.sheet.name,
        address: formatAddress(target.sheet.name, { row: target.row, col: target.col, rows: 1, cols: 1 }),
        row: target.row,
        col: target.col,
      });
      this.fake.setFormulaResult(target.sheet.name, local, value);
    }
  }

  /** Resolves once no formula is calculating and nothing changed for a short while. */
  async waitForIdle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let quietSince = 0;
    for (;;) {
      if (this.busyCount === 0) {
        if (quietSince === 0) quietSince = Date.now();
        if (Date.now() - quietSince >= 50) return;
      } else quietSince = 0;
      if (Date.now() > deadline)
        throw new Error(`${this.busyCount} formula(s) still calculating after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  // ---- evaluation ---------------------------------------------------------------------------

  private evaluate(formula: string, at: FormulaCell): FakeCellValue {
    return this.calculation(() => this.evaluateNow(formula, at));
  }

  /** Runs a stretch of calculation, timed for {@link onCalculated} when it is the outermost one. */
  private calculation<T>(work: () => T): T {
    if (!this.onCalculated || this.calculating > 0) return work();
    this.calculating++;
    this.functionMs = 0;
    const started = performance.now();
    try {
      return work();
    } finally {
      this.calculating--;
      const functionMs = this.functionMs;
      this.onCalculated(performance.now() - started - functionMs, functionMs);
    }
  }

  private evaluateNow(formula: string, at: FormulaCell): FakeCellValue {
    const sheet = this.fake.model.findSheet(at.sheetName);
    if (!sheet) return "#REF!";
    const rect =
      at.row !== undefined && at.col !== undefined
        ? { row: at.row, col: at.col, rows: 1, cols: 1 }
        : parseLocal(splitSheet(at.address).local);
    const key = cellKey(sheet, rect.row, rect.col);
    const expr = this.parse(formula);
    // A cell of Excel's own functions that already shows so is left as it is: the steps below would
    // leave the same state, but a full recalculation (over a million such cells in the weekly bench)
    // re-keyed each in the error map, garbage Excel's own calculation never makes in the add-in's heap.
    if (expr === EXCEL_FUNCTIONS && this.errors.get(key) === EXCEL_FUNCTIONS_ERROR && this.settledCell(key))
      return EXCEL_FUNCTIONS_ERROR.code;
    this.cancel(key);
    this.errors.delete(key);
    this.waiting.delete(key);

    if (expr === EXCEL_FUNCTIONS) return this.fail(key, sheet, rect, EXCEL_FUNCTIONS_ERROR);
    if (expr instanceof FormulaSyntaxError)
      return this.fail(key, sheet, rect, { code: "#NAME?", message: expr.message });
    this.indexReferences(key, sheet, expr);
    if (expr.kind !== "call") {
      const value = this.argumentValue(expr, sheet, undefined);
      if (value === BUSY) return this.wait(key);
      if (isCellErrorArg(value)) return this.fail(key, sheet, rect, value.error);
      this.clearSpill(key);
      return Array.isArray(value)
        ? this.fail(key, sheet, rect, { code: "#VALUE!", message: "A range cannot be shown in one cell here" })
        : scalar(value, (error) => this.errors.set(key, error));
    }
    return this.call(expr, formula, key, sheet, rect);
  }

  private call(
    expr: Extract<Expr, { kind: "call" }>,
    formula: string,
    key: string,
    sheet: SheetModel,
    rect: Rect,
  ): FakeCellValue {
    const [namespace, ...rest] = expr.name.split(".");
    const id = rest.join(".");
    const fn = namespace.toUpperCase() === FUNCTION_NAMESPACE && id ? this.registry.get(id) : undefined;
    if (!fn) {
      const known = this.registry.ids().map((name) => `${FUNCTION_NAMESPACE}.${name}`);
      const message = known.length
        ? `${expr.name} is not a function here; known: ${known.join(", ")}`
        : `${expr.name}: no RISK.* function is registered (did functions.js load?)`;
      return this.fail(key, sheet, rect, { code: "#NAME?", message });
    }
    const meta = this.metadata.get(id);
    const declared = meta ? meta.parameters.length : Math.max(0, fn.length - 1);
    if (expr.args.length > declared) {
      return this.fail(key, sheet, rect, {
        code: "#VALUE!",
        message: `${expr.name.toUpperCase()} takes at most ${declared} arguments; got ${expr.args.length}`,
      });
    }
    const args: unknown[] = [];
    for (let i = 0; i < declared; i++) {
      const arg = expr.args[i];
      const value = arg === undefined ? null : this.argumentValue(arg, sheet, meta?.parameters[i]?.type);
      if (value === BUSY) return this.wait(key);
      if (isCellErrorArg(value)) return this.fail(key, sheet, rect, value.error);
      // A matrix parameter always receives rows of values: Excel hands a single value as [[value]]
      // (an omitted optional one stays null).
      const matrix = meta?.parameters[i]?.dimensionality === "matrix";
      args.push(matrix && value !== null && !Array.isArray(value) ? [[value]] : value);
    }
    const address = formatAddress(sheet.name, { ...rect, rows: 1, cols: 1 });
    const invocation: HarnessInvocation = {
      address,
      functionName: `${FUNCTION_NAMESPACE}.${id.toUpperCase()}`,
      parameterAddresses: expr.args.map((a) => (a.kind === "ref" ? formatAddress(a.sheet ?? sheet.name, a) : "")),
    };
    const generation = ++this.generation;
    this.pending.set(key, { generation, invocation, startedAt: Date.now() });
    this.calls++;
    this.emitActivity();
    let result: Promise<unknown>;
    const called = performance.now();
    try {
      result = Promise.resolve(fn(...args, invocation));
    } catch (error) {
      result = Promise.reject(error);
    } finally {
      this.functionMs += performance.now() - called;
    }
    result.then(
      (value) => this.settle(key, generation, formula, { value }),
      (error) => this.settle(key, generation, formula, { error }),
    );
    return "#BUSY!";
  }

  private settle(
    key: string,
    generation: number,
    formula: string,
    outcome: { value?: unknown; error?: unknown },
  ): void {
    this.calculation(() => this.settleNow(key, generation, formula, outcome));
  }

  private settleNow(
    key: string,
    generation: number,
    formula: string,
    outcome: { value?: unknown; error?: unknown },
  ): void {
    const pending = this.pending.get(key);
    if (!pending || pending.generation !== generation) return; // recalculated or overwritten meanwhile
    this.pending.delete(key);
    const found = this.locate(key);
    const cell = found?.sheet.cell(found.row, found.col);
    if (!found || cell?.formula !== formula) {
      this.emitActivity();
      return;
    }
    const { sheet, row, col } = found;
    const rect = { row, col, rows: 1, cols: 1 };
    const before = this.spillValues(key, sheet, row, col);
    let shown: FakeCellValue;
    if ("error" in outcome && outcome.error !== undefined) {
      shown = this.fail(key, sheet, rect, errorOf(outcome.error));
    } else {
      const returned = asCellError(outcome.value);
      shown = returned ? this.fail(key, sheet, rect, returned) : this.show(key, sheet, rect, outcome.value);
    }
    this.fake.setFormulaResult(sheet.name, formatLocal(rect), shown);
    const after = this.spillValues(key, sheet, row, col);
    if (before !== after) {
      const spill = this.spills.get(key);
      this.recalculateDependents(sheet, spill ? spill.rect : rect);
    }
    this.emitActivity();
  }

  /** The value an anchor shows for a returned value; arrays spill into the cells around it. */
  private show(key: string, sheet: SheetModel, rect: Rect, value: unknown): FakeCellValue {
    if (!Array.isArray(value)) {
      this.clearSpill(key);
      return scalar(value, (error) => this.errors.set(key, error));
    }
    const rows = value.map((row) => (Array.isArray(row) ? row : [row]));
    const height = rows.length;
    const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
    if (height === 0 || width === 0) {
      this.clearSpill(key);
      return this.fail(key, sheet, rect, { code: "#CALC!", message: "The function returned an empty array" });
    }
    const area: Rect = { row: rect.row, col: rect.col, rows: height, cols: width };
    // Excel: "Spilled array formulas aren't supported in Excel tables" (#SPILL!, "Spill into
    // table"); a single value in a table cell is fine.
    const table = height > 1 || width > 1 ? this.tableAt(sheet, rect.row, rect.col) : undefined;
    if (table) {
      this.clearSpill(key);
      return this.fail(key, sheet, rect, {
        code: "#SPILL!",
        message: `Spill into table: ${table} is an Excel table, where an array cannot spill`,
      });
    }
    const blocker = this.blockerIn(key, sheet, area);
    if (blocker) {
      this.clearSpill(key);
      const shown = this.fail(key, sheet, rect, {
        code: "#SPILL!",
        message: `Spill range ${formatLocal(area)} isn't blank: ${blocker} holds data`,
      });
      this.blocked.set(key, { sheet, rect: area });
      return shown;
    }
    this.clearSpill(key);
    if (height > 1 || width > 1) {
      for (let r = 0; r < height; r++) {
        for (let c = 0; c < width; c++) {
          if (r === 0 && c === 0) continue;
          const target = sheet.cellForWrite(area.row + r, area.col + c);
          target.formula = undefined;
          const spilledKey = cellKey(sheet, area.row + r, area.col + c);
          // An error element keeps its message, as Excel shows it on the spilled cell.
          target.value = scalar(rows[r][c] ?? "", (error) => this.errors.set(spilledKey, error), true);
          this.spilledBy.set(spilledKey, key);
        }
      }
      this.spills.set(key, { sheet, rect: area });
      this.fake.model.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, area) });
    }
    return scalar(rows[0][0], (error) => this.errors.set(key, error), true);
  }

  /** The name of the table holding the cell, if one does. */
  private tableAt(sheet: SheetModel, row: number, col: number): string | undefined {
    const cell = { row, col, rows: 1, cols: 1 };
    return this.fake.model.tables.find((t) => !t.deleted && t.sheet === sheet && overlaps(t.rect, cell))?.name;
  }

  /** The first cell of `area` (other than the anchor) that holds something not spilled by `key`. */
  private blockerIn(key: string, sheet: SheetModel, area: Rect): string | undefined {
    let blocker: string | undefined;
    sheet.forEachStored(area, (cell, r, c) => {
      if (blocker || (r === area.row && c === area.col)) return;
      const owner = this.spilledBy.get(cellKey(sheet, r, c));
      if (owner === key) return;
      if (cell.value !== "" || cell.formula !== undefined) blocker = formatLocal({ row: r, col: c, rows: 1, cols: 1 });
    });
    return blocker;
  }

  private clearSpill(key: string): void {
    this.blocked.delete(key);
    const spill = this.spills.get(key);
    if (!spill) return;
    this.spills.delete(key);
    const { sheet, rect } = spill;
    sheet.forEachStored(rect, (cell, r, c) => {
      const cellId = cellKey(sheet, r, c);
      if (this.spilledBy.get(cellId) !== key) return;
      this.spilledBy.delete(cellId);
      this.errors.delete(cellId);
      if (cell.formula === undefined) cell.value = "";
    });
    if (!sheet.deleted)
      this.fake.model.note({ kind: "cells", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  /** A fingerprint of what a formula shows (anchor and spill), to tell whether dependents must recalculate. */
  private spillValues(key: string, sheet: SheetModel, row: number, col: number): string {
    const spill = this.spills.get(key);
    const rect = spill?.rect ?? { row, col, rows: 1, cols: 1 };
    return JSON.stringify([rect, this.fake.model.read(sheet, rect, "values")]);
  }

  private fail(key: string, sheet: SheetModel, rect: Rect, error: CellError): FakeCellValue {
    void sheet;
    void rect;
    this.blocked.delete(key);
    this.clearSpill(key);
    this.errors.set(key, error);
    return error.code;
  }

  /** Whether the cell `key` has no call pending, waits for no busy cell, and neither spills nor is blocked. */
  private settledCell(key: string): boolean {
    return !this.pending.has(key) && !this.waiting.has(key) && !this.spills.has(key) && !this.blocked.has(key);
  }

  private wait(key: string): FakeCellValue {
    this.waiting.add(key);
    this.emitActivity();
    return "#BUSY!";
  }

  private cancel(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    try {
      pending.invocation.onCanceled?.();
    } catch {
      // a failing cancel handler must not break the recalculation
    }
  }

  // ---- arguments ----------------------------------------------------------------------------

  private argumentValue(expr: Expr, sheet: SheetModel, type: string | undefined): unknown {
    switch (expr.kind) {
      case "number":
      case "string":
      case "boolean":
        return expr.value;
      case "omitted":
        return null;
      case "call":
        return {
          error: { code: "#VALUE!", message: `Nested functions (${expr.name}) are not supported by the harness` },
        };
      case "ref":
        return this.referenceValue(expr, sheet, type);
    }
  }

  private referenceValue(ref: RefExpr, sheet: SheetModel, type: string | undefined): unknown {
    const target = ref.sheet === undefined ? sheet : this.fake.model.findSheet(ref.sheet);
    if (!target) return { error: { code: "#REF!", message: `No sheet named "${ref.sheet}"` } };
    const values: unknown[][] = [];
    for (let r = 0; r < ref.rows; r++) {
      const line: unknown[] = [];
      for (let c = 0; c < ref.cols; c++) {
        const value = target.cell(ref.row + r, ref.col + c)?.value ?? "";
        if (value === "#BUSY!") return BUSY;
        if (isExcelErrorValue(value)) {
          const where = formatLocal({ row: ref.row + r, col: ref.col + c, rows: 1, cols: 1 });
          const inner = this.errors.get(cellKey(target, ref.row + r, ref.col + c));
          return {
            error: {
              code: String(value),
              message: `${where} shows ${value}${inner?.message ? `: ${inner.message}` : ""}`,
            },
          };
        }
        line.push(value === "" && ref.rows * ref.cols === 1 ? emptyAs(type) : value);
      }
      values.push(line);
    }
    return ref.rows * ref.cols === 1 ? values[0][0] : values;
  }

  // ---- bookkeeping --------------------------------------------------------------------------

  private parse(formula: string): Expr | FormulaSyntaxError {
    // Excel's own functions (the financial impact sheets hold thousands) are not the harness's to
    // calculate: answered at once, without building a syntax error for each distinct formula.
    if (formula.includes("(") && !RISK_CALL.test(formula)) return EXCEL_FUNCTIONS;
    let expr = this.parsed.get(formula);
    if (!expr) {
      try {
        expr = parseFormula(formula);
      } catch (error) {
        expr = error instanceof FormulaSyntaxError ? error : new FormulaSyntaxError(String(error));
      }
      this.parsed.set(formula, expr);
    }
    return expr;
  }

  /** Formula cells that reference any cell of `rect` on `sheet`, or wait for a busy cell (sheet, row, column order). */
  private dependentsOf(
    sheet: SheetModel,
    rect: Rect,
  ): Array<{ sheet: SheetModel; row: number; col: number; formula: string }> {
    const sheets = this.fake.model.liveSheets();
    if (this.referencingBuiltAt !== this.fake.model.cellsMoved) this.indexReferencingCells(sheets);
    const candidates = new Set([
      ...(this.referencing.get(`id:${sheet.id}`) ?? []),
      ...(this.referencing.get(`name:${sheet.name.toLowerCase()}`) ?? []),
      ...this.waiting,
    ]);
    const out: Array<{ sheet: SheetModel; row: number; col: number; formula: string }> = [];
    for (const key of candidates) {
      const found = this.locate(key);
      const formula = found?.sheet.cell(found.row, found.col)?.formula;
      if (!found || formula === undefined) continue;
      const expr = this.parse(formula);
      if (expr instanceof FormulaSyntaxError) continue;
      const hit = referencesOf(expr).some((ref) => {
        const refSheet = ref.sheet === undefined ? found.sheet : this.fake.model.findSheet(ref.sheet);
        return refSheet === sheet && overlaps(ref, rect);
      });
      if (hit || this.waiting.has(key)) out.push({ ...found, formula });
    }
    const order = (s: SheetModel) => sheets.indexOf(s);
    return out.sort((a, b) => order(a.sheet) - order(b.sheet) || a.row - b.row || a.col - b.col);
  }

  /** Records a formula cell under each sheet its formula references. */
  private indexReferences(key: string, sheet: SheetModel, expr: Expr): void {
    for (const ref of referencesOf(expr)) {
      const on = ref.sheet === undefined ? `id:${sheet.id}` : `name:${ref.sheet.toLowerCase()}`;
      let keys = this.referencing.get(on);
      if (!keys) this.referencing.set(on, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Finds every formula cell that references cells, by a scan of the workbook (after cells moved). */
  private indexReferencingCells(sheets: readonly SheetModel[]): void {
    this.referencing.clear();
    for (const candidate of sheets)
      candidate.rows.forEach((line, r) =>
        line?.forEach((cell, c) => {
          if (cell?.formula === undefined) return;
          const expr = this.parse(cell.formula);
          if (!(expr instanceof FormulaSyntaxError)) this.indexReferences(cellKey(candidate, r, c), candidate, expr);
        }),
      );
    this.referencingBuiltAt = this.fake.model.cellsMoved;
  }

  private locate(key: string): { sheet: SheetModel; row: number; col: number } | undefined {
    const [sheetId, row, col] = key.split("|");
    const sheet = this.fake.model.liveSheets().find((s) => s.id === sheetId);
    return sheet ? { sheet, row: Number(row), col: Number(col) } : undefined;
  }

  private emitActivity(): void {
    for (const listener of this.activityListeners) listener();
  }
}

const BUSY = Symbol("busy");
/** A call of the add-in's namespace anywhere in a formula. */
const RISK_CALL = new RegExp(`\\b${FUNCTION_NAMESPACE}\\.`, "i");
/** What a formula calling only Excel's own functions shows (#NAME?, as in Excel without them). */
const EXCEL_FUNCTIONS = new FormulaSyntaxError(
  `Only ${FUNCTION_NAMESPACE}.* functions and references are calculated here, not Excel's own functions`,
);
/** The error every such cell shows: one object, never changed. */
const EXCEL_FUNCTIONS_ERROR: CellError = Object.freeze({ code: "#NAME?", message: EXCEL_FUNCTIONS.message });

function isCellErrorArg(value: unknown): value is { error: CellError } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "error" in value;
}

function cellKey(sheet: SheetModel, row: number, col: number): string {
  return `${sheet.id}|${row}|${col}`;
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

/** What Excel passes for an empty referenced cell: 0 to a number parameter, FALSE to a boolean, "" else. */
function emptyAs(type: string | undefined): unknown {
  if (type === "number") return 0;
  if (type === "boolean") return false;
  return "";
}

/** A returned element as a cell value; errors inside arrays show their code. */
function scalar(value: unknown, onError: (error: CellError) => void, blankForNull = false): FakeCellValue {
  const error = asCellError(value);
  if (error) {
    onError(error);
    return error.code;
  }
  if (value === null || value === undefined) return blankForNull ? "" : 0;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    onError({ code: "#NUM!", message: "The function returned a number Excel cannot show" });
    return "#NUM!";
  }
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  onError({ code: "#VALUE!", message: `The function returned ${typeof value}, which a cell cannot hold` });
  return "#VALUE!";
}

/** The code and message of a thrown error (CustomFunctions.Error, or anything else as #VALUE!). */
function errorOf(error: unknown): CellError {
  const cellError = asCellError(error);
  if (cellError) return cellError;
  const message = error instanceof Error ? error.message : String(error);
  return { code: "#VALUE!", message: `Uncaught: ${message}` };
}
