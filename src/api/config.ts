import { ConfigurationError, NotConnectedError } from "./errors";
import { DEMO_API_KEY, DEMO_BASE_URL, DEMO_PROJECT } from "../shared/vocabulary";

/** Where the service is and who is calling: everything a request needs besides its own arguments. */
export interface ConnectionConfig {
  /** Compositions, portfolios and search live under `${baseUrl}/api` (docs/service.md#routes). */
  baseUrl: string;
  /** Nature sub-projects live directly under this URL. */
  natureUrl: string;
  /** Sent as `X-Service-APIKey` on every request. */
  apiKey: string;
  /** Project name or id, sent as `X-Service-Project` where the service needs it (docs/service.md#authentication). */
  project?: string;
}

/** The local emulator's seeded demo connection: the default when nothing is configured. */
export const EMULATOR_CONNECTION: Readonly<Required<ConnectionConfig>> = Object.freeze({
  baseUrl: DEMO_BASE_URL,
  natureUrl: `${DEMO_BASE_URL}/nature`,
  apiKey: DEMO_API_KEY,
  project: DEMO_PROJECT,
});

/** True for hosts that never leave this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The add-in page's own origin (`https://addin.example.com`), or undefined outside a page. */
export function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : undefined;
}

/**
 * Checks a service URL and returns it absolute, without trailing slashes. It is either absolute
 * http(s), or a path on the add-in's own host (`/risk-api`: a reverse proxy there forwards it to the
 * service, so no request is cross-origin; docs/deploying.md), resolved against `origin` (default:
 * the page's). Either way the result must be https unless its host is loopback, so an API key never
 * travels in clear text.
 */
export function checkServiceUrl(value: string, setting: string, origin: string | undefined = pageOrigin()): string {
  const text = value.trim();
  const isPath = text.startsWith("/") && !text.startsWith("//");
  if (isPath && origin === undefined) {
    throw new ConfigurationError(
      `${setting} "${value}" is a path, which needs the add-in's own address to resolve against: give a full URL (https://…)`,
      { operation: "configure" },
    );
  }
  let url: URL;
  try {
    url = isPath ? new URL(text, origin) : new URL(text);
  } catch {
    throw new ConfigurationError(
      `${setting} "${value}" is not a valid URL (expected e.g. https://service.example.com, or a path of the add-in's own address such as /risk-api)`,
      {
        operation: "configure",
      },
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(`${setting} must start with https:// (got ${url.protocol})`, {
      operation: "configure",
    });
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError(
      `${setting} must use https:// for ${url.hostname}: plain http is only allowed for this machine (localhost)`,
      { operation: "configure" },
    );
  }
  if (url.search || url.hash) {
    throw new ConfigurationError(`${setting} must not carry a query or fragment`, { operation: "configure" });
  }
  return url.toString().replace(/\/+$/, "");
}

/** Validates a whole connection and returns it normalized (trimmed, no trailing slashes). */
export function checkConnection(config: ConnectionConfig): ConnectionConfig {
  if (config.baseUrl === "" && config.apiKey === "")
    throw new NotConnectedError("Open the Climate Risk pane to connect", { operation: "configure" });
  const apiKey = config.apiKey.trim();
  if (apiKey === "") throw new ConfigurationError("API key is empty", { operation: "configure" });
  const project = config.project?.trim();
  return {
    baseUrl: checkServiceUrl(config.baseUrl, "Base URL"),
    natureUrl: checkServiceUrl(config.natureUrl, "Nature URL"),
    apiKey,
    project: project === "" ? undefined : project,
  };
}

/** A stable key for caches: results from one service and project never answer another's. */
export function connectionKey(config: ConnectionConfig): string {
  return `${config.baseUrl}|${config.natureUrl}|${config.project ?? ""}|${keyFingerprint(config.apiKey)}`;
}

/** A short non-reversible fingerprint, so cache keys separate keys without holding the key itself. */
function keyFingerprint(key: string): string {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0).toString(36);
}
