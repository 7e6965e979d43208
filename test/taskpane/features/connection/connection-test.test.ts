/**
 * The pane's "Test connection" (features/connection) says what "Check the add-in" says when no
 * answer comes: reachable but not answering this add-in's origin (CORS), with the origin to allow,
 * or cannot reach the service. Real HTTP on 127.0.0.1; the page's CORS rule is kept by corsFetch.
 */
import { CorsRefusedError, NetworkError } from "../../../../src/api";
import type { RunningEmulator } from "../../../../emulator/server";
import { testConnection } from "../../../../src/taskpane/features/connection/connection-actions";
import { describeError } from "../../../../src/taskpane/ui/describe-error";
import { corsFetch } from "../../../support/cors-fetch";
import { demoConnection, startTestEmulator } from "../../../support/emulator";

const PAGE = "https://addin.example.com";
const realFetch = globalThis.fetch;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ allowedOrigins: ["https://someone-else.example.com"] });
  // The page: its origin, and a fetch that keeps the browser's CORS rule.
  (globalThis as { location?: unknown }).location = { origin: PAGE };
  globalThis.fetch = corsFetch(PAGE);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  delete (globalThis as { location?: unknown }).location;
  await emu.close();
});

test("a service that does not answer this origin: the test says CORS and names the add-in's origin", async () => {
  const failure = await testConnection(demoConnection(emu)).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(CorsRefusedError);
  const shown = describeError(failure);
  expect(shown.title).toBe(
    `The service at ${new URL(emu.baseUrl).host} is reachable but does not answer this add-in's origin, ${PAGE} ` +
      `(CORS): use a same-origin path or ask the provider to allow ${PAGE}.`,
  );
});

test("a service the origin may use, with an unreachable nature URL: the nature line says cannot reach", async () => {
  const allowing = await startTestEmulator({ allowedOrigins: [PAGE] });
  try {
    const check = await testConnection({ ...demoConnection(allowing), natureUrl: "http://127.0.0.1:9/nature" });
    expect(check.projects.map((p) => p.project_name)).toEqual(["demo"]);
    expect(check.nature.ok).toBe(false);
    const error = (check.nature as { error: unknown }).error;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(CorsRefusedError);
    expect(describeError(error).details[0]).toMatch(/^cannot reach the service at 127\.0\.0\.1:9: /);
  } finally {
    await allowing.close();
  }
});
