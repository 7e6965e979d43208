import type { RiskClient } from "./client";
import { AbortedError } from "./errors";
import { RISK_DATA_AVAILABLE, type Portfolio } from "./types";
import { message, type Message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** How {@link waitForRiskData} follows a portfolio's status. */
export interface WaitForRiskDataOptions {
  /** Stops the wait: the promise then rejects with AbortedError. */
  signal?: AbortSignal;
  /**
   * Told each status read that is not yet `Risk data available`, with the seconds waited so far: a
   * message the pane words (the service's status quoted as it is).
   */
  onProgress?: (progress: { message: Message }) => void;
  /** Pause between two status reads (default 1 s; the bench and the tests, on the emulator, poll faster). */
  intervalMs?: number;
  /** Give up after this long (default 15 min): generation of 5,000 assets can take minutes. */
  timeoutMs?: number;
}

/**
 * Reads the portfolio's status until it is `Risk data available` (docs/service.md: an import
 * answers 202 and the datasets answer 409 until then) and answers the portfolio as last read. The
 * one wait for risk data of the pane's sync, the benchmarks and the tests. Rejects with the
 * client's error when a read fails (after the client's own retries), with AbortedError when the
 * signal fires, and with an Error naming the last status when the time limit passes.
 */
export async function waitForRiskData(
  client: RiskClient,
  portfolio: string,
  options: WaitForRiskDataOptions = {},
): Promise<Portfolio> {
  const interval = options.intervalMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const started = Date.now();
  for (;;) {
    if (options.signal?.aborted) throw stopped(portfolio);
    const record = await client.portfolios.get(portfolio, { signal: options.signal });
    if (record.status === RISK_DATA_AVAILABLE) return record;
    const seconds = Math.round((Date.now() - started) / 1000);
    options.onProgress?.({
      message: message("sync.run.generating", { portfolio, status: record.status || "unknown", seconds }),
    });
    if (Date.now() - started >= timeoutMs) {
      throw new MessageError(
        message("sync.run.timedOut", {
          portfolio,
          status: RISK_DATA_AVAILABLE,
          seconds: Math.round(timeoutMs / 1000),
          last: record.status,
        }),
      );
    }
    await pause(interval, portfolio, options.signal);
  }
}

function stopped(portfolio: string): AbortedError {
  return new AbortedError(`Waiting for the risk data of ${portfolio} was cancelled`, {
    operation: "portfolios.waitForRiskData",
  });
}

/** Waits `ms`, or rejects with AbortedError as soon as the signal fires. */
function pause(ms: number, portfolio: string, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stopped(portfolio));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped(portfolio));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
