/**
 * Validation of a sheet range that is about to become a portfolio's assets. Everything is
 * checked before anything is sent, and each problem names the cell to fix, so the task pane can
 * list them and select the cell on click.
 */
import { message, type Message } from "../../../../i18n/messages";
import { closestAssetType, isPublishedAssetType } from "../../../../shared/vocabulary";
import { columnLetters, parseA1, qualify, cellA1, type A1Range } from "../../../../shaping/a1";
import {
  MIN_COORDINATE_DECIMALS,
  readCoordinate,
  type CoordinateAxis,
  type CoordinateForm,
} from "../../../../shaping/coordinates";
import { ColumnMapping, mapHeaders } from "../../../../shaping/headers";
import { MAX_ASSETS, MAX_LABEL_LENGTH, MAX_NAME_LENGTH } from "../../../../shaping/limits";
import { PRICE_LABEL, readMoney } from "../../../../shaping/money";
import type { RangeProblem } from "../../../../shaping/problems";
import type { CellGrid, CellValue } from "../../../../shaping/types";

/** What was read from the workbook. */
export interface AssetRangeInput {
  /** The range's values, header row first. */
  values: CellGrid;
  /** The range's address, e.g. "'Site list'!A1:F120"; problems carry addresses relative to it. */
  address: string;
  /**
   * Addresses of merged areas inside the range (RangeAreas.address split on commas). null when
   * Excel could not say (before ExcelApi 1.13): then every empty cell of an asset row, which a
   * merge could hide a value behind, is a problem to fill.
   */
  mergedAreas?: string[] | null;
  /** Most asset rows accepted (default MAX_ASSETS, the service's cap; a split sync allows more). */
  maxAssets?: number;
  /** Rows the range really has when `values` was cut short on reading. */
  totalRows?: number;
}

/** One asset row, ready for the import CSV. */
export interface AssetRow {
  entity_id: string;
  entity_name: string;
  lat: number;
  lng: number;
  /** Label key (without "label:") to text. */
  labels: Record<string, string>;
  /** 1-based sheet row it came from. */
  sheetRow: number;
}

/** A coordinate cell whose text has one reading as decimal degrees: the change the pane previews. */
export interface CellConversion {
  /** Sheet-qualified address, to write to and to select. */
  address: string;
  /** Local address for display ("B3"). */
  cell: string;
  /** The cell's text as it is. */
  before: string;
  /** The decimal degrees it would hold. */
  after: number;
  form: CoordinateForm;
}

/** The outcome: problems (empty means valid), the parsed rows and the column mapping. */
export interface AssetValidation {
  problems: RangeProblem[];
  /**
   * Coordinates that could be converted: each is also a problem (nothing is sent while one is
   * left), which the pane offers to fix by writing these values, previewed, when the analyst accepts.
   */
  conversions: CellConversion[];
  /**
   * What the service would accept but read otherwise than the analyst may expect: coordinates with
   * fewer than 2 decimals, types not in the published list (with the closest one), prices the
   * service cannot read. They never stop a sync.
   */
  warnings: RangeProblem[];
  assets: AssetRow[];
  columns: ColumnMapping[];
  /** Label keys in column order. */
  labelKeys: string[];
  /** The data cells of the `label:type` column, sheet-qualified ("'Sites'!E2:E41"), when there is one. */
  typeCells?: string;
}

/** Label keys whose values are asset values (label:price in USD, label:value in the currency the analyst states). */
const MONEY_LABELS = new Set([PRICE_LABEL, "value"]);

/** More problems than this are summarized in one last entry. */
export const MAX_LISTED_PROBLEMS = 200;

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function isBlank(value: CellValue | undefined | null): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

