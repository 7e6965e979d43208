/**
 * The service emulator, started in-process by tests, benchmarks, the browser harness and
 * `npm start` through `startEmulator`, and from the command line by emulator/main.ts.
 */
import Fastify, { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import cors from "@fastify/cors";
import { STATUS_CODES } from "node:http";
import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import { Emulator, ResolvedOptions } from "./emulator-context";
import { CHANGE_DATA_ROUTE, changePortfolioData } from "./handlers/data-changes";
import { HttpProblem } from "./http/errors";
import { BODY_LIMIT, MAX_JSON_DEPTH } from "./http/json-limits";
import { readJsonBody } from "./http/json-body";
import { MULTIPART_LIMITS } from "./http/multipart";
import { discardRestOfBody, markRequestStart } from "./http/oversized-body";
import { FaultInjector, RequestStats } from "./http/faults";
import { openApiDocument } from "./http/openapi";
import { RequestContext, resolveKey, resolveProject } from "./http/request-context";
import { ABSENT_ROUTES, MAX_PATH_SEGMENT, patternRegex, RouteDef, routeBodyLimit, ROUTES } from "./http/routes";
import { JQ_DEFAULT_LIMITS, JqSandbox } from "./jq/sandbox";
import { StatePersister } from "./state/persistence";
import { seedState } from "./state/seed";
import { EmulatorState } from "./state/types";

/** Options of startEmulator (all optional). */
export interface EmulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind, default 127.0.0.1. */
  host?: string;
  /** Milliseconds added to every response (not /__emulator/*). */
  latencyMs?: number;
  /** Probability 0..1 of answering 503. */
  failRate?: number;
  /** Requests per second per API key before 429 (0 = unlimited). */
  rateLimit?: number;
  /** Requests of one API key open at once before 429 (0 = unlimited). */
  concurrencyLimit?: number;
  /** Directory to persist state in; without it state lives in memory. */
  dataDir?: string;
  /** Seed of the synthetic model and the fault RNG (default 42). */
  seed?: number;
  /** Delay before imported portfolios / new sub-projects are processed (default 1000 ms). */
  processingDelayMs?: number;
  /** Time limit of one jq evaluation (default 2000 ms). */
  jqTimeoutMs?: number;
  /** jq worker threads shared fairly by the API keys (default 2; one key holds at most all but one). */
  jqWorkers?: number;
  /** Suppress diagnostic output (internal errors). */
  quiet?: boolean;
  /**
   * Origins whose pages may read the answers (CORS), e.g. `["https://addin.example.com"]`; `["*"]`
   * (default) answers every origin. Another origin's page gets answers without CORS headers (and a
   * preflight without them), so its browser refuses them, as a service that does not list it would.
   */
  allowedOrigins?: readonly string[];
}

/** A started emulator. */
export interface RunningEmulator {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Same as url: the service's base_url. */
  baseUrl: string;
  /** url + "/nature": the service's nature_url. */
  natureUrl: string;
  port: number;
  /** Stops listening, the jq workers, and flushes pending writes. */
  close(): Promise<void>;
  /** Back to the seeded state; counters cleared. */
  reset(): Promise<void>;
}

/** Most characters of jq output one UDF evaluation may produce. */
export const JQ_MAX_OUTPUT_CHARS = JQ_DEFAULT_LIMITS.maxOutputChars;
/** Longest UDF result layer, in characters of JSON (see JQ_DEFAULT_LIMITS). */
export const JQ_MAX_RESULT_CHARS = JQ_DEFAULT_LIMITS.maxResultChars;
const ADMIN_PREFIX = "/__emulator/";

