/**
 * A stand-in for the `CustomFunctions` globals Excel provides: an Error class carrying `code` and
 * `message`, and the ErrorCode values the functions use. Installed on globalThis for a test file.
 */
export class StubCustomFunctionError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? "");
  }
}

export const STUB_ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

/** Installs the stub and returns a function that removes it again. */
export function installCustomFunctionsStub(): () => void {
  const holder = globalThis as { CustomFunctions?: unknown };
  const previous = holder.CustomFunctions;
  holder.CustomFunctions = { Error: StubCustomFunctionError, ErrorCode: STUB_ERROR_CODES };
  return () => {
    holder.CustomFunctions = previous;
  };
}

/** Awaits a formula that must fail and returns the error value the cell would show. */
export async function cellError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    const value = await promise;
    throw new Error(`expected an error value, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (!(error instanceof StubCustomFunctionError)) throw error;
    return { code: error.code, message: error.message };
  }
}
