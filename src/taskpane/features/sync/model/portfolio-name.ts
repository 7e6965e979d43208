/**
 * Portfolio names: letters, digits, "_" and "-" only, no spaces, 3 to 30 characters (field
 * notes: the published client's validation). The task pane checks a typed name and suggests one
 * from the sheet or table the assets come from.
 */

import { message, type Message } from "../../../../i18n/messages";

const VALID = /^[A-Za-z0-9_-]+$/;

/** Shortest portfolio name the service accepts. */
export const PORTFOLIO_NAME_MIN_LENGTH = 3;
/** Longest portfolio name the service accepts. */
export const PORTFOLIO_NAME_MAX_LENGTH = 30;
/** Longest name we suggest: the service's limit. */
export const SUGGESTED_NAME_MAX_LENGTH = PORTFOLIO_NAME_MAX_LENGTH;

/** Why a portfolio name is not acceptable (a message the pane words), or null when it is. */
export function portfolioNameProblem(name: string): Message | null {
  if (name.length === 0) return message("sync.run.name.empty");
  if (/\s/.test(name)) return message("sync.run.name.spaces", { name });
  const bad = [...new Set([...name].filter((ch) => !/[A-Za-z0-9_-]/.test(ch)))];
  // The characters are quoted as typed, so the list is the same in every language.
  if (bad.length > 0)
    return message("sync.run.name.characters", { name, characters: bad.map((c) => `"${c}"`).join(", ") });
  if (name.length < PORTFOLIO_NAME_MIN_LENGTH || name.length > PORTFOLIO_NAME_MAX_LENGTH) {
    return message("sync.run.name.length", {
      name,
      length: name.length,
      min: PORTFOLIO_NAME_MIN_LENGTH,
      max: PORTFOLIO_NAME_MAX_LENGTH,
    });
  }
  return null;
}

/** Whether a name follows the service's rule (characters and length). */
export function isValidPortfolioName(name: string): boolean {
  return VALID.test(name) && name.length >= PORTFOLIO_NAME_MIN_LENGTH && name.length <= PORTFOLIO_NAME_MAX_LENGTH;
}

/**
 * A valid portfolio name from a sheet or table name: accents dropped ("Münster" → "Munster"),
 * spaces and punctuation become "_", at most 30 characters (a shorter than 3 gets "_portfolio"),
 * and "_2", "_3"... is appended when the name is taken (case-insensitive). Falls back to
 * "portfolio" when nothing usable is left.
 */
export function suggestPortfolioName(source: string, taken: readonly string[] = []): string {
  let base = source
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
  if (base === "") base = "portfolio";
  if (base.length < PORTFOLIO_NAME_MIN_LENGTH) base = `${base}_portfolio`; // "A1" → "A1_portfolio"
  base = base.slice(0, SUGGESTED_NAME_MAX_LENGTH).replace(/[_-]+$/, "");
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = base.slice(0, SUGGESTED_NAME_MAX_LENGTH - suffix.length) + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Names of the numbered portfolios a range over the 5,000-asset cap is split into: `name-1` …
 * `name-N`. Returns the names, or why they cannot be made (each must follow the 3-30 character rule).
 */
export function numberedPortfolioNames(base: string, parts: number): { names: string[] } | { problem: Message } {
  const names = Array.from({ length: parts }, (_, i) => `${base}-${i + 1}`);
  const long = names.find((name) => name.length > PORTFOLIO_NAME_MAX_LENGTH);
  if (long) {
    const room = PORTFOLIO_NAME_MAX_LENGTH - String(parts).length - 1;
    return {
      problem: message("sync.run.name.splitTooLong", {
        name: long,
        length: long.length,
        max: PORTFOLIO_NAME_MAX_LENGTH,
        room,
      }),
    };
  }
  for (const name of names) {
    const problem = portfolioNameProblem(name);
    if (problem) return { problem };
  }
  return { names };
}
