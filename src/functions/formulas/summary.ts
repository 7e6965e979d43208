import { readChoice, readHazard, readIndex, readPortfolio, readScenario, readWindow, type CellValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { NotAvailableError } from "../errors";
import { portfolioSummary } from "../sources";
import { evaluate, quote, type Invocation } from "./run";

/** Scenario and window RISK.SUMMARY uses when they are omitted. */
export const SUMMARY_DEFAULTS = { scenario: "ssp245", window: 30 } as const;

/** RISK.SUMMARY: `risk_score` (or `risk_class`) of one hazard for the asset at `portfolio_index` = index. */
export function summary(
  engine: RiskEngine,
  portfolio: CellValue,
  index: CellValue,
  hazard: CellValue,
  scenario: CellValue,
  window: CellValue,
  field: CellValue,
  invocation?: Invocation,
): Promise<number | string> {
  return evaluate(invocation, () => `Unknown portfolio ${quote(portfolio)}`, async (signal) => {
    const name = readPortfolio(portfolio);
    const position = readIndex(index);
    const names = readHazard(hazard);
    const ssp = readScenario(scenario, SUMMARY_DEFAULTS.scenario);
    const years = readWindow(window, SUMMARY_DEFAULTS.window);
    const what = readChoice(field, "field", ["score", "class"], "score");
    const data = await portfolioSummary(engine, name, ssp, years, signal);
    const asset = data.get(position);
    if (!asset) throw new NotAvailableError(`No asset with index ${position} in ${quote(name)}`);
    const entry = asset.get(names.portfolio);
    if (!entry) throw new NotAvailableError(`No ${names.portfolio} summary for asset ${position}`);
    return what === "score" ? entry.risk_score : entry.risk_class;
  });
}
