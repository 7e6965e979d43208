import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * How the faulty server misbehaves:
 * - `reset`: the connection is destroyed as soon as the request arrives (ECONNRESET, no answer);
 * - `malformed-json`: 200 with a JSON content type and a body cut off in the middle;
 * - `html-error`: an HTML error page (status `status`, default 502) as a proxy or gateway sends it;
 * - `stall-after-headers`: 200 headers and the start of a JSON body, then nothing, never the end;
 * - `never-answer`: the request is read and nothing is ever sent back;
 * - `ok`: a well-formed answer from `okBody` (so a drill can show the same call works when healthy).
 */
export type FaultMode = "reset" | "malformed-json" | "html-error" | "stall-after-headers" | "never-answer" | "ok";

/** One request as it arrived. */
export interface FaultyRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  mode: FaultMode;
}

/** Options of {@link startFaultyServer}. */
export interface FaultyServerOptions {
  /** Mode of every request until changed with `setMode` (default `ok`). */
  mode?: FaultMode;
  /** Status of `html-error` answers (default 502). */
  status?: number;
  /** Body of `ok` answers for a path (default `[]`). */
  okBody?: (url: string) => unknown;
}

/** A started faulty server; `close()` destroys every socket, so no stalled request keeps it open. */
export interface FaultyServer {
  /** http://127.0.0.1:PORT */
  url: string;
  readonly requests: readonly FaultyRequest[];
  setMode(mode: FaultMode, options?: { status?: number }): void;
  close(): Promise<void>;
}

/**
 * A small misbehaving HTTP server on 127.0.0.1:0 for the fault drills: it answers like a broken
 * network or a broken service would, so the drills can check that every client call ends in the
 * right error class and every cell settles with a message.
 */
export async function startFaultyServer(options: FaultyServerOptions = {}): Promise<FaultyServer> {
  let mode: FaultMode = options.mode ?? "ok";
  let status = options.status ?? 502;
  const requests: FaultyRequest[] = [];
  const sockets = new Set<Socket>();
  const okBody = options.okBody ?? (() => []);

  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    const current = mode;
    requests.push({
      method: request.method ?? "GET",
      url: request.url ?? "/",
      headers: request.headers,
      mode: current,
    });
    switch (current) {
      case "reset":
        request.socket.destroy();
        return;
      case "malformed-json":
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"type":"FeatureCollection","features":[{"type":"Feat');
        return;
      case "html-error":
        response.writeHead(status, { "content-type": "text/html" });
        response.end(
          `<html><head><title>${status} Bad Gateway</title></head><body><h1>${status} Bad Gateway</h1><p>upstream unavailable</p></body></html>`,
        );
        return;
      case "stall-after-headers":
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"type":"FeatureCollection","features":[');
        return; // never ends
      case "never-answer":
        return;
      case "ok":
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(okBody(request.url ?? "/")));
        return;
    }
  };

  const server: Server = createServer((request, response) => {
    // Read the whole body first so a POST is seen as complete by the client before the fault.
    request.on("data", () => undefined);
    request.on("end", () => answer(request, response));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next, more = {}) {
      mode = next;
      if (more.status !== undefined) status = more.status;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
