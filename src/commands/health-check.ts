/**
 * "Check the add-in": the facts a support request needs, as one copyable text without the API key.
 * Office-free and tested without a workbook (test/commands/health-check.test.ts): the facts Office
 * knows are gathered by health-gather.ts and passed in. The service probes go through the one
 * client (src/api) with a fetch that notes each answer's status, latency and Date header.
 */
import { englishTranslator, type Translator } from "../i18n/translator";
import type { MessageId } from "../i18n/messages";
import { RiskClient } from "../api/client";
import type { ConnectionConfig } from "../api/config";
import { explainNoAnswer, probeUrls } from "../api/no-answer";

/** A requirement set the add-in uses, and what stops working without it. */
export interface RequirementSetUse {
  name: string;
  version: string;
  /** Declared in manifest.xml (Excel does not load the add-in without it) or checked at run time. */
  declared: boolean;
  /** What the analyst loses where it is missing. */
  without: string;
}

/**
 * Every requirement set src/ uses (docs/deploying.md, "Excel builds and requirement sets";
 * test/commands/health-check.test.ts checks this list against the manifest and the scan of src/).
 */
export const REQUIREMENT_SETS: readonly RequirementSetUse[] = [
  {
    name: "SharedRuntime",
    version: "1.1",
    declared: true,
    without: "the add-in does not load (functions and pane share one page)",
  },
  {
    name: "CustomFunctionsRuntime",
    version: "1.3",
    declared: true,
    without: "the add-in does not load (every RISK error carries a code and a message)",
  },
  { name: "ExcelApi", version: "1.9", declared: true, without: "the add-in does not load" },
  {
    name: "ExcelApi",
    version: "1.12",
    declared: false,
    without:
      "Explain asks for a formula's own cell instead of a spilled one; static copies find spill areas from values",
  },
  {
    name: "ExcelApi",
    version: "1.13",
    declared: false,
    without:
      "syncs cannot tell merged cells from empty ones; a pasted table whose size changed cannot be refreshed in place",
  },
  { name: "ExcelApi", version: "1.15", declared: false, without: "a refreshed table's charts keep their old ranges" },
  {
    name: "ExcelApi",
    version: "1.17",
    declared: false,
    without: "a refreshed table's conditional formats keep their old ranges",
  },
  {
    name: "RibbonApi",
    version: "1.1",
    declared: false,
    without: "Restore formulas and Explain stay enabled everywhere (they say why when there is nothing to do)",
  },
  {
    name: "KeyboardShortcuts",
    version: "1.1",
    declared: false,
    without: "the shortcuts shown are those the add-in ships, not keys you customised or gave to another action",
  },
];

/** What one service URL answered. */
export interface ServiceProbe {
  /** "Risk service" or "Nature service". */
  name: string;
  /** The URL probed (never with the key: the key travels in a header). */
  url: string;
  /**
   * HTTP status, or null when no answer came (`error` then says which: CORS, or cannot reach it,
   * or the time limit; no-answer.ts).
   */
  status: number | null;
  /** Milliseconds until the answer's headers arrived, or null. */
  latencyMs: number | null;
  /** The client's sentence for a failure, if any. */
  error?: string;
  /** The answer's Date header where the service exposes it to the page, else null. */
  serverDate: string | null;
  /** The service's clock minus this machine's (ms; the Date header has whole seconds), or null. */
  clockOffsetMs: number | null;
}

