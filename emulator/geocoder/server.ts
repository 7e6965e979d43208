/**
 * The geocoder stand-in: a small HTTP server speaking a Pelias-compatible `/v1/search` and
 * `/v1/search/structured` (GeoJSON, [lng, lat], `layer`, `confidence`, `match_type`, `accuracy`)
 * and a Nominatim-compatible `/search?format=jsonv2` (lat/lon as strings, `addresstype`,
 * `place_rank`, `importance`) over the deterministic gazetteer. Like a hosted geocoder it answers
 * cross-origin with CORS headers, and can be told to fail the next requests: a status (401, 429,
 * 500…), a 429 without CORS headers (the browser then sees a network failure) or with a
 * `Retry-After` it does not expose, or an answer that never comes (a timeout).
 * Control (not a geocoder path): `POST /__geocoder/faults`, `GET /__geocoder/stats`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { lookUp, type Kind, type Place, type Search } from "./gazetteer";

/** Options of {@link startGeocoder}. */
export interface GeocoderOptions {
  port?: number;
  host?: string;
  /** Milliseconds added to every search answer. */
  latencyMs?: number;
  /** When set, a search without `Authorization: Bearer <apiKey>` is answered 401. */
  apiKey?: string;
}

/** What the next search requests get instead of an answer. */
export interface GeocoderFault {
  /** How many requests it applies to (default 1). */
  count?: number;
  /** The status to answer (e.g. 401, 429, 500). */
  status?: number;
  /** `Retry-After` seconds sent with the status. */
  retryAfter?: number;
  /** CORS headers on the fault: none at all, without exposing Retry-After, or exposing it (default). */
  cors?: "none" | "unexposed" | "exposed";
  /** Never answer (until the client gives up). */
  hang?: boolean;
}

/** A running stand-in. */
export interface RunningGeocoder {
  url: string;
  /** Every search request's path and query, in order (never its headers). */
  requests: string[];
  /** Most requests in flight at once seen so far. */
  maxInFlight: number;
  fault(fault: GeocoderFault): void;
  close(): Promise<void>;
}

const LICENCE = "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright";
const PELIAS_LAYER: Record<Kind, string> = {
  address: "address",
  street: "street",
  postcode: "postalcode",
  city: "locality",
  region: "region",
  country: "country",
};
const PELIAS_CONFIDENCE: Record<Kind, number> = {
  address: 0.95,
  street: 0.8,
  postcode: 0.75,
  city: 0.6,
  region: 0.5,
  country: 0.4,
};
const NOMINATIM_TYPE: Record<Kind, string> = {
  address: "house",
  street: "road",
  postcode: "postcode",
  city: "city",
  region: "state",
  country: "country",
};
const NOMINATIM_RANK: Record<Kind, number> = { address: 30, street: 26, postcode: 21, city: 16, region: 8, country: 4 };
const ALPHA3: Record<string, string> = { GB: "GBR", FR: "FRA", DE: "DEU", CH: "CHE", SG: "SGP", IN: "IND", US: "USA" };

function label(place: Place): string {
  return [place.name, place.within, place.country].filter(Boolean).join(", ");
}

function peliasAnswer(places: Place[], query: Record<string, string>) {
  return {
    geocoding: { version: "0.2", attribution: "/attribution", query, engine: { name: "Pelias (stand-in)" } },
    type: "FeatureCollection",
    features: places.map((p) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [p.lng, p.lat] },
      properties: {
        layer: PELIAS_LAYER[p.kind],
        name: p.name,
        label: label(p),
        confidence: places.length > 1 && p.kind === "city" ? 0.6 : PELIAS_CONFIDENCE[p.kind],
        match_type: p.kind === "address" ? "exact" : "fallback",
        accuracy: p.kind === "address" ? "point" : "centroid",
        country_a: ALPHA3[p.country] ?? p.country,
        country_code: p.country,
      },
    })),
  };
}

function nominatimAnswer(places: Place[]) {
  return places.map((p, i) => ({
    place_id: 1000 + i,
    licence: LICENCE,
    lat: p.lat.toFixed(7),
    lon: p.lng.toFixed(7),
    category: p.kind === "street" ? "highway" : "place",
    type: NOMINATIM_TYPE[p.kind],
    place_rank: NOMINATIM_RANK[p.kind],
    importance: +(0.3 + NOMINATIM_RANK[p.kind] / 100).toFixed(3),
    addresstype: NOMINATIM_TYPE[p.kind],
    name: p.name,
    display_name: label(p),
    address: { country_code: p.country.toLowerCase() },
  }));
}

