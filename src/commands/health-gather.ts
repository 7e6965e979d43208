/**
 * Gathers what "Check the add-in" reports (health-check.ts formats it): the few facts only Office,
 * the page and the workbook know. Everything optional is asked defensively: a check must work
 * best exactly where the add-in works worst, so no question here can make it fail; each answers
 * "unknown" or "could not be read" instead.
 */
import type { ExcelRunner } from "../excel/runner";
import { evaluateInScratchSheet } from "../excel/ribbon-context";
import { defaultEngine } from "../functions/engine/default-engine";
import { defaultKeyValueStorage, getConnection, isDefaultConnection } from "../shared/connection";
import { ADDIN_BUILD, ADDIN_VERSION } from "../shared/version";
import type { Translator } from "../i18n/translator";
import { REQUIREMENT_SETS, formatHealthReport, probeServices, redact, type HealthFacts } from "./health-check";
import { currentShortcuts } from "./office";
import type { RibbonState } from "./ribbon-state";

/** Office as the check reads it: loosely, since any part may be missing in a host or a stand-in. */
interface LooseOffice {
  context?: {
    host?: unknown;
    platform?: unknown;
    diagnostics?: { version?: unknown };
    requirements?: { isSetSupported?: (name: string, version?: string) => boolean };
  };
}

/** The formula the check evaluates: a point search the emulator and the service both answer. */
export const CHECK_FORMULA = '=RISK.SEARCH(51.5, -0.12, "floods", "30yr")';

/** What the check needs from the page. */
export interface HealthCheckOptions {
  /** Excel.run, or null outside Excel. */
  run: ExcelRunner | null;
  /** Also evaluate a RISK formula in a scratch sheet (added and removed again). */
  evaluateFormula: boolean;
  /** The ribbon's state (contextual buttons, last update problem). */
  ribbon: RibbonState;
  /** Action ids this page associated. */
  associatedCommands: readonly string[];
  fetch?: typeof fetch;
  /** The pane's language, for the report's title and headings (default English). */
  i18n?: Translator;
}

function office(): LooseOffice | undefined {
  return (globalThis as { Office?: LooseOffice }).Office;
}

function setPresent(name: string, version: string): boolean | null {
  const check = office()?.context?.requirements?.isSetSupported;
  if (typeof check !== "function") return null;
  try {
    return check.call(office()!.context!.requirements, name, version);
  } catch {
    return null;
  }
}

/**
 * The RISK functions associated in this page: office.js keeps each `CustomFunctions.associate` in
 * `CustomFunctions._association.mappings` (not a documented API: read only to report it, and
 * "this page cannot tell" where it is absent).
 */
function associatedFunctions(): string[] | null {
  const runtime = (globalThis as { CustomFunctions?: { _association?: { mappings?: Record<string, unknown> } } })
    .CustomFunctions;
  const mappings = runtime?._association?.mappings;
  return mappings && typeof mappings === "object" ? Object.keys(mappings).sort() : null;
}

/** The function ids functions.json (next to this page) declares, or null when it cannot be read. */
async function declaredFunctions(fetchImpl: typeof fetch): Promise<string[] | null> {
  try {
    const base = typeof location !== "undefined" ? location.href : undefined;
    if (!base) return null;
    const response = await fetchImpl(new URL("functions.json", base).toString());
    if (!response.ok) return null;
    const metadata = (await response.json()) as { functions?: { id?: string }[] };
    return (metadata.functions ?? []).map((f) => String(f.id)).sort();
  } catch {
    return null;
  }
}

