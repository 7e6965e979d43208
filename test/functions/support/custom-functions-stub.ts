/**
 * A stand-in for the `CustomFunctions` globals Excel provides, the same the browser harness uses:
 * an Error class carrying `code` and `message`, and the ErrorCode values. Installed on globalThis for a test file.
 */
import { HARNESS_ERROR_CODES, HarnessCustomFunctionError } from "../../../harness/custom-functions-registry";

/** Installs the stub and returns a function that removes it again. */
export function installCustomFunctionsStub(): () => void {
  const holder = globalThis as { CustomFunctions?: unknown };
  const previous = holder.CustomFunctions;
  holder.CustomFunctions = { Error: HarnessCustomFunctionError, ErrorCode: HARNESS_ERROR_CODES };
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
    if (!(error instanceof HarnessCustomFunctionError)) throw error;
    return { code: error.code, message: error.message };
  }
}
