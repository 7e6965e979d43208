/**
 * Names for new sheets and tables. Excel rejects sheet names over 31 characters, with any of
 * [ ] : * ? / \, blank, or starting/ending with an apostrophe; a new sheet must never take the
 * name of an existing one (compared case-insensitively, as Excel does).
 */

/** Excel's maximum sheet-name length. */
export const MAX_SHEET_NAME_LENGTH = 31;

/** Turn any text into a name Excel accepts for a sheet (not yet unique). */
export function makeValidSheetName(desired: string): string {
  let name = desired
    .replace(/[[\]:*?/\\]/g, "_")
    // eslint-disable-next-line no-control-regex -- Excel refuses control characters in sheet names
    .replace(/[\u0000-\u001f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  name = name.replace(/^'+|'+$/g, "").trim();
  name = truncate(name, MAX_SHEET_NAME_LENGTH).replace(/'+$/, "").trim();
  if (name === "") name = "Sheet";
  if (name.toLowerCase() === "history") name = "History_";
  return name;
}

/** Cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

/**
 * A valid sheet name not among `existing`: "Results", then "Results (2)", "Results (3)"...
 * shortening the base so the whole name stays within 31 characters.
 */
export function uniqueSheetName(desired: string, existing: readonly string[]): string {
  const base = makeValidSheetName(desired);
  const used = new Set(existing.map((n) => n.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate =
      truncate(base, MAX_SHEET_NAME_LENGTH - suffix.length)
        .replace(/'+$/, "")
        .trimEnd() + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * A valid, unused Excel table name: starts with a letter or "_", then letters, digits, "_" or
 * "."; not a cell reference ("A1", "R1C1"); unique across the workbook (case-insensitive).
 */
export function uniqueTableName(desired: string, existing: readonly string[]): string {
  let base = desired
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_.]+/g, "_");
  if (/^[_.]*$/.test(base)) base = "Table";
  if (
    !/^[A-Za-z_]/.test(base) ||
    /^[A-Za-z]{1,3}\d+$/.test(base) ||
    /^[RrCc]$/.test(base) ||
    /^[Rr]\d*[Cc]\d*$/.test(base)
  )
    base = `T_${base}`;
  base = base.slice(0, 200);
  const used = new Set(existing.map((n) => n.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