/** Writes, reads back and removes a probe item in the add-in's persistent store. */
async function storageCheck(): Promise<HealthFacts["storage"]> {
  const where =
    (globalThis as { OfficeRuntime?: { storage?: unknown } }).OfficeRuntime?.storage !== undefined
      ? "OfficeRuntime.storage"
      : typeof (globalThis as { localStorage?: unknown }).localStorage !== "undefined"
        ? "the browser's localStorage"
        : "memory only: forgotten when Excel closes";
  const storage = defaultKeyValueStorage();
  const key = "climate-risk.check";
  const value = String(Date.now());
  try {
    await storage.setItem(key, value);
    const back = await storage.getItem(key);
    await storage.removeItem(key);
    return back === value
      ? { writable: true, where }
      : { writable: false, where, detail: "an item written could not be read back" };
  } catch (error) {
    return { writable: false, where, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** Evaluates {@link CHECK_FORMULA} in a scratch sheet, when asked. */
async function formulaCheck(run: ExcelRunner | null): Promise<HealthFacts["formula"]> {
  if (!run) return { ok: false, detail: "no workbook in this page" };
  try {
    const { value, settled } = await run((context) => evaluateInScratchSheet(context, CHECK_FORMULA));
    const shown = String(value);
    if (!settled)
      return { ok: false, detail: `${CHECK_FORMULA} still showed ${shown} after 20 s (see "#BUSY! that stays")` };
    if (shown === "#NAME?")
      return { ok: false, detail: `${CHECK_FORMULA} shows #NAME?: Excel has not loaded the RISK functions` };
    if (shown.startsWith("#")) return { ok: false, detail: `${CHECK_FORMULA} shows ${shown}` };
    return { ok: true, detail: `${CHECK_FORMULA} = ${shown} (scratch sheet removed)` };
  } catch (error) {
    return {
      ok: false,
      detail: `the scratch sheet could not be used: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** What the check found: the report, and what to show above it. */
export interface HealthCheckResult {
  /** The whole report as copyable text, without the key. */
  report: string;
  /**
   * One line per service URL that gave no answer, saying why as far as the browser tells (CORS, or
   * cannot reach it, or the time limit): the pane shows these above the report.
   */
  unanswered: string[];
}

/** Gathers the facts and returns the report as copyable text, without the key. */
export async function runHealthCheck(options: HealthCheckOptions): Promise<HealthCheckResult> {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const connection = getConnection();
  const context = office()?.context;
  const platform = String(context?.platform ?? "unknown (no Office host)");
  const engine = defaultEngine();
  const [declared, storage, services, shortcuts, usage, formula] = await Promise.all([
    declaredFunctions(fetchImpl),
    storageCheck(),
    connection.baseUrl ? probeServices(connection, { fetch: options.fetch }) : Promise.resolve([]),
    currentShortcuts(platform === "Mac"),
    engine.persistentUsage().catch(() => undefined),
    options.evaluateFormula ? formulaCheck(options.run) : Promise.resolve(undefined),
  ]);
  const facts: HealthFacts = {
    version: ADDIN_VERSION,
    build: ADDIN_BUILD,
    host: `${String(context?.host ?? "no Office host (a plain browser)")}${context?.diagnostics?.version ? ` ${String(context.diagnostics.version)}` : ""}`,
    platform,
    sets: REQUIREMENT_SETS.map((set) => ({ ...set, present: setPresent(set.name, set.version) })),
    declaredFunctions: declared,
    associatedFunctions: associatedFunctions(),
    associatedCommands: [...options.associatedCommands],
    ribbon: { contextual: options.ribbon.supported, problem: options.ribbon.lastError },
    shortcuts: { source: shortcuts.source, keys: { ...shortcuts.keys } as Record<string, string | null> },
    formula,
    storage,
    connection: {
      baseUrl: connection.baseUrl,
      natureUrl: connection.natureUrl,
      project: connection.project,
      keySet: connection.apiKey !== "",
      isDefault: isDefaultConnection(),
    },
    services,
    cache: {
      memoryEntries: engine.stats().cacheEntries,
      persistentEntries: usage?.entries ?? null,
      persistentChars: usage?.chars ?? null,
      staleCells: engine.staleCells.list().length,
    },
    checkedAt: new Date().toISOString(),
  };
  const unanswered = services
    .filter((probe) => probe.status === null)
    .map((probe) => redact(`${probe.name} (${probe.url}): ${probe.error ?? "no answer"}`, [connection.apiKey]));
  return { report: formatHealthReport(facts, [connection.apiKey], options.i18n), unanswered };
}
