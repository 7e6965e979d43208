import { readChoice, readHazard, readPortfolio, readScenario } from "../arguments";
import { describeAsset, readAssetRef } from "../asset-index";
import type { GridArgument } from "../columns";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../formula-errors";
import { portfolioExtendedSummary } from "../data-loaders";
import { evaluateColumns, quote, type Invocation } from "./run";

/** The periods of the extended summary's metrics (service interface, "Physical summary item (extended)"). */
export const IMPACT_PERIODS = ["baseline", "2030", "2050", "2080"] as const;
/** Which value of a metric: the central one, or the 16th (`_lbd`) / 84th (`_ubd`) percentile (field notes). */
export const IMPACT_BOUNDS = ["central", "lower", "upper"] as const;
export type ImpactBound = (typeof IMPACT_BOUNDS)[number];

/** Metric-name suffix of each bound. */
const SUFFIX: Record<ImpactBound, string> = { central: "", lower: "_lbd", upper: "_ubd" };

/**
 * The extended summary's metric name of structural damage in one period and bound, e.g. `structural_damage_2050_ubd`.
 */
export function structuralDamageMetric(period: string, bound: ImpactBound = "central"): string {
  return `structural_damage_${period}${SUFFIX[bound]}`;
}

/** RISK.IMPACT's parameters, in order (the names its messages and Explain use). */
export const IMPACT_PARAMETERS = ["portfolio", "index", "hazard", "scenario", "period", "bound"] as const;

/** Reads a period: baseline, 2030, 2050 or 2080 (a number works too). */
function readPeriod(value: unknown): string {
  return readChoice(typeof value === "number" ? String(value) : (value as string), "period", IMPACT_PERIODS);
}

/**
 * RISK.IMPACT: the structural damage fraction of one hazard for an asset, in one scenario and
 * period, `scenario_analytics[scenario][hazard].structural_damage_<period>` (or its `_lbd` / `_ubd`
 * bound) of the extended summary; each argument may be a range (see columns.ts). It shares RISK.METRIC's
 * load (one per portfolio and scenario). A missing value is `#N/A` with a message, never 0: money
 * at risk computed from a 0 that is really "unknown" would be wrong.
 */
export function impact(
  engine: RiskEngine,
  portfolio: GridArgument,
  index: GridArgument,
  hazard: GridArgument,
  scenario: GridArgument,
  period: GridArgument,
  bound: GridArgument,
  invocation?: Invocation,
): Promise<unknown[][]> {
  return evaluateColumns(
    invocation,
    IMPACT_PARAMETERS,
    [portfolio, index, hazard, scenario, period, bound],
    ([p]) => `Unknown portfolio ${quote(p)}`,
    async ([p, i, h, s, t, b], signal) => {
      const name = readPortfolio(p);
      const asset = readAssetRef(i);
      const names = readHazard(h);
      const ssp = readScenario(s);
      const when = readPeriod(t);
      const which = readChoice(b, "bound", IMPACT_BOUNDS, "central");
      const metricName = structuralDamageMetric(when, which);
      const data = await portfolioExtendedSummary(engine, name, ssp, signal);
      const position = data.resolve(asset, name);
      const analytics = data.get(position);
      if (!analytics) throw new NotAvailableError(`No asset with ${describeAsset(asset)} in ${quote(name)}`);
      const metrics = analytics[names.extended];
      if (!metrics) throw new NotAvailableError(`No ${names.extended} damage for asset ${position} in ${ssp}`);
      const value = metrics[metricName];
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new NotAvailableError(`No ${metricName} for ${names.extended}, asset ${position}, ${ssp}`);
      }
      return value;
    },
  );
}
