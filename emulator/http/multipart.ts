/**
 * Reads a whole multipart form into name → text, files and plain fields alike, within the size
 * limits registered with @fastify/multipart and the body limit of any request (fastify's
 * `bodyLimit` does not apply to multipart bodies: @fastify/multipart reads the request itself).
 * Used by asset import and vector create/update.
 */
import type { FastifyRequest } from "fastify";
import { HttpProblem, badRequest } from "./errors";
import { BODY_LIMIT } from "./json-limits";

/** Limits of one multipart form, registered with @fastify/multipart (emulator/server.ts). */
export const MULTIPART_LIMITS = {
  fileSize: BODY_LIMIT,
  fieldSize: BODY_LIMIT,
  files: 2,
  fields: 10,
  parts: 12,
} as const;

const tooLarge = (limit: number) =>
  new HttpProblem(413, [`request body is too large (limit ${limit} bytes): a multipart form counts whole`]);

/** The form's fields by name; file parts are decoded as UTF-8 text. */
export async function readForm(req: FastifyRequest): Promise<Map<string, string>> {
  const limit = req.routeOptions.bodyLimit ?? BODY_LIMIT;
  if (Number(req.headers["content-length"]) > limit) throw tooLarge(limit);
  // Without Content-Length (chunked), the bytes are counted as they arrive; several fields and
  // files, each within its own limit, may not add up past the body limit either.
  let received = 0;
  const count = (chunk: Buffer) => (received += chunk.length);
  const parts = req.parts();
  // Listening only once the form parser is piped in, so no chunk flows past it.
  req.raw.on("data", count);
  const form = new Map<string, string>();
  try {
    for await (const part of parts) {
      if (part.type === "file") {
        const buf = await part.toBuffer();
        form.set(part.fieldname, buf.toString("utf8"));
      } else {
        // busboy cuts a field at `fieldSize` and says so only here: a cut value is no value.
        if (part.valueTruncated) throw tooLarge(limit);
        form.set(part.fieldname, typeof part.value === "string" ? part.value : String(part.value));
      }
      if (received > limit) throw tooLarge(limit);
    }
  } catch (e) {
    if (e instanceof HttpProblem) throw e;
    const err = e as { statusCode?: number; message?: string; code?: string };
    if (err.code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(limit);
    if (err.statusCode === 413)
      throw new HttpProblem(413, [
        `multipart form has too many parts (${err.message}; limits: ${MULTIPART_LIMITS.files} files, ` +
          `${MULTIPART_LIMITS.fields} fields, ${MULTIPART_LIMITS.parts} parts)`,
      ]);
    if (err.statusCode && err.statusCode < 500)
      throw new HttpProblem(err.statusCode, [`malformed multipart form: ${err.message}`]);
    throw badRequest(`malformed multipart form: ${err.message ?? String(e)}`);
  } finally {
    req.raw.off("data", count);
  }
  return form;
}

/** The request body as a plain object (JSON), or 400 when it is not one. */
export function jsonObject(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("request body must be a JSON object");
  return body as Record<string, unknown>;
}