function searchOf(path: string, q: URLSearchParams): Search | string {
  const countries = (q.get("boundary.country") ?? q.get("country") ?? q.get("countrycodes") ?? "")
    .split(",")
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  const restrict = countries.length > 0 ? { countries } : {};
  if (path === "/v1/search")
    return q.get("text") ? { text: q.get("text")!, ...restrict } : "parameter text is required";
  if (path === "/v1/search/structured") {
    const search = {
      address: q.get("address") ?? undefined,
      postcode: q.get("postalcode") ?? undefined,
      city: q.get("locality") ?? undefined,
      region: q.get("region") ?? undefined,
    };
    return Object.values(search).some(Boolean)
      ? { ...search, ...restrict }
      : "structured search needs at least one of address, postalcode, locality, region";
  }
  if (q.get("format") !== "jsonv2") return "this stand-in answers format=jsonv2 only";
  if (q.get("q")) return { text: q.get("q")!, ...restrict };
  const search = {
    address: q.get("street") ?? undefined,
    postcode: q.get("postalcode") ?? undefined,
    city: q.get("city") ?? undefined,
    region: q.get("state") ?? undefined,
  };
  return Object.values(search).some(Boolean)
    ? { ...search, ...restrict }
    : "parameter q (or a structured query) is required";
}

/** Starts the stand-in (port 0: a free one). */
export function startGeocoder(options: GeocoderOptions = {}): Promise<RunningGeocoder> {
  const faults: GeocoderFault[] = [];
  const requests: string[] = [];
  let inFlight = 0;
  const running = { requests, maxInFlight: 0 } as RunningGeocoder;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const cors = {
      "Access-Control-Allow-Origin": req.headers.origin ?? "*",
      "Access-Control-Allow-Headers": "Authorization, Accept",
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      Vary: "Origin",
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, { ...cors, "Access-Control-Max-Age": "600" }).end();
    if (url.pathname === "/__geocoder/faults" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const fault = JSON.parse(body || "{}") as GeocoderFault;
        running.fault(fault);
        res.writeHead(204, cors).end();
      });
      return;
    }
    if (url.pathname === "/__geocoder/stats")
      return void res
        .writeHead(200, { ...cors, "Content-Type": "application/json" })
        .end(JSON.stringify({ requests, maxInFlight: running.maxInFlight }));
    if (!["/v1/search", "/v1/search/structured", "/search"].includes(url.pathname) || req.method !== "GET")
      return void res
        .writeHead(404, { ...cors, "Content-Type": "application/json" })
        .end(JSON.stringify({ error: "not found" }));
    requests.push(`${url.pathname}${url.search}`);
    inFlight++;
    running.maxInFlight = Math.max(running.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const fault = faults[0];
    if (fault) {
      if ((fault.count = (fault.count ?? 1) - 1) <= 0) faults.shift();
      if (fault.hang) return;
      const headers: Record<string, string> = fault.cors === "none" ? {} : { ...cors };
      if (fault.retryAfter !== undefined) headers["Retry-After"] = String(fault.retryAfter);
      if ((fault.cors ?? "exposed") === "exposed") headers["Access-Control-Expose-Headers"] = "Retry-After";
      return void res
        .writeHead(fault.status ?? 500, { ...headers, "Content-Type": "application/json" })
        .end(JSON.stringify({ error: "fault" }));
    }
    const answer = () => {
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
        return void res
          .writeHead(401, { ...cors, "Content-Type": "application/json" })
          .end(JSON.stringify({ error: "invalid api key" }));
      const search = searchOf(url.pathname, url.searchParams);
      if (typeof search === "string")
        return void res
          .writeHead(400, { ...cors, "Content-Type": "application/json" })
          .end(JSON.stringify({ error: search }));
      const limit = Math.min(
        40,
        Number(url.searchParams.get(url.pathname === "/search" ? "limit" : "size") ?? 10) || 10,
      );
      const places = lookUp(search, limit);
      const query = Object.fromEntries(url.searchParams);
      const body = url.pathname === "/search" ? nominatimAnswer(places) : peliasAnswer(places, query);
      res.writeHead(200, { ...cors, "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    };
    if (options.latencyMs) setTimeout(answer, options.latencyMs);
    else answer();
  });
  running.fault = (fault) => void faults.push({ ...fault });
  running.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      running.url = `http://${options.host ?? "127.0.0.1"}:${port}`;
      resolve(running);
    });
  });
}
