/**
 * A list of already formatted items joined as the display language joins them ("A and B",
 * "A und B", "A et B"): the catalogs then hold one sentence around `{items}`, never the joining words.
 */
import { catalogLanguage } from "../../i18n/languages";
import type { Translator } from "../../i18n/translator";

/** `items` joined with the display language's "and" (Intl.ListFormat). */
export function listOf(i18n: Pick<Translator, "language">, items: readonly string[]): string {
  return new Intl.ListFormat(catalogLanguage(i18n.language), { type: "conjunction" }).format(items);
}
