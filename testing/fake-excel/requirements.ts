/**
 * Requirement levels of the Excel fake: a test (or the harness) sets the requirement sets a host
 * supports, e.g. `EXCEL_BUILDS.windows2101`, and the fake then behaves as that Excel build does:
 *  - an API above the level throws ApiNotFound when it is called, synchronously, as office.js's
 *    own check does (office.js wraps such members in `throwIfApiNotSupported(name, set, version)`,
 *    message "The method or property {0} is part of the {1} requirement set, which is not
 *    available in your version of {2}.");
 *  - `Office.context.requirements.isSetSupported(name, version)` answers for that level
 *    ({@link installFakeOffice}).
 * Without a level the fake supports everything (the newest Excel).
 *
 * Levels come from Microsoft's requirement-set pages ("Excel JavaScript API requirement sets",
 * "Custom Functions requirement sets", "Shared runtime requirement sets").
 */
import { FakeErrorCodes, FakeExcelError } from "./errors";

/**
 * Requirement set name to the highest version a host supports, e.g. { ExcelApi: "1.12" }. A set absent is unsupported.
 */
export type RequirementLevel = Readonly<Record<string, string>>;

/**
 * Some Excel builds, by the highest version of each set they support (Microsoft's tables). Names
 * say the platform and the version (Windows Microsoft 365 "Version 2102" and so on).
 */
