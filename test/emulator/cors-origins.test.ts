/**
 * The emulator's origin allow-list (`allowedOrigins`, `--allowed-origins`,
 * EMULATOR_ALLOWED_ORIGINS): a listed origin gets CORS headers on the preflight and the answer,
 * any other gets no Access-Control-Allow-Origin (its browser then refuses the answer), and the
 * default answers every origin.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import type { RunningEmulator } from "../../emulator/server";
import { startTestEmulator } from "../support/emulator";
import { call } from "./helpers";

const ALLOWED = "https://addin.example.com";
const OTHER = "http://127.0.0.1:3000";

const preflight = (emu: RunningEmulator, origin: string) =>
  fetch(`${emu.url}/api/projects/`, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "GET",
      "Access-Control-Request-Headers": "x-service-apikey",
    },
  });

describe("an allow-list of origins", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ allowedOrigins: [`${ALLOWED}/`] });
  });
  afterAll(() => emu.close());

  test("a listed origin gets the CORS headers on the preflight and on the answer", async () => {
    const pre = await preflight(emu, ALLOWED);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(pre.headers.get("access-control-allow-headers")!.toLowerCase()).toMatch(/x-service-apikey/);
    expect(pre.headers.get("access-control-max-age")).toBe("600");
    const get = await call(emu, "GET", "/api/projects/", { headers: { Origin: ALLOWED } });
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(get.headers.get("vary")).toMatch(/Origin/i);
  });

  test("another origin gets no Access-Control-Allow-Origin, so its browser refuses the answer", async () => {
    const pre = await preflight(emu, OTHER);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const get = await call(emu, "GET", "/api/projects/", { headers: { Origin: OTHER } });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a request without Origin (a proxy on the add-in's own host) is answered as ever", async () => {
    const get = await call(emu, "GET", "/api/projects/");
    expect(get.status).toBe(200);
    expect(get.body[0].project_name).toBe("demo");
  });
});

test("without a list every origin is answered (*)", async () => {
  const emu = await startTestEmulator();
  try {
    expect((await preflight(emu, OTHER)).headers.get("access-control-allow-origin")).toBe("*");
  } finally {
    await emu.close();
  }
});

test("the command line takes --allowed-origins, and EMULATOR_ALLOWED_ORIGINS when the flag is absent", async () => {
  const started = async (args: string[], env: Record<string, string>) => {
    const child = spawn(process.execPath, ["--import", "tsx", "emulator/main.ts", "--port", "0", "--quiet", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = (await once(child.stdout, "data")) as [Buffer];
    const url = /listening on (\S+)/.exec(line.toString())![1];
    return { url, stop: async () => (child.kill("SIGTERM"), await once(child, "exit")) };
  };
  const allowOf = async (url: string, origin: string) =>
    (
      await fetch(`${url}/api/projects/`, {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
      })
    ).headers.get("access-control-allow-origin");

  const fromEnv = await started([], { EMULATOR_ALLOWED_ORIGINS: `${ALLOWED}, https://other.example.com` });
  try {
    expect(await allowOf(fromEnv.url, ALLOWED)).toBe(ALLOWED);
    expect(await allowOf(fromEnv.url, OTHER)).toBeNull();
  } finally {
    await fromEnv.stop();
  }
  const fromFlag = await started(["--allowed-origins", OTHER], { EMULATOR_ALLOWED_ORIGINS: ALLOWED });
  try {
    expect(await allowOf(fromFlag.url, OTHER)).toBe(OTHER);
    expect(await allowOf(fromFlag.url, ALLOWED)).toBeNull();
  } finally {
    await fromFlag.stop();
  }
});
