/**
 * Coordinates checked against their row's country (a `label:country` column, or Country, Land,
 * Pays... read as one): each point inside its country's outline passes; within 25 km of it, "near a
 * border or coast, not checked"; beyond, it is listed with its cells, and when a swap of lat and
 * lng or a sign flip puts it well inside, that fix is offered: previewed, written only when the
 * analyst accepts, the original coordinates kept in a column beside the range. A country without an
 * outline, or text that names no country, is listed as not checkable. The check never stops a sync.
 *
 * This module carries the 1:50m outlines (country-outlines.ts): the pane imports it dynamically.
 */
import { cellA1, columnLetters, parseA1, qualify } from "../../../../shaping/a1";
import { countryCode, countryName } from "../../../../shaping/countries";
import type { RangeProblem } from "../../../../shaping/problems";
import type { CellValue } from "../../../../shaping/types";
import { COUNTRY_TOLERANCE_KM, placeInCountry, type CoordinateFix, type FixKind } from "./country-outlines";
import type { AssetValidation } from "./validate-assets";

/** The header of the column beside the range that keeps the coordinates a fix replaced. */
export const ORIGINALS_HEADER = "original lat, lng";

/** What is wrong with one row's point, or why it was not checked. */
export type CountryFindingKind = "outside" | "near-edge" | "no-outline" | "not-a-country";

/** One cell a fix writes: sheet-qualified address, local address, the text it holds now, the value written. */
export interface FixCell {
  address: string;
  cell: string;
  before: string;
  after: number | string;
}

/** A swap or sign fix offered for one row: its lat and lng cells, and the original kept beside the range. */
export interface CountryFix {
  kind: FixKind;
  sheetRow: number;
  lat: FixCell;
  lng: FixCell;
  /** The cell beside the range that keeps the original ("2.35, 48.85"). */
  original: FixCell;
}

/** One row's finding: its kind, the problem listed (at the latitude or country cell), and any fix offered. */
export interface CountryFinding {
  kind: CountryFindingKind;
  problem: RangeProblem;
  fix?: CountryFix;
}

/** The outcome of the check over a range. */
export interface CountryCheck {
  toleranceKm: number;
  /** Rows whose country was read and whose outline exists. */
  checked: number;
  /** Of those, the points inside their country. */
  inside: number;
  findings: CountryFinding[];
  /** The column beside the range where the fixes keep the originals: its header cell. */
  originalsHeader: FixCell;
  /** Why the originals cannot be kept there (the column holds data): then no fix is offered. */
  blocked?: string;
}

const FIX_WORDS: Record<FixKind, string> = {
  swap: "with lat and lng swapped",
  "lat-sign": "with the latitude's sign flipped",
  "lng-sign": "with the longitude's sign flipped",
  "both-signs": "with both signs flipped",
};

function km(distance: number): string {
  return `${Math.round(distance).toLocaleString("en-US")} km`;
}

function point(lat: number, lng: number): string {
  return `${lat}, ${lng}`;
}

