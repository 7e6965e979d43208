/**
 * Emulator control (not a service route): `POST /__emulator/portfolios/:portfolio_name/change-data`
 * changes the risk data of some of a portfolio's assets, as a new release of the production dataset
 * does, so a benchmark or a test can see what a refresh does when the data moved under a workbook.
 *
 * Body (JSON): `{"fraction": 0.01}` (that share of the assets, spread evenly over the portfolio,
 * at least one) or `{"entity_ids": ["S00001", ...]}`, and `"project"` when two projects hold a
 * portfolio of that name. Each chosen asset's model values get another seed (its summary, extended
 * summary, items and export all change); the portfolio's dataset gets a new `version` and hence a
 * new `sha256_digest` (`GET .../datasets/physical`). Answers `{portfolio_name, project, version,
 * sha256_digest, changed: [entity_id, ...]}`.
 */
import { FastifyRequest } from "fastify";
import { Emulator, nowIso } from "../emulator-context";
import { badRequest, notFound } from "../http/errors";
import { StoredPortfolio } from "../state/types";
import { datasetDigest, datasetVersion } from "./datasets";

/** The control route's path (fastify syntax), under the emulator's `/__emulator/` prefix. */
export const CHANGE_DATA_ROUTE = "/__emulator/portfolios/:portfolio_name/change-data";

/** What the route answers. */
export interface DataChange {
  portfolio_name: string;
  project: string;
  version: string;
  sha256_digest: string;
  changed: string[];
}

/** Handles one change request against the emulator's state (see the file's comment). */
export async function changePortfolioData(emu: Emulator, req: FastifyRequest): Promise<DataChange> {
  const name = (req.params as { portfolio_name: string }).portfolio_name;
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== "object" || Array.isArray(body)) throw badRequest("body: expected a JSON object");
  const project = body.project;
  if (project !== undefined && typeof project !== "string") throw badRequest("project: expected a string");
  const matches = emu.state.portfolios.filter(
    (p) => p.portfolio_name === name && (project === undefined || p.project === project),
  );
  if (matches.length === 0)
    throw notFound(`portfolio ${JSON.stringify(name)} not found${project ? ` in project ${project}` : ""}`);
  if (matches.length > 1)
    throw badRequest(
      `portfolio ${JSON.stringify(name)} exists in projects ${matches.map((p) => p.project).join(", ")}: name one as "project"`,
    );
  const p = matches[0];
  const indices = chosenAssets(p, body);
  for (const i of indices) p.assets[i].data_revision = (p.assets[i].data_revision ?? 0) + 1;
  p.data_revision = (p.data_revision ?? 0) + 1;
  p.updated_at = nowIso();
  await emu.persist();
  return {
    portfolio_name: p.portfolio_name,
    project: p.project,
    version: datasetVersion(p),
    sha256_digest: datasetDigest(p, emu.options.seed),
    changed: indices.map((i) => p.assets[i].entity_id),
  };
}

/** Indices of the assets the body names: a fraction spread evenly, or a list of entity_ids. */
function chosenAssets(p: StoredPortfolio, body: Record<string, unknown>): number[] {
  const { fraction, entity_ids: ids } = body;
  if ((fraction === undefined) === (ids === undefined))
    throw badRequest('give exactly one of "fraction" (a number in (0, 1]) or "entity_ids" (a list of strings)');
  if (p.assets.length === 0) throw badRequest(`portfolio ${JSON.stringify(p.portfolio_name)} has no assets`);
  if (fraction !== undefined) {
    if (typeof fraction !== "number" || !(fraction > 0 && fraction <= 1))
      throw badRequest(`fraction: expected a number in (0, 1], got ${JSON.stringify(fraction)}`);
    const n = p.assets.length;
    const count = Math.max(1, Math.round(fraction * n));
    return Array.from({ length: count }, (_, k) => Math.floor(((k + 0.5) * n) / count));
  }
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string"))
    throw badRequest("entity_ids: expected a non-empty list of strings");
  const wanted = new Set(ids as string[]);
  const indices = p.assets.flatMap((a, i) => (wanted.has(a.entity_id) ? [i] : []));
  const found = new Set(indices.map((i) => p.assets[i].entity_id));
  const missing = [...wanted].filter((id) => !found.has(id));
  if (missing.length > 0)
    throw badRequest(
      `entity_ids: not in portfolio ${JSON.stringify(p.portfolio_name)}: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`,
    );
  return indices;
}
