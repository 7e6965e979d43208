/**
 * `range.dataValidation` (Excel.DataValidation, ExcelApi 1.8): the fake keeps each cell's rule,
 * error alert, prompt and ignoreBlanks, and refuses what Excel refuses. Sources, the Office.js
 * reference (learn.microsoft.com/javascript/api/excel/) and its guide "Add data validation to
 * Excel ranges" (learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-data-validation):
 *  - excel.datavalidationrule: "A data validation rule contains different types of data
 *    validation. You can only use one of them at a time"; the guide: "No more than one of these
 *    properties may be present in any DataValidationRule object" (custom, date, decimal, list,
 *    textLength, time, wholeNumber). Setting `rule` sets the validation type.
 *  - excel.listdatavalidation: `inCellDropDown` ("The default is true") and `source`, "When
 *    setting the value, it can be passed in as a Range object, or a string that contains a
 *    comma-separated number, boolean, or date". A range source reads back as its reference
 *    (`=Lists!$A$1:$A$33`), as Excel shows it in the Source box.
 *  - A typed (comma-separated) list is at most 255 characters: Excel's own limit on a list typed
 *    into the Source box ("Apply data validation to cells", support.microsoft.com); a longer list
 *    must come from a range. The fake refuses longer ones with InvalidArgument.
 *  - excel.datavalidation: `type` is read-only (Excel.DataValidationType: None, List, ...;
 *    `Inconsistent` when cells of the range have different rules, `MixedCriteria` when some
 *    have one and some none); `valid` is true when every value satisfies the rule, false when none
 *    does, null when some do; `ignoreBlanks` defaults to true; `clear()` removes validation, the
 *    guide: "only the overlapping cells, if any, of the two ranges are cleared".
 *  - excel.datavalidationerroralert: `style` is Stop, Warning or Information; `showAlert` "The
 *    default is true".
 * Only list rules are checked against values (`valid`); other rule types are stored as given.
 */
import { FakeClientObject, FakeRequestContext } from "./context";
import { invalidArgument } from "./errors";
import { formatAddress, parseLocal, splitSheet } from "./a1";
import type { CellModel, SheetModel, WorkbookModel } from "./model";
import type { RangeTarget } from "./range";

/** One cell's data validation as stored. */
export interface DataValidationModel {
  /** The DataValidationRule as set, a list's Range source turned into its reference text. */
  rule: Record<string, Record<string, unknown>>;
  errorAlert?: { message?: string; showAlert?: boolean; style?: string; title?: string };
  prompt?: { message?: string; showPrompt?: boolean; title?: string };
  ignoreBlanks: boolean;
}

/** The rule properties of Excel.DataValidationRule and the Excel.DataValidationType each sets. */
const RULE_TYPES: Record<string, string> = {
  wholeNumber: "WholeNumber",
  decimal: "Decimal",
  list: "List",
  date: "Date",
  time: "Time",
  textLength: "TextLength",
  custom: "Custom",
};
const ALERT_STYLES = ["Stop", "Warning", "Information"];
/** Excel's limit on a typed list in the Source box. */
export const MAX_TYPED_LIST_LENGTH = 255;

/** What a range source is turned into when a rule is set: its absolute, sheet-qualified reference. */
export interface RangeLike {
  resolve(): RangeTarget;
}

function absolute(target: RangeTarget): string {
  const address = formatAddress(target.sheet.name, target.rect);
  const bang = address.lastIndexOf("!");
  return `=${address.slice(0, bang)}!${address.slice(bang + 1).replace(/([A-Z]+)(\d+)/g, "$$$1$$$2")}`;
}

/** Checks a rule and returns it as stored (Range sources as text). */
function normalizeRule(rule: unknown): DataValidationModel["rule"] {
  if (typeof rule !== "object" || rule === null) throw invalidArgument("A data validation rule must be an object.");
  const keys = Object.keys(rule).filter((k) => (rule as Record<string, unknown>)[k] !== undefined);
  const unknown = keys.filter((k) => !(k in RULE_TYPES));
  if (unknown.length > 0) throw invalidArgument(`DataValidationRule has no property '${unknown[0]}'.`, "rule");
  if (keys.length !== 1) {
    throw invalidArgument(
      `A DataValidationRule holds exactly one of ${Object.keys(RULE_TYPES).join(", ")} (got ${keys.length}).`,
      "rule",
    );
  }
  const key = keys[0]!;
  const criteria = { ...((rule as Record<string, Record<string, unknown>>)[key] ?? {}) };
  if (key === "list") {
    const source = criteria.source;
    if (source && typeof source === "object" && "resolve" in source) {
      criteria.source = absolute((source as RangeLike).resolve());
    } else if (typeof source !== "string" || source.trim() === "") {
      throw invalidArgument("ListDataValidation.source must be a Range or a comma-separated list.", "rule.list.source");
    } else if (!source.startsWith("=") && source.length > MAX_TYPED_LIST_LENGTH) {
      throw invalidArgument(
        `A typed list is at most ${MAX_TYPED_LIST_LENGTH} characters (this one has ${source.length}): use a range as the source.`,
        "rule.list.source",
      );
    }
    criteria.inCellDropDown = criteria.inCellDropDown ?? true;
  }
  return { [key]: criteria };
}

/** The values a list rule allows, read from the workbook for a range source. */
function listValues(model: WorkbookModel, source: string): string[] {
  if (!source.startsWith("=")) return source.split(",").map((v) => v.trim());
  const { sheet, local } = splitSheet(source.slice(1));
  const found = model.liveSheets().find((s) => s.name === sheet);
  if (!found) return [];
  const rect = parseLocal(local.replace(/\$/g, ""));
  return model.read(found, rect, "values").flat().map(String);
}

