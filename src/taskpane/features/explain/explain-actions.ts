/**
 * "Why is this number what it is": for the selected RISK cell, or a score in a
 * pasted summary sheet, the hazard and indicator behind it, its unit, the LOW/MEDIUM/HIGH
 * thresholds and where the value sits, the window a horizon score is the maximum over, the bounds
 * where the service gives them, the scenario and the dataset version. Every sentence comes from
 * the service's own notes on what its numbers mean (docs/service.md#what-the-numbers-mean; the texts cite
 * them as "service notes"), the thresholds of src/shared/vocabulary.ts (the one copy of that table)
 * or the dataset metadata the service returns; nothing is made up.
 *
 * A cell a RISK formula spilled into is explained as itself: its row of a column form (the row's
 * own arguments, paired as the functions pair them, and its own value), or its hazard and column
 * of RISK.SEARCH's all-hazards table, or, for that table's header, what the column holds.
 */
import type { RiskClient } from "../../../api/client";
import { readReferencedValues } from "../../../excel/cells-by-address";
import { readSelectedCell, type SpillParent } from "../../../excel/selection";
import type { DatasetMetadata, HazardMetrics } from "../../../api/types";
import {
  EXTENDED_HAZARDS,
  HAZARDS,
  labelOfScore,
  lookupHazard,
  scenarioRepeatOf,
  type HazardNames,
} from "../../../shared/vocabulary";
import type { ArgumentValue } from "../../../functions/arguments";
import { pairedIndex } from "../../../functions/columns";
import { defaultText, scoreCall, type ScoreFunction } from "../../../functions/formula-facts";
import { SEARCH_TABLE_HEADER } from "../../../functions/formulas/search";
import {
  FUNCTION_SPECS,
  IMPACT_BOUNDS,
  argumentsByName,
  parameterNames,
  structuralDamageMetric,
  type ImpactBound,
} from "../../../functions/specs";
import type { ExcelRunner } from "../../ui/pane-types";
import { message, type Message, type MessageId } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** One line of an explanation: `key` names it for tests (`hazard`, `thresholds`, …). */
export interface ExplainLine {
  key:
    | "spill"
    | "arguments"
    | "column"
    | "hazard"
    | "indicator"
    | "unit"
    | "thresholds"
    | "position"
    | "window"
    | "bounds"
    | "scenario"
    | "dataset"
    | "note";
  /** The line's term ("Hazard", "Unit"), in the pane's language. */
  label: MessageId;
  text: Message;
}

/** What the pane shows for a cell. */
export interface Explanation {
  address: string;
  value: ArgumentValue;
  /** What the value is: the formula, or the pasted column and sheet. */
  source: Message;
  lines: ExplainLine[];
}

/** The selected cell cannot be explained; the message says why and what to select. */
export class ExplainError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "ExplainError";
  }
}

/** "=RISK.SEARCH(…) in B2": a formula and where it is (the selected cell's sheet). */
const formulaSource = (formula: string, address: string) =>
  message("explain.source.formula", { formula, address: localAddress(address) });

/** What a cell asks for, read from its formula or its pasted column. */
interface Question {
  kind: "search" | "summary" | "metric";
  hazard: HazardNames;
  portfolio?: string;
  entity?: ArgumentValue;
  scenario?: string;
  /** Window in years (summary) or horizon (search). */
  window?: number;
  metric?: string;
  source: Message;
}

/** A horizon score is the maximum over its window, counted from 2025 (docs/service.md#what-the-numbers-mean). */
const WINDOW_START = 2025;

/**
 * Reads the selected cell (the top-left of the selection) and explains it: a RISK formula's own
 * cell, a cell a RISK formula spilled into, or a score in a pasted summary sheet.
 */
