import type { RiskClient } from "../../api/client";
import { RISK_DATA_AVAILABLE, type Portfolio } from "../../api/types";
import { CancelledError, type ProgressListener } from "./pane-types";

/** How the status is followed. */
export interface PollOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Pause between two status reads (default 1 s). */
  intervalMs?: number;
  /** Give up after this long (default 15 min): generation of 5,000 assets can take minutes. */
  timeoutMs?: number;
}

/**
 * Reads the portfolio's status until it is `Risk data available`, reporting each status seen.
 * Rejects with the client's error when a read fails (after the client's own retries), with
 * CancelledError when the signal fires, and with an Error when the time limit passes.
 */
export async function waitForRiskData(
  client: RiskClient,
  portfolio: string,
  options: PollOptions = {},
): Promise<Portfolio> {
  const interval = options.intervalMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
  const started = Date.now();
  for (let reads = 1; ; reads++) {
    if (options.signal?.aborted) throw stopped();
    const record = await client.portfolios.get(portfolio, { signal: options.signal });
    if (record.status === RISK_DATA_AVAILABLE) return record;
    const seconds = Math.round((Date.now() - started) / 1000);
    options.onProgress?.({
      message: `Generating risk data for ${portfolio}: status “${record.status || "unknown"}” (${seconds} s)`,
    });
    if (Date.now() >= deadline) {
      throw new Error(
        `${portfolio} did not reach “${RISK_DATA_AVAILABLE}” within ${Math.round((options.timeoutMs ?? 0) / 1000)} s (last status “${record.status}”)`,
      );
    }
    await sleep(interval, options.signal);
  }
}

function stopped(): CancelledError {
  return new CancelledError("Stopped waiting. The assets are uploaded; the service goes on generating risk data.");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stopped());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
