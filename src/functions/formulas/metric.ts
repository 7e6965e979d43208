import { readHazard, readName, readPortfolio, readScenario } from "../arguments";
import { readAssetRef } from "../asset-index";
import { NotAvailableError } from "../formula-errors";
import { requireAssetMetric } from "./asset-metric";
import { METRIC } from "../specs";
import { columnFormula, quote } from "./run";
import { message } from "../../i18n/messages";

/**
 * RISK.METRIC: one number or label of the extended summary, `scenario_analytics[scenario][hazard][metric]`,
 * for an asset named by portfolio_index or entity_id; each argument may be a range (see columns.ts).
 */
export const metric = columnFormula(
  METRIC,
  ([p]) => message("cell.na.unknownPortfolio", { portfolio: quote(p) }),
  async (engine, [p, i, s, h, m], signal) => {
    const name = readPortfolio(p);
    const asset = readAssetRef(i);
    const ssp = readScenario(s);
    const names = readHazard(h);
    const wanted = readName(m, "metric", "structural_damage_2050_ubd").toLowerCase();
    const where = { portfolio: name, scenario: ssp, asset, hazard: names.extended, metric: wanted };
    const { position, value } = await requireAssetMetric(engine, where, signal, "metrics");
    if (value === undefined)
      throw new NotAvailableError(
        message("cell.na.unknownMetric", { metric: quote(wanted), example: "summary_score_30yr" }),
      );
    if (value === null || (typeof value === "number" && !Number.isFinite(value))) {
      throw new NotAvailableError(message("cell.na.noAssetValue", { metric: wanted, position: String(position) }));
    }
    return value;
  },
);