function resolveOptions(o: EmulatorOptions): ResolvedOptions {
  return {
    port: o.port ?? 0,
    host: o.host ?? "127.0.0.1",
    latencyMs: Math.max(0, o.latencyMs ?? 0),
    failRate: Math.min(1, Math.max(0, o.failRate ?? 0)),
    rateLimit: Math.max(0, o.rateLimit ?? 0),
    concurrencyLimit: Math.max(0, Math.floor(o.concurrencyLimit ?? 0)),
    dataDir: o.dataDir,
    seed: o.seed ?? 42,
    processingDelayMs: Math.max(0, o.processingDelayMs ?? 1000),
    jqTimeoutMs: Math.max(50, o.jqTimeoutMs ?? JQ_DEFAULT_LIMITS.timeoutMs),
    jqWorkers: Math.max(1, Math.floor(o.jqWorkers ?? JQ_DEFAULT_LIMITS.workers)),
    quiet: o.quiet ?? false,
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Converts any thrown error into the service's error body; never a 500 for bad input. */
function sendError(err: unknown, reply: FastifyReply, quiet: boolean): FastifyReply {
  if (err instanceof HttpProblem) {
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    return reply.code(err.status).send({ errors: err.errors });
  }
  const e = err as FastifyError;
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const what =
      e.code === "FST_ERR_CTP_BODY_TOO_LARGE"
        ? `request body is too large (limit ${BODY_LIMIT} bytes)`
        : e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
          ? `unsupported Content-Type: ${e.message}`
          : e instanceof SyntaxError || /JSON/i.test(e.message)
            ? `malformed JSON body: ${e.message}`
            : e.message;
    return reply.code(status).send({ errors: [what] });
  }
  if (!quiet) {
    // The message may hold a tenant's text: JSON-quoted, it cannot start a line of its own (start
    // scripts and tests read the emulator's output line by line). Stack frames name only code.
    const frames = String((e && e.stack) || "")
      .split("\n")
      .filter((line) => /^\s+at /.test(line));
    console.error(
      [`emulator internal error: ${JSON.stringify((e && e.message) || String(err))}`, ...frames].join("\n"),
    );
  }
  return reply.code(500).send({ errors: [`internal emulator error: ${(e && e.message) || String(err)}`] });
}

/**
 * @fastify/cors's `origin` for an allow-list: `"*"` when it is absent, empty or holds `*`, else the
 * exact origins (scheme, host and port, no trailing slash) whose requests get CORS headers.
 */
function corsOrigin(allowed: readonly string[] | undefined): string | string[] {
  const origins = (allowed ?? []).map((origin) => origin.trim().replace(/\/+$/, "")).filter((o) => o !== "");
  return origins.length === 0 || origins.includes("*") ? "*" : origins;
}

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  // Output: at most 8 Mi characters (jq-web collects output as a JS array of bytes, ~8 bytes each,
  // inside the worker's 256 MB heap) and MAX_JSON_DEPTH + 2 levels (an input layer wrapped by the
  // sandbox's own arrays and layer objects). A result layer may nest as deep as a stored layer.
  const jq = new JqSandbox({
    timeoutMs: opts.jqTimeoutMs,
    maxOutputChars: JQ_MAX_OUTPUT_CHARS,
    maxOutputDepth: MAX_JSON_DEPTH + 2,
    maxHeapMb: JQ_DEFAULT_LIMITS.maxHeapMb,
    maxWasmMb: JQ_DEFAULT_LIMITS.maxWasmMb,
    workers: opts.jqWorkers,
    maxResultChars: JQ_MAX_RESULT_CHARS,
    maxResultDepth: MAX_JSON_DEPTH,
  });
  let state: EmulatorState = seedState(opts.seed);
  const persister = opts.dataDir
    ? new StatePersister(
        opts.dataDir,
        () => emu.state,
        (s) => (emu.state = s),
      )
    : null;
  const emu: Emulator = {
    options: opts,
    get state() {
      return state;
    },
    set state(s: EmulatorState) {
      state = s;
    },
    jq,
    persist: () => (persister ? persister.save() : Promise.resolve()),
  };
  if (persister) {
    const loaded = await persister.load();
    if (loaded) state = loaded;
    else await persister.save();
  }

  const stats = new RequestStats();
  const faults = new FaultInjector(opts.failRate, opts.rateLimit, opts.seed, opts.concurrencyLimit);
  // forceCloseConnections: close() must not wait for idle keep-alive sockets (clients that aborted
  // requests leave some behind, and tests and benchmarks close the emulator often).
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_SEGMENT },
    // Errors fastify raises before routing (a malformed percent-escape, an over-long path segment)
    // answer in the service's shape too, not in fastify's own.
    frameworkErrors: (err, _req, frameworkReply) => {
      const reply = frameworkReply as unknown as FastifyReply;
      const what =
        err.code === "FST_ERR_BAD_URL"
          ? "the URL holds a malformed percent-escape (e.g. %E0%A4%A); encode each reserved byte as %XX"
          : err.code === "FST_ERR_MAX_PARAM_LENGTH"
            ? `a path segment is longer than the limit of ${MAX_PATH_SEGMENT} characters`
            : err.message;
      // send() writes the answer now; the reply it returns (a thenable) is not needed.
      void reply.code(err.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400).send({ errors: [what] });
    },
    // Errors of the HTTP parser itself (malformed request line, headers too large, timeouts).
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === "ECONNRESET" || socket.destroyed) return;
      const [status, what] =
        err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "request timed out"]
          : err.code === "HPE_HEADER_OVERFLOW"
            ? [431, "request headers are too large (limit 16 KB, including the URL)"]
            : [400, `malformed HTTP request: ${err.code ?? err.message}`];
      const body = JSON.stringify({ errors: [what] });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
  });

  // JSON bodies are parsed as they arrive, yielding to other requests, within the route's body
  // limit; over-deep and poisoned documents are refused before any handler can store them.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", (req: FastifyRequest, payload: Readable) =>
    readJsonBody(payload, Number(req.headers["content-length"]), req.routeOptions.bodyLimit ?? BODY_LIMIT),
  );

  await app.register(cors, {
    origin: corsOrigin(options.allowedOrigins),
    methods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    allowedHeaders: ["Content-Type", "X-Service-APIKey", "X-Service-Project", "Authorization"],
    exposedHeaders: ["Content-Disposition", "Retry-After"],
    maxAge: 600,
    preflightContinue: true,
  });
  await app.register(multipart, {
    limits: MULTIPART_LIMITS,
  });

  // CORS's hook runs first, so every answer (429 and 503 included) carries its headers. A preflight
  // (OPTIONS) continues past it to pay the same latency as any request and is counted (`OPTIONS *`),
  // as a real service's would be; the plugin's OPTIONS route then answers it.
  app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
    markRequestStart(req);
    if (req.url.startsWith(ADMIN_PREFIX)) return;
    stats.count(req.method, req.routeOptions.url);
    reply.raw.once("close", stats.enter());
    reply.raw.once("finish", stats.measureAnswer(req.raw.socket));
    if (req.method === "OPTIONS") {
      if (opts.latencyMs > 0) await sleep(opts.latencyMs);
      reply.code(204);
      return;
    }
    const rawKey = req.headers["x-service-apikey"];
    const key = String(Array.isArray(rawKey) ? rawKey[0] : (rawKey ?? ""));
    // The concurrency cap counts a key's requests from arrival to answer; a refused one takes no slot.
    const release = faults.enter(key);
    if (release) reply.raw.once("close", release);
    if (opts.latencyMs > 0) await sleep(opts.latencyMs);
    if (!release) {
      stats.rateLimited++;
      stats.concurrencyLimited++;
      return reply
        .code(429)
        .header("Retry-After", "1")
        .send({
          errors: [`more than ${opts.concurrencyLimit} requests of this API key at once; retry after 1 s`],
        });
    }
    const wait = faults.rateLimited(key);
    if (wait > 0) {
      stats.rateLimited++;
      return reply
        .code(429)
        .header("Retry-After", String(Math.ceil(wait)))
        .send({
          errors: [`rate limit of ${opts.rateLimit} requests per second exceeded; retry after ${Math.ceil(wait)} s`],
        });
    }
    if (faults.shouldFail()) {
      stats.failed++;
      return reply.code(503).send({ errors: ["service temporarily unavailable (emulated failure)"] });
    }
  });

  app.setErrorHandler(async (err, req, reply) => {
    // A body over a limit: the client may still be sending it, and must be able to read why.
    // A body refused before it was read whole (over a limit, malformed): the client may still be
    // sending it, and must be able to read why.
    const status = err instanceof HttpProblem ? err.status : (err as FastifyError).statusCode;
    if (status === 413 || !req.raw.complete) await discardRestOfBody(req);
    if (status === 413) reply.header("Connection", "close");
    return sendError(err, reply, opts.quiet);
  });

  const register = (r: RouteDef) => {
    app.route({
      method: r.method,
      url: r.path,
      bodyLimit: routeBodyLimit(r),
      handler: async (req, reply) => {
        const key = resolveKey(req, r.auth);
        const project = r.project === "none" ? undefined : resolveProject(req, key, r.area, r.project === "required");
        const ctx: RequestContext = {
          req,
          reply,
          emu,
          key,
          project,
          params: (req.params ?? {}) as Record<string, string>,
          query: (req.query ?? {}) as Record<string, unknown>,
        };
        const result = await r.handler(ctx);
        if (reply.statusCode === 204) return reply.send();
        return reply.send(result);
      },
    });
  };
  ROUTES.forEach(register);

  const origin = (req: FastifyRequest) => `http://${req.headers.host ?? `127.0.0.1:${opts.port}`}`;
  app.get("/swagger.json", async (req) => openApiDocument("api", origin(req)));
  app.get("/nature/openapi.json", async (req) => openApiDocument("nature", `${origin(req)}/nature`));

  const reset = async () => {
    state = seedState(opts.seed);
    stats.reset();
    await emu.persist();
  };
  app.get("/__emulator/stats", async () => stats.toJSON());
  app.post("/__emulator/stats/reset", async () => {
    stats.reset();
    return stats.toJSON();
  });
  app.post("/__emulator/reset", async () => {
    await reset();
    return { reset: true };
  });
  app.post(CHANGE_DATA_ROUTE, async (req) => changePortfolioData(emu, req));

  const known: { regex: RegExp; method: string }[] = [
    ...ROUTES.map((r) => ({ regex: patternRegex(r.path), method: r.method })),
    { regex: patternRegex("/swagger.json"), method: "GET" },
    { regex: patternRegex("/nature/openapi.json"), method: "GET" },
    { regex: patternRegex("/__emulator/stats"), method: "GET" },
    { regex: patternRegex("/__emulator/stats/reset"), method: "POST" },
    { regex: patternRegex("/__emulator/reset"), method: "POST" },
    { regex: patternRegex(CHANGE_DATA_ROUTE), method: "POST" },
  ];
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0];
    const allowed = [...new Set(known.filter((k) => k.regex.test(path)).map((k) => k.method))];
    const absent = ABSENT_ROUTES.some((a) => a.method === req.method && patternRegex(a.path).test(path));
    if (allowed.length > 0 && !absent) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      return reply
        .code(405)
        .header("Allow", [...allowed, "OPTIONS"].join(", "))
        .send({ errors: [`method ${req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`] });
    }
    return reply.code(404).send({ errors: [`no route ${req.method} ${path}`] });
  });

  await app.listen({ port: opts.port, host: opts.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const host = opts.host === "0.0.0.0" || opts.host === "::" ? "127.0.0.1" : opts.host;
  const url = `http://${host}:${port}`;
  let closed = false;
  return {
    url,
    baseUrl: url,
    natureUrl: `${url}/nature`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await jq.close();
      await persister?.flush();
    },
    reset,
  };
}
