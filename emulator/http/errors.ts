/**
 * The one error type handlers throw. The server's error handler turns it into the contract's
 * `{errors: [...]}` body with the given status, so every failure looks the same on the wire.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.join("; "));
  }
}

/** 400 invalid request. */
export const badRequest = (...errors: string[]) => new ApiError(400, errors);
/** 401 missing or unknown API key. */
export const unauthorized = (...errors: string[]) => new ApiError(401, errors);
/** 403 project not usable by this key (the production message). */
export const forbiddenProject = () => new ApiError(403, ["project nonexistent or lacking authorization"]);
/** 404 unknown resource. */
export const notFound = (...errors: string[]) => new ApiError(404, errors);
/** 409 conflicting state (name taken, data still being generated). */
export const conflict = (...errors: string[]) => new ApiError(409, errors);
/** 422 well-formed request whose content cannot be processed. */
export const unprocessable = (...errors: string[]) => new ApiError(422, errors);
