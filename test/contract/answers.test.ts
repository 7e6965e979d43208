/**
 * Contract suite, part 1: every record type of the service (docs/service.md#records), read from real
 * emulator answers over HTTP, parses with the published client's schema (./published.ts). And the
 * schemas have teeth: each answer with one required field removed (or retyped) must fail, so a
 * field the published client requires that the emulator omits fails here.
 */
import type { z } from "zod";
import type { RunningEmulator } from "../../emulator/server";
import { DEMO_SUBPROJECT_ID } from "../../emulator/state/seed";
import { call } from "../emulator/helpers";
import { startTestEmulator } from "../support/emulator";
import { PUBLISHED, type RecordName } from "./published";

let emu: RunningEmulator;
const answers: Array<{ record: RecordName; source: string; value: unknown }> = [];

const C = "/api/compositions";
const P = "/api/portfolios/demo-portfolio";
const FEATURE = { type: "Feature", geometry: { type: "Point", coordinates: [-0.12, 51.5] }, properties: { loss: 1 } };

async function read(
  record: RecordName,
  method: string,
  path: string,
  options: Parameters<typeof call>[3] = {},
  expected = 200,
): Promise<unknown> {
  const r = await call(emu, method, path, options);
  if (r.status !== expected) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  const values = Array.isArray(r.body) && record !== "SearchResult" ? r.body : [r.body];
  if (values.length === 0) throw new Error(`${method} ${path}: an empty list proves nothing`);
  for (const value of values.slice(0, 20)) answers.push({ record, source: `${method} ${path}`, value });
  return r.body;
}

function form(name: string, geojson: unknown): FormData {
  const f = new FormData();
  f.append("name", name);
  f.append("geojson", new Blob([JSON.stringify(geojson)], { type: "application/geo+json" }), "layer.geojson");
  return f;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  await read("Project", "GET", "/api/projects/", { project: null });
  await read("Portfolio", "GET", "/api/portfolios/");
  await read("Portfolio", "GET", `${P}/`);
  await read("Portfolio", "POST", "/api/portfolios/", { json: { portfolio_name: "contract-new" } }, 201);
  await read("Asset", "GET", `${P}/assets`);
  await read("SummaryItem", "GET", `${P}/datasets/physical/summary?rows=20`);
  await read("ExtendedSummaryItem", "GET", `${P}/datasets/physical/summary?extended=true&rows=5`);
  await read("PhysicalItem", "GET", `${P}/datasets/physical/items?rows=10&hazard=heatwave`);
  await read("PhysicalItem", "GET", `${P}/datasets/physical/items?rows=10&indicator=obs_freq`);
  await read("DatasetMetadata", "GET", `${P}/datasets/physical`);
  await read("SearchResult", "GET", "/api/search?lat=51.5&lng=-0.12");
  await read("Vector", "GET", `${C}/vector`);
  await read("Vector", "POST", `${C}/vector`, { json: { name: "contract-json", geojson: FEATURE } }, 201);
  await read("Vector", "POST", `${C}/vector`, { form: form("contract-multi", FEATURE) }, 201);
  await read("Vector", "PUT", `${C}/vector`, { form: form("contract-multi", FEATURE) });
  await read("VectorWithGeoJson", "GET", `${C}/vector/1`);
  const udf = (await read(
    "Udf",
    "POST",
    `${C}/udf`,
    { json: { name: "contract-udf", equation: { inputLayers: ["demo-losses"], operation: ".loss_flood_bsln" } } },
    201,
  )) as { id: number };
  await read("Udf", "GET", `${C}/udf`);
  await read("UdfWithEquation", "GET", `${C}/udf/${udf.id}`);
  await read("UdfUpdated", "PUT", `${C}/udf`, {
    json: { name: "contract-udf", equation: { inputLayers: ["demo-losses"], operation: ".loss_flood_bsln * 2" } },
  });
  await read("Vector", "GET", `${C}/udf/${udf.id}/activate`);
  await read("VectorWithGeoJson", "GET", `${C}/udf/${udf.id}/run`);
  await read("ApplyResult", "GET", `${C}/vector/1/apply?portfolio=demo-portfolio`);
  await read("SubProject", "GET", "/nature/projects", { project: "nc-demo" });
  await read("SubProjectExport", "GET", `/nature/projects/${DEMO_SUBPROJECT_ID}/export`, { project: "nc-demo" });
}, 60_000);
afterAll(() => emu?.close());

function issues(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

test("every record type of the service was read from a real answer", () => {
  const read = new Set(answers.map((a) => a.record));
  expect(Object.keys(PUBLISHED).filter((name) => !read.has(name as RecordName))).toEqual([]);
});

test("every answer parses with the published client's schema of its record", () => {
  const failures = answers.flatMap((a) =>
    issues(PUBLISHED[a.record], a.value).map((i) => `${a.record} from ${a.source}: ${i}`),
  );
  expect(failures).toEqual([]);
});

test("a required field omitted, or of another type, fails (the schemas are not vacuous)", () => {
  const passedWhenBroken: string[] = [];
  const seen = new Set<RecordName>();
  for (const a of answers) {
    if (seen.has(a.record) || typeof a.value !== "object" || a.value === null) continue;
    seen.add(a.record);
    const shape = (PUBLISHED[a.record] as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    for (const [field, fieldSchema] of Object.entries(shape)) {
      if (fieldSchema.safeParse(undefined).success) continue; // optional in the published client
      const { [field]: _omitted, ...without } = a.value as Record<string, unknown>;
      if (PUBLISHED[a.record].safeParse(without).success) passedWhenBroken.push(`${a.record} without ${field}`);
      const retyped = { ...(a.value as Record<string, unknown>), [field]: Symbol("not JSON") };
      if (PUBLISHED[a.record].safeParse(retyped).success)
        passedWhenBroken.push(`${a.record} with ${field} of another type`);
    }
  }
  expect(passedWhenBroken).toEqual([]);
  expect(seen.size).toBe(Object.keys(PUBLISHED).length);
});

test("metadata without created_at, or with spatial_resolution as text, fails", () => {
  const meta = answers.find((a) => a.record === "DatasetMetadata")!.value as Record<string, unknown> & {
    indicators: Array<Record<string, unknown>>;
  };
  expect(issues(PUBLISHED.DatasetMetadata, meta)).toEqual([]);
  const { created_at: _c, ...noCreated } = meta;
  expect(issues(PUBLISHED.DatasetMetadata, noCreated).join()).toMatch(/^created_at: /);
  const textual = {
    ...meta,
    indicators: meta.indicators.map((i) => ({ ...i, spatial_resolution: "0.25 degree" })),
  };
  expect(issues(PUBLISHED.DatasetMetadata, textual).join()).toMatch(/indicators\.0\.spatial_resolution: /);
});
