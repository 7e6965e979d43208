import { readPortfolio, type ArgumentValue } from "../arguments";
import type { RiskEngine } from "../engine/engine";
import { portfolioAssets, portfolioList, projectList } from "../data-loaders";
import { evaluate, quote, type Invocation } from "./run";
import { message } from "../../i18n/messages";

type Table = (string | number)[][];

export const PROJECTS_HEADER = ["project_id", "project_name"] as const;
export const PORTFOLIOS_HEADER = ["portfolio_name", "portfolio_id", "status", "created_at", "updated_at"] as const;
export const ASSETS_HEADER = ["portfolio_index", "entity_id", "entity_name", "lat", "lng"] as const;

/** RISK.PROJECTS: the projects the API key may use, with a header row. */
export function projects(engine: RiskEngine, invocation?: Invocation): Promise<Table> {
  return evaluate(
    invocation,
    () => message("cell.na.noProjectList"),
    async (signal) => {
      const list = await projectList(engine, signal);
      return [[...PROJECTS_HEADER], ...list.map((p) => [p.project_id, p.project_name])];
    },
  );
}

/** RISK.PORTFOLIOS: the portfolios of the connected project, with a header row. */
export function portfolios(engine: RiskEngine, invocation?: Invocation): Promise<Table> {
  return evaluate(
    invocation,
    () => message("cell.na.noPortfolioList"),
    async (signal) => {
      const list = await portfolioList(engine, signal);
      return [
        [...PORTFOLIOS_HEADER],
        ...list.map((p) => [p.portfolio_name, p.portfolio_id, p.status, p.created_at ?? "", p.updated_at ?? ""]),
      ];
    },
  );
}

/**
 * RISK.ASSETS: every asset of a portfolio in index order, with a header row; label columns
 * (`label:<key>`) follow the fixed ones in order of first appearance.
 */
export function assets(engine: RiskEngine, portfolio: ArgumentValue, invocation?: Invocation): Promise<Table> {
  return evaluate(
    invocation,
    () => message("cell.na.unknownPortfolio", { portfolio: quote(portfolio) }),
    async (signal) => {
      const name = readPortfolio(portfolio);
      const list = await portfolioAssets(engine, name, signal);
      const labelKeys: string[] = [];
      const seen = new Set<string>();
      for (const asset of list) {
        for (const key of Object.keys(asset.labels ?? {})) {
          if (!seen.has(key)) {
            seen.add(key);
            labelKeys.push(key);
          }
        }
      }
      const sorted = [...list].sort((a, b) => a.portfolio_index - b.portfolio_index);
      return [
        [...ASSETS_HEADER, ...labelKeys.map((key) => `label:${key}`)],
        ...sorted.map((a) => [
          a.portfolio_index,
          a.entity_id ?? "",
          a.entity_name ?? "",
          a.lat,
          a.lng,
          ...labelKeys.map((key) => a.labels?.[key] ?? ""),
        ]),
      ];
    },
  );
}
