/**
 * With a data directory, acknowledged writes survive a restart: an in-process close + start,
 * and a child process killed with SIGKILL right after a write was acknowledged.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator/server";
import { call, csvForm, waitAvailable } from "./helpers";
import { startTestEmulator } from "../support/emulator";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "emu-data-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("state written before close is there after a restart on the same data dir", async () => {
  const dataDir = tempDir();
  let emu: RunningEmulator = await startTestEmulator({ dataDir });
  await call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: "kept" } });
  await call(emu, "POST", "/api/portfolios/kept/assets/import/", {
    form: csvForm("entity_id,lat,lng,label:a\nK1,12.5,-3.25,x\n"),
  });
  const vector = await call(emu, "POST", "/api/compositions/vector", {
    json: {
      name: "kept-layer",
      geojson: { type: "Feature", geometry: { type: "Point", coordinates: [1, 1] }, properties: {} },
    },
  });
  const udf = await call(emu, "POST", "/api/compositions/udf", {
    json: { name: "kept-udf", equation: { inputLayers: ["kept-layer"], operation: "." } },
  });
  await call(emu, "DELETE", "/api/portfolios/demo-portfolio/");
  await emu.close();

  emu = await startTestEmulator({ dataDir });
  try {
    const names = (await call(emu, "GET", "/api/portfolios/")).body.map(
      (p: { portfolio_name: string }) => p.portfolio_name,
    );
    expect(names).toEqual(["kept"]);
    await waitAvailable(emu, "kept");
    expect((await call(emu, "GET", "/api/portfolios/kept/assets")).body[0]).toMatchObject({
      entity_id: "K1",
      lat: 12.5,
      lng: -3.25,
      labels: { a: "x" },
    });
    expect((await call(emu, "GET", "/api/portfolios/kept/assets/export")).text).toBe(
      "entity_id,lat,lng,label:a\nK1,12.5,-3.25,x\n",
    );
    expect((await call(emu, "GET", `/api/compositions/vector/${vector.body.id}`)).body.name).toBe("kept-layer");
    expect((await call(emu, "GET", `/api/compositions/udf/${udf.body.id}`)).body.name).toBe("kept-udf");
    // New ids continue after the stored ones.
    const next = await call(emu, "POST", "/api/compositions/udf", {
      json: { name: "n", equation: { inputLayers: ["x"], operation: "." } },
    });
    expect(next.body.id).toBeGreaterThan(udf.body.id);
    // Reset goes back to the seed, durably.
    await call(emu, "POST", "/__emulator/reset");
    await emu.close();
    emu = await startTestEmulator({ dataDir });
    expect(
      (await call(emu, "GET", "/api/portfolios/")).body.map((p: { portfolio_name: string }) => p.portfolio_name),
    ).toEqual(["demo-portfolio"]);
  } finally {
    await emu.close();
  }
});

test("kill -9 right after an acknowledged write loses nothing", async () => {
  const dataDir = tempDir();
  const root = path.resolve(__dirname, "../..");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "emulator/main.ts", "--port", "0", "--data-dir", dataDir, "--quiet"],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /emulator listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`emulator exited early (${code})`)));
      setTimeout(() => reject(new Error("emulator did not start")), 20000).unref();
    });
    const emuLike = { url } as RunningEmulator;
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(emuLike, "POST", "/api/portfolios/", { json: { portfolio_name: `crash-${i}` } }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual(Array(10).fill(201));
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  const emu = await startTestEmulator({ dataDir });
  try {
    const names = (await call(emu, "GET", "/api/portfolios/")).body.map(
      (p: { portfolio_name: string }) => p.portfolio_name,
    );
    for (let i = 0; i < 10; i++) expect(names).toContain(`crash-${i}`);
  } finally {
    await emu.close();
  }
}, 30000);

test("concurrent writes never corrupt state", async () => {
  const dataDir = tempDir();
  const emu = await startTestEmulator({ dataDir });
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? call(emu, "POST", "/api/portfolios/", { json: { portfolio_name: `c-${(i / 2) % 10}` } })
        : call(emu, "POST", "/api/compositions/vector", {
            json: { name: `v-${i}`, geojson: { type: "FeatureCollection", features: [] } },
          }),
    ),
  );
  // Each of the 10 names is created exactly once; the other 10 attempts conflict.
  expect(results.filter((r) => r.status === 201).length).toBe(10 + 20);
  expect(results.filter((r) => r.status === 409).length).toBe(10);
  const ids = results.filter((r) => r.body.id !== undefined).map((r) => r.body.id);
  expect(new Set(ids).size).toBe(20);
  await emu.close();
  const again = await startTestEmulator({ dataDir });
  try {
    expect((await call(again, "GET", "/api/portfolios/")).body).toHaveLength(11);
    expect((await call(again, "GET", "/api/compositions/vector")).body).toHaveLength(21);
  } finally {
    await again.close();
  }
});
