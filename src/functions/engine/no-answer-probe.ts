/**
 * Why the RISK cells' loads got no answer, for their words: a service that does not answer the
 * add-in's origin (CORS) needs another fix than one nothing answers for. The probe is the API's
 * (src/api/no-answer.ts, as "Check the add-in" sends it); here it is sent ONCE for a burst: a
 * recalculation fails thousands of loads together, and every one of them joins the same probe of
 * the same URL, whose answer is then kept for a while.
 */
import type { ConnectionConfig } from "../../api/config";
import { CorsRefusedError, NetworkError } from "../../api/errors";
import { describeNoAnswer, diagnoseNoAnswer, probeUrls, type NoAnswerCause } from "../../api/no-answer";

/** Settings of {@link NoAnswerProbes}. */
export interface NoAnswerProbeOptions {
  /** The fetch the probe is sent with (not the engine's counted one: a probe is no load's request). */
  fetch?: typeof fetch;
  /** The probe's time limit: no cell waits on it longer. */
  timeoutMs: number;
  /** How long a probe's answer serves later failures of the same URL. */
  keepMs: number;
}

/** The probes of one engine, at most one at a time per URL, each answer kept `keepMs`. */
export class NoAnswerProbes {
  /** The probe of each URL: running (no `at` yet) or answered at `at`. */
  private readonly probes = new Map<string, { cause: Promise<NoAnswerCause>; at?: number }>();
  constructor(private readonly options: NoAnswerProbeOptions) {}

  /**
   * The failure of a load as its cells should say it: a NetworkError (no answer) becomes a
   * CorsRefusedError when the probe found that the service answers, but not this origin; anything
   * else, and a service the probe could not reach either, is returned unchanged. Never rejects.
   */
  async explain(error: unknown, connection: ConnectionConfig): Promise<unknown> {
    if (!(error instanceof NetworkError) || error instanceof CorsRefusedError) return error;
    const url = probeUrl(error.operation, connection);
    const cause = await this.causeOf(url);
    if (cause.kind !== "cors") return error;
    return new CorsRefusedError(describeNoAnswer(cause, url), {
      operation: error.operation,
      origin: cause.origin,
      cause: error,
    });
  }

  /** The running or recent probe of `url`, or a new one. */
  private causeOf(url: string): Promise<NoAnswerCause> {
    const now = Date.now();
    for (const [key, probe] of this.probes) {
      if (probe.at !== undefined && now - probe.at >= this.options.keepMs) this.probes.delete(key);
    }
    const known = this.probes.get(url);
    if (known) return known.cause;
    const probe: { cause: Promise<NoAnswerCause>; at?: number } = {
      cause: diagnoseNoAnswer(url, { fetch: this.options.fetch, timeoutMs: this.options.timeoutMs })
        // diagnoseNoAnswer settles within its time limit; a throw would be a bug, worded as today's.
        .catch((): NoAnswerCause => ({ kind: "unreachable" }))
        .then((cause) => {
          probe.at = Date.now();
          return cause;
        }),
    };
    this.probes.set(url, probe);
    return probe.cause;
  }
}

/** The URL the probe is sent to: the failed request's service, at the route the connection test reads. */
function probeUrl(operation: string, connection: ConnectionConfig): string {
  const urls = probeUrls(connection);
  return operation.startsWith("nature.") ? urls.nature : urls.risk;
}
