/**
 * Reads a JSON request body without holding the server's thread. `JSON.parse` of a 10 MB GeoJSON
 * body takes 150–200 ms on a small machine and checking its depth afterwards another 100 ms, all
 * in one turn of the event loop, during which every other key's request waits. The body is
 * therefore parsed as it arrives (@streamparser/json), chunk by chunk, giving the event loop back
 * at least every SLICE_MS; the depth limit and the refusal of `__proto__` and
 * `constructor.prototype` keys (fastify's default parser's "error" actions) are checked token by
 * token, so an over-deep or poisoned document is refused before it is built whole.
 */
import { Readable } from "node:stream";
import { JSONParser, TokenType } from "@streamparser/json";
import { HttpProblem, badRequest } from "./errors";
import { MAX_JSON_DEPTH } from "./json-limits";
import { SLICE_MS } from "./turns";
/** Bytes handed to the parser at once (a socket chunk may be larger). */
const PIECE_BYTES = 64 * 1024;

/** 413 naming the limit (emulator/http/oversized-body.ts answers it once the body is read). */
export const bodyTooLarge = (limit: number) =>
  new HttpProblem(413, [`request body is too large (limit ${limit} bytes)`]);

/** Refuses a nesting (and, for a request body, a poisoning key) as soon as its token arrives. */
function guard(parser: JSONParser, where: string, keys: boolean): void {
  let depth = 0;
  let lastString: unknown;
  let key: string | undefined;
  // The key each open container sits under in its parent (undefined in arrays and at the root).
  const containerKeys: (string | undefined)[] = [];
  parser.onToken = ({ token, value }) => {
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (++depth > MAX_JSON_DEPTH) {
          throw badRequest(
            `${where}: JSON nests deeper than the limit of ${MAX_JSON_DEPTH} levels of objects and arrays`,
          );
        }
        containerKeys.push(key);
        key = undefined;
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        depth--;
        containerKeys.pop();
        key = undefined;
        break;
      case TokenType.STRING:
        lastString = value;
        break;
      case TokenType.COLON:
        key = String(lastString);
        if (!keys) break;
        if (key === "__proto__" || (key === "prototype" && containerKeys.at(-1) === "constructor"))
          throw badRequest(`${where}: the key ${JSON.stringify(key)} is not allowed (prototype poisoning)`);
        break;
      default:
        break;
    }
  };
}

/**
 * The parsed body of a JSON request, read from `payload` within `limit` bytes. Throws 413 past the
 * limit (the declared Content-Length or the bytes received), 400 for malformed, over-deep or
 * poisoned JSON. Never destroys the stream: the error handler reads the rest, so the client can
 * read the answer.
 */
export function readJsonBody(payload: Readable, declaredLength: number, limit: number): Promise<unknown> {
  if (declaredLength > limit) return Promise.reject(bodyTooLarge(limit));
  return parseStream(payload, limit, "malformed JSON body", { where: "request body", keys: true });
}

/**
 * JSON text (a GeoJSON file part, a UDF's result layer: up to 16 MB) parsed a piece at a time
 * between turns of the event loop. Its keys are data: a `__proto__` key stays an own property.
 * With `depthOf`, a document nesting deeper than MAX_JSON_DEPTH is refused with 400 naming it.
 */
export function parseJsonText(text: string, depthOf?: string): Promise<unknown> {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) pieces.push(bytes.subarray(at, at + PIECE_BYTES));
  return parseStream(
    Readable.from(pieces),
    Infinity,
    `${depthOf ?? "JSON"}: not valid JSON`,
    depthOf ? { where: depthOf, keys: false } : undefined,
  );
}

function parseStream(
  payload: Readable,
  limit: number,
  malformed: string,
  checks?: { where: string; keys: boolean },
): Promise<unknown> {
  const parser = new JSONParser({ paths: ["$"], keepStack: false });
  let result: { value: unknown } | undefined;
  parser.onValue = ({ value }) => (result = { value });
  if (checks) guard(parser, checks.where, checks.keys);
  return new Promise<unknown>((resolve, reject) => {
    let received = 0;
    let sliceStart = performance.now();
    let settled = false;
    const settle = (e: unknown, value?: unknown) => {
      if (settled) return;
      settled = true;
      payload.off("data", onData);
      payload.off("end", onEnd);
      payload.off("error", onError);
      if (e === undefined) resolve(value);
      else reject(e instanceof HttpProblem ? e : badRequest(`${malformed}: ${(e as Error).message}`));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit) return settle(bodyTooLarge(limit));
      try {
        for (let at = 0; at < bytes.length; at += PIECE_BYTES) parser.write(bytes.subarray(at, at + PIECE_BYTES));
      } catch (e) {
        return settle(e);
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        payload.pause();
        setImmediate(() => {
          sliceStart = performance.now();
          if (!settled) payload.resume();
        });
      }
    };
    const onEnd = () => {
      try {
        if (!parser.isEnded) parser.end();
      } catch (e) {
        return settle(e);
      }
      if (!result) return settle(badRequest(`${malformed}: no JSON value`));
      settle(undefined, result.value);
    };
    const onError = (e: Error) => settle(badRequest(`request body could not be read: ${e.message}`));
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
  });
}
