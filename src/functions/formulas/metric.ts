import { readHazard, readIndex, readName, readPortfolio, readScenario, type CellValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../errors";
import { portfolioExtendedSummary } from "../sources";
import { evaluate, quote, type Invocation } from "./run";

/** RISK.METRIC: one number or label of the extended summary, `scenario_analytics[scenario][hazard][metric]`. */
export function metric(
  engine: RiskEngine,
  portfolio: CellValue,
  index: CellValue,
  scenario: CellValue,
  hazard: CellValue,
  metricName: CellValue,
  invocation?: Invocation,
): Promise<number | string> {
  return evaluate(invocation, () => `Unknown portfolio ${quote(portfolio)}`, async (signal) => {
    const name = readPortfolio(portfolio);
    const position = readIndex(index);
    const ssp = readScenario(scenario);
    const names = readHazard(hazard);
    const wanted = readName(metricName, "metric", "structural_damage_2050_ubd").toLowerCase();
    const data = await portfolioExtendedSummary(engine, name, ssp, signal);
    const analytics = data.get(position);
    if (!analytics) throw new NotAvailableError(`No asset with index ${position} in ${quote(name)}`);
    const metrics = analytics[names.extended];
    if (!metrics) throw new NotAvailableError(`No ${names.extended} metrics for asset ${position} in ${ssp}`);
    const value = metrics[wanted];
    if (value === undefined) throw new NotAvailableError(`Unknown metric ${quote(wanted)}: e.g. summary_score_30yr`);
    if (value === null || (typeof value === "number" && !Number.isFinite(value))) {
      throw new NotAvailableError(`No value of ${wanted} for asset ${position}`);
    }
    return value;
  });
}
