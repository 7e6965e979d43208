/**
 * The running emulator's shared pieces that handlers use: options, the in-memory state, the
 * persister and the jq sandbox. Handlers mutate `state` synchronously, then await `persist()`
 * before answering.
 */
import { EmulatorState } from "./state/types";
import { JqSandbox } from "./jq/sandbox";

/** Options after defaults are applied. */
export interface ResolvedOptions {
  port: number;
  host: string;
  latencyMs: number;
  failRate: number;
  rateLimit: number;
  concurrencyLimit: number;
  dataDir?: string;
  seed: number;
  processingDelayMs: number;
  jqTimeoutMs: number;
  jqWorkers: number;
  quiet: boolean;
}

/** What a handler can reach. */
export interface Emulator {
  readonly options: ResolvedOptions;
  state: EmulatorState;
  readonly jq: JqSandbox;
  /** Durably stores the current state (no-op without --data-dir). */
  persist(): Promise<void>;
}

/** Today's date as the compositions records spell it (YYYY-MM-DD). */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Now as an ISO 8601 UTC timestamp without milliseconds. */
export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}
