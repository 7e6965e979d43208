/**
 * The answer to a body over the limit. Answering at once and closing the connection, as fastify
 * does, leaves the client still writing: its next write fails (EPIPE) or the reset discards the
 * answer it has not read yet, so it never sees why. The rest of the body is therefore read and
 * discarded, up to twice the limit, before the 413 `{errors}` is sent with `Connection: close`.
 * A client that sends more than that gets the answer then; it may still see the reset.
 */
import type { FastifyRequest } from "fastify";
import { BODY_LIMIT } from "./json-limits";

/** Socket bytes already read when the request began (keep-alive: earlier requests' bytes too). */
const bytesAtStart = new WeakMap<FastifyRequest["raw"], number>();

/** Remembers where the request's bytes begin on its socket (call in the first onRequest hook). */
export function markRequestStart(req: FastifyRequest): void {
  bytesAtStart.set(req.raw, req.raw.socket?.bytesRead ?? 0);
}

/** Bytes of this request (headers included) read from its socket so far. */
function requestBytesRead(req: FastifyRequest): number {
  return (req.raw.socket?.bytesRead ?? 0) - (bytesAtStart.get(req.raw) ?? 0);
}

/**
 * Resolves once the request's body has been read to its end (discarding it), or once twice the
 * body limit has been read, or once the client has gone: then the 413 can be answered.
 */
export function discardRestOfBody(req: FastifyRequest, cap = 2 * BODY_LIMIT): Promise<void> {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed || requestBytesRead(req) >= cap) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const finish = () => {
      raw.off("data", onData);
      raw.off("end", finish);
      raw.off("error", finish);
      raw.off("close", finish);
      resolve();
    };
    const onData = () => {
      if (requestBytesRead(req) >= cap) finish();
    };
    raw.on("data", onData);
    raw.once("end", finish);
    raw.once("error", finish);
    raw.once("close", finish);
    raw.resume();
  });
}
