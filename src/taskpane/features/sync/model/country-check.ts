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
import { message, type Message } from "../../../../i18n/messages";
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

/** The select key each fix has in the catalogs' messages (`{fix, select, …}`). */
const FIX_KEYS: Record<FixKind, string> = {
  swap: "swap",
  "lat-sign": "latSign",
  "lng-sign": "lngSign",
  "both-signs": "bothSigns",
};

/** A point as the originals' column keeps it ("2.35, 48.85"): text in the sheet, numbers as JavaScript prints them. */
function point(lat: number, lng: number): string {
  return `${lat}, ${lng}`;
}

/** A point as a problem shows it: each number with Excel's separators, the pair's separator the language's. */
function shownPoint(lat: number, lng: number): Message {
  return message("sync.country.problem.point", { lat, lng });
}

/**
 * The fixes that would put a point near, not well inside, its country: each its own clause, the
 * catalog's separator between them.
 */
function nearFixList(fixes: readonly { kind: FixKind; lat: number; lng: number }[]): Message {
  const [first, ...rest] = fixes;
  const clause = message("sync.country.problem.nearFix", {
    fix: FIX_KEYS[first!.kind],
    point: shownPoint(first!.lat, first!.lng),
  });
  return rest.length === 0
    ? clause
    : message("sync.country.problem.nearFixes", { first: clause, rest: nearFixList(rest) });
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
    const problemAt = (col: number, said: Message): RangeProblem => {
      const cell = cellA1(asset.sheetRow - 1, col);
      return {
        row: asset.sheetRow,
        column: columnLetters(col),
        address: qualify(origin.sheet, cell),
        cell,
        message: said,
      };
    };
    const countryCell = cellA1(asset.sheetRow - 1, origin.col + countryCol);
    const code = countryCode(written);
    if (!code) {
      check.findings.push({
        kind: "not-a-country",
        problem: problemAt(
          origin.col + countryCol,
          message("sync.country.problem.notCountry", {
            countryCell,
            text: written.slice(0, 40),
            latCell: latCell.cell,
            lngCell: lngCell.cell,
          }),
        ),
      });
      continue;
    }
    // The country's English name from the outlines' list, with its ISO code (which reads the same in every language).
    const country = countryName(code);
    const place = placeInCountry(code, asset.lat, asset.lng);
    const where = { latCell: latCell.cell, lngCell: lngCell.cell, point: shownPoint(asset.lat, asset.lng) };
    if (place.kind === "no-outline") {
      check.findings.push({
        kind: "no-outline",
        problem: problemAt(
          origin.col + countryCol,
          message("sync.country.problem.noOutline", {
            countryCell,
            country,
            code,
            latCell: latCell.cell,
            lngCell: lngCell.cell,
          }),
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
          message("sync.country.problem.nearEdge", {
            ...where,
            distance: Math.round(place.distanceKm),
            country,
            code,
            tolerance: COUNTRY_TOLERANCE_KM,
          }),
        ),
      });
      continue;
    }
    const outside = { ...where, tolerance: COUNTRY_TOLERANCE_KM, country, code, countryCell };
    const said = place.fix
      ? message("sync.country.problem.outsideFix", {
          ...outside,
          fix: FIX_KEYS[place.fix.kind],
          fixed: shownPoint(place.fix.lat, place.fix.lng),
        })
      : place.nearFixes.length > 0
        ? message("sync.country.problem.outsideNear", { ...outside, fixes: nearFixList(place.nearFixes) })
        : message("sync.country.problem.outside", outside);
    check.findings.push({
      kind: "outside",
      problem: problemAt(lat, said),
      ...(place.fix ? { fix: fixOf(place.fix, asset.sheetRow, latCell, lngCell, cellAt, originalsCol) } : {}),
    });
  }
  return check;
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
