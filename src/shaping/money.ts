/**
 * Reading asset values as the service writes them. `label:price` is the asset's value in USD, a
 * plain number or in USD currency format with optional thousands commas: `12345.00`, `12,345.00`,
 * `$12,345.00` (the service's published user guide; its own asset example holds
 * `"$3,950,000.00"`). Nothing else is read as a number: `1.234,56` (a thousands dot or a decimal
 * comma?), `€1.2m`, `n/a` are listed with their cell or asset for the analyst to fix, never guessed.
 */
import type { CellValue } from "./types";

/** The unit of `label:price` (the service's published guide). */
export const PRICE_CURRENCY = "USD";

/** The label the service reads as the asset's value in USD. */
export const PRICE_LABEL = "price";

/** What an asset-value cell or label holds. */
export type MoneyReading =
  | { kind: "number"; value: number }
  | { kind: "blank" }
  /** Text that is not one of the service's forms: listed, never guessed. */
  | { kind: "text"; text: string };

/** Digits with commas every three, or without commas; an optional dot and decimals. */
const USD_FORM = /^(\$)?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

/**
 * Reads a value as the service writes `label:price`: a number cell as it is; text as
 * `12345.00`, `12,345.00` or `$12,345.00` (a leading `-` allowed before or after the `$`, commas
 * only in groups of three); blank is blank; anything else is text.
 */
export function readMoney(raw: CellValue | null | undefined): MoneyReading {
  if (typeof raw === "number") return Number.isFinite(raw) ? { kind: "number", value: raw } : { kind: "blank" };
  if (raw === null || raw === undefined) return { kind: "blank" };
  if (typeof raw === "boolean") return { kind: "text", text: raw ? "TRUE" : "FALSE" };
  const text = raw.trim();
  if (text === "") return { kind: "blank" };
  const negative = /^-\$?\d|^\$-\d/.test(text);
  const unsigned = negative ? text.replace("-", "") : text;
  const match = USD_FORM.exec(unsigned);
  if (!match) return { kind: "text", text: raw };
  const value = Number(`${match[2]!.replace(/,/g, "")}${match[4] ?? ""}`);
  return Number.isFinite(value) ? { kind: "number", value: negative ? -value : value } : { kind: "text", text: raw };
}

/** A currency code as analysts type it: three letters, upper case ("usd" → "USD"); undefined otherwise. */
export function normalizeCurrency(text: string): string | undefined {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : undefined;
}
