import type { SearchScore } from "../../api/types";
import { isBlank, readChoice, readHazard, readHorizon, readLatitude, readLongitude } from "../arguments";
import { ArgumentError, NotAvailableError } from "../formula-errors";
import { HAZARDS, normalizeName, type HazardNames } from "../../shared/vocabulary";
import { searchPoint } from "../data-loaders";
import { SEARCH, SEARCH_FIELDS, defaultOf } from "../specs";
import { SEARCH_EXTENTS } from "../../shared/vocabulary";
import { columnFormula } from "./run";
import { message } from "../../i18n/messages";

export const SEARCH_TABLE_HEADER = ["hazard", "score_15yr", "label_15yr", "score_30yr", "label_30yr"] as const;

/**
 * RISK.SEARCH: the point-search score (or label) of one hazard at one horizon, as a 1×1 array; with
 * an empty hazard, a table of every hazard at both horizons. Each argument may be a range: one
 * result per row (see columns.ts). One search request per distinct point, however many rows.
 */
export const search = columnFormula(
  SEARCH,
  () => message("cell.na.noRiskData"),
  async (engine, [la, ln, h, y, e, f], signal, single): Promise<string | number | (string | number)[][]> => {
    const latitude = readLatitude(la);
    const longitude = readLongitude(ln);
    const where = readChoice(e, "extent", SEARCH_EXTENTS, defaultOf(SEARCH, "extent"));
    if (isBlank(h)) {
      if (!single) throw new ArgumentError(message("cell.argument.hazardEmpty"));
      const exposure = await searchPoint(engine, latitude, longitude, signal);
      if (!exposure) throw new NotAvailableError(message("cell.na.noRiskData"));
      const rows = HAZARDS.map((hz) => {
        const at15 = findScore(exposure[where]["15yr"], hz);
        const at30 = findScore(exposure[where]["30yr"], hz);
        return [hz.search, at15?.score ?? "", at15?.label ?? "", at30?.score ?? "", at30?.label ?? ""];
      });
      return [[...SEARCH_TABLE_HEADER], ...rows];
    }
    const names = readHazard(h);
    const years = readHorizon(y);
    const what = readChoice(f, "field", SEARCH_FIELDS, defaultOf(SEARCH, "field"));
    const exposure = await searchPoint(engine, latitude, longitude, signal);
    if (!exposure) throw new NotAvailableError(message("cell.na.noRiskData"));
    const entry = findScore(exposure[where]?.[years], names);
    if (!entry)
      throw new NotAvailableError(
        message("cell.na.noSearchScore", { hazard: names.search, horizon: years, extent: where }),
      );
    return what === "score" ? entry.score : entry.label;
  },
);

function findScore(scores: readonly SearchScore[] | undefined, hazard: HazardNames): SearchScore | undefined {
  return scores?.find((entry) => {
    const name = normalizeName(String(entry.hazard));
    return name === hazard.search || name === hazard.portfolio || name === hazard.extended;
  });
}
