import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as it crossed the wire. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/search?lat=1&lng=2`. */
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * A small HTTP server on 127.0.0.1 for client tests: it records every request and lets each test
 * decide the answer. Close it in afterEach/afterAll.
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  /** Requests being answered now (from arrival until the answer ends), and the most at once so far. */
  inFlight = 0;
  peakInFlight = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<import("node:net").Socket>();
  url = "";

  constructor(private handler: Handler) {}

  setHandler(handler: Handler): void {
    this.handler = handler;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.inFlight++;
      this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
      res.once("close", () => this.inFlight--);
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const recorded: RecordedRequest = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        this.requests.push(recorded);
        Promise.resolve(this.handler(recorded, res)).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      });
    });
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Answers JSON with a status. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** Query parameters of a recorded request. */
export function queryOf(request: RecordedRequest): URLSearchParams {
  return new URL(request.url, "http://x").searchParams;
}