export async function explainSelection(options: {
  client: RiskClient;
  run: ExcelRunner;
  signal?: AbortSignal;
}): Promise<Explanation> {
  const { run } = options;
  const read = await run(async (context) => {
    const cell = await readSelectedCell(context);
    const parent = typeof cell.spillParent === "object" && cell.spillParent !== null ? cell.spillParent : undefined;
    const call = scoreCall(parent?.formula ?? cell.formula);
    // Argument references are read from the workbook: the cell the selected element pairs with, as
    // the functions pair ranges (src/functions/columns.ts: a single value, or a one-row range, pairs
    // with every row); for the formula's own cell, the first cell of a range.
    const args = call?.args ?? [];
    // What is not a literal refers to cells: a cell, a range or a defined name, read from the workbook.
    const isReference = (arg: string) => literalArgument(arg) === undefined;
    const element = parent ?? { row: 0, column: 0 };
    let single = true; // every argument one value: the call spills only RISK.SEARCH's all-hazards table
    const referenced = await readReferencedValues(
      context,
      args.filter(isReference),
      cell.sheetName,
      (rows, columns) => {
        if (rows > 1 || columns > 1) single = false;
        return { row: pairedIndex(rows, element.row), column: pairedIndex(columns, element.column) };
      },
    );
    const values = args.map((arg): ArgumentValue => {
      const literal = literalArgument(arg);
      return literal ? literal.value : referenced.get(arg);
    });
    return { ...cell, parent, single, fn: call?.fn, args: values };
  });
  if (!read.fn) {
    try {
      const question = fromPasted(read.header, read.row, read.column, read.sheetName);
      return await explain(options.client, read.address, read.value, question, [], options.signal);
    } catch (error) {
      // Not a pasted score either: where this Excel cannot find a spill's formula, say what to select.
      if (read.spillParent !== "unknown" || !(error instanceof ExplainError)) throw error;
      throw new ExplainError(message("explain.error.noSpillFormula", { address: read.address }));
    }
  }
  const formula = read.parent?.formula ?? read.formula;
  const at = read.parent ?? { address: read.address, formula, row: 0, column: 0 };
  if (read.fn === "SEARCH" && read.single && text(argumentsByName(FUNCTION_SPECS.SEARCH, read.args).hazard) === "")
    return explainSearchTable(options.client, read.address, read.value, read.args, at, options.signal);
  const lead: ExplainLine[] = [];
  let source = message("explain.source.formulaOnly", { formula });
  if (read.parent) {
    source = formulaSource(formula, read.parent.address);
    lead.push(
      {
        key: "spill",
        label: "explain.label.cell",
        text: message("explain.spill", {
          address: read.address,
          row: read.parent.row + 1,
          column: read.parent.column > 0 ? String(read.parent.column + 1) : "none",
          formula,
          anchor: localAddress(read.parent.address),
        }),
      },
      { key: "arguments", label: "explain.label.arguments", text: namedArguments(read.fn, read.args) },
    );
  }
  const question = { ...fromFormula(read.fn, read.args), source };
  return explain(options.client, read.address, read.value, question, lead, options.signal);
}

/** "Sheet1!B2" → "B2": the anchor is on the selected cell's sheet. */
function localAddress(address: string): string {
  return address.slice(address.lastIndexOf("!") + 1);
}

