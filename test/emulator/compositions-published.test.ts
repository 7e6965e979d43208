/**
 * The published shapes of compositions: updates by name with no id in
 * the path, the invented per-id update paths answering 404, the published add-vector example (a
 * Feature without geometry located by lat/lng properties) applied by its point with its labels and
 * other non-numeric properties kept, and the dataset metadata's published fields.
 */
import Papa from "papaparse";
import { call, portfolioWith } from "./helpers";
import { useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();

const C = "/api/compositions";

/** The published add-vector example's shape: no geometry; lat/lng as strings; labels; scenario_analytics. */
const PUBLISHED_FEATURE = {
  type: "Feature",
  properties: {
    lat: "51.5",
    lng: "-0.12",
    labels: { "label:country": "UK", "label:site_type": "office" },
    scenario_analytics: { ssp585: { flood: { indicator_2050: 0.02, summary_label_30yr: "MEDIUM" } } },
    loss_flood_bsln: 1200.5,
    owner: "Acme",
  },
};

function vectorForm(name: string | undefined, geojson: unknown): FormData {
  const form = new FormData();
  if (name !== undefined) form.append("name", name);
  if (geojson !== undefined)
    form.append(
      "geojson",
      new Blob([typeof geojson === "string" ? geojson : JSON.stringify(geojson)], { type: "application/geo+json" }),
      "layer.geojson",
    );
  return form;
}

const point = (lng: number, lat: number, properties: Record<string, unknown>) => ({
  type: "FeatureCollection",
  features: [{ type: "Feature", geometry: { type: "Point", coordinates: [lng, lat] }, properties }],
});

async function vectorState(): Promise<string> {
  const list = (await call(emu, "GET", `${C}/vector`)).body as Array<{ id: number }>;
  const full = await Promise.all(list.map(async (v) => (await call(emu, "GET", `${C}/vector/${v.id}`)).body));
  return JSON.stringify(full);
}

async function udfState(): Promise<string> {
  const list = (await call(emu, "GET", `${C}/udf`)).body as Array<{ id: number }>;
  return JSON.stringify(await Promise.all(list.map(async (u) => (await call(emu, "GET", `${C}/udf/${u.id}`)).body)));
}

describe("PUT /vector: multipart name + geojson file part; the layer is the one of that name", () => {
  test("updates the named layer's geometry and keeps its id and name", async () => {
    const created = await call(emu, "POST", `${C}/vector`, {
      json: { name: "put-me", geojson: point(1, 2, { v: 1 }) },
    });
    expect(created.status).toBe(201);
    const put = await call(emu, "PUT", `${C}/vector`, { form: vectorForm("put-me", point(3, 4, { v: 2 })) });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      id: created.body.id,
      name: "put-me",
      createDate: created.body.createDate,
      updateDate: expect.any(String),
      status: "available",
    });
    const got = await call(emu, "GET", `${C}/vector/${created.body.id}`);
    expect(got.body.geojson.features[0]).toMatchObject({ geometry: { coordinates: [3, 4] }, properties: { v: 2 } });
  });

  test("bad input names the field and changes nothing: 400 no name / no file / JSON body, 404 unknown name, 422 invalid GeoJSON", async () => {
    await call(emu, "POST", `${C}/vector`, { json: { name: "keep-me", geojson: point(1, 2, { v: 1 }) } });
    const before = await vectorState();
    const cases: Array<[string, () => Promise<{ status: number; body: { errors: string[] } }>, number, RegExp]> = [
      [
        "no name",
        () => call(emu, "PUT", `${C}/vector`, { form: vectorForm(undefined, point(0, 0, {})) }),
        400,
        /^name: /,
      ],
      ["no file", () => call(emu, "PUT", `${C}/vector`, { form: vectorForm("keep-me", undefined) }), 400, /^geojson: /],
      [
        "JSON body",
        () => call(emu, "PUT", `${C}/vector`, { json: { name: "keep-me", geojson: point(0, 0, {}) } }),
        400,
        /multipart/,
      ],
      [
        "unknown name",
        () => call(emu, "PUT", `${C}/vector`, { form: vectorForm("no-such-layer", point(0, 0, {})) }),
        404,
        /^name: no vector layer named "no-such-layer"/,
      ],
      [
        "not JSON",
        () => call(emu, "PUT", `${C}/vector`, { form: vectorForm("keep-me", "{oops") }),
        400,
        /^geojson: not valid JSON/,
      ],
      [
        "invalid GeoJSON",
        () => call(emu, "PUT", `${C}/vector`, { form: vectorForm("keep-me", point(500, 0, {})) }),
        422,
        /^geojson\.features\[0\]\.geometry\.coordinates: longitude 500/,
      ],
    ];
    for (const [what, send, status, message] of cases) {
      const r = await send();
      expect([what, r.status]).toEqual([what, status]);
      expect(r.body.errors[0]).toMatch(message);
    }
    expect(await vectorState()).toBe(before);
  });

  test("the invented per-id paths are unknown routes (404), not 405", async () => {
    const v = await call(emu, "PUT", `${C}/vector/1`, { form: vectorForm("demo-losses", point(0, 0, {})) });
    expect(v.status).toBe(404);
    expect(v.body.errors[0]).toMatch(/^no route PUT/);
    const u = await call(emu, "PUT", `${C}/udf/2`, {
      json: { name: "x", equation: { inputLayers: ["demo-losses"], operation: "." } },
    });
    expect(u.status).toBe(404);
    expect(u.body.errors[0]).toMatch(/^no route PUT/);
  });
});

