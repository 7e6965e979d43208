/**
 * Compositions (vector layers, UDFs, activation, run, apply).
 * Vector operations act in the request's project. UDF operations need no project header but
 * only ever see UDFs of the key's projects; with a project header they are limited to it.
 */
import type { FastifyRequest } from "fastify";
import { today } from "../emulator-context";
import { badRequest, notFound, unprocessable } from "../http/errors";
import { jsonObject, readForm } from "../http/multipart";
import { queryString, RequestContext } from "../http/request-context";
import { validateLayerPaced } from "../geo/geojson";
import { MAX_INPUT_LAYERS } from "../http/json-limits";
import { parseJsonText } from "../http/json-body";
import { GeoJsonFeatureCollection, StoredUdf, StoredVector } from "../state/types";
import { findPortfolio, requireRiskData } from "./portfolios";
import { applyCsv } from "../compositions/apply";
import { evaluateUdf, parseLayer, recordWithLayer } from "../compositions/udf-runner";
import { paced } from "../http/turns";
import { Readable } from "node:stream";
import { JqError } from "../jq/sandbox";

function vectorRecord(v: StoredVector) {
  return { id: v.id, name: v.name, createDate: v.createDate, updateDate: v.updateDate, status: v.status };
}

function udfRecord(u: StoredUdf) {
  return { id: u.id, name: u.name, createDate: u.createDate, updateDate: u.updateDate };
}

/** Reads name/geojson from a JSON or multipart body. */
async function readVectorInput(req: FastifyRequest): Promise<{ name?: unknown; geojson?: unknown }> {
  if (req.isMultipart()) {
    const form = await readForm(req);
    return { name: form.get("name"), geojson: form.get("geojson") };
  }
  const body = jsonObject(req);
  return { name: body.name, geojson: body.geojson };
}

/** The layer of a body or form: a GeoJSON object, or its text (parsed between turns of the event loop). */
async function parseGeojson(raw: unknown): Promise<GeoJsonFeatureCollection> {
  let value = raw;
  if (typeof raw === "string") {
    value = await parseJsonText(raw, "geojson");
  }
  const result = await validateLayerPaced(value);
  if (!result.ok) throw unprocessable(...result.errors);
  return result.value;
}

function checkName(name: unknown, field = "name"): string {
  if (typeof name !== "string" || name.trim() === "") throw badRequest(`${field}: is required (a non-empty string)`);
  if (name.length > 200) throw badRequest(`${field}: at most 200 characters`);
  return name;
}

function findVector(ctx: RequestContext, id: string | undefined): StoredVector {
  const v = ctx.emu.state.vectors.find((x) => String(x.id) === id && x.project === ctx.project);
  if (!v) throw notFound(`vector ${id} not found in project ${ctx.project}`);
  return v;
}

function nextId(ctx: RequestContext): number {
  return ctx.emu.state.nextId++;
}

/** POST /api/compositions/vector (JSON {name, geojson} or multipart name + geojson). */
export async function createVector(ctx: RequestContext) {
  const input = await readVectorInput(ctx.req);
  const name = checkName(input.name);
  if (input.geojson === undefined) throw badRequest("geojson: is required (a GeoJSON Feature or FeatureCollection)");
  const geojson = await parseGeojson(input.geojson);
  const v: StoredVector = {
    id: nextId(ctx),
    name,
    project: ctx.project!,
    createDate: today(),
    updateDate: today(),
    status: "available",
    geojson,
  };
  ctx.emu.state.vectors.push(v);
  await ctx.emu.persist();
  ctx.reply.code(201);
  return vectorRecord(v);
}

/** GET /api/compositions/vector */
export async function listVectors(ctx: RequestContext) {
  return ctx.emu.state.vectors.filter((v) => v.project === ctx.project).map(vectorRecord);
}

/** GET /api/compositions/vector/:id */
export async function getVector(ctx: RequestContext) {
  const v = findVector(ctx, ctx.params.id);
  ctx.reply.type("application/json; charset=utf-8");
  return Readable.from(paced(recordWithLayer(vectorRecord(v), v.geojson)));
}

/**
 * PUT /api/compositions/vector: multipart `name` + `geojson` file part, as published. No id in
 * the path or body: the layer updated is the project's layer of that name (the newest, should
 * several share it, as UDF input resolution does). Everything is checked before anything is
 * stored. A rename is delete + create.
 */