/** Excel.DataValidation of a range. */
export class FakeDataValidation extends FakeClientObject<RangeTarget> {
  protected readonly typeName = "DataValidation";
  protected readonly scalarProperties = ["rule", "type", "errorAlert", "prompt", "ignoreBlanks", "valid"] as const;
  private readonly model: WorkbookModel;

  constructor(context: FakeRequestContext, path: string, resolver: () => RangeTarget) {
    super(context, path, resolver);
    this.model = context.host.model;
  }

  protected override isGone(target: RangeTarget): boolean {
    return target.sheet.deleted;
  }

  private cells(target: RangeTarget): Array<CellModel | undefined> {
    const out: Array<CellModel | undefined> = [];
    for (let r = 0; r < target.rect.rows; r++)
      for (let c = 0; c < target.rect.cols; c++) out.push(target.sheet.cell(target.rect.row + r, target.rect.col + c));
    return out;
  }

  protected readProperty(target: RangeTarget, property: string): unknown {
    // A cell with only an alert or prompt set has no rule yet: no validation type.
    const all = this.cells(target).map((cell) =>
      cell?.validation && Object.keys(cell.validation.rule).length > 0 ? cell.validation : undefined,
    );
    const first = all[0];
    const same = all.every((v) => JSON.stringify(v) === JSON.stringify(first));
    switch (property) {
      case "type": {
        if (all.every((v) => v === undefined)) return "None";
        if (all.some((v) => v === undefined)) return "MixedCriteria";
        return same ? RULE_TYPES[Object.keys(first!.rule)[0]!] : "Inconsistent";
      }
      case "rule":
        return same && first ? structuredClone(first.rule) : {};
      case "errorAlert":
        return { showAlert: true, style: "Stop", message: "", title: "", ...(same ? first?.errorAlert : {}) };
      case "prompt":
        return { showPrompt: false, message: "", title: "", ...(same ? first?.prompt : {}) };
      case "ignoreBlanks":
        return same ? (first?.ignoreBlanks ?? true) : true;
      case "valid":
        return this.validity(target);
      default:
        throw invalidArgument(`The fake DataValidation cannot load '${property}'.`, `DataValidation.${property}`);
    }
  }

  /** True when every cell's value passes its list rule, false when none does, null when some do. */
  private validity(target: RangeTarget): boolean | null {
    const results = this.cells(target).map((cell) => {
      const validation = cell?.validation;
      if (!validation?.rule.list) return true;
      const value = cell?.value ?? "";
      if (value === "" && validation.ignoreBlanks) return true;
      return listValues(this.model, String(validation.rule.list.source)).includes(String(value));
    });
    return results.every(Boolean) ? true : results.some(Boolean) ? null : false;
  }

  private update(target: RangeTarget, change: (current: DataValidationModel | undefined) => DataValidationModel): void {
    const { sheet, rect } = target;
    for (let r = 0; r < rect.rows; r++)
      for (let c = 0; c < rect.cols; c++) {
        const cell = sheet.cellForWrite(rect.row + r, rect.col + c);
        cell.validation = change(cell.validation);
      }
    this.model.note({ kind: "formats", sheetName: sheet.name, address: formatAddress(sheet.name, rect) });
  }

  get rule(): Record<string, unknown> {
    return this.get("rule");
  }
  set rule(rule: Record<string, unknown>) {
    this.set("rule", rule, (t) => {
      const stored = normalizeRule(rule);
      this.update(t, (current) => ({ ignoreBlanks: true, ...current, rule: stored }));
    });
  }
  get type(): string {
    return this.get("type");
  }
  get valid(): boolean | null {
    return this.get("valid");
  }
  get errorAlert(): DataValidationModel["errorAlert"] {
    return this.get("errorAlert");
  }
  set errorAlert(alert: DataValidationModel["errorAlert"]) {
    this.set("errorAlert", alert, (t) => {
      if (alert?.style !== undefined && !ALERT_STYLES.includes(alert.style))
        throw invalidArgument(`'${alert.style}' is not a DataValidationAlertStyle (${ALERT_STYLES.join(", ")}).`);
      this.update(t, (current) => ({ ignoreBlanks: true, rule: {}, ...current, errorAlert: { ...alert } }));
    });
  }
  get prompt(): DataValidationModel["prompt"] {
    return this.get("prompt");
  }
  set prompt(prompt: DataValidationModel["prompt"]) {
    this.set("prompt", prompt, (t) =>
      this.update(t, (current) => ({ ignoreBlanks: true, rule: {}, ...current, prompt: { ...prompt } })),
    );
  }
  get ignoreBlanks(): boolean {
    return this.get("ignoreBlanks");
  }
  set ignoreBlanks(ignore: boolean) {
    this.set("ignoreBlanks", ignore, (t) =>
      this.update(t, (current) => ({ rule: {}, ...current, ignoreBlanks: ignore })),
    );
  }

  /** Removes the validation of the range's cells (only those: a wider rule keeps its other cells). */
  clear(): void {
    this.enqueueOn("clear", undefined, (t) => {
      t.sheet.forEachStored(t.rect, (cell) => {
        cell.validation = undefined;
      });
      this.model.note({ kind: "formats", sheetName: t.sheet.name, address: formatAddress(t.sheet.name, t.rect) });
    });
  }
}

/** A cell's stored validation (for tests and the harness). */
export function validationOf(sheet: SheetModel, row: number, col: number): DataValidationModel | undefined {
  return sheet.cell(row, col)?.validation;
}
