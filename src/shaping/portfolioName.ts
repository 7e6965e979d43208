/**
 * Portfolio names: letters, digits, "_" and "-" only, no spaces (field notes). The task pane
 * checks a typed name and suggests one from the sheet or table the assets come from.
 */

const VALID = /^[A-Za-z0-9_-]+$/;

/** Longest name we suggest; the service documents no limit, this keeps names readable. */
export const SUGGESTED_NAME_MAX_LENGTH = 64;

/** Why a portfolio name is not acceptable, or null when it is. */
export function portfolioNameProblem(name: string): string | null {
  if (name.length === 0) return "Enter a portfolio name.";
  if (/\s/.test(name)) return `Portfolio name "${name}" has spaces: use letters, digits, _ and - only.`;
  const bad = [...new Set([...name].filter((ch) => !/[A-Za-z0-9_-]/.test(ch)))];
  if (bad.length > 0) {
    return `Portfolio name "${name}" has ${bad.map((c) => `"${c}"`).join(", ")}: use letters A-Z, digits, _ and - only.`;
  }
  return null;
}

/** Whether a name follows the service's rule. */
export function isValidPortfolioName(name: string): boolean {
  return VALID.test(name);
}

/**
 * A valid portfolio name from a sheet or table name: accents dropped ("Münster" → "Munster"),
 * spaces and punctuation become "_", and " 2", " 3"... is appended (as "_2") when the name is
 * taken (case-insensitive). Falls back to "portfolio" when nothing usable is left.
 */
export function suggestPortfolioName(source: string, taken: readonly string[] = []): string {
  let base = source
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
  if (base === "") base = "portfolio";
  base = base.slice(0, SUGGESTED_NAME_MAX_LENGTH);
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = base.slice(0, SUGGESTED_NAME_MAX_LENGTH - suffix.length) + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