export async function updateVector(ctx: RequestContext) {
  if (!ctx.req.isMultipart())
    throw badRequest("body: PUT /vector takes multipart/form-data with a `name` field and a `geojson` file part");
  const input = await readVectorInput(ctx.req);
  const name = checkName(input.name);
  if (input.geojson === undefined)
    throw badRequest("geojson: is required (a GeoJSON file part: a Feature or FeatureCollection)");
  const geojson = await parseGeojson(input.geojson);
  const v = ctx.emu.state.vectors.filter((x) => x.project === ctx.project && x.name === name).at(-1);
  if (!v) throw notFound(`name: no vector layer named ${JSON.stringify(name)} in project ${ctx.project}`);
  v.geojson = geojson;
  v.updateDate = today();
  await ctx.emu.persist();
  return vectorRecord(v);
}

/** DELETE /api/compositions/vector/:id */
export async function deleteVector(ctx: RequestContext) {
  const v = findVector(ctx, ctx.params.id);
  ctx.emu.state.vectors = ctx.emu.state.vectors.filter((x) => x !== v);
  await ctx.emu.persist();
  ctx.reply.code(204);
  return undefined;
}

/** GET /api/compositions/vector/:id/apply?portfolio=NAME */
export async function applyVector(ctx: RequestContext) {
  const v = findVector(ctx, ctx.params.id);
  const name = queryString(ctx, "portfolio");
  if (name === undefined) throw badRequest("portfolio: is required (a portfolio name)");
  const p = findPortfolio(ctx, name);
  requireRiskData(p);
  return { name: `${v.name}_${p.portfolio_name}`, csv: await applyCsv(v.geojson, p.assets) };
}

/** UDFs the caller may see: the key's projects, narrowed to the project header when given. */
function visibleUdfs(ctx: RequestContext): StoredUdf[] {
  return ctx.emu.state.udfs.filter(
    (u) => ctx.key.projects.includes(u.project) && (!ctx.project || u.project === ctx.project),
  );
}

function findUdf(ctx: RequestContext, id: string | undefined): StoredUdf {
  const u = visibleUdfs(ctx).find((x) => String(x.id) === id);
  if (!u) throw notFound(`udf ${id} not found`);
  return u;
}

/** 422 naming the limit: a list is refused whole, never cut or de-duplicated to fit. */
function tooManyInputLayers(names: unknown[]) {
  return unprocessable(
    `equation.inputLayers: lists ${names.length} layers; at most ${MAX_INPUT_LAYERS} are allowed ` +
      "(the same layer named twice counts twice)",
  );
}

function checkEquation(raw: unknown): StoredUdf["equation"] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw badRequest("equation: is required (an object with inputLayers and operation)");
  const e = raw as Record<string, unknown>;
  if (Array.isArray(e.inputLayers) && e.inputLayers.length > MAX_INPUT_LAYERS) throw tooManyInputLayers(e.inputLayers);
  if (
    !Array.isArray(e.inputLayers) ||
    e.inputLayers.length === 0 ||
    !e.inputLayers.every((x) => typeof x === "string" && x !== "")
  ) {
    throw badRequest("equation.inputLayers: must be a non-empty array of layer names");
  }
  if (typeof e.operation !== "string" || e.operation.trim() === "")
    throw badRequest("equation.operation: is required (a jq program)");
  if (e.operation.length > 20000) throw badRequest("equation.operation: at most 20,000 characters");
  if (e.outputLayer !== undefined && typeof e.outputLayer !== "string")
    throw badRequest("equation.outputLayer: must be a string");
  if (e.scope !== undefined && e.scope !== "collection" && e.scope !== "feature")
    throw badRequest('equation.scope: must be "collection" or "feature"');
  const eq: StoredUdf["equation"] = { inputLayers: e.inputLayers as string[], operation: e.operation };
  if (e.outputLayer !== undefined) eq.outputLayer = e.outputLayer as string;
  if (e.scope !== undefined) eq.scope = e.scope as "collection" | "feature";
  return eq;
}

/**
 * Compiles the jq program without running it (`if false then (P) else null end` never evaluates
 * P), so a malformed operation is refused with 422 before anything is stored. jq folds constants
 * while compiling, so a program can fail a sandbox limit here too (`"x" * 1e9` exceeds the memory
 * limit): that is the program's failure in jq's terms, 422 as at run or activate, never a 500.
 */
async function checkCompiles(ctx: RequestContext, operation: string): Promise<void> {
  try {
    await ctx.emu.jq.run("null", `if false then (\n${operation}\n) else null end`, ctx.key.key);
  } catch (e) {
    if (e instanceof JqError) throw unprocessable(`equation.operation: ${e.message}`);
    throw e;
  }
}

