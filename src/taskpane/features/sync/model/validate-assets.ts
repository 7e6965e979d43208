/**
 * Validation of a sheet range that is about to become a portfolio's assets. Everything is
 * checked before anything is sent, and each problem names the cell to fix, so the task pane can
 * list them and select the cell on click.
 */
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
import { MONEY_FORMS, PRICE_LABEL, readMoney } from "../../../../shaping/money";
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
    checks.at(
      m.row - origin.row,
      m.col - origin.col,
      `Merged cells at ${area.replace(/^.*!/, "")}: unmerge them so every value has its own cell.`,
    );
  }

  const values = input.values;
  if (values.length === 0 || values.every((row) => row.every(isBlank))) {
    checks.at(
      0,
      0,
      "The range is empty: select a header row (entity_id, entity_name, lat, lng, ...) and the asset rows below it.",
    );
    return checks.finish();
  }
  const header = values[0];
  const hasText = header.some((c) => typeof c === "string" && c.trim() !== "" && !NUMBER_TEXT.test(c.trim()));
  if (!hasText) {
    checks.at(
      0,
      0,
      `No header row: row ${origin.row + 1} must name the columns (entity_id, entity_name, lat, lng, or labels), not hold data.`,
    );
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
      checks.at(r, 0, `Row ${origin.row + r + 1} is empty: delete it or fill it, so the asset list has no gaps.`);
      continue;
    }
    dataRows++;
    if (dataRows === cap + 1) {
      const total = countDataRows(values, last);
      checks.at(
        r,
        0,
        `Too many assets: ${total.toLocaleString("en-US")} rows, but ${cap === MAX_ASSETS ? "a portfolio holds" : "a split sync takes"} at most ${cap.toLocaleString("en-US")} (row ${origin.row + r + 1} is the first one over).`,
      );
    }
    rows.read(row, r);
  }
  if (input.totalRows !== undefined && input.totalRows > values.length && dataRows <= cap) {
    checks.at(
      values.length - 1,
      0,
      `Too many rows: the range has ${input.totalRows.toLocaleString("en-US")} rows, but ${cap === MAX_ASSETS ? "a portfolio holds" : "a split sync takes"} at most ${cap.toLocaleString("en-US")} assets.`,
    );
  }
  if (dataRows === 0) checks.at(0, 0, "The range has a header but no asset rows below it.");
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
  at(r: number, c: number, message: string): void {
    if (this.result.problems.length < MAX_LISTED_PROBLEMS) this.result.problems.push(this.problemAt(r, c, message));
    else this.overflow++;
  }

  /** A warning at row `r`, column `c` of the range. */
  warn(r: number, c: number, message: string): void {
    if (this.result.warnings.length < MAX_LISTED_PROBLEMS) this.result.warnings.push(this.problemAt(r, c, message));
    else this.warningOverflow++;
  }

  /** The result, with the warnings' overflow entry and the problems' (see {@link finish}). */
  finish(): AssetValidation {
    const warnings = this.result.warnings;
    if (this.warningOverflow > 0) {
      warnings.push({ ...warnings[0]!, message: `…and ${this.warningOverflow} more warnings not listed.` });
    }
    return finish(this.result, this.overflow);
  }

  private problemAt(r: number, c: number, message: string): RangeProblem {
    return {
      row: this.origin.row + r + 1,
      column: columnLetters(this.origin.col + c),
      address: qualify(this.origin.sheet, this.name(r, c)),
      cell: this.name(r, c),
      message,
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
        `Header "${col.header}" in ${checks.name(0, col.index)} has no label key: write it as label:<key>, e.g. label:country.`,
      );
      continue;
    }
    const key = t.kind === "field" ? t.field : `label:${t.key}`;
    const first = seen.get(key);
    if (first !== undefined) {
      checks.at(
        0,
        col.index,
        `Header "${col.header}" in ${checks.name(0, col.index)} means the same column (${key}) as ${checks.name(0, first)}: keep only one.`,
      );
    } else seen.set(key, col.index);
  }
  const latCol = seen.get("lat");
  const lngCol = seen.get("lng");
  if (latCol === undefined) checks.at(0, 0, "No latitude column: name one lat or Latitude in the header row.");
  if (lngCol === undefined) checks.at(0, 0, "No longitude column: name one lng, Longitude or Lon in the header row.");
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
          `Column ${columnLetters(checks.origin.col + col.index)} has data but no header in ${checks.name(0, col.index)}: name it or clear it.`,
        );
      }
    }
    const lat = latCol === undefined ? NaN : coordinate(checks, row[latCol], r, latCol, "Latitude", 90);
    const lng = lngCol === undefined ? NaN : coordinate(checks, row[lngCol], r, lngCol, "Longitude", 180);
    const entityId = idCol === undefined || isBlank(row[idCol]) ? "" : asText(row[idCol]).trim();
    const entityName = nameCol === undefined || isBlank(row[nameCol]) ? "" : asText(row[nameCol]);
    if (idCol !== undefined && codePoints(entityId) > MAX_NAME_LENGTH) {
      checks.at(
        r,
        idCol,
        `Entity id in ${checks.name(r, idCol)} is ${codePoints(entityId)} characters long: at most ${MAX_NAME_LENGTH}.`,
      );
    }
    if (nameCol !== undefined && codePoints(entityName) > MAX_NAME_LENGTH) {
      checks.at(
        r,
        nameCol,
        `Entity name in ${checks.name(r, nameCol)} is ${codePoints(entityName)} characters long: at most ${MAX_NAME_LENGTH}.`,
      );
    }
    if (entityId !== "" && idCol !== undefined) {
      const first = this.idsSeen.get(entityId);
      if (first !== undefined)
        checks.at(
          r,
          idCol,
          `Entity id "${entityId}" in ${checks.name(r, idCol)} repeats ${checks.name(first, idCol)}: ids must be unique.`,
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
        this.checks.at(
          r,
          c,
          `${header} in ${this.checks.name(r, c)} is empty, and this version of Excel cannot tell an empty cell from part of a merged one: fill it, or sync from Excel 2102 (Mac 16.50) or later.`,
        );
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
          `Label ${key} in ${checks.name(r, col.index)} is ${codePoints(text)} characters long: at most ${MAX_LABEL_LENGTH}.`,
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
            ? `label:price in ${checks.name(r, col.index)} is "${text.slice(0, 40)}": the service reads a price as USD written ${MONEY_FORMS}, so this asset has no value for money at risk. Write it in one of those forms (converted to USD).`
            : `label:${key} in ${checks.name(r, col.index)} is "${text.slice(0, 40)}", not an amount (${MONEY_FORMS}): this asset has no value for money at risk.`,
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
      const where =
        cells.length <= 3 ? cells.join(", ") : `${cells.slice(0, 3).join(", ")} and ${cells.length - 3} more`;
      this.checks.warn(
        rows[0]!,
        typeCol,
        `label:type "${text}" (${where}) is not in the service's published list of types, so a default damage curve is used. Closest published type: "${closestAssetType(text)}".`,
      );
    }
  }
}