/** Everything the report says. */
export interface HealthFacts {
  version: string;
  build: string;
  host: string;
  platform: string;
  /** Requirement sets with whether this host has them (null: could not be asked). */
  sets: (RequirementSetUse & { present: boolean | null })[];
  /** RISK function ids functions.json declares, or null when it could not be read. */
  declaredFunctions: string[] | null;
  /** RISK function ids associated in this page, or null when the page cannot tell. */
  associatedFunctions: string[] | null;
  /** Ribbon and shortcut action ids associated in this page. */
  associatedCommands: string[];
  /** Whether buttons follow the context (RibbonApi 1.1), and the last ribbon update problem. */
  ribbon: { contextual: boolean; problem?: string };
  /** The shortcuts in force: Office's answer or shortcuts.json. */
  shortcuts: { source: "office" | "file"; keys: Record<string, string | null> };
  /** Whether a RISK formula evaluates in a scratch sheet (only when asked for). */
  formula?: { ok: boolean; detail: string };
  storage: { writable: boolean; where: string; detail?: string };
  connection: { baseUrl: string; natureUrl: string; project?: string; keySet: boolean; isDefault: boolean };
  services: ServiceProbe[];
  cache: {
    memoryEntries: number;
    persistentEntries: number | null;
    persistentChars: number | null;
    staleCells: number;
  };
  /** ISO time the check ran. */
  checkedAt: string;
}

