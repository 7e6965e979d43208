/**
 * Per-request context: the caller's key and project resolved from headers/query, and helpers
 * that read query parameters with errors naming the parameter.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Emulator } from "../emulator-context";
import { KeyRecord } from "../state/types";
import { KEYS, PROJECTS } from "../state/seed";
import { badRequest, forbiddenProject, unauthorized } from "./errors";

/** What every handler receives. */
export interface RequestContext {
  req: FastifyRequest;
  reply: FastifyReply;
  emu: Emulator;
  /** The caller's key (routes without auth get a placeholder with no projects). */
  key: KeyRecord;
  /** Resolved project name (under /api) or superproject name (nature), if any. */
  project?: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
}

const NO_KEY: KeyRecord = { key: "", projects: [], superprojects: [] };

/** Resolves the API key header; throws 401 when missing or unknown. */
export function resolveKey(req: FastifyRequest, required: boolean): KeyRecord {
  const raw = req.headers["x-service-apikey"];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key) {
    if (!required) return NO_KEY;
    throw unauthorized("missing X-Service-APIKey header");
  }
  const found = KEYS.find((k) => k.key === key);
  if (!found) throw unauthorized("unknown API key in X-Service-APIKey header");
  return found;
}

/** The raw project indicator from the X-Service-Project header or the `project` query parameter. */
export function rawProject(req: FastifyRequest): string | undefined {
  const raw = req.headers["x-service-project"];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header) return header;
  const q = (req.query as Record<string, unknown> | undefined)?.project;
  return typeof q === "string" && q !== "" ? q : undefined;
}

/**
 * Resolves the project (by name or id) for the /api routes, or the superproject for nature's.
 * Missing and required → 400; not usable by the key → 403.
 */
export function resolveProject(
  req: FastifyRequest,
  key: KeyRecord,
  area: "api" | "nature",
  required: boolean,
): string | undefined {
  const raw = rawProject(req);
  if (raw === undefined) {
    if (required) {
      throw badRequest(
        area === "nature"
          ? "missing project: send the superproject name in the X-Service-Project header"
          : "missing project: send the X-Service-Project header (project name or id) or the project query parameter",
      );
    }
    return undefined;
  }
  if (area === "nature") {
    if (!key.superprojects.includes(raw)) throw forbiddenProject();
    return raw;
  }
  const project = PROJECTS.find((p) => p.project_name === raw || p.project_id === raw);
  if (!project || !key.projects.includes(project.project_name)) throw forbiddenProject();
  return project.project_name;
}

/** A query parameter as a string (first value if repeated), or undefined when absent or empty. */
export function queryString(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.query[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === "string" && s !== "" ? s : undefined;
}

/** An optional integer query parameter; 400 naming the parameter when it is not an integer. */
export function queryInt(ctx: RequestContext, name: string): number | undefined {
  const s = queryString(ctx, name);
  if (s === undefined) return undefined;
  if (!/^-?\d+$/.test(s.trim())) throw badRequest(`${name}: "${s}" is not an integer`);
  return Number(s);
}

/** An optional query parameter restricted to a set of values. */
export function queryEnum<T extends string>(ctx: RequestContext, name: string, allowed: readonly T[]): T | undefined {
  const s = queryString(ctx, name);
  if (s === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(s))
    throw badRequest(`${name}: "${s}" is not one of ${allowed.join(", ")}`);
  return s as T;
}

/** An optional boolean query parameter (true/false/1/0). */
export function queryBool(ctx: RequestContext, name: string): boolean | undefined {
  const s = queryString(ctx, name);
  if (s === undefined) return undefined;
  const l = s.toLowerCase();
  if (l === "true" || l === "1") return true;
  if (l === "false" || l === "0") return false;
  throw badRequest(`${name}: "${s}" is not a boolean (true or false)`);
}

/** Page and rows of a paginated list (page from 1, rows 1..250, default 50). */
export interface PageRequest {
  page: number;
  rows: number;
  offset: number;
}

export const MAX_ROWS = 250;
export const DEFAULT_ROWS = 50;

/** Reads and validates `page` and `rows`. */
export function pagination(ctx: RequestContext): PageRequest {
  const page = queryInt(ctx, "page") ?? 1;
  const rows = queryInt(ctx, "rows") ?? DEFAULT_ROWS;
  if (page < 1) throw badRequest(`page: ${page} is out of range (pages start at 1)`);
  if (rows < 1 || rows > MAX_ROWS) throw badRequest(`rows: ${rows} is out of range [1, ${MAX_ROWS}]`);
  return { page, rows, offset: (page - 1) * rows };
}

/** Slices one page out of an array. */
export function pageOf<T>(items: readonly T[], p: PageRequest): T[] {
  return items.slice(p.offset, p.offset + p.rows);
}
