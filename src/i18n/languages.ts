/**
 * The languages the add-in speaks and how a host's language tag maps to one. Pure (no Office):
 * the shell hands it `Office.context.displayLanguage`, the harness its `?lang=`.
 */

/** The languages with a complete catalog (src/i18n/catalogs/<language>.json). */
export const LANGUAGES = ["en", "de", "fr"] as const;

/** A language with a catalog. */
export type Language = (typeof LANGUAGES)[number];

/**
 * The pseudo-locale: English with every string lengthened by 40 % and bracketed, so a layout test
 * finds the control that clips or overflows before a translator does. Never chosen from a host tag.
 */
export const PSEUDO_LANGUAGE = "en-XA";

/** What the pane is shown in: a catalog language, or the pseudo-locale. */
export type DisplayLanguage = Language | typeof PSEUDO_LANGUAGE;

/**
 * The nearest catalog to a BCP 47 tag such as Office reports ("de-CH" → de, "fr-CA" → fr,
 * "es-US" → en): its primary language subtag when there is a catalog for it, else English.
 * `en-XA` (any case) is the pseudo-locale.
 */
export function matchLanguage(tag: string | null | undefined): DisplayLanguage {
  const clean = (tag ?? "").trim().replace(/_/g, "-");
  if (clean.toLowerCase() === PSEUDO_LANGUAGE.toLowerCase()) return PSEUDO_LANGUAGE;
  const primary = clean.split("-")[0].toLowerCase();
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : "en";
}

/** The catalog behind a display language (the pseudo-locale stretches English). */
export function catalogLanguage(language: DisplayLanguage): Language {
  return language === PSEUDO_LANGUAGE ? "en" : language;
}
