/**
 * Validation of a sheet range that is about to become a portfolio's assets. Everything is
 * checked before anything is sent, and each problem names the cell to fix, so the task pane can
 * list them and select the cell on click.
 */
import { closestAssetType, isPublishedAssetType } from "../../../../shared/vocabulary";
import { columnLetters, parseA1, qualify, cellA1 } from "../../../../shaping/a1";
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
  const origin = parseA1(input.address);
  const cap = input.maxAssets ?? MAX_ASSETS;
  const name = (r: number, c: number): string => cellA1(origin.row + r, origin.col + c);
  /** A problem or warning at row `r`, column `c` of the range (0-based, header row 0). */
  const problemAt = (r: number, c: number, message: string): RangeProblem => ({
    row: origin.row + r + 1,
    column: columnLetters(origin.col + c),
    address: qualify(origin.sheet, name(r, c)),
    cell: name(r, c),
    message,
  });
  // Both lists stop at MAX_LISTED_PROBLEMS and count the rest, which one last entry reports.
  const problems: RangeProblem[] = [];
  let overflow = 0;
  const at = (r: number, c: number, message: string): void => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(problemAt(r, c, message));
    else overflow++;
  };
  const warnings: RangeProblem[] = [];
  let warningOverflow = 0;
  const warn = (r: number, c: number, message: string): void => {
    if (warnings.length < MAX_LISTED_PROBLEMS) warnings.push(problemAt(r, c, message));
    else warningOverflow++;
  };
  const result: AssetValidation = { problems, conversions: [], warnings, assets: [], columns: [], labelKeys: [] };

  for (const area of input.mergedAreas ?? []) {
    const m = parseA1(area);
    at(
      m.row - origin.row,
      m.col - origin.col,
      `Merged cells at ${area.replace(/^.*!/, "")}: unmerge them so every value has its own cell.`,
    );
  }

  const values = input.values;
  if (values.length === 0 || values.every((row) => row.every(isBlank))) {
    at(
      0,
      0,
      "The range is empty: select a header row (entity_id, entity_name, lat, lng, ...) and the asset rows below it.",
    );
    return finish(result, overflow);
  }
  const header = values[0];
  const hasText = header.some((c) => typeof c === "string" && c.trim() !== "" && !NUMBER_TEXT.test(c.trim()));
  if (!hasText) {
    at(
      0,
      0,
      `No header row: row ${origin.row + 1} must name the columns (entity_id, entity_name, lat, lng, or labels), not hold data.`,
    );
    return finish(result, overflow);
  }

  const columns = mapHeaders(header);
  result.columns = columns;
  const seen = new Map<string, number>();
  for (const col of columns) {
    const t = col.target;
    if (t.kind === "ignored") continue;
    if (t.kind === "label" && t.key === "") {
      at(
        0,
        col.index,
        `Header "${col.header}" in ${name(0, col.index)} has no label key: write it as label:<key>, e.g. label:country.`,
      );
      continue;
    }
    const key = t.kind === "field" ? t.field : `label:${t.key}`;
    const first = seen.get(key);
    if (first !== undefined) {
      at(
        0,
        col.index,
        `Header "${col.header}" in ${name(0, col.index)} means the same column (${key}) as ${name(0, first)}: keep only one.`,
      );
    } else seen.set(key, col.index);
  }
  const latCol = seen.get("lat");
  const lngCol = seen.get("lng");
  if (latCol === undefined) at(0, 0, "No latitude column: name one lat or Latitude in the header row.");
  if (lngCol === undefined) at(0, 0, "No longitude column: name one lng, Longitude or Lon in the header row.");
  const idCol = seen.get("entity_id");
  const nameCol = seen.get("entity_name");
  const labelCols = columns.filter(
    (c) => c.target.kind === "label" && c.target.key !== "" && seen.get(`label:${c.target.key}`) === c.index,
  );
  result.labelKeys = labelCols.map((c) => (c.target as { key: string }).key);
  const typeCol = labelCols.find((c) => (c.target as { key: string }).key === "type")?.index;
  /** Rows of each label:type text that is not a published type, in order of first appearance. */
  const unknownTypes = new Map<string, number[]>();

  // Trailing fully empty rows are ignored (a selection often goes past the data).
  let last = values.length - 1;
  while (last > 0 && values[last].every(isBlank)) last--;

  const blankHeaderWithData = new Set<number>();
  const idsSeen = new Map<string, number>();
  let dataRows = 0;
  for (let r = 1; r <= last; r++) {
    const row = values[r];
    if (row.every(isBlank)) {
      at(r, 0, `Row ${origin.row + r + 1} is empty: delete it or fill it, so the asset list has no gaps.`);
      continue;
    }
    dataRows++;
    if (dataRows === cap + 1) {
      const total = countDataRows(values, last);
      at(
        r,
        0,
        `Too many assets: ${total.toLocaleString("en-US")} rows, but ${cap === MAX_ASSETS ? "a portfolio holds" : "a split sync takes"} at most ${cap.toLocaleString("en-US")} (row ${origin.row + r + 1} is the first one over).`,
      );
    }
    for (const col of columns) {
      if (col.target.kind === "ignored" && !isBlank(row[col.index]) && !blankHeaderWithData.has(col.index)) {
        blankHeaderWithData.add(col.index);
        at(
          0,
          col.index,
          `Column ${columnLetters(origin.col + col.index)} has data but no header in ${name(0, col.index)}: name it or clear it.`,
        );
      }
    }
    const lat = latCol === undefined ? NaN : coordinate(row[latCol], r, latCol, "Latitude", 90);
    const lng = lngCol === undefined ? NaN : coordinate(row[lngCol], r, lngCol, "Longitude", 180);
    const entityId = idCol === undefined || isBlank(row[idCol]) ? "" : asText(row[idCol]).trim();
    const entityName = nameCol === undefined || isBlank(row[nameCol]) ? "" : asText(row[nameCol]);
    if (idCol !== undefined && codePoints(entityId) > MAX_NAME_LENGTH) {
      at(
        r,
        idCol,
        `Entity id in ${name(r, idCol)} is ${codePoints(entityId)} characters long: at most ${MAX_NAME_LENGTH}.`,
      );
    }
    if (nameCol !== undefined && codePoints(entityName) > MAX_NAME_LENGTH) {
      at(
        r,
        nameCol,
        `Entity name in ${name(r, nameCol)} is ${codePoints(entityName)} characters long: at most ${MAX_NAME_LENGTH}.`,
      );
    }
    if (entityId !== "" && idCol !== undefined) {
      const first = idsSeen.get(entityId);
      if (first !== undefined)
        at(r, idCol, `Entity id "${entityId}" in ${name(r, idCol)} repeats ${name(first, idCol)}: ids must be unique.`);
      else idsSeen.set(entityId, r);
    }
    if (input.mergedAreas === null) {
      // A merged area keeps its value in its top-left cell only; its other cells read as empty.
      // Without ExcelApi 1.13 the two look alike, so no empty id, name or label goes through unasked.
      for (const c of [idCol, nameCol, ...labelCols.map((col) => col.index)]) {
        if (c !== undefined && isBlank(row[c])) {
          const header = String(columns.find((col) => col.index === c)?.header ?? "").trim();
          at(
            r,
            c,
            `${header} in ${name(r, c)} is empty, and this version of Excel cannot tell an empty cell from part of a merged one: fill it, or sync from Excel 2102 (Mac 16.50) or later.`,
          );
        }
      }
    }
    const labels: Record<string, string> = {};
    for (const col of labelCols) {
      const key = (col.target as { key: string }).key;
      const v = row[col.index];
      const text = isBlank(v) ? "" : asText(v);
      if (codePoints(text) > MAX_LABEL_LENGTH) {
        at(
          r,
          col.index,
          `Label ${key} in ${name(r, col.index)} is ${codePoints(text)} characters long: at most ${MAX_LABEL_LENGTH}.`,
        );
      }
      if (text !== "" && col.index === typeCol && !isPublishedAssetType(text)) {
        const rows = unknownTypes.get(text) ?? [];
        rows.push(r);
        unknownTypes.set(text, rows);
      }
      if (MONEY_LABELS.has(key) && readMoney(v).kind === "text") {
        warn(
          r,
          col.index,
          key === PRICE_LABEL
            ? `label:price in ${name(r, col.index)} is "${text.slice(0, 40)}": the service reads a price as USD written ${MONEY_FORMS}, so this asset has no value for money at risk. Write it in one of those forms (converted to USD).`
            : `label:${key} in ${name(r, col.index)} is "${text.slice(0, 40)}", not an amount (${MONEY_FORMS}): this asset has no value for money at risk.`,
        );
      }
      // Defined, not assigned: a label column named __proto__ stays data instead of setting the prototype.
      Object.defineProperty(labels, key, { value: text, enumerable: true, writable: true, configurable: true });
    }
    if (Number.isFinite(lat) && Number.isFinite(lng)) {
      result.assets.push({
        entity_id: entityId,
        entity_name: entityName,
        lat,
        lng,
        labels,
        sheetRow: origin.row + r + 1,
      });
    }
  }
  if (input.totalRows !== undefined && input.totalRows > values.length && dataRows <= cap) {
    at(
      values.length - 1,
      0,
      `Too many rows: the range has ${input.totalRows.toLocaleString("en-US")} rows, but ${cap === MAX_ASSETS ? "a portfolio holds" : "a split sync takes"} at most ${cap.toLocaleString("en-US")} assets.`,
    );
  }
  if (dataRows === 0) at(0, 0, "The range has a header but no asset rows below it.");
  for (const [text, rows] of unknownTypes) {
    const cells = rows.map((r) => name(r, typeCol!));
    const where = cells.length <= 3 ? cells.join(", ") : `${cells.slice(0, 3).join(", ")} and ${cells.length - 3} more`;
    warn(
      rows[0]!,
      typeCol!,
      `label:type "${text}" (${where}) is not in the service's published list of types, so a default damage curve is used. Closest published type: "${closestAssetType(text)}".`,
    );
  }
  if (typeCol !== undefined && last >= 1) {
    result.typeCells = qualify(origin.sheet, `${name(1, typeCol)}:${name(last, typeCol)}`);
  }
  if (warningOverflow > 0) {
    warnings.push({ ...warnings[0]!, message: `…and ${warningOverflow} more warnings not listed.` });
  }
  return finish(result, overflow);

  function coordinate(value: CellValue, r: number, c: number, what: string, limit: number): number {
    const axis: CoordinateAxis = limit === 90 ? "lat" : "lng";
    const reading = readCoordinate(value, axis);
    if (reading.kind === "blank") {
      at(r, c, `${what} is blank in ${name(r, c)}: every asset needs one.`);
      return NaN;
    }
    if (reading.kind === "unreadable") {
      at(r, c, `${what} in ${name(r, c)} is "${asText(value)}", not a number: ${reading.reason}.`);
      return NaN;
    }
    const n = reading.value;
    if (!Number.isFinite(n) || n < -limit || n > limit) {
      at(
        r,
        c,
        `${what} in ${name(r, c)} is ${reading.kind === "convertible" ? `"${asText(value)}" (${n})` : n}: it must be between -${limit} and ${limit} (decimal degrees).`,
      );
      return NaN;
    }
    if (reading.kind === "convertible") {
      const cell = name(r, c);
      result.conversions.push({
        address: qualify(origin.sheet, cell),
        cell,
        before: asText(value),
        after: n,
        form: reading.form,
      });
      at(
        r,
        c,
        `${what} in ${cell} is "${asText(value)}" (${reading.form}): convert it to ${n} (the pane offers it) or fix it by hand.`,
      );
      return NaN;
    }
    if (reading.decimals < MIN_COORDINATE_DECIMALS) {
      warn(
        r,
        c,
        `${what} in ${name(r, c)} is ${n}, with ${reading.decimals === 0 ? "no decimals" : "1 decimal"}: the service asks for at least ${MIN_COORDINATE_DECIMALS} (about 1 km); check the asset is where you mean.`,
      );
    }
    return n;
  }
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
