/**
 * The one error type handlers throw (named apart from the add-in's `ApiError` in src/api, which is
 * what the client raises on reading such a response). The server's error handler turns it into the service's
 * `{errors: [...]}` body with the given status, so every failure looks the same on the wire.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.join("; "));
  }
}

/** 400 invalid request. */
export const badRequest = (...errors: string[]) => new HttpProblem(400, errors);
/** 401 missing or unknown API key. */
export const unauthorized = (...errors: string[]) => new HttpProblem(401, errors);
/** 403 project not usable by this key (the production message). */
export const forbiddenProject = () => new HttpProblem(403, ["project nonexistent or lacking authorization"]);
/** 404 unknown resource. */
export const notFound = (...errors: string[]) => new HttpProblem(404, errors);
/** 409 conflicting state (name taken, data still being generated). */
export const conflict = (...errors: string[]) => new HttpProblem(409, errors);
/** 422 well-formed request whose content cannot be processed. */
export const unprocessable = (...errors: string[]) => new HttpProblem(422, errors);
