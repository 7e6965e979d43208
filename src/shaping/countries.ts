/**
 * The one reader of the countries analysts write in their asset lists: an ISO 3166-1 code (alpha-2
 * "DE", alpha-3 "DEU", numeric "276") or a name in English, German or French ("Germany",
 * "Deutschland", "Allemagne", also the short and alternative names the ISO lists carry, such as
 * "United States of America" or "USA"). Case, diacritics, dots and spacing do not matter. Both the
 * disclosure tables (amounts by country) and the sync's coordinate check read countries through
 * it, so one spelling always means one country.
 *
 * The names come from i18n-iso-countries (its en, de and fr lists, about 8 KB each): only these
 * three are registered, and this module is imported by pane flows only, never by the functions.
 */
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";
import de from "i18n-iso-countries/langs/de.json";
import fr from "i18n-iso-countries/langs/fr.json";

/** The languages whose country names are read (and can be shown). */
export const COUNTRY_NAME_LANGUAGES = ["en", "de", "fr"] as const;
/** A language of country names. */
export type CountryNameLanguage = (typeof COUNTRY_NAME_LANGUAGES)[number];

for (const locale of [en, de, fr]) countries.registerLocale(locale);

/**
 * Lowercase, without diacritics, dots, apostrophes or repeated spaces: "Côte d’Ivoire" → "cote divoire".
 * Place names are compared through it too (the offline city lookup), so one spelling rule holds.
 */
export function foldName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[.'’`´]/g, "")
    .replace(/[\s\-_,]+/g, " ")
    .trim();
}

/**
 * Spellings the ISO lists lack but asset lists carry; each maps to one country without doubt.
 * ("England", "Scotland" and "Wales" are parts of GB, so a point there is checked against GB.)
 */
const EXTRA_NAMES: Record<string, string> = {
  uk: "GB",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  "grossbritannien und nordirland": "GB",
  "the netherlands": "NL",
  holland: "NL",
  "south korea": "KR",
  "north korea": "KP",
  "czech republic": "CZ",
  "etats unis": "US",
  usa: "US",
  "ivory coast": "CI",
  "hong kong sar": "HK",
  "macau sar": "MO",
};

let byName: Map<string, string> | undefined;

/** Every folded name, code and extra spelling → its alpha-2 code, built on first use. */
function nameIndex(): Map<string, string> {
  if (byName) return byName;
  const index = new Map<string, string>();
  for (const lang of COUNTRY_NAME_LANGUAGES)
    for (const [code, names] of Object.entries(countries.getNames(lang, { select: "all" })))
      for (const name of names as string[]) if (!index.has(foldName(name))) index.set(foldName(name), code);
  for (const [name, code] of Object.entries(EXTRA_NAMES)) index.set(name, code);
  byName = index;
  return index;
}

/**
 * The ISO 3166-1 alpha-2 code of a country as written in a cell, or undefined when it names no
 * country (empty, a typo, a region such as "Europe"). "UK" and "EL" (the EU's codes for GB and
 * GR) are read as those countries.
 */
export function countryCode(written: unknown): string | undefined {
  if (typeof written === "number") return countries.numericToAlpha2(written) ?? undefined;
  if (typeof written !== "string") return undefined;
  const text = written.trim();
  if (text === "") return undefined;
  if (/^\d{1,3}$/.test(text)) return countries.numericToAlpha2(text) ?? undefined;
  if (/^[A-Za-z]{2}$/.test(text)) {
    const upper = text.toUpperCase();
    if (upper === "UK") return "GB";
    if (upper === "EL") return "GR";
    return countries.isValid(upper) ? upper : undefined;
  }
  if (/^[A-Za-z]{3}$/.test(text)) {
    const alpha2 = countries.alpha3ToAlpha2(text.toUpperCase());
    if (alpha2) return alpha2;
  }
  return nameIndex().get(foldName(text));
}

/** The ISO 3166-1 alpha-3 code of an alpha-2 code ("DE" → "DEU"), or undefined. */
export function alpha3Code(alpha2: string): string | undefined {
  return countries.alpha2ToAlpha3(alpha2) ?? undefined;
}

/** A country's name in one of the read languages ("DE", "fr" → "Allemagne"), or the code itself. */
export function countryName(alpha2: string, lang: CountryNameLanguage = "en"): string {
  return countries.getName(alpha2, lang, { select: "official" }) ?? alpha2;
}
