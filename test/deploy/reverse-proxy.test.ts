/**
 * The shipped reverse-proxy configurations (deploy/nginx, deploy/caddy) in front of an https service
 * (an emulator behind TLS), over real HTTP on 127.0.0.1: each forwards the service and nature paths
 * with the key header, drops the page's Origin and cookies, never writes the key to its logs, and
 * refuses an upstream whose certificate it cannot verify. Each server is optional: without it its
 * tests are skipped with a message (`apt-get install -y nginx-light caddy`). The add-in end to end
 * through nginx: test/browser/same-origin-proxy.test.ts.
 */
import { execFileSync } from "node:child_process";
import type { RunningEmulator } from "../../emulator/server";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";
import { startTestEmulator } from "../support/emulator";
import {
  CADDYFILE,
  SERVICE_HOSTS,
  serverBinary,
  startProxiedService,
  type ProxiedService,
} from "../support/reverse-proxy";

for (const name of ["nginx", "caddy"] as const) {
  const installed = serverBinary(name) !== undefined;
  if (!installed) console.warn(`SKIPPED ${name} tests (test/deploy/reverse-proxy.test.ts): ${name} is not installed`);
  (installed ? describe : describe.skip)(`the shipped ${name} configuration`, () => {
    let emu: RunningEmulator;
    let chain: ProxiedService;
    beforeAll(async () => {
      // The service answers no browser origin at all: only a same-origin path can reach it.
      emu = await startTestEmulator({ allowedOrigins: ["https://someone-else.example.com"] });
      chain = await startProxiedService(name, emu.url);
    }, 30_000);
    afterAll(async () => {
      await chain?.close();
      await emu?.close();
    });

    test("forwards /risk-api/ and /risk-nature/ with the key, without the page's Origin and cookies", async () => {
      const { proxy, service } = chain;
      const headers = {
        "X-Service-APIKey": DEMO_API_KEY,
        "X-Service-Project": DEMO_PROJECT,
        Origin: proxy.origin,
        Cookie: "session=add-in-host",
      };
      const projects = await fetch(`${proxy.origin}/risk-api/api/projects/`, { headers });
      expect(projects.status).toBe(200);
      expect(((await projects.json()) as { project_name: string }[])[0].project_name).toBe("demo");
      const nature = await fetch(`${proxy.origin}/risk-nature/superprojects`, { headers });
      expect(nature.status).toBe(200);
      expect(await nature.json()).toEqual(expect.arrayContaining([expect.anything()]));

      const seen = service.requests.filter((r) => r.url.endsWith("/api/projects/") || r.url.endsWith("/superprojects"));
      expect(seen.map((r) => r.url)).toEqual(["/api/projects/", "/nature/superprojects"]);
      // Each path reaches its own host (as Host and as the name its certificate was checked for).
      expect(seen.map((r) => r.headers.host)).toEqual(SERVICE_HOSTS);
      for (const request of seen) {
        expect(request.headers["x-service-apikey"]).toBe(DEMO_API_KEY);
        expect(request.headers["x-service-project"]).toBe(DEMO_PROJECT);
        expect(request.headers.origin).toBeUndefined();
        expect(request.headers.cookie).toBeUndefined();
      }
      // A refused key is the service's answer, passed on as it is.
      const refused = await fetch(`${proxy.origin}/risk-api/api/projects/`, {
        headers: { "X-Service-APIKey": "wrong" },
      });
      expect(refused.status).toBe(401);
    });

    test("a 429's Retry-After reaches the page", async () => {
      const limited = await startTestEmulator({ rateLimit: 1 });
      const limitedChain = await startProxiedService(name, limited.url);
      try {
        const headers = { "X-Service-APIKey": DEMO_API_KEY };
        const answers = await Promise.all(
          [1, 2, 3].map(() => fetch(`${limitedChain.proxy.origin}/risk-api/api/projects/`, { headers })),
        );
        const tooMany = answers.find((a) => a.status === 429);
        expect(tooMany?.headers.get("retry-after")).toMatch(/^\d+$/);
      } finally {
        await limitedChain.close();
        await limited.close();
      }
    }, 30_000);

    test("the key never reaches its logs", async () => {
      const { proxy } = chain;
      await fetch(`${proxy.origin}/risk-api/api/projects/`, { headers: { "X-Service-APIKey": DEMO_API_KEY } });
      await fetch(`${proxy.origin}/risk-api/api/nowhere`, { headers: { "X-Service-APIKey": DEMO_API_KEY } });
      const logs = proxy.logs();
      expect(logs).toMatch(/risk-api\/api\/projects/); // the requests are logged...
      expect(logs).not.toContain(DEMO_API_KEY); // ...without the key
    });

    test.each([
      ["not issued by an authority it trusts", { trust: "stranger" as const }],
      ["trusted but issued for another host", { serviceNames: ["elsewhere.example.com"] }],
    ])(
      "an upstream whose certificate is %s gets no request: 502",
      async (_, options) => {
        const untrusting = await startProxiedService(name, emu.url, options);
        try {
          const answer = await fetch(`${untrusting.proxy.origin}/risk-api/api/projects/`, {
            headers: { "X-Service-APIKey": DEMO_API_KEY },
          });
          expect(answer.status).toBe(502);
          expect(untrusting.service.requests).toHaveLength(0);
        } finally {
          await untrusting.close();
        }
      },
      30_000,
    );
  });
}

(serverBinary("caddy") ? test : test.skip)("caddy validates the shipped Caddyfile as it is", () => {
  const output = execFileSync(serverBinary("caddy")!, ["validate", "--config", CADDYFILE, "--adapter", "caddyfile"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  expect(output).toContain("Valid configuration");
});