/** "3 s ahead of", "1.2 s behind", "in step with" this machine, for a clock offset. */
export function describeClockOffset(offsetMs: number): string {
  const seconds = Math.abs(offsetMs) / 1000;
  // The Date header has whole seconds and the request takes time: under 2 s is no difference.
  if (seconds < 2) return "in step with this machine (within 2 s)";
  const amount = seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds)} s`;
  return `${amount} ${offsetMs > 0 ? "ahead of" : "behind"} this machine`;
}

/** Removes every occurrence of each secret (the API key) from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[API key hidden]");
  return out;
}

/**
 * The report as plain text, one fact a line, grouped under headings, ready to paste into a
 * support request. The key never appears: only whether one is set, and `secrets` are removed
 * from every line as a last guard (a URL or an error message could carry one).
 */
export function formatHealthReport(
  facts: HealthFacts,
  secrets: readonly string[],
  i18n: Translator = englishTranslator,
): string {
  const lines: string[] = [];
  const heading = (title: MessageId) => lines.push("", i18n.t(title));
  const item = (label: string, value: string) => lines.push(`  ${label}: ${value}`);

  lines.push(i18n.t("health.title", { checkedAt: facts.checkedAt }));
  heading("health.heading.addin");
  item("Version", facts.version);
  item("Build", facts.build);
  item("Host", facts.host);
  item("Platform", facts.platform);

  heading("health.heading.sets");
  for (const set of facts.sets) {
    const present = set.present === null ? "unknown" : set.present ? "present" : "MISSING";
    const how = set.declared ? "declared" : "checked at run time";
    lines.push(`  ${set.name} ${set.version}: ${present} (${how})${set.present === false ? `: ${set.without}` : ""}`);
  }

  heading("health.heading.functions");
  const declared = facts.declaredFunctions;
  const associated = facts.associatedFunctions;
  item(
    "RISK functions declared (functions.json)",
    declared ? `${declared.length}: ${declared.join(", ")}` : "could not be read",
  );
  if (associated === null) item("RISK functions associated", "this page cannot tell");
  else {
    const missing = (declared ?? []).filter((id) => !associated.includes(id));
    item(
      "RISK functions associated",
      `${associated.length}${missing.length > 0 ? `; NOT associated: ${missing.join(", ")} (cells show #NAME?)` : " (all declared)"}`,
    );
  }
  item(
    "Ribbon and shortcut actions associated",
    `${facts.associatedCommands.length}: ${facts.associatedCommands.join(", ")}`,
  );
  item(
    "Buttons follow the context",
    facts.ribbon.contextual ? "yes (RibbonApi 1.1)" : "no: every button stays enabled (no RibbonApi 1.1)",
  );
  if (facts.ribbon.problem) item("Ribbon update problem", facts.ribbon.problem);
  item(
    `Shortcuts (${facts.shortcuts.source === "office" ? "as Office reports them" : "as shipped in shortcuts.json"})`,
    Object.entries(facts.shortcuts.keys)
      .map(([action, key]) => `${action} ${key ?? "(given to another action)"}`)
      .join("; "),
  );
  if (facts.formula) item("A RISK formula evaluates", `${facts.formula.ok ? "yes" : "NO"}: ${facts.formula.detail}`);
  else item("A RISK formula evaluates", "not checked (ask for it: it adds and removes a scratch sheet)");

  heading("health.heading.storage");
  item(
    "Storage",
    `${facts.storage.writable ? "writable" : "NOT writable"} (${facts.storage.where})${facts.storage.detail ? `: ${facts.storage.detail}` : ""}`,
  );
  item("Cached results in memory", String(facts.cache.memoryEntries));
  item(
    "Last good values kept",
    facts.cache.persistentEntries === null
      ? "none kept"
      : `${facts.cache.persistentEntries} (${Math.round((facts.cache.persistentChars ?? 0) / 1024)} K characters)`,
  );
  item("Cells showing a last good value", String(facts.cache.staleCells));

  heading("health.heading.connection");
  item("Service URL", facts.connection.baseUrl || "(none: not connected)");
  item("Nature URL", facts.connection.natureUrl || "(none)");
  item("Project", facts.connection.project ?? "(none)");
  item("API key", facts.connection.keySet ? "set (not shown)" : "NOT set");
  if (facts.connection.isDefault) item("Note", "no connection saved: the build's default is used");
  for (const probe of facts.services) {
    const answer =
      probe.status === null
        ? `NO ANSWER${probe.error ? `: ${probe.error}` : ""}`
        : `HTTP ${probe.status} in ${probe.latencyMs} ms${probe.error ? `: ${probe.error}` : ""}`;
    item(`${probe.name} ${probe.url}`, answer);
    item(
      "  Server clock",
      probe.clockOffsetMs === null
        ? "not available (the service does not expose its Date header to the page)"
        : `${describeClockOffset(probe.clockOffsetMs)} (Date: ${probe.serverDate})`,
    );
  }
  return redact(lines.join("\n"), secrets);
}

/**
 * Probes each service URL of the connection with its key, through the one client with no
 * retries: the base URL with the project list, the nature URL with its superproject list. Never
 * throws: each probe says what answered, how fast, and the server's clock where its Date header
 * is exposed (a header of a cross-origin answer is readable only when the service lists it in
 * Access-Control-Expose-Headers; on the add-in's own origin, such as the dev server's /emulator
 * proxy, it always is). A probe that got no answer is probed again in `no-cors` mode
 * (explainNoAnswer), so the report tells a service that does not answer this add-in's origin
 * (`origin`, default the page's own) from one that cannot be reached.
 */
export async function probeServices(
  connection: ConnectionConfig,
  options: { fetch?: typeof fetch; now?: () => number; timeoutMs?: number; origin?: string } = {},
): Promise<ServiceProbe[]> {
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const probe = async (
    name: string,
    call: (client: RiskClient) => Promise<unknown>,
    url: string,
  ): Promise<ServiceProbe> => {
    let seen: { status: number; date: string | null; at: number } | undefined;
    let started = now();
    const recording: typeof fetch = async (input, init) => {
      started = now();
      const response = await fetchImpl(input, init);
      seen = { status: response.status, date: response.headers.get("date"), at: now() };
      return response;
    };
    let error: string | undefined;
    try {
      const client = new RiskClient(connection, {
        fetch: recording,
        maxRetries: 0,
        maxRateLimitRetries: 0,
        timeoutMs: options.timeoutMs ?? 10_000,
      });
      await call(client);
    } catch (failure) {
      const explained = await explainNoAnswer(failure, url, { fetch: fetchImpl, origin: options.origin });
      error = explained instanceof Error ? explained.message : String(explained);
    }
    const serverTime = seen?.date ? Date.parse(seen.date) : NaN;
    const clockOffsetMs = seen && Number.isFinite(serverTime) ? Math.round(serverTime - (started + seen.at) / 2) : null;
    return {
      name,
      url,
      status: seen?.status ?? null,
      latencyMs: seen ? Math.round(seen.at - started) : null,
      error,
      serverDate: seen?.date ?? null,
      clockOffsetMs,
    };
  };
  const urls = probeUrls(connection);
  return Promise.all([
    probe("Risk service", (client) => client.projects.list(), urls.risk),
    probe("Nature service", (client) => client.nature.superprojects(), urls.nature),
  ]);
}