/**
 * The decimal degrees of a coordinate cell, or NaN with a problem when it is blank, unreadable,
 * out of range or convertible (offered as a conversion); a warning when it has too few decimals.
 */
function coordinate(checks: AssetChecks, value: CellValue, r: number, c: number, what: string, limit: number): number {
  const name = (r: number, c: number) => checks.name(r, c);
  const axis: CoordinateAxis = limit === 90 ? "lat" : "lng";
  const reading = readCoordinate(value, axis);
  if (reading.kind === "blank") {
    checks.at(r, c, `${what} is blank in ${name(r, c)}: every asset needs one.`);
    return NaN;
  }
  if (reading.kind === "unreadable") {
    checks.at(r, c, `${what} in ${name(r, c)} is "${asText(value)}", not a number: ${reading.reason}.`);
    return NaN;
  }
  const n = reading.value;
  if (!Number.isFinite(n) || n < -limit || n > limit) {
    checks.at(
      r,
      c,
      `${what} in ${name(r, c)} is ${reading.kind === "convertible" ? `"${asText(value)}" (${n})` : n}: it must be between -${limit} and ${limit} (decimal degrees).`,
    );
    return NaN;
  }
  if (reading.kind === "convertible") {
    const cell = name(r, c);
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
      `${what} in ${cell} is "${asText(value)}" (${reading.form}): convert it to ${n} (the pane offers it) or fix it by hand.`,
    );
    return NaN;
  }
  if (reading.decimals < MIN_COORDINATE_DECIMALS) {
    checks.warn(
      r,
      c,
      `${what} in ${name(r, c)} is ${n}, with ${reading.decimals === 0 ? "no decimals" : "1 decimal"}: the service asks for at least ${MIN_COORDINATE_DECIMALS} (about 1 km); check the asset is where you mean.`,
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
      message: `…and ${overflow} more problems not listed: fix these first.`,
    });
  }
  return result;
}
