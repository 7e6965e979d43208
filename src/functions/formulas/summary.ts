import { readChoice, readHazard, readPortfolio, readScenario, readWindow } from "../arguments";
import { describeAsset, readAssetRef } from "../asset-index";
import { NotAvailableError } from "../formula-errors";
import { portfolioSummary } from "../data-loaders";
import { SUMMARY, SUMMARY_FIELDS, defaultOf } from "../specs";
import { columnFormula, quote } from "./run";
import { message } from "../../i18n/messages";

/**
 * RISK.SUMMARY: `risk_score` (or `risk_class`) of one hazard for the asset at `portfolio_index` =
 * index, or with that entity_id; each argument may be a range (one result per row, see columns.ts).
 * One load per portfolio, scenario and window, however many rows.
 */
export const summary = columnFormula(
  SUMMARY,
  ([p]) => message("cell.na.unknownPortfolio", { portfolio: quote(p) }),
  async (engine, [p, i, h, s, w, f], signal) => {
    const name = readPortfolio(p);
    const asset = readAssetRef(i);
    const names = readHazard(h);
    const ssp = readScenario(s, defaultOf(SUMMARY, "scenario"));
    const years = readWindow(w, defaultOf(SUMMARY, "window"));
    const what = readChoice(f, "field", SUMMARY_FIELDS, defaultOf(SUMMARY, "field"));
    const data = await portfolioSummary(engine, name, ssp, years, signal);
    const position = data.resolve(asset, name);
    const row = data.get(position);
    if (!row)
      throw new NotAvailableError(message("cell.na.noAsset", { asset: describeAsset(asset), portfolio: quote(name) }));
    const entry = row.get(names.portfolio);
    if (!entry)
      throw new NotAvailableError(
        message("cell.na.noSummary", { hazard: names.portfolio, position: String(position) }),
      );
    return what === "score" ? entry.risk_score : entry.risk_class;
  },
);
