/**
 * Reads a whole multipart form into name → text, files and plain fields alike, within the size
 * limits registered with @fastify/multipart. Used by asset import and vector create/update.
 */
import type { FastifyRequest } from "fastify";
import { HttpProblem, badRequest } from "./errors";

/** The form's fields by name; file parts are decoded as UTF-8 text. */
export async function readForm(req: FastifyRequest): Promise<Map<string, string>> {
  const form = new Map<string, string>();
  try {
    for await (const part of req.parts()) {
      if (part.type === "file") {
        const buf = await part.toBuffer();
        form.set(part.fieldname, buf.toString("utf8"));
      } else {
        form.set(part.fieldname, typeof part.value === "string" ? part.value : String(part.value));
      }
    }
  } catch (e) {
    const err = e as { statusCode?: number; message?: string; code?: string };
    if (err.code === "FST_REQ_FILE_TOO_LARGE" || err.statusCode === 413)
      throw new HttpProblem(413, [`uploaded file is too large: ${err.message}`]);
    if (err.statusCode && err.statusCode < 500)
      throw new HttpProblem(err.statusCode, [`malformed multipart form: ${err.message}`]);
    throw badRequest(`malformed multipart form: ${err.message ?? String(e)}`);
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
