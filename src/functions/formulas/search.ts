import type { SearchScore } from "../../api/types";
import { isBlank, readChoice, readHazard, readHorizon, readLatitude, readLongitude, type CellValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../errors";
import { HAZARDS, normalizeName, type HazardNames } from "../hazards";
import { searchPoint } from "../sources";
import { evaluate, type Invocation } from "./run";

export const SEARCH_TABLE_HEADER = ["hazard", "score_15yr", "label_15yr", "score_30yr", "label_30yr"] as const;

/**
 * RISK.SEARCH: the point-search score (or label) of one hazard at one horizon, as a 1×1 array; with
 * an empty hazard, a table of every hazard at both horizons. One search request per distinct point.
 */
export function search(
  engine: RiskEngine,
  lat: CellValue,
  lng: CellValue,
  hazard: CellValue,
  horizon: CellValue,
  extent: CellValue,
  field: CellValue,
  invocation?: Invocation,
): Promise<(string | number)[][]> {
  return evaluate(invocation, () => "No risk data at this point", async (signal) => {
    const latitude = readLatitude(lat);
    const longitude = readLongitude(lng);
    const where = readChoice(extent, "extent", ["local", "background"], "local");
    if (isBlank(hazard)) {
      const exposure = await searchPoint(engine, latitude, longitude, signal);
      if (!exposure) throw new NotAvailableError("No risk data at this point");
      const rows = HAZARDS.map((h) => {
        const at15 = findScore(exposure[where]["15yr"], h);
        const at30 = findScore(exposure[where]["30yr"], h);
        return [h.search, at15?.score ?? "", at15?.label ?? "", at30?.score ?? "", at30?.label ?? ""];
      });
      return [[...SEARCH_TABLE_HEADER], ...rows];
    }
    const names = readHazard(hazard);
    const years = readHorizon(horizon);
    const what = readChoice(field, "field", ["score", "label"], "score");
    const exposure = await searchPoint(engine, latitude, longitude, signal);
    if (!exposure) throw new NotAvailableError("No risk data at this point");
    const entry = findScore(exposure[where]?.[years], names);
    if (!entry) throw new NotAvailableError(`No ${names.search} ${years} ${where} score at this point`);
    return [[what === "score" ? entry.score : entry.label]];
  });
}

function findScore(scores: readonly SearchScore[] | undefined, hazard: HazardNames): SearchScore | undefined {
  return scores?.find((entry) => {
    const name = normalizeName(String(entry.hazard));
    return name === hazard.search || name === hazard.portfolio || name === hazard.extended;
  });
}