function textOf(value: CellValue | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/**
 * Checks each asset whose row gives a country. `values` and `address` are the range read (header
 * row first), `validation` what {@link validateAssetRange} made of it; rows it could not read are
 * skipped (their problems are listed already). Undefined when the range has no country column.
 */
export function checkCountries(
  values: CellValue[][],
  address: string,
  validation: AssetValidation,
): CountryCheck | undefined {
  const origin = parseA1(address);
  const indexOf = (match: (c: AssetValidation["columns"][number]) => boolean) => validation.columns.find(match)?.index;
  const countryCol = indexOf((c) => c.target.kind === "label" && c.target.key === "country");
  const latCol = indexOf((c) => c.target.kind === "field" && c.target.field === "lat");
  const lngCol = indexOf((c) => c.target.kind === "field" && c.target.field === "lng");
  if (countryCol === undefined || latCol === undefined || lngCol === undefined) return undefined;
  // The originals go in the range's own "original lat, lng" column (an earlier fix's, selected
  // with the range), else in the first column right of the range.
  const ownOriginals = (values[0] ?? []).findIndex((h) => textOf(h).trim().toLowerCase() === ORIGINALS_HEADER);
  const originalsCol = origin.col + (ownOriginals >= 0 ? ownOriginals : Math.max(origin.cols, values[0]?.length ?? 0));
  const cellAt = (sheetRow: number, col: number, after: number | string, before?: string): FixCell => {
    const cell = cellA1(sheetRow - 1, col);
    const r = sheetRow - 1 - origin.row;
    return {
      address: qualify(origin.sheet, cell),
      cell,
      before: before ?? textOf(values[r]?.[col - origin.col]),
      after,
    };
  };
  const check: CountryCheck = {
    toleranceKm: COUNTRY_TOLERANCE_KM,
    checked: 0,
    inside: 0,
    findings: [],
    originalsHeader: cellAt(origin.row + 1, originalsCol, ORIGINALS_HEADER),
  };
  for (const asset of validation.assets) {
    const written = asset.labels["country"] ?? "";
    if (written.trim() === "") continue;
    const latCell = cellAt(asset.sheetRow, origin.col + latCol, asset.lat);
    const lngCell = cellAt(asset.sheetRow, origin.col + lngCol, asset.lng);
    const problemAt = (col: number, message: string): RangeProblem => {
      const cell = cellA1(asset.sheetRow - 1, col);
      return { row: asset.sheetRow, column: columnLetters(col), address: qualify(origin.sheet, cell), cell, message };
    };
    const countryCell = cellA1(asset.sheetRow - 1, origin.col + countryCol);
    const code = countryCode(written);
    if (!code) {
      check.findings.push({
        kind: "not-a-country",
        problem: problemAt(
          origin.col + countryCol,
          `${countryCell}: "${written.slice(0, 40)}" names no country (an ISO code, or a name in English, German or French), so the point in ${latCell.cell}, ${lngCell.cell} is not checked.`,
        ),
      });
      continue;
    }
    const name = `${countryName(code)} (${code})`;
    const place = placeInCountry(code, asset.lat, asset.lng);
    const where = `${latCell.cell}, ${lngCell.cell}: ${point(asset.lat, asset.lng)}`;
    if (place.kind === "no-outline") {
      check.findings.push({
        kind: "no-outline",
        problem: problemAt(
          origin.col + countryCol,
          `${countryCell}: ${name} has no outline in the 1:50m map, so the point in ${latCell.cell}, ${lngCell.cell} is not checkable.`,
        ),
      });
      continue;
    }
    check.checked++;
    if (place.kind === "inside") {
      check.inside++;
      continue;
    }
    const lat = origin.col + latCol;
    if (place.kind === "near-edge") {
      check.findings.push({
        kind: "near-edge",
        problem: problemAt(
          lat,
          `${where} is ${place.distanceKm < 0.5 ? "on" : `${km(place.distanceKm)} from`} the edge of ${name}'s outline, within ${COUNTRY_TOLERANCE_KM} km: near a border or coast, not checked.`,
        ),
      });
      continue;
    }
    let message = `${where} lies more than ${COUNTRY_TOLERANCE_KM} km outside ${name} (${countryCell}).`;
    if (place.fix)
      message += ` ${capitalized(FIX_WORDS[place.fix.kind])} it is ${point(place.fix.lat, place.fix.lng)}, well inside: the pane offers this fix.`;
    else if (place.nearFixes.length > 0)
      message += ` ${place.nearFixes.map((f) => `${capitalized(FIX_WORDS[f.kind])} it would be ${point(f.lat, f.lng)}`).join("; ")}, not well inside (within ${COUNTRY_TOLERANCE_KM} km of its edge, or several fixes fit): check it by hand.`;
    else message += " Check the coordinates and the country.";
    check.findings.push({
      kind: "outside",
      problem: problemAt(lat, message),
      ...(place.fix ? { fix: fixOf(place.fix, asset.sheetRow, latCell, lngCell, cellAt, originalsCol) } : {}),
    });
  }
  return check;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fixOf(
  fix: CoordinateFix,
  sheetRow: number,
  latCell: FixCell,
  lngCell: FixCell,
  cellAt: (sheetRow: number, col: number, after: number | string, before?: string) => FixCell,
  originalsCol: number,
): CountryFix {
  return {
    kind: fix.kind,
    sheetRow,
    lat: { ...latCell, after: fix.lat },
    lng: { ...lngCell, after: fix.lng },
    original: cellAt(sheetRow, originalsCol, point(latCell.after as number, lngCell.after as number)),
  };
}

/**
 * The cells accepting the fixes writes: each row's lat and lng, its original in the column beside
 * the range, and that column's header unless it is there already (`headerNow`: what it holds).
 */
export function fixCellChanges(check: CountryCheck, headerNow: string): FixCell[] {
  const fixes = check.findings.flatMap((f) => (f.fix ? [f.fix] : []));
  if (fixes.length === 0) return [];
  const header = headerNow === ORIGINALS_HEADER ? [] : [{ ...check.originalsHeader, before: headerNow }];
  return [...header, ...fixes.flatMap((f) => [f.lat, f.lng, f.original])];
}