describe("PUT /udf: JSON {name, equation}; the UDF is the one of that name", () => {
  const eq = { inputLayers: ["demo-losses"], operation: ".loss_flood_bsln" };

  test("replaces the named UDF's equation", async () => {
    const created = await call(emu, "POST", `${C}/udf`, { project: null, json: { name: "udf-put", equation: eq } });
    const put = await call(emu, "PUT", `${C}/udf`, {
      project: null,
      json: { name: "udf-put", equation: { ...eq, operation: ".loss_cyclone_bsln * 2" } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, name: "udf-put", status: "available" });
    const got = await call(emu, "GET", `${C}/udf/${created.body.id}`, { project: null });
    expect(got.body.equation.operation).toBe(".loss_cyclone_bsln * 2");
  });

  test("bad input names the field and changes nothing: 400 / 404 / 422", async () => {
    await call(emu, "POST", `${C}/udf`, { json: { name: "udf-keep", equation: eq } });
    const before = await udfState();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ equation: eq }, 400, /^name: /],
      [{ name: "udf-keep" }, 400, /^equation: /],
      [{ name: "udf-keep", equation: { inputLayers: "demo-losses", operation: "." } }, 400, /^equation\.inputLayers: /],
      [{ name: "udf-keep", equation: { inputLayers: ["demo-losses"] } }, 400, /^equation\.operation: /],
      [{ name: "no-such-udf", equation: eq }, 404, /^name: no UDF named "no-such-udf"/],
      [
        { name: "udf-keep", equation: { ...eq, operation: ".loss_flood_bsln +" } },
        422,
        /^equation\.operation: .*(syntax error|compile)/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const r = await call(emu, "PUT", `${C}/udf`, { json: body });
      expect([body, r.status]).toEqual([body, status]);
      expect(r.body.errors[0]).toMatch(message);
    }
    expect(await udfState()).toBe(before);
  });
});

describe("the published add-vector example", () => {
  test("a Feature without geometry is accepted, located by lat/lng, applied by its point with labels and text kept", async () => {
    await portfolioWith(
      emu,
      "published-p",
      "entity_id,entity_name,lat,lng\nldn,London office,51.51,-0.13\nsyd,Sydney,-33.87,151.21\n",
    );
    const created = await call(emu, "POST", `${C}/vector`, { json: { name: "published", geojson: PUBLISHED_FEATURE } });
    expect(created.status).toBe(201);
    // Also as the multipart form the operation is published with.
    const multi = await call(emu, "POST", `${C}/vector`, { form: vectorForm("published-multi", PUBLISHED_FEATURE) });
    expect(multi.status).toBe(201);
    const applied = await call(emu, "GET", `${C}/vector/${created.body.id}/apply?portfolio=published-p`);
    expect(applied.status).toBe(200);
    const parsed = Papa.parse<Record<string, string>>(applied.body.csv, { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "lat",
      "lng",
      "feature_index",
      "feature_id",
      "match",
      "distance_km",
      "property:lat",
      "property:lng",
      "label:country",
      "label:site_type",
      "scenario_analytics.ssp585.flood.indicator_2050",
      "scenario_analytics.ssp585.flood.summary_label_30yr",
      "loss_flood_bsln",
      "owner",
    ]);
    const [london, sydney] = parsed.data;
    expect(london).toMatchObject({
      match: "nearest",
      feature_index: "0",
      "label:country": "UK",
      "label:site_type": "office",
      owner: "Acme",
      loss_flood_bsln: "1200.5",
    });
    expect(london["scenario_analytics.ssp585.flood.indicator_2050"]).toBe("0.02");
    expect(london["scenario_analytics.ssp585.flood.summary_label_30yr"]).toBe("MEDIUM");
    expect(Number(london.distance_km)).toBeLessThan(2);
    expect(sydney).toMatchObject({ match: "none", "label:country": "", owner: "" });
  });

  test("a feature without geometry whose lat/lng are not usable is 422 naming the property", async () => {
    const bad = { ...PUBLISHED_FEATURE, properties: { ...PUBLISHED_FEATURE.properties, lat: "north" } };
    const r = await call(emu, "POST", `${C}/vector`, { json: { name: "bad-published", geojson: bad } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatch(/^geojson\.properties\.lat: "north" is not a number/);
    const far = { ...PUBLISHED_FEATURE, properties: { ...PUBLISHED_FEATURE.properties, lng: "190" } };
    const r2 = await call(emu, "POST", `${C}/vector`, { json: { name: "bad-published", geojson: far } });
    expect(r2.status).toBe(422);
    expect(r2.body.errors[0]).toMatch(/^geojson\.properties\.lng: 190 is out of bounds/);
    expect((await call(emu, "GET", `${C}/vector`)).body.map((v: { name: string }) => v.name)).not.toContain(
      "bad-published",
    );
  });
});

describe("dataset metadata (published client's required fields)", () => {
  test("carries portfolio_name, created_at and updated_at (the portfolio's) and a numeric spatial_resolution", async () => {
    const meta = await call(emu, "GET", "/api/portfolios/demo-portfolio/datasets/physical");
    const portfolio = await call(emu, "GET", "/api/portfolios/demo-portfolio/");
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({
      portfolio_name: "demo-portfolio",
      created_at: portfolio.body.created_at,
      updated_at: portfolio.body.updated_at,
    });
    expect(Number.isNaN(Date.parse(meta.body.created_at))).toBe(false);
    expect(meta.body.sha256_digest).toMatch(/^[0-9a-f]{64}$/);
    for (const i of meta.body.indicators) expect(typeof i.spatial_resolution).toBe("number");
  });
});