/** "lat 51.5, lng -0.12, hazard floods, horizon 30yr": the arguments given, by parameter name (no words). */
function namedArguments(fn: ScoreFunction, args: ArgumentValue[]): Message {
  const names: readonly string[] = parameterNames(FUNCTION_SPECS[fn]);
  const list = args
    .map((value, i) => (text(value) === "" ? "" : `${names[i] ?? `#${i + 1}`} ${text(value)}`))
    .filter((part) => part !== "")
    .join(", ");
  return message("explain.arguments.named", { list });
}

/** The years a window spans from the dataset's start ("2025", "2054"), as text: years take no group separator. */
function windowYears(years: number): { years: number; from: string; to: string } {
  return { years, from: String(WINDOW_START), to: String(WINDOW_START + years - 1) };
}

/** What each column of RISK.SEARCH's all-hazards table holds (SEARCH_TABLE_HEADER), for its header cell. */
function searchTableColumn(name: string): Message {
  const years = Number(/_(\d+)yr$/.exec(name)?.[1]);
  if (name.startsWith("score_")) return message("explain.column.score", windowYears(years));
  if (name.startsWith("label_")) return message("explain.column.label", { years });
  return message("explain.column.hazard");
}

/**
 * A cell of RISK.SEARCH's all-hazards table (an empty hazard): a header row, then one row per hazard
 * in the order of HAZARDS, with its score and label at 15 and 30 years (SEARCH_TABLE_HEADER). A
 * header cell explains its column; any other cell, its row's hazard at its column's horizon.
 */
async function explainSearchTable(
  client: RiskClient,
  address: string,
  value: ArgumentValue,
  args: ArgumentValue[],
  at: SpillParent,
  signal?: AbortSignal,
): Promise<Explanation> {
  const source = formulaSource(at.formula, at.address);
  const table = { address, formula: at.formula, anchor: localAddress(at.address) };
  const column = SEARCH_TABLE_HEADER[at.column];
  const hazard = at.row > 0 ? HAZARDS[at.row - 1] : undefined;
  if (!column || (at.row > 0 && !hazard)) throw new ExplainError(message("explain.error.outsideSearchTable", table));
  const search = FUNCTION_SPECS.SEARCH;
  const named = argumentsByName(search, args);
  const extent = text(named.extent).toLowerCase() || defaultText(search, "extent");
  const point = message("explain.arguments.search", { lat: text(named.lat), lng: text(named.lng), extent });
  if (!hazard) {
    return {
      address,
      value,
      source,
      lines: [
        {
          key: "spill",
          label: "explain.label.cell",
          text: message("explain.spill.searchHeader", { ...table, column }),
        },
        { key: "column", label: "explain.label.column", text: searchTableColumn(column) },
        { key: "arguments", label: "explain.label.arguments", text: point },
      ],
    };
  }
  const lead: ExplainLine[] = [
    {
      key: "spill",
      label: "explain.label.cell",
      text: message("explain.spill.searchRow", { ...table, hazard: hazard.search, column }),
    },
    { key: "arguments", label: "explain.label.arguments", text: point },
  ];
  const years = Number(/_(\d+)yr$/.exec(column)?.[1]) || undefined;
  return explain(client, address, value, { kind: "search", hazard, window: years, source }, lead, signal);
}

function text(value: ArgumentValue): string {
  return value === null || value === undefined ? "" : String(value).trim();
}

/** The hazard `name` names; `column` is the pasted column it was read from (none: the formula). */
function needHazard(name: ArgumentValue, column?: string): HazardNames {
  const hazard = lookupHazard(text(name));
  if (!hazard)
    throw new ExplainError(message("explain.error.unknownHazard", { column: column ?? "none", name: text(name) }));
  return hazard;
}

/** What a RISK formula (one hazard) asks, from the arguments of the selected cell's own element. */
function fromFormula(fn: ScoreFunction, args: ArgumentValue[]): Omit<Question, "source"> {
  const spec = FUNCTION_SPECS[fn];
  const arg = argumentsByName(spec, args);
  const hazard = needHazard(arg.hazard!);
  // The portfolio functions name one asset's hazard alike.
  const asset = { hazard, portfolio: text(arg.portfolio), entity: arg.index };
  switch (fn) {
    case "SEARCH":
      return { kind: "search", hazard, window: Number(text(arg.horizon).replace(/yr$/i, "")) };
    case "SUMMARY":
      return {
        kind: "summary",
        ...asset,
        scenario: text(arg.scenario).toLowerCase() || defaultText(spec, "scenario"),
        window: Number(text(arg.window).replace(/yr$/i, "")) || Number(defaultText(spec, "window")),
      };
    case "METRIC":
      return {
        kind: "metric",
        ...asset,
        scenario: text(arg.scenario).toLowerCase(),
        metric: text(arg.metric).toLowerCase(),
      };
    default: {
      // IMPACT: the structural damage of a period (and bound; anything else reads as the central value).
      const bound = text(arg.bound).toLowerCase();
      const which = IMPACT_BOUNDS.find((b): b is ImpactBound => b === bound) ?? "central";
      return {
        kind: "metric",
        ...asset,
        scenario: text(arg.scenario).toLowerCase(),
        metric: structuralDamageMetric(text(arg.period), which),
      };
    }
  }
}

/**
 * A score in a pasted summary sheet: the column header names the hazard and what it holds; the
 * row, the asset and scenario.
 */
function fromPasted(header: string[], row: ArgumentValue[], column: number, sheetName: string): Question {
  const name = header[column] ?? "";
  const at = (key: string) => row[header.indexOf(key)];
  const place = { column: name || "none", sheet: sheetName };
  const source = message("explain.source.column", place);
  const portfolio = (/^(?:Summary|Extended \w+) (.+)$/.exec(sheetName)?.[1] ?? "").replace(/ \(\d+\)$/, "");
  const summary = /^(.+)_risk_(?:score|class)$/.exec(name);
  if (summary) {
    return {
      kind: "summary",
      hazard: needHazard(summary[1]!, name),
      portfolio,
      entity: at("entity_id") || at("portfolio_index"),
      scenario: text(at("scenario")),
      window: Number(at("window")) || 30,
      source,
    };
  }
  for (const hazard of EXTENDED_HAZARDS) {
    if (name.startsWith(`${hazard}_`)) {
      return {
        kind: "metric",
        hazard: needHazard(hazard, name),
        portfolio,
        entity: at("entity_id") || at("portfolio_index"),
        scenario: text(at("scenario")),
        metric: name.slice(hazard.length + 1),
        source,
      };
    }
  }
  throw new ExplainError(message("explain.error.notExplainable", place));
}

/** A figure to four significant digits (the message formats it with Excel's separators). */
function fmt(n: number): number {
  return Number.isInteger(n) ? n : Number(n.toPrecision(4));
}

/** A hazard's unit as an ICU select key: "days a year, 0..366" → "days_a_year_0_366". */
const unitKey = (unit: string) => unit.replace(/[^A-Za-z0-9]+/g, "_");

async function explain(
  client: RiskClient,
  address: string,
  value: ArgumentValue,
  q: Question,
  lead: readonly ExplainLine[],
  signal?: AbortSignal,
): Promise<Explanation> {
  const h = q.hazard;
  const lines: ExplainLine[] = [...lead];
  const add = (key: ExplainLine["key"], label: MessageId, line: Message) => lines.push({ key, label, text: line });
  add(
    "hazard",
    "explain.label.hazard",
    message("explain.hazard", { portfolio: h.portfolio, search: h.search, extended: h.extended }),
  );

  let metadata: DatasetMetadata | undefined;
  if (q.portfolio) metadata = await client.datasets.metadata(q.portfolio, { signal }).catch(() => undefined);
  const indicator = q.metric?.startsWith("indicator_") || q.kind !== "metric" ? h.indicators[0]! : undefined;
  const meta = metadata?.indicators.find((i) => i.hazard === h.portfolio && i.indicator === h.indicators[0]);
  if (indicator) add("indicator", "explain.label.indicator", message("explain.indicator", { indicator }));
  const scoreLike = q.kind !== "metric" || /^(indicator_|summary_score_)/.test(q.metric ?? "");
  if (scoreLike) {
    add(
      "unit",
      "explain.label.unit",
      meta
        ? message("explain.unit.metadata", {
            unit: meta.unit,
            min: String(meta.value_min),
            max: String(meta.value_max),
          })
        : message("explain.unit.notes", { unitKey: unitKey(h.unit), unit: h.unit }),
    );
    const t = h.thresholds;
    add(
      "thresholds",
      "explain.label.thresholds",
      message("explain.thresholds", { low: fmt(t.low), medium: fmt(t.medium) }),
    );
    if (typeof value === "number" && Number.isFinite(value)) {
      const label = labelOfScore(h, value);
      const search = q.kind === "search" ? "yes" : "no";
      const at = { value: fmt(value), low: fmt(t.low), medium: fmt(t.medium), search };
      const where =
        label === "LOW"
          ? message("explain.position.low", { ...at, gap: fmt(t.low - value) })
          : label === "MEDIUM"
            ? message("explain.position.medium", {
                ...at,
                percent: Math.round(((value - t.low) / (t.medium - t.low)) * 100),
              })
            : message("explain.position.high", { ...at, gap: fmt(value - t.medium) });
      add("position", "explain.label.position", where);
    } else if (typeof value === "string" && /^(LOW|MEDIUM|HIGH)$/.test(value)) {
      add("position", "explain.label.position", message("explain.position.label", { value }));
    }
  } else if (q.metric) {
    add(
      "unit",
      "explain.label.unit",
      message(q.metric.startsWith("structural_damage") ? "explain.unit.damage" : "explain.unit.interruption"),
    );
  }

  const years =
    q.kind === "metric" ? Number(/summary_(?:score|label)_(\d+)yr/.exec(q.metric ?? "")?.[1]) || undefined : q.window;
  if (years) add("window", "explain.label.window", message("explain.window", windowYears(years)));
  const period = /_(baseline|2030|2050|2080)(?:_lbd|_ubd)?$/.exec(q.metric ?? "")?.[1];
  if (period)
    add(
      "window",
      "explain.label.period",
      period === "baseline"
        ? message("explain.period.baseline")
        : message("explain.period.year", {
            period,
            from: String(Number(period) - 5),
            to: String(Number(period) + 5),
          }),
    );

  if (q.kind === "metric" && q.portfolio && q.scenario && q.metric && /_(baseline|2030|2050|2080)/.test(q.metric)) {
    const base = q.metric.replace(/_(lbd|ubd)$/, "");
    const metrics = await assetMetrics(client, q, signal);
    const lo = metrics?.[`${base}_lbd`];
    const hi = metrics?.[`${base}_ubd`];
    if (typeof lo === "number" && typeof hi === "number")
      add("bounds", "explain.label.bounds", message("explain.bounds.given", { lo: fmt(lo), hi: fmt(hi), base }));
    else add("bounds", "explain.label.bounds", message("explain.bounds.none", { base }));
  } else if (q.kind === "summary") {
    add("bounds", "explain.label.bounds", message("explain.bounds.summary"));
  }

  if (q.scenario) {
    const repeat = scenarioRepeatOf(h, q.scenario);
    // A rule of one hazard names it; a rule shared by several says "this hazard".
    add(
      "scenario",
      "explain.label.scenario",
      message("explain.scenario", {
        scenario: q.scenario,
        repeats: repeat ? "yes" : "no",
        subject: repeat?.hazards.length === 1 ? h.extended : "none",
        count: repeat?.scenarios.length ?? 0,
        first: repeat?.scenarios[0] ?? "",
        second: repeat?.scenarios[1] ?? "",
        target: repeat?.repeats ?? "",
      }),
    );
  }
  if (metadata) {
    const digest = metadata.sha256_digest ? `${metadata.sha256_digest.slice(0, 12)}…` : "none";
    add(
      "dataset",
      "explain.label.dataset",
      message("explain.dataset.version", { version: metadata.version, digest, updated: metadata.updated_at }),
    );
  } else if (q.kind === "search") {
    add("dataset", "explain.label.dataset", message("explain.dataset.search"));
  }
  return { address, value, source: q.source, lines };
}

/** The asset's metrics of one hazard in the extended summary (filtered by entity_id where the cell names one). */
async function assetMetrics(client: RiskClient, q: Question, signal?: AbortSignal): Promise<HazardMetrics | undefined> {
  const byId = typeof q.entity === "string" && q.entity.trim() !== "" && !/^\d+$/.test(q.entity.trim());
  const items = await client.datasets
    .extendedSummary(q.portfolio!, { scenario: q.scenario, ...(byId ? { entity_id: String(q.entity).trim() } : {}) })
    .all({ signal });
  const item = byId ? items[0] : items.find((i) => i.portfolio_index === Number(q.entity));
  return item?.scenario_analytics?.[q.scenario!]?.[q.hazard.extended];
}

/**
 * The value of a literal argument as a formula writes it: empty, "text", TRUE / FALSE, or anything
 * that does not start like a reference or a name (a number, or an expression kept as its text);
 * undefined for a reference or a name, whose value is in the workbook.
 */
function literalArgument(arg: string): { value: ArgumentValue } | undefined {
  if (arg === "") return { value: null };
  if (arg.startsWith('"')) return { value: arg.slice(1, -1).replace(/""/g, '"') };
  if (/^(TRUE|FALSE)$/i.test(arg)) return { value: arg.toUpperCase() === "TRUE" };
  if (/^[A-Za-z'$]/.test(arg)) return undefined;
  const n = Number(arg);
  return { value: Number.isFinite(n) ? n : arg };
}
