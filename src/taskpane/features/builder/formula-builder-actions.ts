import type { RiskClient } from "../../../api/client";
import { readReferencedValues, writeFormulaColumn } from "../../../excel/cells-by-address";
import { readSelectedArea, type SelectedArea } from "../../../excel/selection";
import * as functions from "../../../functions/functions";
import type { Invocation } from "../../../functions/formulas/run";
import { columnLetters, parseA1, quoteSheetName } from "../../../shaping/a1";
import type { CellValue } from "../../../shaping/types";
import type { ExcelRunner } from "../../ui/pane-types";
import { message, type Message, type MessageId } from "../../../i18n/messages";
import {
  FIXED_VOCABULARIES,
  FUNCTION_SPECS,
  type FunctionSpec,
  type RiskFunctionName,
  type Vocabulary,
} from "../../../functions/specs";

/**
 * The formula builder's logic, without React: which functions and parameters there are, which
 * list each parameter takes its choices from, how the formula text is built (values quoted,
 * cell references not, trailing empty optionals dropped), the column and fill-down forms for
 * several rows, and writing the result into the selection.
 */

/** Where a parameter's choices come from: its vocabulary in the function's spec (src/functions/specs.ts). */
export type ParamKind = Vocabulary;

/** One parameter of a function, in order. */
export interface ParamSpec {
  name: string;
  /** What the pane calls it (`builder.fn.param.*`). */
  label: Message;
  kind: ParamKind;
  optional?: boolean;
}

/** The functions the builder offers, in the order its list shows them. */
const OFFERED = [
  "SUMMARY",
  "METRIC",
  "TIMESERIES",
  "SEARCH",
  "LAYER",
  "NATURE",
  "ASSETS",
  "PORTFOLIOS",
  "PROJECTS",
] as const satisfies readonly RiskFunctionName[];

/** A function the builder offers. */
export type BuilderFunction = (typeof OFFERED)[number];

/** A function's entry in the builder's list: what the list says, and its fields from the function's spec. */
function builderEntry(spec: FunctionSpec & { name: BuilderFunction }): {
  label: Message;
  params: readonly ParamSpec[];
} {
  // The specs name labels by id (src/functions/specs.ts bundles no pane words); the template types
  // make a label or function without its catalog key a type error.
  const gives: MessageId = `builder.fn.gives.${spec.name}`;
  return {
    label: message("builder.fn.entry", { name: spec.name, gives: message(gives), spills: String(spec.spills) }),
    params: spec.parameters.map((p) => ({
      name: p.name,
      label: message(`builder.fn.param.${p.label}` satisfies MessageId),
      kind: p.vocabulary,
      ...(p.optional ? { optional: true } : {}),
    })),
  };
}

/** The functions the builder offers, with their fields. */
export const BUILDER_FUNCTIONS = Object.fromEntries(
  OFFERED.map((name) => [name, builderEntry(FUNCTION_SPECS[name])]),
) as Record<BuilderFunction, { label: Message; params: readonly ParamSpec[] }>;

/** Fixed choices, as the builder writes them. Lists from the service are loaded by {@link loadChoices}. */
export const FIXED_CHOICES: Partial<Record<ParamKind, readonly string[]>> = Object.fromEntries(
  Object.entries(FIXED_VOCABULARIES).map(([kind, list]) => [kind, list.map(String)]),
);

/** A parameter's value: chosen from a list / typed, or a reference to a cell or column. */
export type ParamValue = { kind: "value"; value: string } | { kind: "cell"; address: string };

/** A parameter whose value is a number (written without quotes). */
const NUMERIC: ReadonlySet<ParamKind> = new Set(["asset", "window", "number"]);

/** Quotes text for a formula: "a ""b""". */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** One argument's text, or "" for an empty optional. */
function argument(spec: ParamSpec, value: ParamValue | undefined): string {
  if (!value) return "";
  if (value.kind === "cell") return value.address;
  const text = value.value.trim();
  if (text === "") return "";
  if (NUMERIC.has(spec.kind) && Number.isFinite(Number(text))) return String(Number(text));
  return quoted(text);
}

/** The formula text, e.g. `=RISK.SUMMARY("demo-portfolio",0,"heatwave")`; trailing empty optionals left out. */
export function buildFormula(fn: BuilderFunction, values: Record<string, ParamValue | undefined>): string {
  const params = BUILDER_FUNCTIONS[fn].params;
  const args = params.map((p) => argument(p, values[p.name]));
  while (args.length > 0 && args[args.length - 1] === "" && params[args.length - 1].optional) args.pop();
  return `=RISK.${fn}(${args.join(",")})`;
}

