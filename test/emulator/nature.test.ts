/**
 * Nature sub-projects: seeded processed sub-project, creation from a validated
 * FeatureCollection (optionally with crs), processing state, export summary from the model.
 */
import { call } from "./helpers";
import { useTestEmulator } from "../support/emulator";

const emu = useTestEmulator();

const SUMMARY_NAMES = [
  "pest_disease_baseline_mean",
  "seismic_baseline_mean",
  "wildfire_carbon_loss_baseline_mean",
  "wildfire_observed_baseline_mean",
  "wildfire_ssp585_baseline_mean",
  "wildfire_ssp585_2050_mean",
  "water_balance_ssp585_2050_mean",
];

const square = (x: number, y: number, d: number) => [
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ],
];
const fc = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "FeatureCollection",
  ...extra,
  features: [{ type: "Feature", geometry: { type: "Polygon", coordinates: square(-60, -5, 0.5) }, properties: props }],
});

test("superprojects and the seeded processed sub-project", async () => {
  expect((await call(emu, "GET", "/nature/superprojects", { project: null })).body).toEqual(["nc-demo"]);
  const subs = await call(emu, "GET", "/nature/projects", { project: "nc-demo" });
  expect(subs.body).toHaveLength(1);
  expect(subs.body[0]).toMatchObject({ project: "nc-demo", status: "Processing Completed", type: "Forest Carbon" });
  expect(subs.body[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const exp = await call(emu, "GET", `/nature/projects/${subs.body[0].id}/export`, { project: null });
  expect(exp.status).toBe(200);
  expect(exp.headers.get("content-disposition")).toMatch(/^attachment/);
  expect(exp.body.geometry.type).toBe("MultiPolygon");
  expect(Object.keys(exp.body.summary).sort()).toEqual([...SUMMARY_NAMES].sort());
  expect(Object.values(exp.body.summary).every((v) => typeof v === "number" && Number.isFinite(v))).toBe(true);
  expect(exp.body.summary.wildfire_ssp585_2050_mean).toBeGreaterThanOrEqual(
    exp.body.summary.wildfire_ssp585_baseline_mean,
  );
  expect(exp.body.metadata["Entity Name"]).toBe("Kapuas Forest Block");
  expect((await call(emu, "GET", "/nature/projects", { project: null })).status).toBe(400);
});

test("create: 201 Processing, then Processing Completed and an export; crs accepted", async () => {
  const body = {
    projectName: "Tapajos Block",
    type: "NCS",
    geojson: fc(
      { "Entity Name": "Tapajos Block", "label:country": "BR", "label:poly_area": 3000 },
      { crs: { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } } },
    ),
  };
  const r = await call(emu, "POST", "/nature/projects", { project: "nc-demo", json: body });
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({
    project: "nc-demo",
    name: "Tapajos Block",
    status: "Processing",
    type: "Forest Carbon",
  });
  expect((await call(emu, "GET", `/nature/projects/${r.body.id}/export`, { project: null })).status).toBe(409);
  await new Promise((res) => setTimeout(res, 250));
  const listed = (await call(emu, "GET", "/nature/projects", { project: "nc-demo" })).body.find(
    (s: { id: number }) => s.id === r.body.id,
  );
  expect(listed.status).toBe("Processing Completed");
  const exp = await call(emu, "GET", `/nature/projects/${r.body.id}/export`, { project: null });
  expect(exp.body.geometry).toEqual({ type: "MultiPolygon", coordinates: [square(-60, -5, 0.5)] });
  expect(exp.body.metadata).toEqual({ "Entity Name": "Tapajos Block", "label:country": "BR", "label:poly_area": 3000 });
  // Different places give different numbers (the summary comes from the model at the polygon).
  const seeded = (await call(emu, "GET", "/nature/projects", { project: "nc-demo" })).body[0];
  const other = await call(emu, "GET", `/nature/projects/${seeded.id}/export`, { project: null });
  expect(other.body.summary).not.toEqual(exp.body.summary);
});

test("a blue-carbon sub-project (Type mangrove) adds cyclone, extreme precipitation and sea-level summaries", async () => {
  const coastal = {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        geometry: { type: "Polygon", coordinates: square(91.5, 21.5, 0.5) },
        properties: { "Entity Name": "Sundarbans Mangroves", Type: "Mangrove" },
      },
    ],
  };
  const r = await call(emu, "POST", "/nature/projects", {
    project: "nc-demo",
    json: { projectName: "Sundarbans Mangroves", type: "NCS", geojson: coastal },
  });
  expect(r.status).toBe(201);
  expect(r.body.type).toBe("Blue Carbon");
  await new Promise((res) => setTimeout(res, 250));
  const exp = await call(emu, "GET", `/nature/projects/${r.body.id}/export`, { project: null });
  const blueNames = [
    "cyclone_baseline_mean",
    "cyclone_ssp585_2050_mean",
    "extreme_precip_baseline_mean",
    "extreme_precip_ssp585_2050_mean",
    "sea_level_rise_ssp585_2050_mean",
  ];
  expect(Object.keys(exp.body.summary).sort()).toEqual([...SUMMARY_NAMES, ...blueNames].sort());
  expect(exp.body.summary.cyclone_ssp585_2050_mean).toBeGreaterThanOrEqual(exp.body.summary.cyclone_baseline_mean);
  expect(exp.body.metadata.Type).toBe("Mangrove");
});

test("without a project header, projectName names the superproject", async () => {
  const r = await call(emu, "POST", "/nature/projects", {
    project: null,
    json: { projectName: "nc-demo", type: "NCS", geojson: fc({ "Entity Name": "Named By Feature" }) },
  });
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ project: "nc-demo", name: "Named By Feature" });
});

test("invalid sub-project GeoJSON is 422 naming the member", async () => {
  const noName = await call(emu, "POST", "/nature/projects", {
    project: "nc-demo",
    json: { projectName: "x", geojson: fc({}) },
  });
  expect(noName.status).toBe(422);
  expect(noName.body.errors[0]).toBe('geojson.features[0].properties["Entity Name"]: is required (a non-empty string)');
  const point = {
    type: "FeatureCollection",
    features: [
      { type: "Feature", geometry: { type: "Point", coordinates: [1, 1] }, properties: { "Entity Name": "p" } },
    ],
  };
  const pt = await call(emu, "POST", "/nature/projects", {
    project: "nc-demo",
    json: { projectName: "x", geojson: point },
  });
  expect(pt.status).toBe(422);
  expect(pt.body.errors[0]).toMatch(/^geojson\.features\[0\]\.geometry\.type: Point is not allowed/);
  const crs = await call(emu, "POST", "/nature/projects", {
    project: "nc-demo",
    json: {
      projectName: "x",
      geojson: fc({ "Entity Name": "a" }, { crs: { type: "name", properties: { name: "EPSG:3857" } } }),
    },
  });
  expect(crs.status).toBe(422);
  expect(crs.body.errors[0]).toMatch(/^geojson\.crs/);
  const notFc = await call(emu, "POST", "/nature/projects", {
    project: "nc-demo",
    json: { projectName: "x", geojson: "{" },
  });
  expect(notFc.status).toBe(400);
  expect(
    (await call(emu, "POST", "/nature/projects", { project: "nc-demo", json: { geojson: fc({ "Entity Name": "a" }) } }))
      .status,
  ).toBe(400);
});
