/**
 * Conformance of every route: success status and shape, auth, 404/405, malformed bodies,
 * CORS, and the OpenAPI documents matching the served routes.
 */
import { ROUTES } from "../../emulator/http/routes";
import type { Asset, Portfolio, SearchScore, SummaryItem, UdfRecord, VectorWithGeoJson } from "../../src/api/types";
import { call, csvForm, waitAvailable } from "./helpers";
import { DEMO_HEADERS, useTestEmulator } from "../support/emulator";
import { polygonPlot } from "../support/fixtures";

const emu = useTestEmulator();

const P = "/api/portfolios/demo-portfolio";
const C = "/api/compositions";

describe("portfolios, datasets and search", () => {
  test("projects list needs only the key and shows the key's projects", async () => {
    const r = await call(emu, "GET", "/api/projects/", { project: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ project_id: "a19b6282de313211", project_name: "demo" }]);
  });

  test("portfolio list, one portfolio, create, conflict, bad name, delete", async () => {
    const list = await call<Portfolio[]>(emu, "GET", "/api/portfolios/");
    expect(list.status).toBe(200);
    expect(list.body.map((p) => p.portfolio_name)).toContain("demo-portfolio");
    const one = await call(emu, "GET", `${P}/`);
    expect(one.body).toMatchObject({ portfolio_name: "demo-portfolio", status: "Risk data available" });
    expect(Object.keys(one.body).sort()).toEqual([
      "created_at",
      "portfolio_id",
      "portfolio_name",
      "status",
      "updated_at",
    ]);
    const created = await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "routes-p1" } });
    expect(created.status).toBe(201);
    expect(created.body.portfolio_name).toBe("routes-p1");
    expect((await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "routes-p1" } })).status).toBe(409);
    const bad = await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "has space" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/portfolio_name/);
    const del = await call(emu, "DELETE", "/api/portfolios/routes-p1/");
    expect(del.status).toBe(200);
    expect(typeof del.body.message).toBe("string");
    expect((await call(emu, "GET", "/api/portfolios/routes-p1/")).status).toBe(404);
  });

  test("routes answer with and without the trailing slash", async () => {
    expect((await call(emu, "GET", "/api/portfolios")).status).toBe(200);
    expect((await call(emu, "GET", `${P}/assets/`)).status).toBe(200);
    expect((await call(emu, "GET", "/api/projects", { project: null })).status).toBe(200);
  });

  test("assets list, export as uploaded with Content-Disposition", async () => {
    const assets = await call(emu, "GET", `${P}/assets?rows=3`);
    expect(assets.status).toBe(200);
    expect(assets.body).toHaveLength(3);
    expect(assets.body[0]).toMatchObject({
      portfolio_name: "demo-portfolio",
      portfolio_index: 0,
      entity_id: "DEMO-001",
    });
    expect(typeof assets.body[0].labels.country).toBe("string");
    const byId = await call<Asset[]>(emu, "GET", `${P}/assets?entity_id=DEMO-010`);
    expect(byId.body.map((a) => a.portfolio_index)).toEqual([9]);
    const exp = await call(emu, "GET", `${P}/assets/export`);
    expect(exp.status).toBe(200);
    expect(exp.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(exp.text.split("\n")[0]).toBe("entity_id,entity_name,lat,lng,label:country,label:continent,label:type");
  });

  test("dataset metadata, summary, items and export", async () => {
    const meta = await call(emu, "GET", `${P}/datasets/physical`);
    expect(meta.status).toBe(200);
    expect(meta.body.sha256_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(meta.body.indicators).toHaveLength(14);
    const summary = await call<SummaryItem[]>(emu, "GET", `${P}/datasets/physical/summary?rows=5`);
    expect(summary.body).toHaveLength(5);
    expect(summary.body[0].risk_summaries.map((r) => r.hazard).sort()).toEqual([
      "cyclone",
      "flood_potential",
      "heatwave",
      "sea_level_rise",
      "water_stress",
      "wildfire",
    ]);
    const ext = await call(emu, "GET", `${P}/datasets/physical/summary?extended=true&rows=2`);
    expect(Object.keys(ext.body[0].scenario_analytics)).toEqual(["ssp126", "ssp245", "ssp585"]);
    expect(Object.keys(ext.body[0].scenario_analytics.ssp245).sort()).toEqual([
      "cyclone",
      "flood",
      "heatwave",
      "sea_level_rise",
      "water_stress",
      "wildfire",
    ]);
    expect(ext.body[0].geometry).toEqual({ type: "Point", coordinates: [-0.1278, 51.5074] });
    const items = await call(emu, "GET", `${P}/datasets/physical/items?hazard=wildfire&indicator=obs_score&rows=1`);
    expect(items.body[0]).toMatchObject({ hazard: "wildfire", indicator: "obs_score" });
    expect(Object.keys(items.body[0].risk_exposure)[0]).toMatch(/^\d{4}-\d{2}$/);
    const proj = await call(emu, "GET", `${P}/datasets/physical/items?hazard=heatwave&indicator=freq&rows=1`);
    const years = Object.keys(proj.body[0].risk_exposure);
    expect(years[0]).toBe("1980");
    expect(years[years.length - 1]).toBe("2100");
    const zip = await fetch(`${emu.url}${P}/datasets/physical/export`, {
      headers: DEMO_HEADERS,
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const bytes = new Uint8Array(await zip.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
  });

  test("bad filter values are 400 naming the parameter", async () => {
    for (const [q, name] of [
      ["scenario=ssp999", "scenario"],
      ["hazard=meteor", "hazard"],
      ["window=7", "window"],
      ["indicator=nope&hazard=wildfire", "indicator"],
      ["start_date=abc", "start_date"],
      ["extended=maybe", "extended"],
    ]) {
      const path = name === "window" || name === "extended" ? "summary" : "items";
      const r = await call(emu, "GET", `${P}/datasets/physical/${path}?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatch(new RegExp(`^${name}`));
    }
  });

  test("search answers a FeatureCollection; bad coordinates are 400", async () => {
    const r = await call(emu, "GET", "/api/search?lat=48.85&lng=2.35");
    expect(r.status).toBe(200);
    expect(r.body.type).toBe("FeatureCollection");
    expect(r.body.features[0].geometry).toEqual({ type: "Point", coordinates: [2.35, 48.85] });
    const e = r.body.features[0].properties.physical_risk_exposure;
    for (const area of ["local", "background"]) {
      for (const h of ["15yr", "30yr"]) {
        expect(e[area][h].map((x: SearchScore) => x.hazard).sort()).toEqual([
          "cyclones",
          "drought",
          "floods",
          "heatwaves",
          "sea_level_rise",
          "wildfire",
        ]);
      }
    }
    const out = await call(emu, "GET", "/api/search?lat=95&lng=2");
    expect(out.status).toBe(400);
    expect(out.body.errors[0]).toMatch(/^lat: coordinate out of bounds/);
    expect((await call(emu, "GET", "/api/search?lat=abc&lng=2")).status).toBe(400);
    expect((await call(emu, "GET", "/api/search?lng=2")).body.errors[0]).toMatch(/^lat/);
  });
});

describe("auth, routing and bodies", () => {
  test("401 without a key or with an unknown key; 400 without a project; 403 foreign project", async () => {
    expect((await call(emu, "GET", "/api/portfolios/", { key: null })).status).toBe(401);
    expect((await call(emu, "GET", "/api/portfolios/", { key: "nope" })).status).toBe(401);
    const missing = await call(emu, "GET", "/api/portfolios/", { project: null });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatch(/project/);
    const foreign = await call(emu, "GET", "/api/portfolios/", { project: "other" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ errors: ["project nonexistent or lacking authorization"] });
    expect((await call(emu, "GET", "/api/portfolios/", { project: "nonexistent" })).status).toBe(403);
  });

  test("project by id, and by the `project` query parameter", async () => {
    expect((await call(emu, "GET", "/api/portfolios/", { project: "a19b6282de313211" })).status).toBe(200);
    expect((await call(emu, "GET", "/api/portfolios/?project=demo", { project: null })).status).toBe(200);
  });

  test("unknown route 404, wrong method 405 with Allow", async () => {
    const r = await call(emu, "GET", "/api/nothing-here");
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toMatch(/nothing-here/);
    const m = await call(emu, "PATCH", "/api/portfolios/");
    expect(m.status).toBe(405);
    expect(m.headers.get("allow")).toMatch(/GET/);
    expect(m.headers.get("allow")).toMatch(/POST/);
    expect((await call(emu, "POST", "/api/search")).status).toBe(405);
  });

  test("malformed JSON and wrong content are 400/415/422 with errors, never 500", async () => {
    const bad = await call(emu, "POST", "/api/portfolios/", { json: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/JSON/);
    const arr = await call(emu, "POST", "/api/portfolios/", { json: [1, 2] });
    expect(arr.status).toBe(400);
    const text = await call(emu, "POST", "/api/portfolios/", { headers: { "Content-Type": "text/plain" } });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
    expect(Array.isArray(text.body.errors)).toBe(true);
    const notMultipart = await call(emu, "POST", "/api/portfolios/demo-portfolio/assets/import/", {
      json: { asset: "x" },
    });
    expect(notMultipart.status).toBe(400);
  });

  test("request bodies beyond the limit are refused with 413", async () => {
    const big = JSON.stringify({ portfolio_name: "x".repeat(11 * 1024 * 1024) });
    const r = await call(emu, "POST", "/api/portfolios/", { json: big });
    expect(r.status).toBe(413);
    expect(r.body.errors[0]).toMatch(/too large/);
  });

  test("CORS: any origin, preflight with the custom headers, exposed headers", async () => {
    const pre = await fetch(`${emu.url}/api/search?lat=1&lng=2`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://localhost:3000",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-service-apikey,x-service-project",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")!.toLowerCase()).toMatch(/x-service-apikey/);
    expect(pre.headers.get("access-control-allow-headers")!.toLowerCase()).toMatch(/x-service-project/);
    const get = await call(emu, "GET", "/api/projects/", { headers: { Origin: "https://localhost:3000" } });
    expect(get.headers.get("access-control-expose-headers")).toMatch(/Content-Disposition/);
    expect(get.headers.get("access-control-expose-headers")).toMatch(/Retry-After/);
  });
});

describe("OpenAPI documents", () => {
  const described = async () => {
    const api = await call(emu, "GET", "/swagger.json", { key: null, project: null });
    const nature = await call(emu, "GET", "/nature/openapi.json", { key: null, project: null });
    expect(api.status).toBe(200);
    expect(nature.status).toBe(200);
    expect(api.body.openapi).toMatch(/^3\./);
    const ops: string[] = [];
    for (const [doc, prefix] of [
      [api.body, ""],
      [nature.body, "/nature"],
    ] as const) {
      for (const [path, methods] of Object.entries<object>(doc.paths))
        for (const m of Object.keys(methods)) ops.push(`${m.toUpperCase()} ${prefix}${path}`);
    }
    return ops;
  };

  test("every served route is described and nothing else", async () => {
    const ops = await described();
    const served = ROUTES.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
    expect([...ops].sort()).toEqual([...served].sort());
  });

  test("each operation documents the emulator's limits (408, 414, 431; 413 with a body) as inferred", async () => {
    const api = await call(emu, "GET", "/swagger.json", { key: null, project: null });
    type Responses = Record<string, { "x-inferred"?: boolean; content?: object }>;
    const paths = api.body.paths as Record<string, Record<string, { responses: Responses; requestBody?: object }>>;
    const upload = paths["/api/compositions/vector"].post;
    const list = paths["/api/portfolios/{portfolio_name}/assets"].get;
    for (const code of ["408", "413", "414", "431"])
      expect([code, upload.responses[code]?.["x-inferred"]]).toEqual([code, true]);
    expect(upload.responses["413"].content).toBeDefined();
    expect(list.responses["413"]).toBeUndefined(); // no body, no 413
    expect(list.responses["414"]?.["x-inferred"]).toBe(true);
    expect(list.responses["503"]).toBeDefined();
  });

  test("every described operation is served (never 404/405)", async () => {
    const ops = await described();
    for (const op of ops) {
      const [method, path] = op.split(" ");
      const concrete = path.replace("{portfolio_name}", "demo-portfolio").replace("{id}", "999999");
      const r = await call(emu, method, concrete, { key: null });
      // Without a key every described operation must be routed and refuse with 401.
      expect([op, r.status]).toEqual([op, 401]);
    }
    const unknown = await call(emu, "GET", "/api/compositions/nowhere");
    expect(unknown.status).toBe(404);
  });
});

describe("compositions basics", () => {
  test("vector CRUD with JSON and multipart, PUT by name, 204 delete", async () => {
    const fc = {
      type: "FeatureCollection",
      features: [{ type: "Feature", geometry: { type: "Point", coordinates: [1, 2] }, properties: { a: 1 } }],
    };
    const created = await call(emu, "POST", `${C}/vector`, { json: { name: "v-json", geojson: fc } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["createDate", "id", "name", "status", "updateDate"]);
    expect(created.body.status).toBe("available");
    const form = new FormData();
    form.append("name", "v-multi");
    form.append("geojson", new Blob([JSON.stringify(fc.features[0])], { type: "application/geo+json" }), "f.geojson");
    const multi = await call(emu, "POST", `${C}/vector`, { form });
    expect(multi.status).toBe(201);
    const got = await call(emu, "GET", `${C}/vector/${multi.body.id}`);
    expect(got.body.geojson.type).toBe("FeatureCollection");
    expect(got.body.geojson.features[0].properties).toEqual({ a: 1 });
    const list = await call<VectorWithGeoJson[]>(emu, "GET", `${C}/vector`);
    expect(list.body.map((v) => v.name)).toEqual(expect.arrayContaining(["demo-losses", "v-json", "v-multi"]));
    expect(list.body[0].geojson).toBeUndefined();
    // Update by name (published shape): multipart name + geojson file part; no id anywhere.
    const upd = new FormData();
    upd.append("name", "v-json");
    upd.append(
      "geojson",
      new Blob([JSON.stringify({ ...fc, features: [{ ...fc.features[0], properties: { a: 2 } }] })]),
      "v.geojson",
    );
    const put = await call(emu, "PUT", `${C}/vector`, { form: upd });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, name: "v-json" });
    expect((await call(emu, "GET", `${C}/vector/${created.body.id}`)).body.geojson.features[0].properties).toEqual({
      a: 2,
    });
    const del = await call(emu, "DELETE", `${C}/vector/${created.body.id}`);
    expect(del.status).toBe(204);
    expect((await call(emu, "GET", `${C}/vector/${created.body.id}`)).status).toBe(404);
  });

  test("invalid GeoJSON is 422 naming the member; malformed JSON text is 400", async () => {
    const bad = polygonPlot([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ]);
    const r = await call(emu, "POST", `${C}/vector`, { json: { name: "bad", geojson: bad } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatch(/^geojson\.features\[0\]\.geometry\.coordinates\[0\]: linear ring is not closed/);
    const noGeometry = { type: "FeatureCollection", features: [{ type: "Feature", properties: { a: 1 } }] };
    const r1 = await call(emu, "POST", `${C}/vector`, { json: { name: "no-geometry", geojson: noGeometry } });
    expect(r1.status).toBe(422);
    expect(r1.body.errors[0]).toMatch(/^geojson\.features\[0\]\.geometry: is missing/);
    const form = new FormData();
    form.append("name", "bad");
    form.append("geojson", "{oops");
    const r2 = await call(emu, "POST", `${C}/vector`, { form });
    expect(r2.status).toBe(400);
    expect(r2.body.errors[0]).toMatch(/^geojson: not valid JSON/);
    const r3 = await call(emu, "POST", `${C}/vector`, { json: { geojson: bad } });
    expect(r3.status).toBe(400);
    expect(r3.body.errors[0]).toMatch(/^name/);
  });

  test("apply answers {name, csv}; 404 unknown vector or portfolio; 400 without portfolio", async () => {
    const ok = await call(emu, "GET", `${C}/vector/1/apply?portfolio=demo-portfolio`);
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("demo-losses_demo-portfolio");
    expect((await call(emu, "GET", `${C}/vector/424242/apply?portfolio=demo-portfolio`)).status).toBe(404);
    expect((await call(emu, "GET", `${C}/vector/1/apply?portfolio=nope`)).status).toBe(404);
    expect((await call(emu, "GET", `${C}/vector/1/apply`)).status).toBe(400);
  });

  test("UDF CRUD without a project header", async () => {
    const eq = { inputLayers: ["demo-losses"], operation: ".loss_flood_bsln" };
    const created = await call(emu, "POST", `${C}/udf`, { project: null, json: { name: "u1", equation: eq } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["createDate", "id", "name", "updateDate"]);
    const got = await call(emu, "GET", `${C}/udf/${created.body.id}`, { project: null });
    expect(got.body.equation).toEqual(eq);
    expect((await call<UdfRecord[]>(emu, "GET", `${C}/udf`, { project: null })).body.map((u) => u.id)).toContain(
      created.body.id,
    );
    const put = await call(emu, "PUT", `${C}/udf`, {
      project: null,
      json: { name: "u1", equation: { ...eq, operation: ".loss_cyclone_bsln" } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, name: "u1", status: "available" });
    expect((await call(emu, "GET", `${C}/udf/${created.body.id}`, { project: null })).body.equation.operation).toBe(
      ".loss_cyclone_bsln",
    );
    const bad = await call(emu, "POST", `${C}/udf`, {
      project: null,
      json: { name: "u2", equation: { inputLayers: [], operation: "." } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^equation\.inputLayers/);
    expect((await call(emu, "DELETE", `${C}/udf/${created.body.id}`, { project: null })).status).toBe(204);
    expect((await call(emu, "GET", `${C}/udf/${created.body.id}`, { project: null })).status).toBe(404);
  });
});

describe("asset import basics", () => {
  test("import answers 202 with a processing status, then risk data becomes available", async () => {
    await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "routes-imp" } });
    const r = await call(emu, "POST", "/api/portfolios/routes-imp/assets/import/", {
      form: csvForm("lat,lng\n1,2\n3,4\n"),
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ portfolio_name: "routes-imp", status: "Generating risk data", assets: 2 });
    const early = await call(emu, "GET", "/api/portfolios/routes-imp/datasets/physical/summary");
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatch(/still being generated/);
    expect((await call(emu, "GET", "/api/compositions/vector/1/apply?portfolio=routes-imp")).status).toBe(409);
    await waitAvailable(emu, "routes-imp");
    const later = await call(emu, "GET", "/api/portfolios/routes-imp/datasets/physical/summary");
    expect(later.status).toBe(200);
    expect(later.body).toHaveLength(2 * 3 * 3);
  });
});