export const EXCEL_BUILDS = {
  /**
   * Windows Version 2008 (Build 13127.20296), the first the manifest admits: ExcelApi 1.11, CustomFunctionsRuntime 1.3.
   */
  windows2008: { ExcelApi: "1.11", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" },
  /** Windows Version 2101, Mac 16.49: the last builds without ExcelApi 1.13. */
  windows2101: { ExcelApi: "1.12", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" },
  /** Windows Version 2102 (Build 13801.20738), Mac 16.50: ExcelApi 1.13. */
  windows2102: { ExcelApi: "1.13", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" },
  /**
   * Office 2021 (volume licensed, Version 2108): ExcelApi 1.14, CustomFunctionsRuntime 1.3, SharedRuntime 1.1; no data
   * types in custom functions.
   */
  office2021: { ExcelApi: "1.14", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" },
  /** Windows Version 2208 (Build 15601.20148): CustomFunctionsRuntime 1.4 (data types reach `any` parameters). */
  windows2208: { ExcelApi: "1.16", CustomFunctionsRuntime: "1.4", SharedRuntime: "1.2" },
} as const satisfies Record<string, RequirementLevel>;

/** Compares "1.13" with "1.4" numerically: negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** isSetSupported at a level; undefined level = everything. A missing version means "1.1", as in office.js. */
export function isSetSupportedAt(level: RequirementLevel | undefined, name: string, version = "1.1"): boolean {
  if (!level) return true;
  const highest = level[name];
  return highest !== undefined && compareVersions(highest, version) >= 0;
}

/**
 * The members the fake implements that are above ExcelApi 1.1, with the set their typings tag
 * names. Keys are "ExcelClass.member"; the fake class for each Excel class is registered in
 * index.ts. test/requirement-sets.test.ts checks each against @types/office-js, and that every
 * member of a registered class above ExcelApi 1.1 is here: a member added to the fake must be too.
 */
export const FAKE_API_SETS: Readonly<Record<string, readonly [set: string, version: string]>> = {
  "Range.getMergedAreasOrNullObject": ["ExcelApi", "1.13"],
  "Range.getIntersectionOrNullObject": ["ExcelApi", "1.4"],
  "Range.getResizedRange": ["ExcelApi", "1.2"],
  "Range.conditionalFormats": ["ExcelApi", "1.6"],
  "Range.hyperlink": ["ExcelApi", "1.7"],
  "Range.dataValidation": ["ExcelApi", "1.8"],
  "DataValidation.rule": ["ExcelApi", "1.8"],
  "DataValidation.type": ["ExcelApi", "1.8"],
  "DataValidation.valid": ["ExcelApi", "1.8"],
  "DataValidation.errorAlert": ["ExcelApi", "1.8"],
  "DataValidation.prompt": ["ExcelApi", "1.8"],
  "DataValidation.ignoreBlanks": ["ExcelApi", "1.8"],
  "DataValidation.clear": ["ExcelApi", "1.8"],
  "RangeAreas.address": ["ExcelApi", "1.9"],
  "RangeAreas.areaCount": ["ExcelApi", "1.9"],
  "RangeAreas.areas": ["ExcelApi", "1.9"],
  "Range.getSpecialCellsOrNullObject": ["ExcelApi", "1.9"],
  "ConditionalFormatCollection.add": ["ExcelApi", "1.6"],
  "ConditionalFormat.textComparison": ["ExcelApi", "1.6"],
  "Worksheet.getRangeByIndexes": ["ExcelApi", "1.7"],
  "Worksheet.getUsedRangeOrNullObject": ["ExcelApi", "1.4"],
  "WorksheetCollection.getItemOrNullObject": ["ExcelApi", "1.4"],
  "TableCollection.getItemOrNullObject": ["ExcelApi", "1.4"],
  "Table.worksheet": ["ExcelApi", "1.2"],
  "ChartSeriesCollection.add": ["ExcelApi", "1.7"],
  "ChartSeries.setValues": ["ExcelApi", "1.7"],
  "ChartSeries.setXAxisValues": ["ExcelApi", "1.7"],
  "Range.merge": ["ExcelApi", "1.2"],
  "Range.unmerge": ["ExcelApi", "1.2"],
  "ConditionalFormat.cellValue": ["ExcelApi", "1.6"],
  "ConditionalFormat.custom": ["ExcelApi", "1.6"],
  "ConditionalFormat.colorScale": ["ExcelApi", "1.6"],
  "ConditionalFormat.dataBar": ["ExcelApi", "1.6"],
  "ConditionalFormat.iconSet": ["ExcelApi", "1.6"],
  "ConditionalFormat.preset": ["ExcelApi", "1.6"],
  "ConditionalFormat.topBottom": ["ExcelApi", "1.6"],
  "WorksheetCollection.getFirst": ["ExcelApi", "1.5"],
  "Chart.id": ["ExcelApi", "1.7"],
  "Workbook.getActiveCell": ["ExcelApi", "1.7"],
  "RangeFormat.autofitColumns": ["ExcelApi", "1.2"],
  "RangeFormat.autofitRows": ["ExcelApi", "1.2"],
  "ColorScaleConditionalFormat.criteria": ["ExcelApi", "1.6"],
  "Table.resize": ["ExcelApi", "1.13"],
  "Range.getSpillingToRangeOrNullObject": ["ExcelApi", "1.12"],
  "Range.getSpillParentOrNullObject": ["ExcelApi", "1.12"],
  "Range.getTables": ["ExcelApi", "1.9"],
  "Worksheet.protection": ["ExcelApi", "1.2"],
  "WorksheetProtection.protected": ["ExcelApi", "1.2"],
  "WorksheetProtection.protect": ["ExcelApi", "1.2"],
  "WorksheetProtection.unprotect": ["ExcelApi", "1.7"],
  "ConditionalFormat.getRangeOrNullObject": ["ExcelApi", "1.6"],
  "ConditionalFormat.setRanges": ["ExcelApi", "1.17"],
  "ChartSeries.getDimensionDataSourceString": ["ExcelApi", "1.15"],
  "Chart.chartType": ["ExcelApi", "1.7"],
  "Range.rowHidden": ["ExcelApi", "1.2"],
  "Table.sort": ["ExcelApi", "1.2"],
  "TableSort.apply": ["ExcelApi", "1.2"],
  "TableSort.reapply": ["ExcelApi", "1.2"],
  "Table.autoFilter": ["ExcelApi", "1.9"],
  "AutoFilter.isDataFiltered": ["ExcelApi", "1.9"],
  "AutoFilter.enabled": ["ExcelApi", "1.9"],
  "AutoFilter.apply": ["ExcelApi", "1.9"],
  "AutoFilter.clearCriteria": ["ExcelApi", "1.9"],
  "Application.decimalSeparator": ["ExcelApi", "1.11"],
  "Application.thousandsSeparator": ["ExcelApi", "1.11"],
  "Application.useSystemSeparators": ["ExcelApi", "1.11"],
  "Application.cultureInfo": ["ExcelApi", "1.11"],
  "CultureInfo.name": ["ExcelApi", "1.11"],
  "CultureInfo.numberFormat": ["ExcelApi", "1.11"],
  "NumberFormatInfo.numberDecimalSeparator": ["ExcelApi", "1.11"],
  "NumberFormatInfo.numberGroupSeparator": ["ExcelApi", "1.11"],
};

/** Members the fake records through recorder.ts rather than a class, by the path it records them under. */
const RECORDED_PATHS: Readonly<Record<string, string>> = {
  "format.autofitColumns": "RangeFormat.autofitColumns",
  "format.autofitRows": "RangeFormat.autofitRows",
  "colorScale.criteria": "ColorScaleConditionalFormat.criteria",
};

/** Throws ApiNotFound when a recorded call or setting (recorder.ts) is above the host's level. */
export function checkRecordedApi(context: HasHost, path: string): void {
  const api = RECORDED_PATHS[path];
  if (!api) return;
  const [set, version] = FAKE_API_SETS[api];
  if (!isSetSupportedAt(context.host.requirements, set, version)) throw apiNotFound(api, set, version);
}

const guardedClasses = new Set<string>(Object.values(RECORDED_PATHS).map((api) => api.split(".")[0]));

const registeredPrototypes = new Map<string, object>();

/** "ExcelClass.member" for every member the fake's registered classes define (helpers included). */
export function fakeMembers(): string[] {
  const out: string[] = [];
  for (const [excelClass, prototype] of registeredPrototypes) {
    for (const member of Object.getOwnPropertyNames(prototype))
      if (member !== "constructor") out.push(`${excelClass}.${member}`);
  }
  return out;
}

/** Entries of {@link FAKE_API_SETS} whose class was never passed to {@link guardApiSets} (so nothing refuses them). */
export function unguardedApiSets(): string[] {
  return Object.keys(FAKE_API_SETS).filter((api) => !guardedClasses.has(api.split(".")[0]));
}

/** The error office.js throws for a member of a set the host lacks. */
export function apiNotFound(api: string, set: string, version: string): FakeExcelError {
  return new FakeExcelError(
    FakeErrorCodes.apiNotFound,
    `The method or property ${api} is part of the ${set} ${version} requirement set, which is not available in your version of Excel.`,
    api,
  );
}

/** Where a fake object's requirement level lives: its request context's host. */
type HasHost = { host: { requirements?: RequirementLevel } };

/** The request context a fake proxy belongs to (its own, or that of the object it hangs off). */
function contextOf(object: object): HasHost | undefined {
  const own = object as { context?: HasHost };
  if (own.context?.host) return own.context;
  for (const value of Object.values(object)) {
    const parent = (value as { context?: HasHost } | null)?.context;
    if (parent?.host) return parent;
  }
  return undefined;
}

/**
 * Make the members of `prototype` listed in {@link FAKE_API_SETS} for `excelClass` throw
 * ApiNotFound when the host's level lacks their set. Methods and getters are both wrapped, so the
 * fake classes themselves stay free of requirement checks.
 */
export function guardApiSets(prototype: object, excelClass: string): void {
  guardedClasses.add(excelClass);
  registeredPrototypes.set(excelClass, prototype);
  for (const [api, [set, version]] of Object.entries(FAKE_API_SETS)) {
    const [className, member] = api.split(".");
    if (className !== excelClass) continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, member);
    if (!descriptor)
      throw new Error(`The fake's ${excelClass} has no member ${member} to guard (FAKE_API_SETS is stale).`);
    const check = (self: object): void => {
      if (!isSetSupportedAt(contextOf(self)?.host.requirements, set, version)) throw apiNotFound(api, set, version);
    };
    if (typeof descriptor.value === "function") {
      const original = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(prototype, member, {
        ...descriptor,
        value: function guarded(this: object, ...args: unknown[]) {
          check(this);
          return original.apply(this, args);
        },
      });
    } else if (descriptor.get) {
      const getter = descriptor.get;
      const setter = descriptor.set;
      Object.defineProperty(prototype, member, {
        ...descriptor,
        get: function guarded(this: object) {
          check(this);
          return getter.call(this);
        },
        // A settable property (range.hyperlink) is refused on write too, as office.js does.
        ...(setter && {
          set: function guarded(this: object, value: unknown) {
            check(this);
            setter.call(this, value);
          },
        }),
      });
    }
  }
}

/** What the fake answers as `Office.context.requirements`. */
export interface FakeRequirements {
  isSetSupported(name: string, minVersion?: string): boolean;
}

/**
 * Make `target.Office.context.requirements` answer for the fake's level (creating `Office` when
 * there is none, as in Node tests; replacing office.js's answer in a plain browser, where it has
 * no host to ask). Returns a function that puts back what was there.
 */
export function installFakeOffice(target: Record<string, unknown>, requirements: FakeRequirements): () => void {
  const hadOffice = Object.prototype.hasOwnProperty.call(target, "Office");
  const office = (target.Office ?? {}) as Record<string, unknown>;
  const previous = Object.getOwnPropertyDescriptor(office, "context");
  if (previous && !previous.configurable) {
    // office.js (outside Office) defines Office.context as a fixed getter returning one empty
    // object: give that object the requirements instead of replacing it.
    const context = office.context as Record<string, unknown> | undefined;
    if (!context || typeof context !== "object")
      throw new Error("Office.context cannot be replaced and is not an object to add requirements to.");
    const before = Object.getOwnPropertyDescriptor(context, "requirements");
    Object.defineProperty(context, "requirements", {
      value: requirements,
      configurable: true,
      writable: true,
      enumerable: true,
    });
    return () => {
      if (before) Object.defineProperty(context, "requirements", before);
      else delete context.requirements;
    };
  }
  const context = { ...((office.context as Record<string, unknown> | undefined) ?? {}), requirements };
  Object.defineProperty(office, "context", { value: context, configurable: true, writable: true, enumerable: true });
  if (!hadOffice) target.Office = office;
  return () => {
    if (previous) Object.defineProperty(office, "context", previous);
    else delete office.context;
    if (!hadOffice) delete target.Office;
  };
}
