import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake service saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}

/** Answers a request; return nothing (and never end `res`) to model a service that hangs. */
export type FakeHandler = (request: SeenRequest, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

/**
 * A small HTTP service on 127.0.0.1 for engine tests: the test supplies the handler and reads what
 * crossed the wire (every request, the peak number open at once, requests the client gave up on).
 */
export async function startFakeService(handler: FakeHandler) {
  const seen: SeenRequest[] = [];
  let open = 0;
  let peakOpen = 0;
  let closedEarly = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const request: SeenRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
    };
    seen.push(request);
    open++;
    peakOpen = Math.max(peakOpen, open);
    let finished = false;
    res.on("finish", () => {
      finished = true;
    });
    res.on("close", () => {
      open--;
      if (!finished) closedEarly++;
    });
    Promise.resolve(handler(request, res, req)).catch((error) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ errors: [String(error)] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    connection: { baseUrl, natureUrl: `${baseUrl}/nature`, apiKey: "test-key", project: "demo" },
    seen,
    /** Requests whose client went away before an answer was sent. */
    get closedEarly() {
      return closedEarly;
    },
    get peakOpen() {
      return peakOpen;
    },
    get open() {
      return open;
    },
    count(path: string | RegExp): number {
      return seen.filter((r) => (typeof path === "string" ? r.path === path : path.test(r.path))).length;
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeService = Awaited<ReturnType<typeof startFakeService>>;

/** Sends a JSON body, optionally after a delay. */
export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(body));
}

/** A search answer whose scores are derived from the point, so each point's numbers differ. */
export function searchAnswer(lat: number, lng: number) {
  const score = (salt: number) => Math.round(Math.abs(Math.sin(lat * 12.9898 + lng * 78.233 + salt)) * 1000) / 1000;
  const entries = (salt: number) =>
    ["floods", "cyclones", "drought", "heatwaves", "sea_level_rise", "wildfire"].map((hazard, i) => {
      const value = score(salt + i);
      return { hazard, score: value, label: value > 0.5 ? "HIGH" : "LOW" };
    });
  return {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [lng, lat] },
        properties: {
          physical_risk_exposure: {
            local: { "15yr": entries(1), "30yr": entries(2) },
            background: { "15yr": entries(3), "30yr": entries(4) },
          },
        },
      },
    ],
  };
}
