import { isBlank, readChoice, readHazard, readPortfolio, readScenario, type ArgumentValue } from "../arguments";
import { readAssetRef } from "../asset-index";
import type { RiskEngine } from "../engine/engine";
import { ArgumentError, NotAvailableError } from "../formula-errors";
import { MEASURES, normalizeName } from "../../shared/vocabulary";
import { portfolioSeries } from "../data-loaders";
import { SeriesValues } from "../../api/series-values";
import { TIMESERIES, defaultOf } from "../specs";
import { evaluate, quote, type Invocation } from "./run";
import { message } from "../../i18n/messages";

export const TIMESERIES_HEADER = ["year", "value"] as const;

/**
 * RISK.TIMESERIES: the series of the asset (by portfolio_index or entity_id) as a two-column table with a header row,
 * oldest first. Years are numbers (`YYYY`); monthly observed keys (`YYYY-MM`) stay text.
 */
export function timeseries(
  engine: RiskEngine,
  portfolio: ArgumentValue,
  index: ArgumentValue,
  hazard: ArgumentValue,
  scenario: ArgumentValue,
  indicator: ArgumentValue,
  measure: ArgumentValue,
  invocation?: Invocation,
): Promise<(string | number)[][]> {
  return evaluate(
    invocation,
    () => message("cell.na.unknownPortfolio", { portfolio: quote(portfolio) }),
    async (signal) => {
      const name = readPortfolio(portfolio);
      const asset = readAssetRef(index);
      const names = readHazard(hazard);
      const ssp = readScenario(scenario);
      let series = names.indicators[0]!;
      if (!isBlank(indicator)) {
        series = normalizeName(String(indicator));
        if (!names.indicators.includes(series)) {
          throw new ArgumentError(
            message("cell.argument.indicator", { hazard: names.portfolio, indicators: names.indicators.join(", ") }),
          );
        }
      }
      const bound = readChoice(measure, "measure", MEASURES, defaultOf(TIMESERIES, "measure"));
      const data = await portfolioSeries(
        engine,
        name,
        { hazard: names.portfolio, scenario: ssp, indicator: series, measure: bound },
        signal,
      );
      const position = data.resolve(asset, name);
      const stored = data.get(position);
      if (!stored)
        throw new NotAvailableError(
          message("cell.na.noSeries", {
            hazard: names.portfolio,
            indicator: series,
            position: String(position),
            portfolio: quote(name),
          }),
        );
      const exposure = SeriesValues.of(stored);
      const keys = [...exposure.keys].sort();
      return [
        [...TIMESERIES_HEADER],
        ...keys.map((key) => [/^\d{4}$/.test(key) ? Number(key) : key, exposure.get(key) as string | number]),
      ];
    },
  );
}
