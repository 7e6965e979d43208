/**
 * Nature superprojects and sub-projects. A sub-project's summary is the synthetic model
 * averaged over sample points inside its polygons.
 */
import { randomUUID } from "node:crypto";
import { booleanPointInPolygon, bbox as turfBbox, centroid, multiPolygon } from "@turf/turf";
import { nowIso } from "../emulator-context";
import { HttpProblem, badRequest, conflict, forbiddenProject, notFound, unprocessable } from "../http/errors";
import { jsonObject } from "../http/multipart";
import { parseJsonText } from "../http/json-body";
import { RequestContext } from "../http/request-context";
import { collectPolygons, validateSubProject } from "../geo/geojson";
import { BLUE_CARBON_SUMMARY_NAMES, NATURE_SUMMARY_NAMES, blueCarbonValues, natureValues } from "../model/scores";
import { round6 } from "../model/hazard-model";
import { StoredSubProject } from "../state/types";

export const SUBPROJECT_DONE = "Processing Completed";
export const SUBPROJECT_PROCESSING = "Processing";

/** Metadata property names of a sub-project (docs/service.md#nature-sub-projects). */
const METADATA_NAMES = [
  "Entity Name",
  "label:project_name_sqkm",
  "label:country",
  "Type",
  "label:continent",
  "label:poly_area",
];

function record(s: StoredSubProject) {
  return {
    id: s.id,
    project: s.project,
    name: s.name,
    status: Date.now() >= s.ready_at ? SUBPROJECT_DONE : SUBPROJECT_PROCESSING,
    type: s.type,
  };
}

/** GET /nature/superprojects */
export async function listSuperprojects(ctx: RequestContext) {
  return [...ctx.key.superprojects];
}

/** GET /nature/projects (X-Service-Project = superproject name). */
export async function listSubProjects(ctx: RequestContext) {
  return ctx.emu.state.subprojects.filter((s) => s.project === ctx.project).map(record);
}

/**
 * POST /nature/projects {projectName, geojson, type}.
 * With an X-Service-Project header, that header is the superproject and projectName names the
 * sub-project; without it, projectName must be a superproject and the name comes from the first
 * feature's `Entity Name`.
 */
export async function createSubProject(ctx: RequestContext) {
  const body = jsonObject(ctx.req);
  const projectName = body.projectName;
  if (typeof projectName !== "string" || projectName.trim() === "")
    throw badRequest("projectName: is required (a string)");
  if (body.type !== undefined && typeof body.type !== "string") throw badRequest("type: must be a string (e.g. NCS)");
  let geojson = body.geojson;
  if (geojson === undefined) throw badRequest("geojson: is required (a GeoJSON FeatureCollection)");
  if (typeof geojson === "string") geojson = await parseJsonText(geojson, "geojson");
  const valid = await validateSubProject(geojson);
  if (!valid.ok) throw unprocessable(...valid.errors);
  let superproject = ctx.project;
  let name = projectName;
  if (!superproject) {
    if (!ctx.key.superprojects.includes(projectName)) throw forbiddenProject();
    superproject = projectName;
    name = String(valid.value.features[0].properties?.["Entity Name"]);
  }
  // Names a sub-project within its superproject: a second one of the same name is refused.
  if (ctx.emu.state.subprojects.some((x) => x.project === superproject && x.name === name)) {
    throw conflict(
      `projectName: a sub-project named ${JSON.stringify(name)} already exists in superproject ${superproject}`,
    );
  }
  const sub: StoredSubProject = {
    id: randomUUID(),
    project: superproject,
    name,
    type: subProjectType(valid.value.features[0].properties?.["Type"]),
    created_at: nowIso(),
    ready_at: Date.now() + ctx.emu.options.processingDelayMs,
    geojson: valid.value,
  };
  ctx.emu.state.subprojects.push(sub);
  await ctx.emu.persist();
  ctx.reply.code(201);
  return record(sub);
}

/**
 * The sub-project's type from its first feature's `Type` property: coastal ecosystems (mangrove,
 * seagrass, salt marsh, "blue carbon") are `Blue Carbon`, everything else `Forest Carbon`.
 */
export function subProjectType(declared: unknown): string {
  return typeof declared === "string" && /blue|mangrove|seagrass|salt\s*marsh|tidal/i.test(declared)
    ? "Blue Carbon"
    : "Forest Carbon";
}

/** Sample points inside the polygons: a 6×6 grid over the bounding box, else the centroid. */
function samplePoints(coords: number[][][][]): [number, number][] {
  const mp = multiPolygon(coords);
  const [minX, minY, maxX, maxY] = turfBbox(mp);
  const pts: [number, number][] = [];
  const n = 6;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = minX + ((i + 0.5) * (maxX - minX)) / n;
      const y = minY + ((j + 0.5) * (maxY - minY)) / n;
      if (booleanPointInPolygon([x, y], mp)) pts.push([x, y]);
    }
  }
  if (pts.length === 0) pts.push(centroid(mp).geometry.coordinates as [number, number]);
  return pts;
}

/** The export document of a sub-project (exported for tests). */
export function subProjectExport(s: StoredSubProject, seed: number) {
  const coords = collectPolygons(s.geojson);
  const pts = samplePoints(coords);
  const sums: Record<string, number> = {};
  const blue = s.type === "Blue Carbon";
  const names: readonly string[] = blue
    ? [...NATURE_SUMMARY_NAMES, ...BLUE_CARBON_SUMMARY_NAMES]
    : NATURE_SUMMARY_NAMES;
  for (const [lng, lat] of pts) {
    const v = blue
      ? { ...natureValues(lat, lng, seed), ...blueCarbonValues(lat, lng, seed) }
      : natureValues(lat, lng, seed);
    for (const k of names) sums[k] = (sums[k] ?? 0) + v[k];
  }
  const summary: Record<string, number> = {};
  for (const k of names) summary[k] = round6(sums[k] / pts.length);
  const props = s.geojson.features[0].properties ?? {};
  const metadata: Record<string, unknown> = {};
  for (const k of METADATA_NAMES) if (props[k] !== undefined) metadata[k] = props[k];
  return { geometry: { type: "MultiPolygon", coordinates: coords }, metadata, summary };
}

/** GET /nature/projects/:id/export */
export async function exportSubProject(ctx: RequestContext) {
  const s = ctx.emu.state.subprojects.find(
    (x) =>
      x.id === ctx.params.id &&
      ctx.key.superprojects.includes(x.project) &&
      (!ctx.project || x.project === ctx.project),
  );
  if (!s) throw notFound(`sub-project ${ctx.params.id} not found`);
  if (Date.now() < s.ready_at)
    throw new HttpProblem(409, [`sub-project ${s.id} is still processing; its summary is not available yet`]);
  ctx.reply.header("Content-Disposition", `attachment; filename="${s.id}.json"`);
  return subProjectExport(s, ctx.emu.options.seed);
}
