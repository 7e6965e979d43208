import { ArgumentError } from "./formula-errors";
import type { CellMessageId } from "../i18n/cell-catalogs";
import { message } from "../i18n/messages";
import { cellLanguage } from "./cell-language";
import { catalogLanguage } from "../i18n/languages";
import { normalizeName, type HazardNames } from "../shared/vocabulary";
import { findHazard } from "./hazards";
import { HORIZONS, SCENARIOS, WINDOWS } from "../shared/vocabulary";

/**
 * Reading the arguments Excel passes. Each reader names the argument and what it allows when the
 * value does not fit (`#VALUE!`). Omitted optional arguments arrive as null or undefined; an empty
 * cell arrives as null (or "" for text), and both mean "use the default" where there is one.
 */

/**
 * What a cell can hand a custom function as an argument: may be null or undefined when omitted.
 * Not the shaping `CellValue` (src/shaping/types.ts), which is what a range holds and is never null.
 */
export type ArgumentValue = number | string | boolean | null | undefined;

/** True for an omitted argument or an empty cell. */
export function isBlank(value: ArgumentValue): value is null | undefined | "" {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * The plain value of an argument. The functions' metadata allows Excel data types in `any`
 * parameters (`allowCustomDataForDataTypeAny`, CustomFunctionsRuntime 1.4: Windows Version 2208,
 * Mac 16.64, the web), so a cell holding a formatted number or a linked data type arrives as an
 * object such as `{type: "FormattedNumber", basicValue: 30, numberFormat: "0"}`; older hosts pass
 * the basic value itself. A data type with a plain basic value is read as that value; an entity,
 * image, array or error has none (its basicValue is "#VALUE!"), so it is refused, naming it.
 */
export function plainArgument(value: unknown, name: string): ArgumentValue {
  if (value === null || typeof value !== "object") return value as ArgumentValue;
  const data = value as { type?: unknown; basicValue?: unknown; basicType?: unknown; text?: unknown };
  const basic = data.basicValue;
  const plain = typeof basic === "number" || typeof basic === "string" || typeof basic === "boolean";
  if (plain && data.type !== "Error" && data.basicType !== "Error") return basic;
  const kind = typeof data.type === "string" ? data.type : "object";
  const label =
    typeof data.text === "string" ? ` "${data.text.length > 20 ? `${data.text.slice(0, 20)}…` : data.text}"` : "";
  throw new ArgumentError(message("cell.argument.dataType", { name, kind: `${kind}${label}` }));
}

/**
 * The user's value as a message quotes it: text in straight quotes (as a formula writes it, in every
 * language), anything else as it is. Never translated: it is what the cell holds.
 */
function describe(value: ArgumentValue): string {
  if (typeof value === "string") return `"${value.length > 20 ? `${value.slice(0, 20)}…` : value}"`;
  return String(value);
}

/**
 * The `#VALUE!` of an argument that is not what `wrong` says it must be: `wrong` is a `cell.argument.*`
 * message whose `{blank, select, true {…nothing…}}` part words an empty argument.
 */
function wrongArgument(
  wrong: CellMessageId,
  value: ArgumentValue,
  values: Readonly<Record<string, string>> = {},
): ArgumentError {
  return new ArgumentError(
    message(wrong, { ...values, blank: isBlank(value) ? "true" : "false", got: isBlank(value) ? "" : describe(value) }),
  );
}

/** A number, also from text that reads as one ("51.5"); `wrong` says what it must be. */
export function readNumber(value: ArgumentValue, name: string, wrong: CellMessageId): number {
  value = plainArgument(value, name);
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  throw wrongArgument(wrong, value);
}

export function readLatitude(value: ArgumentValue): number {
  const lat = readNumber(value, "lat", "cell.argument.latitude");
  if (lat < -90 || lat > 90) throw new ArgumentError(message("cell.argument.latitudeRange", { got: lat }));
  return lat;
}

export function readLongitude(value: ArgumentValue): number {
  const lng = readNumber(value, "lng", "cell.argument.longitude");
  if (lng < -180 || lng > 180) throw new ArgumentError(message("cell.argument.longitudeRange", { got: lng }));
  return lng;
}

/** Non-empty text; numbers are read as their text (a vector id typed as 7); `wrong` says what it must be. */
export function readText(
  value: ArgumentValue,
  name: string,
  wrong: CellMessageId,
  values?: Readonly<Record<string, string>>,
): string {
  value = plainArgument(value, name);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  throw wrongArgument(wrong, value, values);
}

/** One of a few words, case-insensitive; `fallback` when blank (or required when there is none). */
export function readChoice<T extends string>(
  value: ArgumentValue,
  name: string,
  choices: readonly T[],
  fallback?: T,
): T {
  value = plainArgument(value, name);
  if (isBlank(value) && fallback !== undefined) return fallback;
  const text = typeof value === "string" || typeof value === "number" ? normalizeName(String(value)) : undefined;
  const match = choices.find((choice) => choice === text);
  if (match) return match;
  // The choices are identifiers; only the "or" between them is the language's (Intl's list format).
  const list = new Intl.ListFormat(catalogLanguage(cellLanguage()), { type: "disjunction" }).format(choices);
  throw wrongArgument("cell.argument.choice", value, { name, choices: list });
}

/** Portfolio names: letters, digits, `_` and `-` (docs/service.md#portfolios-and-assets). */
const PORTFOLIO_NAME = /^[A-Za-z0-9_-]{1,128}$/;

export function readPortfolio(value: ArgumentValue): string {
  const name = readText(value, "portfolio", "cell.argument.portfolio");
  if (!PORTFOLIO_NAME.test(name)) {
    throw new ArgumentError(message("cell.argument.portfolioName", { got: describe(name) }));
  }
  return name;
}

/** An asset's `portfolio_index`: a whole number from 0. */
export function readIndex(value: ArgumentValue): number {
  const index = readNumber(value, "index", "cell.argument.index");
  if (!Number.isInteger(index) || index < 0) {
    throw new ArgumentError(message("cell.argument.indexWhole", { got: index }));
  }
  return index;
}

/** A required hazard in any spelling; blank is a bad argument, an unknown name is #N/A. */
export function readHazard(value: ArgumentValue): HazardNames {
  const text = readText(value, "hazard", "cell.argument.hazard");
  return findHazard(text);
}

export { HORIZONS };
export type Horizon = (typeof HORIZONS)[number];

/** `15yr` or `30yr`, also written 15, 30, "15" or "30 yr". */
export function readHorizon(value: ArgumentValue): Horizon {
  value = plainArgument(value, "horizon");
  const text =
    typeof value === "number" ? `${value}yr` : typeof value === "string" ? value.replace(/\s+/g, "").toLowerCase() : "";
  const normalized = /^\d+$/.test(text) ? `${text}yr` : text;
  const match = HORIZONS.find((horizon) => horizon === normalized);
  if (!match) throw wrongArgument("cell.argument.horizon", value);
  return match;
}

export { SCENARIOS };
export type ScenarioId = (typeof SCENARIOS)[number];

export function readScenario(value: ArgumentValue, fallback?: ScenarioId): ScenarioId {
  return readChoice(value, "scenario", SCENARIOS, fallback);
}

/** Summary window in years: 5, 15 or 30 (also "30yr"); `fallback` when blank. */
export function readWindow(value: ArgumentValue, fallback: number): number {
  value = plainArgument(value, "window");
  if (isBlank(value)) return fallback;
  const text = typeof value === "string" ? value.replace(/\s*(yr|years?)\s*$/i, "").trim() : value;
  const years = typeof text === "number" ? text : typeof text === "string" && text !== "" ? Number(text) : NaN;
  if (!(WINDOWS as readonly number[]).includes(years)) {
    throw new ArgumentError(message("cell.argument.window", { got: describe(value) }));
  }
  return years;
}

/** A metric or column name as the data spells it (letters, digits, `_`, `:`, `.`, `-`, spaces). */
export function readName(value: ArgumentValue, name: string, example: string): string {
  const text = readText(value, name, "cell.argument.name", { name, example });
  if (text.length > 100) throw new ArgumentError(message("cell.argument.nameTooLong", { name }));
  return text;
}
