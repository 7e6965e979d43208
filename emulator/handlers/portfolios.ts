/**
 * Projects, portfolios and assets (import, list, export).
 */
import { randomBytes } from "node:crypto";
import { nowIso } from "../emulator-context";
import { badRequest, conflict, notFound, HttpProblem } from "../http/errors";
import { pageOf, pagination, queryString, RequestContext } from "../http/request-context";
import { jsonObject, readForm } from "../http/multipart";
import { PROJECTS } from "../state/seed";
import { StoredPortfolio } from "../state/types";
import { parseAssetCsv } from "../assets/asset-csv";

export const STATUS_AVAILABLE = "Risk data available";
export const STATUS_GENERATING = "Generating risk data";
export const STATUS_EMPTY = "No assets";

/** The portfolio's status now (generation completes by time, so restarts keep it right). */
export function portfolioStatus(p: StoredPortfolio): string {
  if (p.ready_at === null) return STATUS_EMPTY;
  return Date.now() >= p.ready_at ? STATUS_AVAILABLE : STATUS_GENERATING;
}

/** The Portfolio record (docs/service.md#records). */
export function portfolioRecord(p: StoredPortfolio) {
  return {
    portfolio_id: p.portfolio_id,
    portfolio_name: p.portfolio_name,
    created_at: p.created_at,
    updated_at: p.updated_at,
    status: portfolioStatus(p),
  };
}

/** The portfolio named in the path within the request's project, or 404. */
export function findPortfolio(ctx: RequestContext, name = ctx.params.portfolio_name): StoredPortfolio {
  const p = ctx.emu.state.portfolios.find((x) => x.project === ctx.project && x.portfolio_name === name);
  if (!p) throw notFound(`portfolio ${JSON.stringify(name)} not found in project ${ctx.project}`);
  return p;
}

/** 409 while risk data is being generated (with Retry-After in seconds). */
export function requireRiskData(p: StoredPortfolio): void {
  if (p.ready_at !== null && Date.now() < p.ready_at) {
    const seconds = Math.max(1, Math.ceil((p.ready_at - Date.now()) / 1000));
    throw new HttpProblem(
      409,
      [`risk data for portfolio ${p.portfolio_name} is still being generated; try again in about ${seconds} s`],
      { "Retry-After": String(seconds) },
    );
  }
}

const NAME_RULE = /^[A-Za-z0-9_-]+$/;
/** Portfolio name length bounds (the published client's validation, 3 to 30: docs/service.md#portfolios-and-assets). */
export const NAME_MIN_LENGTH = 3;
export const NAME_MAX_LENGTH = 30;

/** GET /api/projects/ */
export async function listProjects(ctx: RequestContext) {
  return PROJECTS.filter((p) => ctx.key.projects.includes(p.project_name));
}

/** GET /api/portfolios/ (all portfolios, not paginated, as production does). */
export async function listPortfolios(ctx: RequestContext) {
  return ctx.emu.state.portfolios.filter((p) => p.project === ctx.project).map(portfolioRecord);
}

/** POST /api/portfolios/ */
export async function createPortfolio(ctx: RequestContext) {
  const body = jsonObject(ctx.req);
  const name = body.portfolio_name;
  if (typeof name !== "string" || name === "") throw badRequest("portfolio_name: is required (a string)");
  if (!NAME_RULE.test(name))
    throw badRequest(`portfolio_name: "${name}" may hold only letters, digits, _ and - (no spaces)`);
  if (name.length < NAME_MIN_LENGTH || name.length > NAME_MAX_LENGTH) {
    throw badRequest(
      `portfolio_name: "${name}" has ${name.length} characters; names have ${NAME_MIN_LENGTH} to ${NAME_MAX_LENGTH}`,
    );
  }
  if (ctx.emu.state.portfolios.some((p) => p.project === ctx.project && p.portfolio_name === name)) {
    throw conflict(`portfolio ${name} already exists in project ${ctx.project}`);
  }
  const now = nowIso();
  const p: StoredPortfolio = {
    portfolio_id: randomBytes(8).toString("hex"),
    portfolio_name: name,
    project: ctx.project!,
    created_at: now,
    updated_at: now,
    ready_at: null,
    csv: "entity_id,entity_name,lat,lng\n",
    assets: [],
  };
  ctx.emu.state.portfolios.push(p);
  await ctx.emu.persist();
  ctx.reply.code(201);
  return portfolioRecord(p);
}

/** GET /api/portfolios/:portfolio_name/ */
export async function getPortfolio(ctx: RequestContext) {
  return portfolioRecord(findPortfolio(ctx));
}

/** DELETE /api/portfolios/:portfolio_name/: 200 with a message object (docs/service.md#routes). */
export async function deletePortfolio(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  ctx.emu.state.portfolios = ctx.emu.state.portfolios.filter((x) => x !== p);
  await ctx.emu.persist();
  return { message: `portfolio ${p.portfolio_name} deleted with its ${p.assets.length} assets` };
}

/** GET /api/portfolios/:portfolio_name/assets (page, rows, entity_id). */
export async function listAssets(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  const page = pagination(ctx);
  const entity = queryString(ctx, "entity_id");
  const rows = p.assets.map((a, i) => ({ a, i })).filter(({ a }) => entity === undefined || a.entity_id === entity);
  return pageOf(rows, page).map(({ a, i }) => ({
    portfolio_name: p.portfolio_name,
    portfolio_index: i,
    entity_id: a.entity_id,
    entity_name: a.entity_name,
    labels: a.labels,
    lat: a.lat,
    lng: a.lng,
  }));
}

/** POST /api/portfolios/:portfolio_name/assets/import/ (multipart, file field `asset`). */
export async function importAssets(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  if (!ctx.req.isMultipart())
    throw badRequest("expected a multipart/form-data body with the CSV in the file field `asset`");
  const form = await readForm(ctx.req);
  const csv = form.get("asset");
  if (csv === undefined)
    throw badRequest(`asset: file field is missing (form fields received: ${[...form.keys()].join(", ") || "none"})`);
  // Parsing gives the event loop back between slices (a 10 MB file): parsed before the check below.
  const parsed = await parseAssetCsv(csv);
  // The upload and the parse took time: the portfolio may have been deleted (and perhaps re-created
  // under the same name) meanwhile. Acknowledge only an import into the portfolio it was sent to.
  if (!ctx.emu.state.portfolios.includes(p)) {
    throw notFound(
      `portfolio ${JSON.stringify(p.portfolio_name)} was deleted while its import was being received; nothing was imported`,
    );
  }
  if (!parsed.ok) throw new HttpProblem(parsed.status, parsed.errors);
  // Validation finished before any change: a rejected import leaves the portfolio as it was.
  p.assets = parsed.assets;
  p.csv = csv;
  p.updated_at = nowIso();
  p.ready_at = Date.now() + ctx.emu.options.processingDelayMs;
  await ctx.emu.persist();
  ctx.reply.code(202);
  // The published answer is a message object; the other fields are ours (extra fields are allowed).
  return {
    message: `${p.assets.length} assets imported into ${p.portfolio_name}; generating risk data`,
    portfolio_name: p.portfolio_name,
    status: portfolioStatus(p),
    assets: p.assets.length,
  };
}

/** GET /api/portfolios/:portfolio_name/assets/export (the CSV as uploaded). */
export async function exportAssets(ctx: RequestContext) {
  const p = findPortfolio(ctx);
  ctx.reply
    .header("Content-Type", "text/csv; charset=utf-8")
    .header("Content-Disposition", `attachment; filename="${p.portfolio_name}-assets.csv"`);
  return p.csv;
}
