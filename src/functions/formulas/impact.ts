import { readChoice, readHazard, readPortfolio, readScenario } from "../arguments";
import { readAssetRef } from "../asset-index";
import { NotAvailableError } from "../formula-errors";
import { requireAssetMetric } from "./asset-metric";
import { IMPACT, IMPACT_BOUNDS, defaultOf, structuralDamageMetric } from "../specs";
import { PERIODS } from "../../shared/vocabulary";
import { columnFormula, quote } from "./run";
import { message } from "../../i18n/messages";

/** Reads a period: baseline, 2030, 2050 or 2080 (a number works too). */
function readPeriod(value: unknown): string {
  return readChoice(typeof value === "number" ? String(value) : (value as string), "period", PERIODS);
}

/**
 * RISK.IMPACT: the structural damage fraction of one hazard for an asset, in one scenario and
 * period, `scenario_analytics[scenario][hazard].structural_damage_<period>` (or its `_lbd` / `_ubd`
 * bound) of the extended summary; each argument may be a range (see columns.ts). It shares RISK.METRIC's
 * load (one per portfolio and scenario). A missing value is `#N/A` with a message, never 0: money
 * at risk computed from a 0 that is really "unknown" would be wrong.
 */
export const impact = columnFormula(
  IMPACT,
  ([p]) => message("cell.na.unknownPortfolio", { portfolio: quote(p) }),
  async (engine, [p, i, h, s, t, b], signal) => {
    const name = readPortfolio(p);
    const asset = readAssetRef(i);
    const names = readHazard(h);
    const ssp = readScenario(s);
    const when = readPeriod(t);
    const which = readChoice(b, "bound", IMPACT_BOUNDS, defaultOf(IMPACT, "bound"));
    const metricName = structuralDamageMetric(when, which);
    const where = { portfolio: name, scenario: ssp, asset, hazard: names.extended, metric: metricName };
    const { position, value } = await requireAssetMetric(engine, where, signal, "damage");
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new NotAvailableError(
        message("cell.na.noImpact", {
          metric: metricName,
          hazard: names.extended,
          position: String(position),
          scenario: ssp,
        }),
      );
    }
    return value;
  },
);
