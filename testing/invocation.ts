import type { Invocation } from "../src/functions/formulas/run";

/** A stand-in for the invocation Excel passes, with `cancel()` doing what Excel does when a cell is dropped. */
export interface FakeInvocation extends Invocation {
  /** Calls the `onCanceled` handler the function installed, as Excel does. */
  cancel(): void;
}

/**
 * Makes an invocation for calling the RISK.* functions outside Excel, exactly as Excel calls them:
 * `await SEARCH(51.5, -0.1, "floods", "30yr", null, null, createInvocation("A1"))`.
 */
export function createInvocation(address?: string): FakeInvocation {
  const invocation: FakeInvocation = {
    address,
    onCanceled: undefined,
    cancel() {
      invocation.onCanceled?.();
    },
  };
  return invocation;
}
