/**
 * What the browser tests serve the add-in with: a development build (shared between test files,
 * see addin-build.ts) behind a tiny http server on 127.0.0.1 that also serves office.js from
 * node_modules and proxies /emulator/* to an emulator, like the dev server does. The proxy target
 * can change between tests (each scenario gets a fresh emulator).
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const OFFICE_JS_DIR = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".xml": "application/xml",
  ".map": "application/json",
};

/** A running add-in server. */
export interface AddinServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Where /emulator/* goes now (an emulator's base URL). */
  setEmulator(url: string): void;
  close(): Promise<void>;
}

/** Serve a build folder, office.js and the /emulator proxy on 127.0.0.1 (port 0). */
export async function startAddinServer(buildDir: string, emulatorUrl: string): Promise<AddinServer> {
  let target = new URL(emulatorUrl);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/emulator" || url.pathname.startsWith("/emulator/")) {
      proxy(request, response, target, url.pathname.slice("/emulator".length) + url.search);
      return;
    }
    const file = url.pathname.startsWith("/office-js/")
      ? safeJoin(OFFICE_JS_DIR, url.pathname.slice("/office-js/".length))
      : safeJoin(buildDir, url.pathname === "/" ? "harness.html" : url.pathname.slice(1));
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setEmulator: (url) => {
      target = new URL(url);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function proxy(request: http.IncomingMessage, response: http.ServerResponse, target: URL, pathAndQuery: string): void {
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: pathAndQuery || "/",
      headers: { ...request.headers, host: target.host },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on("error", () => {
    // The emulator is down (scenario e): answer as a dev server's proxy does.
    if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
    response.end("emulator unreachable");
  });
  request.pipe(upstream);
}

function safeJoin(base: string, relative: string): string | undefined {
  const resolved = path.resolve(base, decodeURIComponent(relative));
  return resolved.startsWith(base + path.sep) ? resolved : undefined;
}
