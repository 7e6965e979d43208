/**
 * One key can neither see nor change another key's project: every route is tried with
 * other-key against demo's resources.
 */
import { ROUTES } from "../../emulator/http/routes";
import { call, csvForm } from "./helpers";
import { useTestEmulator } from "../support/emulator";
import type { UdfRecord } from "../../src/api/types";
import { DEMO_PROJECT } from "../../src/shared/vocabulary";

const emu = useTestEmulator();

const OTHER = { key: "other-key", project: DEMO_PROJECT };

test("every project-scoped route refuses other-key with project demo (403)", async () => {
  for (const r of ROUTES.filter((x) => x.area === "api" && x.project === "required")) {
    const path = r.path.replace(":portfolio_name", "demo-portfolio").replace(":id", "1");
    const res = await call(emu, r.method, path, OTHER);
    expect([`${r.method} ${r.path}`, res.status]).toEqual([`${r.method} ${r.path}`, 403]);
  }
});

test("in its own project, other-key sees none of demo's portfolios, vectors or UDFs", async () => {
  const o = { key: "other-key", project: "other" };
  expect((await call(emu, "GET", "/api/projects/", o)).body).toEqual([
    { project_id: "7f3c9e10b4d2a856", project_name: "other" },
  ]);
  expect((await call(emu, "GET", "/api/portfolios/", o)).body).toEqual([]);
  expect((await call(emu, "GET", "/api/portfolios/demo-portfolio/assets", o)).status).toBe(404);
  expect(
    (
      await call(emu, "POST", "/api/portfolios/demo-portfolio/assets/import/", {
        ...o,
        form: csvForm("lat,lng\n1,2\n"),
      })
    ).status,
  ).toBe(404);
  expect((await call(emu, "DELETE", "/api/portfolios/demo-portfolio/", o)).status).toBe(404);
  expect((await call(emu, "GET", "/api/compositions/vector", o)).body).toEqual([]);
  expect((await call(emu, "GET", "/api/compositions/vector/1", o)).status).toBe(404);
  // Updates select by name: another project's layer of that name is not found.
  const overwrite = new FormData();
  overwrite.append("name", "demo-losses");
  overwrite.append(
    "geojson",
    new Blob(['{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{}}']),
    "x.geojson",
  );
  expect((await call(emu, "PUT", "/api/compositions/vector", { ...o, form: overwrite })).status).toBe(404);
  expect((await call(emu, "DELETE", "/api/compositions/vector/1", o)).status).toBe(404);
  expect((await call(emu, "GET", "/api/compositions/vector/1/apply?portfolio=demo-portfolio", o)).status).toBe(404);
  // UDF operations without a project header still only see the key's own UDFs.
  const noProject = { key: "other-key", project: null };
  expect((await call(emu, "GET", "/api/compositions/udf", noProject)).body).toEqual([]);
  for (const [m, p] of [
    ["GET", "/api/compositions/udf/2"],
    ["GET", "/api/compositions/udf/2/run"],
    ["GET", "/api/compositions/udf/2/activate"],
    ["DELETE", "/api/compositions/udf/2"],
  ]) {
    expect([p, (await call(emu, m, p, noProject)).status]).toEqual([p, 404]);
  }
  const equation = { inputLayers: ["demo-losses"], operation: "." };
  expect(
    (
      await call(emu, "PUT", "/api/compositions/udf", {
        ...noProject,
        json: { name: "wildfire-loss-change", equation },
      })
    ).status,
  ).toBe(404);
  expect((await call(emu, "GET", "/api/compositions/udf", OTHER)).status).toBe(403);
  // Nothing of demo changed.
  expect((await call(emu, "GET", "/api/compositions/udf/2", { project: null })).body).toMatchObject({
    name: "wildfire-loss-change",
    equation: { operation: expect.stringMatching(/^\.features/) },
  });
  expect((await call(emu, "GET", "/api/compositions/vector/1")).body).toMatchObject({
    name: "demo-losses",
    geojson: { features: expect.arrayContaining([expect.anything(), expect.anything()]) },
  });
  expect((await call(emu, "GET", "/api/portfolios/demo-portfolio/assets?rows=250")).body).toHaveLength(52);
});

test("a UDF created by other-key is invisible to demo-key", async () => {
  const created = await call(emu, "POST", "/api/compositions/udf", {
    key: "other-key",
    project: null,
    json: { name: "mine", equation: { inputLayers: ["x"], operation: "." } },
  });
  expect(created.status).toBe(201);
  expect((await call(emu, "GET", `/api/compositions/udf/${created.body.id}`, { project: null })).status).toBe(404);
  const listed = await call<UdfRecord[]>(emu, "GET", "/api/compositions/udf", { project: null });
  expect(listed.body.map((u) => u.id)).not.toContain(created.body.id);
});

test("nature: superprojects per key; foreign superproject 403; foreign sub-project 404", async () => {
  expect((await call(emu, "GET", "/nature/superprojects", { key: "other-key", project: null })).body).toEqual([
    "nc-other",
  ]);
  expect((await call(emu, "GET", "/nature/projects", { key: "other-key", project: "nc-demo" })).status).toBe(403);
  expect((await call(emu, "GET", "/nature/projects", { key: "other-key", project: "nc-other" })).body).toEqual([]);
  const sub = (await call(emu, "GET", "/nature/projects", { project: "nc-demo" })).body[0];
  expect(
    (await call(emu, "GET", `/nature/projects/${sub.id}/export`, { key: "other-key", project: null })).status,
  ).toBe(404);
  expect((await call(emu, "POST", "/nature/projects", { key: "other-key", project: "nc-demo", json: {} })).status).toBe(
    403,
  );
});
