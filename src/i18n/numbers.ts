/**
 * Numbers as Excel shows and reads them on this machine: its decimal and group separators
 * (src/excel/culture.ts reads them from Excel; the pane formats and parses with them). Words
 * follow the display language, numbers follow Excel: a German Excel with English menus still
 * writes 1.234,5. Pure logic, no Office.
 */

/** Excel's separators: "," and "." in en-US, "," decimal and "." group in de-DE, "." and "’" in de-CH. */
export interface NumberSeparators {
  readonly decimal: string;
  readonly group: string;
}

/** en-US: what the add-in uses where Excel cannot be asked. */
export const EN_US_SEPARATORS: NumberSeparators = { decimal: ".", group: "," };

/**
 * The separators a locale's number format uses (`Intl.NumberFormat(locale)`), for the
 * `Office.context.contentLanguage` fallback where Excel's own (ExcelApi 1.11) are not available.
 */
export function separatorsOfLocale(locale: string): NumberSeparators {
  try {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    const decimal = parts.find((part) => part.type === "decimal")?.value;
    const group = parts.find((part) => part.type === "group")?.value;
    return decimal && group ? { decimal, group } : EN_US_SEPARATORS;
  } catch {
    return EN_US_SEPARATORS;
  }
}

/** `value` written with Excel's separators (digits and rounding as `options` say, en-US otherwise). */
export function formatNumber(
  value: number,
  separators: NumberSeparators,
  options: Intl.NumberFormatOptions = { maximumFractionDigits: 6 },
): string {
  return new Intl.NumberFormat("en-US", options)
    .formatToParts(value)
    .map((part) =>
      part.type === "group" ? separators.group : part.type === "decimal" ? separators.decimal : part.value,
    )
    .join("");
}

/**
 * Spaces analysts and locales put between thousands, accepted whatever Excel's group separator
 * is: space, no-break space (U+00A0, French), narrow no-break space (U+202F, French since CLDR 34),
 * and the apostrophes of Swiss German (’ U+2019, ' U+0027).
 */
const EXTRA_GROUP_SEPARATORS = [" ", "\u00a0", "\u202f", "\u2019", "'"];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A number typed in the pane, read as Excel with these separators reads it: "1.234,5" is 1234.5
 * in a German Excel and not a number in an English one (a group separator must be followed by
 * three digits, and none may follow the decimal separator). Leading/trailing spaces, a leading
 * "-", "+" or "−" (U+2212) and an exponent ("1,5E3") are accepted. Returns undefined for text
 * that is not a number; the caller says where (row, field) with the `number.invalid` message.
 */
export function parseNumber(text: string, separators: NumberSeparators): number | undefined {
  const groups = [separators.group, ...EXTRA_GROUP_SEPARATORS].filter((g) => g && g !== separators.decimal);
  const group = `(?:${[...new Set(groups)].map(escapeRegExp).join("|")})`;
  const decimal = escapeRegExp(separators.decimal);
  const pattern = new RegExp(
    `^([-+\\u2212]?)(\\d{1,3}(?:${group}\\d{3})+|\\d+)?(?:${decimal}(\\d+))?(?:[eE]([-+]?\\d+))?$`,
    "u",
  );
  const match = pattern.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction, exponent] = match;
  if (whole === undefined && fraction === undefined) return undefined;
  const digits = (whole ?? "0").replace(/\D/g, "");
  const plain = `${sign === "-" || sign === "\u2212" ? "-" : ""}${digits}${fraction ? `.${fraction}` : ""}${exponent ? `e${exponent}` : ""}`;
  const value = Number(plain);
  return Number.isFinite(value) ? value : undefined;
}