/** POST /api/compositions/udf */
export async function createUdf(ctx: RequestContext) {
  const body = jsonObject(ctx.req);
  const name = checkName(body.name);
  const equation = checkEquation(body.equation);
  await checkCompiles(ctx, equation.operation);
  const u: StoredUdf = {
    id: nextId(ctx),
    name,
    project: ctx.project ?? ctx.key.projects[0],
    createDate: today(),
    updateDate: today(),
    equation,
  };
  ctx.emu.state.udfs.push(u);
  await ctx.emu.persist();
  ctx.reply.code(201);
  return udfRecord(u);
}

/** GET /api/compositions/udf */
export async function listUdfs(ctx: RequestContext) {
  return visibleUdfs(ctx).map(udfRecord);
}

/** GET /api/compositions/udf/:id */
export async function getUdf(ctx: RequestContext) {
  const u = findUdf(ctx, ctx.params.id);
  return { ...udfRecord(u), equation: u.equation };
}

/**
 * PUT /api/compositions/udf: JSON `{name, equation}`, as published. The UDF updated is the one of
 * that name among those the caller sees (the newest, should several share it). Both fields are
 * checked before anything is stored. A rename is delete + create.
 */
export async function updateUdf(ctx: RequestContext) {
  const body = jsonObject(ctx.req);
  const name = checkName(body.name);
  if (body.equation === undefined) throw badRequest("equation: is required (an object with inputLayers and operation)");
  const equation = checkEquation(body.equation);
  const u = visibleUdfs(ctx)
    .filter((x) => x.name === name)
    .at(-1);
  if (!u) throw notFound(`name: no UDF named ${JSON.stringify(name)}`);
  await checkCompiles(ctx, equation.operation);
  u.equation = equation;
  u.updateDate = today();
  await ctx.emu.persist();
  return { ...udfRecord(u), status: "available" };
}

/** DELETE /api/compositions/udf/:id */
export async function deleteUdf(ctx: RequestContext) {
  const u = findUdf(ctx, ctx.params.id);
  ctx.emu.state.udfs = ctx.emu.state.udfs.filter((x) => x !== u);
  await ctx.emu.persist();
  ctx.reply.code(204);
  return undefined;
}

/**
 * Evaluates a UDF over its input layers (resolved by name in the UDF's project) in the caller's
 * queue of the jq sandbox; answers the result layer as JSON text.
 */
async function computeLayer(ctx: RequestContext, u: StoredUdf): Promise<string> {
  // A UDF stored before the limit (a persisted state) is refused at run as at create.
  if (u.equation.inputLayers.length > MAX_INPUT_LAYERS) throw tooManyInputLayers(u.equation.inputLayers);
  const layers = u.equation.inputLayers.map((name, i) => {
    const candidates = ctx.emu.state.vectors.filter((v) => v.project === u.project && v.name === name);
    if (candidates.length === 0)
      throw unprocessable(
        `equation.inputLayers[${i}]: no vector layer named ${JSON.stringify(name)} in project ${u.project}`,
      );
    return { name, fc: candidates[candidates.length - 1].geojson };
  });
  return evaluateUdf(ctx.emu.jq, ctx.key.key, u, layers);
}

/** The result layer carries the UDF's name, as in the published activation example. */
function outputName(u: StoredUdf): string {
  return u.name;
}

/**
 * GET /api/compositions/udf/:id/run: the resulting layer, not stored. The layer arrives as JSON
 * text from the sandbox and is sent as it is: parsing and serialising a result of up to the
 * sandbox's limit on the server's thread would hold up every other request meanwhile.
 */
export async function runUdf(ctx: RequestContext) {
  const u = findUdf(ctx, ctx.params.id);
  const geojson = await computeLayer(ctx, u);
  const record = { id: u.id, name: outputName(u), createDate: today(), updateDate: today(), status: "available" };
  ctx.reply.type("application/json; charset=utf-8");
  return `${JSON.stringify(record).slice(0, -1)},"geojson":${geojson}}`;
}

/**
 * GET /api/compositions/udf/:id/activate: stores the result as a new vector. Storing needs the
 * layer as an object: the one parse on the server's thread, bounded by the result's size limit.
 */
export async function activateUdf(ctx: RequestContext) {
  const u = findUdf(ctx, ctx.params.id);
  const geojson = await parseLayer(await computeLayer(ctx, u));
  const v: StoredVector = {
    id: nextId(ctx),
    name: outputName(u),
    project: ctx.project ?? u.project,
    createDate: today(),
    updateDate: today(),
    status: "available",
    geojson,
  };
  ctx.emu.state.vectors.push(v);
  await ctx.emu.persist();
  return vectorRecord(v);
}