function asText(value: CellValue): string {
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

function codePoints(text: string): number {
  return Array.from(text).length;
}

/** Validate an asset range; see {@link AssetValidation}. Never throws on bad cell content. */
export function validateAssetRange(input: AssetRangeInput): AssetValidation {
  const checks = new AssetChecks(parseA1(input.address));
  const { origin, result } = checks;
  for (const area of input.mergedAreas ?? []) {
    const m = parseA1(area);
    checks.at(m.row - origin.row, m.col - origin.col, message("sync.check.merged", { area: area.replace(/^.*!/, "") }));
  }

  const values = input.values;
  if (values.length === 0 || values.every((row) => row.every(isBlank))) {
    checks.at(0, 0, message("sync.check.empty"));
    return checks.finish();
  }
  const header = values[0];
  const hasText = header.some((c) => typeof c === "string" && c.trim() !== "" && !NUMBER_TEXT.test(c.trim()));
  if (!hasText) {
    checks.at(0, 0, message("sync.check.noHeader", { row: String(origin.row + 1) }));
    return checks.finish();
  }
  const columns = mapAssetColumns(checks, header);

  // Trailing fully empty rows are ignored (a selection often goes past the data).
  let last = values.length - 1;
  while (last > 0 && values[last].every(isBlank)) last--;
  const cap = input.maxAssets ?? MAX_ASSETS;
  const rows = new AssetRowReader(checks, columns, input.mergedAreas === null);
  let dataRows = 0;
  for (let r = 1; r <= last; r++) {
    const row = values[r];
    if (row.every(isBlank)) {
      checks.at(r, 0, message("sync.check.emptyRow", { row: String(origin.row + r + 1) }));
      continue;
    }
    dataRows++;
    if (dataRows === cap + 1) {
      const total = countDataRows(values, last);
      checks.at(
        r,
        0,
        message("sync.check.tooManyAssets", {
          total,
          cap,
          split: String(cap !== MAX_ASSETS),
          row: String(origin.row + r + 1),
        }),
      );
    }
    rows.read(row, r);
  }
  if (input.totalRows !== undefined && input.totalRows > values.length && dataRows <= cap) {
    checks.at(
      values.length - 1,
      0,
      message("sync.check.tooManyRows", { total: input.totalRows, cap, split: String(cap !== MAX_ASSETS) }),
    );
  }
  if (dataRows === 0) checks.at(0, 0, message("sync.check.noAssetRows"));
  rows.warnUnknownTypes();
  if (columns.typeCol !== undefined && last >= 1) {
    result.typeCells = qualify(
      origin.sheet,
      `${checks.name(1, columns.typeCol)}:${checks.name(last, columns.typeCol)}`,
    );
  }
  return checks.finish();
}

/**
 * The problems and warnings of one validation, each at a cell of the range, and its result. Both
 * lists stop at MAX_LISTED_PROBLEMS and count the rest, which one last entry reports.
 */
class AssetChecks {
  readonly result: AssetValidation = {
    problems: [],
    conversions: [],
    warnings: [],
    assets: [],
    columns: [],
    labelKeys: [],
  };
  private overflow = 0;
  private warningOverflow = 0;

  constructor(readonly origin: A1Range) {}

  /** The local address of row `r`, column `c` of the range (0-based, header row 0). */
  name(r: number, c: number): string {
    return cellA1(this.origin.row + r, this.origin.col + c);
  }

  /** A problem at row `r`, column `c` of the range. */
  at(r: number, c: number, said: Message): void {
    if (this.result.problems.length < MAX_LISTED_PROBLEMS) this.result.problems.push(this.problemAt(r, c, said));
    else this.overflow++;
  }

  /** A warning at row `r`, column `c` of the range. */
  warn(r: number, c: number, said: Message): void {
    if (this.result.warnings.length < MAX_LISTED_PROBLEMS) this.result.warnings.push(this.problemAt(r, c, said));
    else this.warningOverflow++;
  }

  /** The result, with the warnings' overflow entry and the problems' (see {@link finish}). */
  finish(): AssetValidation {
    const warnings = this.result.warnings;
    if (this.warningOverflow > 0) {
      warnings.push({ ...warnings[0]!, message: message("sync.check.moreWarnings", { count: this.warningOverflow }) });
    }
    return finish(this.result, this.overflow);
  }

  private problemAt(r: number, c: number, said: Message): RangeProblem {
    return {
      row: this.origin.row + r + 1,
      column: columnLetters(this.origin.col + c),
      address: qualify(this.origin.sheet, this.name(r, c)),
      cell: this.name(r, c),
      message: said,
    };
  }
}

/** The range's columns as the header maps them, each field's and label's column once. */
interface AssetColumns {
  columns: ColumnMapping[];
  latCol?: number;
  lngCol?: number;
  idCol?: number;
  nameCol?: number;
  /** The label columns (the first of each key). */
  labelCols: ColumnMapping[];
  /** The `label:type` column. */
  typeCol?: number;
}

/** Maps the header row's columns, with a problem for each unnamed label, repeated column and missing coordinate. */
function mapAssetColumns(checks: AssetChecks, header: CellValue[]): AssetColumns {
  const { result } = checks;
  const columns = mapHeaders(header);
  result.columns = columns;
  const seen = new Map<string, number>();
  for (const col of columns) {
    const t = col.target;
    if (t.kind === "ignored") continue;
    if (t.kind === "label" && t.key === "") {
      checks.at(
        0,
        col.index,
        message("sync.check.noLabelKey", { header: String(col.header), cell: checks.name(0, col.index) }),
      );
      continue;
    }
    const key = t.kind === "field" ? t.field : `label:${t.key}`;
    const first = seen.get(key);
    if (first !== undefined) {
      checks.at(
        0,
        col.index,
        message("sync.check.sameColumn", {
          header: String(col.header),
          cell: checks.name(0, col.index),
          key,
          first: checks.name(0, first),
        }),
      );
    } else seen.set(key, col.index);
  }
  const latCol = seen.get("lat");
  const lngCol = seen.get("lng");
  if (latCol === undefined) checks.at(0, 0, message("sync.check.noLatitude"));
  if (lngCol === undefined) checks.at(0, 0, message("sync.check.noLongitude"));
  const labelCols = columns.filter(
    (c) => c.target.kind === "label" && c.target.key !== "" && seen.get(`label:${c.target.key}`) === c.index,
  );
  result.labelKeys = labelCols.map((c) => (c.target as { key: string }).key);
  const typeCol = labelCols.find((c) => (c.target as { key: string }).key === "type")?.index;
  return {
    columns,
    latCol,
    lngCol,
    idCol: seen.get("entity_id"),
    nameCol: seen.get("entity_name"),
    labelCols,
    typeCol,
  };
}

/** Reads the asset rows one by one into the result, with what is checked across rows (ids, types, headerless data). */
class AssetRowReader {
  /** Rows of each label:type text that is not a published type, in order of first appearance. */
  private readonly unknownTypes = new Map<string, number[]>();
  private readonly blankHeaderWithData = new Set<number>();
  private readonly idsSeen = new Map<string, number>();

  constructor(
    private readonly checks: AssetChecks,
    private readonly cols: AssetColumns,
    /** Excel could not say which cells are merged (see AssetRangeInput.mergedAreas). */
    private readonly mergesUnknown: boolean,
  ) {}

  /** Checks the non-empty row `r` and adds its asset when its coordinates are good. */
  read(row: CellValue[], r: number): void {
    const { checks } = this;
    const { columns, latCol, lngCol, idCol, nameCol } = this.cols;
    for (const col of columns) {
      if (col.target.kind === "ignored" && !isBlank(row[col.index]) && !this.blankHeaderWithData.has(col.index)) {
        this.blankHeaderWithData.add(col.index);
        checks.at(
          0,
          col.index,
          message("sync.check.noHeaderName", {
            column: columnLetters(checks.origin.col + col.index),
            cell: checks.name(0, col.index),
          }),
        );
      }
    }
    const lat = latCol === undefined ? NaN : coordinate(checks, row[latCol], r, latCol, "lat");
    const lng = lngCol === undefined ? NaN : coordinate(checks, row[lngCol], r, lngCol, "lng");
    const entityId = idCol === undefined || isBlank(row[idCol]) ? "" : asText(row[idCol]).trim();
    const entityName = nameCol === undefined || isBlank(row[nameCol]) ? "" : asText(row[nameCol]);
    if (idCol !== undefined && codePoints(entityId) > MAX_NAME_LENGTH) {
      checks.at(
        r,
        idCol,
        message("sync.check.tooLong", {
          what: "entity_id",
          cell: checks.name(r, idCol),
          length: codePoints(entityId),
          max: MAX_NAME_LENGTH,
        }),
      );
    }
    if (nameCol !== undefined && codePoints(entityName) > MAX_NAME_LENGTH) {
      checks.at(
        r,
        nameCol,
        message("sync.check.tooLong", {
          what: "entity_name",
          cell: checks.name(r, nameCol),
          length: codePoints(entityName),
          max: MAX_NAME_LENGTH,
        }),
      );
    }
    if (entityId !== "" && idCol !== undefined) {
      const first = this.idsSeen.get(entityId);
      if (first !== undefined)
        checks.at(
          r,
          idCol,
          message("sync.check.idRepeats", {
            id: entityId,
            cell: checks.name(r, idCol),
            first: checks.name(first, idCol),
          }),
        );
      else this.idsSeen.set(entityId, r);
    }
    if (this.mergesUnknown) this.checkMaybeMerged(row, r);
    const labels = this.labelsOf(row, r);
    if (Number.isFinite(lat) && Number.isFinite(lng)) {
      checks.result.assets.push({
        entity_id: entityId,
        entity_name: entityName,
        lat,
        lng,
        labels,
        sheetRow: checks.origin.row + r + 1,
      });
    }
  }

  /**
   * A merged area keeps its value in its top-left cell only; its other cells read as empty.
   * Without ExcelApi 1.13 the two look alike, so no empty id, name or label goes through unasked.
   */
  private checkMaybeMerged(row: CellValue[], r: number): void {
    const { columns, idCol, nameCol, labelCols } = this.cols;
    for (const c of [idCol, nameCol, ...labelCols.map((col) => col.index)]) {
      if (c !== undefined && isBlank(row[c])) {
        const header = String(columns.find((col) => col.index === c)?.header ?? "").trim();
        this.checks.at(r, c, message("sync.check.maybeMerged", { header, cell: this.checks.name(r, c) }));
      }
    }
  }

  /** Row `r`'s labels as text, checking their length, their type and the money labels. */
  private labelsOf(row: CellValue[], r: number): Record<string, string> {
    const { checks } = this;
    const labels: Record<string, string> = {};
    for (const col of this.cols.labelCols) {
      const key = (col.target as { key: string }).key;
      const v = row[col.index];
      const text = isBlank(v) ? "" : asText(v);
      if (codePoints(text) > MAX_LABEL_LENGTH) {
        checks.at(
          r,
          col.index,
          message("sync.check.tooLong", {
            what: "label",
            key,
            cell: checks.name(r, col.index),
            length: codePoints(text),
            max: MAX_LABEL_LENGTH,
          }),
        );
      }
      if (text !== "" && col.index === this.cols.typeCol && !isPublishedAssetType(text)) {
        const rows = this.unknownTypes.get(text) ?? [];
        rows.push(r);
        this.unknownTypes.set(text, rows);
      }
      if (MONEY_LABELS.has(key) && readMoney(v).kind === "text") {
        checks.warn(
          r,
          col.index,
          key === PRICE_LABEL
            ? message("sync.check.priceNotUsd", { cell: checks.name(r, col.index), text: text.slice(0, 40) })
            : message("sync.check.notAmount", { key, cell: checks.name(r, col.index), text: text.slice(0, 40) }),
        );
      }
      // Defined, not assigned: a label column named __proto__ stays data instead of setting the prototype.
      Object.defineProperty(labels, key, { value: text, enumerable: true, writable: true, configurable: true });
    }
    return labels;
  }

  /** One warning per label:type text not in the published list, at its first cell. */
  warnUnknownTypes(): void {
    const typeCol = this.cols.typeCol!;
    for (const [text, rows] of this.unknownTypes) {
      const cells = rows.map((r) => this.checks.name(r, typeCol));
      // Cell addresses are joined with ", " as Excel writes a union of cells; the count beyond three is the catalog's.
      this.checks.warn(
        rows[0]!,
        typeCol,
        message("sync.check.unknownType", {
          text,
          cells: cells.slice(0, 3).join(", "),
          more: Math.max(0, cells.length - 3),
          closest: closestAssetType(text) ?? "",
        }),
      );
    }
  }
}

/** The select key each coordinate form has in the catalogs' messages (`{form, select, …}`). */
const FORM_KEYS: Record<CoordinateForm, string> = {
  "degrees, minutes, seconds": "dms",
  "hemisphere letter": "hemisphere",
  "decimal comma": "decimalComma",
};

/** How a conversion's form is named to the analyst (the preview's row title). */
export function coordinateFormMessage(form: CoordinateForm): Message {
  return message("sync.check.form", { form: FORM_KEYS[form] });
}

/**
 * The decimal degrees of a coordinate cell, or NaN with a problem when it is blank, unreadable,
 * out of range or convertible (offered as a conversion); a warning when it has too few decimals.
 */
function coordinate(checks: AssetChecks, value: CellValue, r: number, c: number, axis: CoordinateAxis): number {
  const limit = axis === "lat" ? 90 : 180;
  const cell = checks.name(r, c);
  const reading = readCoordinate(value, axis);
  if (reading.kind === "blank") {
    checks.at(r, c, message("sync.check.coordinate.blank", { axis, cell }));
    return NaN;
  }
  if (reading.kind === "unreadable") {
    checks.at(
      r,
      c,
      message("sync.check.coordinate.notNumber", { axis, cell, text: asText(value), reason: reading.reason }),
    );
    return NaN;
  }
  const n = reading.value;
  if (!Number.isFinite(n) || n < -limit || n > limit) {
    checks.at(
      r,
      c,
      message("sync.check.coordinate.outOfRange", {
        axis,
        cell,
        converted: String(reading.kind === "convertible"),
        text: asText(value),
        value: n,
        limit,
      }),
    );
    return NaN;
  }
  if (reading.kind === "convertible") {
    checks.result.conversions.push({
      address: qualify(checks.origin.sheet, cell),
      cell,
      before: asText(value),
      after: n,
      form: reading.form,
    });
    checks.at(
      r,
      c,
      message("sync.check.coordinate.convertible", {
        axis,
        cell,
        text: asText(value),
        form: coordinateFormMessage(reading.form),
        value: n,
      }),
    );
    return NaN;
  }
  if (reading.decimals < MIN_COORDINATE_DECIMALS) {
    checks.warn(
      r,
      c,
      message("sync.check.coordinate.fewDecimals", {
        axis,
        cell,
        value: n,
        decimals: reading.decimals,
        min: MIN_COORDINATE_DECIMALS,
      }),
    );
  }
  return n;
}

function countDataRows(values: CellGrid, last: number): number {
  let n = 0;
  for (let r = 1; r <= last; r++) if (!values[r].every(isBlank)) n++;
  return n;
}

/** Close the list: past the cap, one last entry says how many more there are. */
function finish(result: AssetValidation, overflow: number): AssetValidation {
  if (overflow > 0) {
    result.problems.push({
      ...result.problems[0],
      message: message("sync.check.moreProblems", { count: overflow }),
    });
  }
  return result;
}
