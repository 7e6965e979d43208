/**
 * The harness's stand-in for Excel's custom-functions runtime: it records every
 * `CustomFunctions.associate(id, fn)` the functions bundle makes, and provides
 * `CustomFunctions.Error` / `ErrorCode` so the functions can throw cell errors.
 *
 * It must be installed before the functions chunk runs (the harness chunk comes first on the
 * page). office.js defines its own `CustomFunctions.associate` outside Office, and the real runtime
 * may assign one later inside Office: our `associate` stays in place (a property whose setter keeps
 * the newcomer as the one to forward to), so the harness always sees every function and a real
 * runtime still gets its calls.
 */

/** A function as the bundle registers it: scalar arguments, then the invocation. */
export type RegisteredFunction = (...args: unknown[]) => unknown;

/** Excel's error codes, as `CustomFunctions.ErrorCode` spells them. */
export const HARNESS_ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
  busy: "#BUSY!",
  connect: "#CONNECT!",
  gettingData: "#GETTING_DATA",
} as const;

/** The harness's `CustomFunctions.Error`: a cell error code and the message Excel shows on hover. */
export class HarnessCustomFunctionError extends Error {
  override readonly name = "CustomFunctions.Error";
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? "");
  }
}

/** The functions registered so far, by id (upper case, as the metadata spells them). */
export class FunctionRegistry {
  private readonly functions = new Map<string, RegisteredFunction>();
  private readonly waiters = new Set<() => void>();

  /** Record one function; later registrations of the same id replace earlier ones, as in Excel. */
  register(id: string, fn: RegisteredFunction): void {
    this.functions.set(id.toUpperCase(), fn);
    for (const wake of this.waiters) wake();
  }

  /** The function with this id (case-insensitive), if the bundle registered it. */
  get(id: string): RegisteredFunction | undefined {
    return this.functions.get(id.toUpperCase());
  }

  /** Every registered id, sorted. */
  ids(): string[] {
    return [...this.functions.keys()].sort();
  }

  /** Be told when a function is registered; returns the unsubscribe function. */
  onRegister(listener: () => void): () => void {
    this.waiters.add(listener);
    return () => this.waiters.delete(listener);
  }
}

type CustomFunctionsGlobal = Record<string, unknown> & {
  associate?: unknown;
  Error?: unknown;
  ErrorCode?: unknown;
};

/**
 * Install the registry into `target.CustomFunctions` (created when missing). Returns the registry;
 * calling it twice returns the same one.
 */
export function installFunctionRegistry(
  target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
): FunctionRegistry {
  const existing = target.__harnessFunctionRegistry as FunctionRegistry | undefined;
  if (existing) return existing;
  const registry = new FunctionRegistry();
  target.__harnessFunctionRegistry = registry;

  const runtime = (target.CustomFunctions ?? (target.CustomFunctions = {})) as CustomFunctionsGlobal;
  let forwardTo =
    typeof runtime.associate === "function" ? (runtime.associate as (...a: unknown[]) => unknown) : undefined;

  const associate = (idOrMappings: unknown, fn?: unknown): void => {
    if (typeof idOrMappings === "string" && typeof fn === "function") {
      registry.register(idOrMappings, fn as RegisteredFunction);
    } else if (idOrMappings && typeof idOrMappings === "object") {
      // associate({ ID: fn, ... }) form
      for (const [id, value] of Object.entries(idOrMappings as Record<string, unknown>)) {
        if (typeof value === "function") registry.register(id, value as RegisteredFunction);
      }
    }
    try {
      forwardTo?.call(runtime, idOrMappings, fn);
    } catch {
      // office.js outside Office has nothing to associate with; the harness registry is what counts
    }
  };
  Object.defineProperty(runtime, "associate", {
    configurable: true,
    enumerable: true,
    get: () => associate,
    set: (value: unknown) => {
      if (typeof value === "function" && value !== associate) forwardTo = value as (...a: unknown[]) => unknown;
    },
  });
  if (typeof runtime.Error !== "function") runtime.Error = HarnessCustomFunctionError;
  if (!runtime.ErrorCode) runtime.ErrorCode = { ...HARNESS_ERROR_CODES };
  return registry;
}

/** The error code and message of anything a function threw or returned as an error, else undefined. */
export function asCellError(value: unknown): { code: string; message: string } | undefined {
  if (value instanceof HarnessCustomFunctionError) return { code: value.code, message: value.message };
  if (value && typeof value === "object" && "code" in value && typeof (value as { code: unknown }).code === "string") {
    const code = (value as { code: string }).code;
    if (code.startsWith("#")) return { code, message: String((value as { message?: unknown }).message ?? "") };
  }
  return undefined;
}