/** What keeps a choice from being a formula that can work, by parameter; empty when it can. */
export function problemsOf(fn: BuilderFunction, values: Record<string, ParamValue | undefined>): Message[] {
  const problems: Message[] = [];
  for (const p of BUILDER_FUNCTIONS[fn].params) {
    const value = values[p.name];
    const empty = !value || (value.kind === "value" && value.value.trim() === "");
    if (empty && !p.optional) {
      const what = p.kind === "portfolio" || p.kind === "asset" ? p.kind : "other";
      problems.push(message("builder.fn.problem.empty", { label: p.label, what }));
      continue;
    }
    if (value?.kind === "value" && value.value.trim() !== "") {
      const fixed = FIXED_CHOICES[p.kind];
      if (fixed && !fixed.includes(value.value))
        problems.push(
          message("builder.fn.problem.notOneOf", { label: p.label, value: value.value, choices: fixed.join(", ") }),
        );
      if (NUMERIC.has(p.kind) && !Number.isFinite(Number(value.value)))
        problems.push(message("builder.fn.problem.notNumber", { label: p.label, value: value.value }));
      const limit = p.name === "lat" ? 90 : p.name === "lng" ? 180 : undefined;
      if (limit !== undefined && Math.abs(Number(value.value)) > limit)
        problems.push(message("builder.fn.problem.range", { label: p.label, limit }));
    }
  }
  return problems;
}

/** The selection: sheet, 0-based top-left, size (see {@link referenceTo} for its address in a formula). */
export type Selection = SelectedArea;

/** Reads the current selection's place and size (for "use the selected cell" and for Insert). */
export async function readSelection(run: ExcelRunner): Promise<Selection> {
  return run(readSelectedArea);
}

/** A selection as a reference for a formula written on `onSheet`: "B2", "B2:B20", or "'Sites'!B2". */
export function referenceTo(selection: Selection, onSheet?: string): string {
  const first = `${columnLetters(selection.column)}${selection.row + 1}`;
  const local =
    selection.rows === 1 && selection.columns === 1
      ? first
      : `${first}:${columnLetters(selection.column + selection.columns - 1)}${selection.row + selection.rows}`;
  return onSheet === selection.sheetName ? local : `${quoteSheetName(selection.sheetName)}!${local}`;
}

/** How Insert writes into a selection of several rows. */
export type MultiRowMode = "column" | "fill";

/**
 * The formulas to write, top to bottom from the target's first cell: one cell → the formula;
 * several rows in "column" form → one formula in the top cell whose single-cell references become
 * columns as tall as the target (RISK functions given a column spill one answer per row, filling
 * the rows below); in "fill" form → one formula per row, single-cell references moved down row by
 * row (relative references, as Excel's fill down does).
 */
export function formulasFor(
  fn: BuilderFunction,
  values: Record<string, ParamValue | undefined>,
  target: Pick<Selection, "rows">,
  mode: MultiRowMode,
): string[] {
  const rows = target.rows;
  const relocated = (shift: (ref: { sheet?: string; row: number; col: number }) => string) => {
    const out: Record<string, ParamValue | undefined> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value?.kind !== "cell") {
        out[name] = value;
        continue;
      }
      const ref = parseA1(value.address);
      out[name] = ref.rows === 1 && ref.cols === 1 ? { kind: "cell", address: shift(ref) } : value;
    }
    return out;
  };
  const withSheet = (sheet: string | undefined, local: string) => (sheet ? `${quoteSheetName(sheet)}!${local}` : local);
  if (rows === 1) return [buildFormula(fn, values)];
  if (mode === "column")
    return [
      buildFormula(
        fn,
        relocated((ref) =>
          withSheet(ref.sheet, `${columnLetters(ref.col)}${ref.row + 1}:${columnLetters(ref.col)}${ref.row + rows}`),
        ),
      ),
    ];
  return Array.from({ length: rows }, (_, i) =>
    buildFormula(
      fn,
      relocated((ref) => withSheet(ref.sheet, `${columnLetters(ref.col)}${ref.row + 1 + i}`)),
    ),
  );
}

/**
 * Writes `formulas` down the first column of the selection. Refuses, changing nothing, when any
 * cell of that column in the selection holds data (or would be spilled over), so nothing of the
 * user's is lost, or when `spills` (the column form) and the selection is in an Excel table, where
 * Excel cannot spill. Returns the address written.
 */
export async function insertFormulas(
  run: ExcelRunner,
  target: Selection,
  formulas: readonly string[],
  options: { spills?: boolean } = {},
): Promise<string> {
  if (formulas.length === 0 || formulas.some((f) => !f.trim().startsWith("=")))
    throw new Error("The formula must start with “=”. Nothing was written.");
  const trimmed = formulas.map((f) => f.trim());
  return run((context) => writeFormulaColumn(context, target, trimmed, options));
}

