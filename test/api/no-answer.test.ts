/**
 * Why a request got no answer (src/api/no-answer.ts), over real HTTP on 127.0.0.1 with a fetch that
 * keeps the browser's CORS rule: a service that answers but not to this origin is told from one
 * nothing answers for, and from one that does not answer in time.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CorsRefusedError, NetworkError, RiskClient, TimeoutError } from "../../src/api";
import { diagnoseNoAnswer, explainNoAnswer } from "../../src/api/no-answer";
import { corsFetch } from "../support/cors-fetch";
import { demoConnection, startTestEmulator, useTestEmulator } from "../support/emulator";
import { startFaultyServer } from "../support/faulty-server";

const PAGE = "https://addin.example.com";

const emu = useTestEmulator({ allowedOrigins: ["https://someone-else.example.com"] });

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

test("a service that does not allow the page's origin: the client gets no answer, the probe tells CORS", async () => {
  const fetch = corsFetch(PAGE);
  const client = new RiskClient(demoConnection(emu), { fetch, maxRetries: 0 });
  const failure = await client.projects.list().catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(NetworkError);

  const url = `${emu.baseUrl}/api/projects/`;
  expect(await diagnoseNoAnswer(url, { fetch, origin: PAGE })).toEqual({ kind: "cors", origin: PAGE });
  const explained = await explainNoAnswer(failure, url, { fetch, origin: PAGE });
  expect(explained).toBeInstanceOf(CorsRefusedError);
  expect((explained as CorsRefusedError).origin).toBe(PAGE);
  expect((explained as Error).message).toBe(
    `the service at ${new URL(emu.baseUrl).host} is reachable but does not answer this add-in's origin, ${PAGE} (CORS): ` +
      `use a same-origin path or ask the provider to allow ${PAGE}`,
  );
});

test("the same service allowing the origin answers, and nothing needs explaining", async () => {
  const allowing = await startTestEmulator({ allowedOrigins: [PAGE] });
  try {
    const client = new RiskClient(demoConnection(allowing), { fetch: corsFetch(PAGE), maxRetries: 0 });
    expect((await client.projects.list())[0].project_name).toBe("demo");
  } finally {
    await allowing.close();
  }
});

test("nothing listening: cannot reach the service, not CORS", async () => {
  const base = await closedPort();
  const fetch = corsFetch(PAGE);
  const failure = await new RiskClient({ ...demoConnection(emu), baseUrl: base }, { fetch, maxRetries: 0 }).projects
    .list()
    .catch((error: unknown) => error);
  const explained = await explainNoAnswer(failure, `${base}/api/projects/`, { fetch, origin: PAGE });
  expect(explained).not.toBeInstanceOf(CorsRefusedError);
  expect(explained).toBeInstanceOf(NetworkError);
  expect((explained as Error).message).toMatch(
    new RegExp(`^cannot reach the service at ${new URL(base).host}: its name does not resolve, the network`),
  );
});

test("a server that never answers the probe: the time limit is named", async () => {
  const silent = await startFaultyServer({ mode: "never-answer" });
  try {
    const cause = await diagnoseNoAnswer(`${silent.url}/api/projects/`, { origin: PAGE, timeoutMs: 300 });
    expect(cause).toEqual({ kind: "timeout", timeoutMs: 300 });
    const explained = await explainNoAnswer(
      new NetworkError("no answer", { operation: "projects.list" }),
      `${silent.url}/api/projects/`,
      { origin: PAGE, timeoutMs: 300 },
    );
    expect(explained).toBeInstanceOf(TimeoutError);
  } finally {
    await silent.close();
  }
});

test("a URL on the page's own origin cannot be refused for CORS: no probe is sent", async () => {
  let probes = 0;
  const counting: typeof fetch = async () => {
    probes++;
    throw new TypeError("Failed to fetch");
  };
  const cause = await diagnoseNoAnswer(`${PAGE}/risk-api/api/projects/`, { fetch: counting, origin: PAGE });
  expect(cause).toEqual({ kind: "unreachable" });
  expect(probes).toBe(0);
});

test("an error with an answer (401) is returned unchanged", async () => {
  const client = new RiskClient({ ...demoConnection(emu), apiKey: "wrong" }, { maxRetries: 0 });
  const failure = await client.projects.list().catch((error: unknown) => error);
  expect(await explainNoAnswer(failure, `${emu.baseUrl}/api/projects/`, { origin: PAGE })).toBe(failure);
});
