/**
 * UDFs evaluated by real jq: the two published examples (docs/service.md#compositions) give jq's own answers
 * (computed here independently), activation stores a new vector, apply joins features to assets, and the
 * sandbox stops looping or runaway programs with 422 while the server keeps answering.
 */
import Papa from "papaparse";
import { call, portfolioWith } from "./helpers";
import { useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();

const C = "/api/compositions";
const EXAMPLE_1 =
  ".features.[].properties | if .loss_wildfire_bsln == 0 then nan else (.loss_wildfire_2050 - .loss_wildfire_bsln) / .loss_wildfire_bsln end | [., 0.0] | max | [., 2.0] | min";
const EXAMPLE_2 = ".loss_flood_bsln + .loss_wildfire_bsln + .loss_cyclone_bsln";

async function udf(
  operation: string,
  inputLayers = ["demo-losses"],
  extra: Record<string, unknown> = {},
): Promise<number> {
  const r = await call(emu, "POST", `${C}/udf`, {
    json: { name: `u-${Math.random()}`, equation: { inputLayers, operation, ...extra } },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** The demo layer's features, as the service stores them. */
type StoredFeature = { geometry: unknown; properties: Record<string, number> & { entity_id?: string } };

async function demoFeatures(): Promise<StoredFeature[]> {
  return (await call(emu, "GET", `${C}/vector/1`)).body.geojson.features;
}

test("example 1 over the FeatureCollection: one value per feature, as jq computes it", async () => {
  const features = await demoFeatures();
  // jq: nan sorts below every number, so [nan, 0.0] | max is 0.0; then clamp to 2.0.
  const expected = features.map((f) => {
    const p = f.properties;
    const v = p.loss_wildfire_bsln === 0 ? NaN : (p.loss_wildfire_2050 - p.loss_wildfire_bsln) / p.loss_wildfire_bsln;
    return Math.min(Number.isNaN(v) ? 0 : Math.max(v, 0), 2);
  });
  expect(expected.some((v) => v === 0)).toBe(true);
  const r = await call(emu, "GET", `${C}/udf/${await udf(EXAMPLE_1)}/run`);
  expect(r.status).toBe(200);
  expect(r.body.status).toBe("available");
  const values = r.body.geojson.features.map((f: StoredFeature) => f.properties.value);
  expect(values).toHaveLength(features.length);
  values.forEach((v: number, i: number) => expect(v).toBeCloseTo(expected[i], 12));
});

test("example 2 over one feature's properties", async () => {
  const features = await demoFeatures();
  const r = await call(emu, "GET", `${C}/udf/${await udf(EXAMPLE_2)}/run`);
  expect(r.status).toBe(200);
  const values = r.body.geojson.features.map((f: StoredFeature) => f.properties.value);
  expect(values).toEqual(
    features.map(
      (f) => f.properties.loss_flood_bsln + f.properties.loss_wildfire_bsln + f.properties.loss_cyclone_bsln,
    ),
  );
  // The input features and their properties are kept.
  expect(r.body.geojson.features[5].geometry).toEqual(features[5].geometry);
  expect(r.body.geojson.features[5].properties.entity_id).toBe(features[5].properties.entity_id);
});

test("NaN results become null; an explicit scope overrides the default", async () => {
  const r = await call(emu, "GET", `${C}/udf/${await udf("nan", ["demo-losses"], { scope: "feature" })}/run`);
  expect(r.body.geojson.features.every((f: StoredFeature) => f.properties.value === null)).toBe(true);
  const n = await call(
    emu,
    "GET",
    `${C}/udf/${await udf(".features | length", ["demo-losses"], { scope: "collection" })}/run`,
  );
  const count = (await demoFeatures()).length;
  expect(n.body.geojson.features.every((f: StoredFeature) => f.properties.value === count)).toBe(true);
});

test("several input layers: the collection input is an object keyed by layer name", async () => {
  const fc = {
    type: "FeatureCollection",
    features: [{ type: "Feature", geometry: { type: "Point", coordinates: [0, 0] }, properties: { k: 3 } }],
  };
  expect((await call(emu, "POST", `${C}/vector`, { json: { name: "small", geojson: fc } })).status).toBe(201);
  const id = await udf(
    '(.small.features[0].properties.k + (.["demo-losses"].features | length)) as $x | .["demo-losses"].features | map($x)',
    ["demo-losses", "small"],
  );
  const r = await call(emu, "GET", `${C}/udf/${id}/run`);
  expect(r.status).toBe(200);
  const count = (await demoFeatures()).length;
  expect(r.body.geojson.features[0].properties.value).toBe(3 + count);
});

test("activation stores the result as a new available vector, named after the UDF, that can be applied", async () => {
  const r = await call(emu, "POST", `${C}/udf`, {
    json: { name: "total-losses", equation: { inputLayers: ["demo-losses"], operation: EXAMPLE_2 } },
  });
  const id = r.body.id;
  const act = await call(emu, "GET", `${C}/udf/${id}/activate`);
  expect(act.status).toBe(200);
  // The published activation example: the result vector carries the UDF's name.
  expect(act.body).toMatchObject({ name: "total-losses", status: "available" });
  expect(act.body.id).not.toBe(id);
  const listed = await call(emu, "GET", `${C}/vector`);
  expect(listed.body.map((v: { id: number }) => v.id)).toContain(act.body.id);
  const applied = await call(emu, "GET", `${C}/vector/${act.body.id}/apply?portfolio=demo-portfolio`);
  expect(applied.status).toBe(200);
  const rows = Papa.parse<Record<string, string>>(applied.body.csv, { header: true, skipEmptyLines: true }).data;
  expect(rows[1].value).toBeDefined();
});

test("apply: polygon first, else nearest point within 50 km, else none; one row per asset in order", async () => {
  await portfolioWith(
    emu,
    "apply-p",
    "entity_id,entity_name,lat,lng\nin-zone,A,51.9,0.2\nnear,B,48.9,2.5\nfar,C,0,-30\n",
  );
  const r = await call(emu, "GET", `${C}/vector/1/apply?portfolio=apply-p`);
  const parsed = Papa.parse<Record<string, string>>(r.body.csv, { header: true, skipEmptyLines: true });
  expect(parsed.meta.fields!.slice(0, 9)).toEqual([
    "portfolio_index",
    "entity_id",
    "entity_name",
    "lat",
    "lng",
    "feature_index",
    "feature_id",
    "match",
    "distance_km",
  ]);
  expect(parsed.meta.fields).toEqual(
    expect.arrayContaining(["loss_wildfire_bsln", "loss_flood_bsln", "loss_cyclone_bsln"]),
  );
  const rows = parsed.data;
  expect(rows.map((x) => x.portfolio_index)).toEqual(["0", "1", "2"]);
  expect(rows[0]).toMatchObject({ match: "polygon", feature_id: "zone-DEMO-001", distance_km: "0" });
  expect(rows[1]).toMatchObject({ match: "nearest", feature_id: "pt-DEMO-002" });
  // Paris asset at (48.8566, 2.3522): about 17 km from (48.9, 2.5).
  expect(Number(rows[1].distance_km)).toBeGreaterThan(10);
  expect(Number(rows[1].distance_km)).toBeLessThan(25);
  expect(rows[2]).toMatchObject({ match: "none", feature_id: "", loss_flood_bsln: "" });
});

test("jq errors and unknown input layers are 422 with a message", async () => {
  // A program jq cannot compile is refused when the UDF is created, and nothing is stored.
  const before = (await call(emu, "GET", `${C}/udf`)).body.length;
  const syntax = await call(emu, "POST", `${C}/udf`, {
    json: { name: "broken", equation: { inputLayers: ["demo-losses"], operation: ".[" } },
  });
  expect(syntax.status).toBe(422);
  expect(syntax.body.errors[0]).toMatch(/^equation\.operation: .*syntax error/);
  expect((await call(emu, "GET", `${C}/udf`)).body.length).toBe(before);
  const missing = await call(emu, "GET", `${C}/udf/${await udf(".", ["no-such-layer"])}/run`);
  expect(missing.status).toBe(422);
  expect(missing.body.errors[0]).toMatch(/^equation\.inputLayers\[0\]: no vector layer named "no-such-layer"/);
  const mismatch = await call(emu, "GET", `${C}/udf/${await udf(".features[0:2][] | 1")}/run`);
  expect(mismatch.status).toBe(422);
});

test.each([["def f: f; f"], ["repeat(1)"], ["[range(1e9)] | length"]])(
  "sandbox: %s → 422 within ~3 s and the server keeps answering",
  async (program) => {
    const id = await udf(program, ["demo-losses"], { scope: "collection" });
    const t = Date.now();
    const r = await call(emu, "GET", `${C}/udf/${id}/run`);
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatch(/time limit|memory limit|output/);
    expect(Date.now() - t).toBeLessThan(3500);
    expect((await call(emu, "GET", "/api/search?lat=10&lng=10")).status).toBe(200);
    // And jq works again after the worker was replaced.
    expect((await call(emu, "GET", `${C}/udf/${await udf(EXAMPLE_2)}/run`)).status).toBe(200);
  },
  15000,
);

test("a program that fails a sandbox limit while jq compiles it is 422 at create and update, and nothing is stored", async () => {
  // jq folds `"x" * 1e9` while compiling: a gigabyte string, past the 256 MB cap of jq's heap.
  const before = (await call(emu, "GET", `${C}/udf`)).text;
  const created = await call(emu, "POST", `${C}/udf`, {
    json: { name: "too-big", equation: { inputLayers: ["demo-losses"], operation: '"x" * 1e9' } },
  });
  expect(created.status).toBe(422);
  expect(created.body.errors).toEqual([expect.stringMatching(/^equation\.operation: .*memory limit of 256 MB/)]);
  const id = await udf(EXAMPLE_2);
  const name = (await call(emu, "GET", `${C}/udf/${id}`)).body.name;
  const updated = await call(emu, "PUT", `${C}/udf`, {
    json: { name, equation: { inputLayers: ["demo-losses"], operation: '"x" * 1e9' } },
  });
  expect(updated.status).toBe(422);
  expect((await call(emu, "GET", `${C}/udf/${id}`)).body.equation.operation).toBe(EXAMPLE_2);
  expect((await call(emu, "DELETE", `${C}/udf/${id}`)).status).toBe(204);
  expect((await call(emu, "GET", `${C}/udf`)).text).toBe(before);
});

test("a value given to every feature cannot make a result layer past 16 Mi characters: 422, nothing stored", async () => {
  const features = Array.from({ length: 200 }, (_, i) => ({
    type: "Feature",
    geometry: { type: "Point", coordinates: [i % 180, i % 90] },
    properties: { i },
  }));
  const layer = await call(emu, "POST", `${C}/vector`, {
    json: { name: "two-hundred", geojson: { type: "FeatureCollection", features } },
  });
  expect(layer.status).toBe(201);
  // 100,000 characters is a fine output; given to 200 features it would be a 20 MB layer.
  const id = await udf('"x" * 100000', ["two-hundred"], { scope: "collection" });
  const vectorsBefore = (await call(emu, "GET", `${C}/vector`)).text;
  for (const verb of ["run", "activate"]) {
    const r = await call(emu, "GET", `${C}/udf/${id}/${verb}`);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      expect.stringMatching(
        /^equation\.operation: the resulting layer exceeds the limit of 16777216 characters of JSON \(reached at feature 16\d of 200/,
      ),
    ]);
  }
  expect((await call(emu, "GET", `${C}/vector`)).text).toBe(vectorsBefore);
  // Within the bound the same program answers, one copy per feature.
  const small = await udf('"x" * 1000', ["two-hundred"], { scope: "collection" });
  const r = await call(emu, "GET", `${C}/udf/${small}/run`);
  expect(r.status).toBe(200);
  expect(r.body.geojson.features.map((f: StoredFeature) => f.properties.value)).toEqual(
    features.map(() => "x".repeat(1000)),
  );
});