/** A choice of a list: what is written, and what the person sees. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * The choices of a service-backed parameter, given what is chosen so far (portfolio, hazard,
 * scenario, asset, sub-project). Fixed lists come from {@link FIXED_CHOICES}.
 */
export async function loadChoices(
  client: RiskClient,
  kind: ParamKind,
  chosen: Record<string, string>,
  signal?: AbortSignal,
): Promise<Choice[]> {
  const fixed = FIXED_CHOICES[kind];
  if (fixed) return fixed.map((v) => ({ value: v, label: v }));
  const portfolio = chosen.portfolio ?? "";
  switch (kind) {
    case "portfolio":
      return (await client.portfolios.list({ signal })).map((p) => ({
        value: p.portfolio_name,
        label: p.portfolio_name,
      }));
    case "asset":
      if (!portfolio) return [];
      return (await client.portfolios.assets(portfolio).all({ signal })).map((a) => ({
        value: String(a.portfolio_index),
        label: `${a.entity_name || a.entity_id || "asset"} (#${a.portfolio_index})`,
      }));
    case "indicator": {
      if (!portfolio) return [];
      const meta = await client.datasets.metadata(portfolio, { signal });
      return [
        ...new Set(meta.indicators.filter((i) => !chosen.hazard || i.hazard === chosen.hazard).map((i) => i.indicator)),
      ].map((v) => ({ value: v, label: v }));
    }
    case "metric": {
      if (!portfolio || !chosen.scenario || !chosen.hazard) return [];
      const items = await client.datasets.extendedSummary(portfolio, { scenario: chosen.scenario }).all({ signal });
      const names = new Set<string>();
      for (const item of items) {
        if (chosen.index && String(item.portfolio_index) !== chosen.index) continue;
        for (const m of Object.keys(item.scenario_analytics?.[chosen.scenario]?.[chosen.hazard] ?? {})) names.add(m);
      }
      return [...names].sort().map((v) => ({ value: v, label: v }));
    }
    case "vector":
      return (await client.compositions.listVectors({ signal })).map((v) => ({
        value: String(v.id),
        label: `${v.name} (${v.id})`,
      }));
    case "subproject": {
      const supers = await client.nature.superprojects({ signal });
      const lists = await Promise.all(supers.map((s) => client.nature.subprojects(s, { signal })));
      return lists.flat().map((s) => ({ value: s.name, label: `${s.name} (${s.project})` }));
    }
    case "nature-metric": {
      if (!chosen.subproject) return [];
      const supers = await client.nature.superprojects({ signal });
      const all = (await Promise.all(supers.map((s) => client.nature.subprojects(s, { signal })))).flat();
      const found = all.find((s) => s.name === chosen.subproject || s.id === chosen.subproject);
      if (!found) return [];
      const exported = await client.nature.exportSubproject(found.id, { signal });
      return Object.keys(exported.summary ?? {}).map((v) => ({ value: v, label: v }));
    }
    default:
      return []; // free text (numbers, a layer's column)
  }
}

/** What the formula gives now: a value, a spilled table's size and top-left value, or the error a cell would show. */
export interface Preview {
  value?: CellValue;
  rows?: number;
  columns?: number;
  error?: string;
}

/**
 * Evaluates the chosen function as its cell would, now: the same functions and engine (and cache)
 * the workbook uses. A referenced cell is read from the workbook (its first cell for a column).
 */
export async function previewFormula(
  run: ExcelRunner | null,
  fn: BuilderFunction,
  values: Record<string, ParamValue | undefined>,
): Promise<Preview> {
  const params = BUILDER_FUNCTIONS[fn].params;
  const args: unknown[] = [];
  for (const p of params) {
    const value = values[p.name];
    if (!value) args.push(null);
    else if (value.kind === "value")
      args.push(
        value.value.trim() === ""
          ? null
          : NUMERIC.has(p.kind) && Number.isFinite(Number(value.value))
            ? Number(value.value)
            : value.value,
      );
    else {
      if (!run) return { error: "No workbook: a cell reference cannot be read here." };
      const address = value.address;
      args.push(await run(async (context) => (await readReferencedValues(context, [address])).get(address)));
    }
  }
  const call = (functions as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[fn.toLowerCase()];
  try {
    // A preview is never cancelled: the invocation Excel would pass, without a cell.
    const invocation: Invocation = {};
    const result = await call(...args, invocation);
    if (Array.isArray(result)) {
      const grid = result as CellValue[][];
      return { value: grid[0]?.[0] ?? "", rows: grid.length, columns: grid[0]?.length ?? 0 };
    }
    return { value: result as CellValue };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { error: `${e.code && e.code.startsWith("#") ? e.code : "#N/A"} ${e.message ?? String(error)}`.trim() };
  }
}
