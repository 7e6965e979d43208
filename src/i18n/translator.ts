/**
 * Formats catalog messages with FormatJS's ICU MessageFormat engine (./formatter.ts) over whole
 * catalogs: every panel's words. Used by the pane and the ribbon commands; src/excel, src/shaping
 * and src/functions only return `Message`s (./messages.ts; the functions runtime words its cells through
 * ./cell-catalogs.ts, which carries only the `cell.*` messages).
 *
 * English is bundled with whoever imports this module (it is also every other catalog's
 * reference); German and French load on demand, each its own small chunk.
 */
import english from "./catalogs/en.json";
import { createFormatter, type Catalog, type Translator } from "./formatter";
import type { DisplayLanguage, Language } from "./languages";
import { EN_US_SEPARATORS, type NumberSeparators } from "./numbers";
import { setEnglishWords } from "./message-error";

export { pseudoLocalize, type Catalog, type Translator } from "./formatter";

/** The English catalog (bundled: the reference every other catalog must match). */
export const ENGLISH: Catalog = english;

/** The catalog of a language: English at once, German and French from their own chunks. */
export async function loadCatalog(language: Language): Promise<Catalog> {
  if (language === "en") return ENGLISH;
  const loaded = (await import(/* webpackChunkName: "catalog-[request]" */ `./catalogs/${language}.json`)) as {
    default: Catalog;
  };
  return loaded.default;
}

/**
 * A translator for `language` over `catalog` (English for an id it lacks). `separators` are
 * Excel's (numbers in messages follow them, as every number the pane shows does); plural rules
 * follow the language.
 */
export function createTranslator(
  language: DisplayLanguage,
  catalog: Catalog,
  separators: NumberSeparators = EN_US_SEPARATORS,
): Translator {
  return createFormatter(language, catalog, ENGLISH, separators);
}

/** English with en-US separators: for code and tests outside the pane. */
export const englishTranslator: Translator = createTranslator("en", ENGLISH);

// Errors that carry a Message (./message-error.ts) say themselves in English to logs and tests.
setEnglishWords((said) => englishTranslator.format(said));
