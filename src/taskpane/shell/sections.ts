/**
 * The search that narrows the task pane to the sections an analyst asks for. Pure logic (no React),
 * so the matching is tested without a browser; the sections and their headings are the registry's
 * (features/index.ts) and App.tsx renders them.
 */

import type { Feature, FeatureGroup } from "../features";
import { englishTranslator, type Translator } from "../../i18n/translator";

/** Lower case without accents, so "Résumé" finds "resume". */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

/**
 * The groups with only the sections whose title or keywords hold every word of `query` (each word
 * as the start of a word there), empty groups left out. An empty query keeps everything. Title and
 * keywords are read in the pane's language (`translator`) and in English too, so "stale" still
 * finds last good values in a German pane.
 */
export function filterSections(
  groups: readonly FeatureGroup[],
  query: string,
  translator: Translator = englishTranslator,
): FeatureGroup[] {
  const words = fold(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return [...groups];
  const matches = (section: Feature) => {
    const texts = [translator.t(section.title), translator.t(section.keywords), englishTranslator.t(section.keywords)];
    const haystack = ` ${fold(texts.join(" ")).replace(/[^\p{L}\p{N}]+/gu, " ")}`;
    return words.every((word) => haystack.includes(` ${word}`));
  };
  return groups
    .map((group) => ({ ...group, features: group.features.filter(matches) }))
    .filter((group) => group.features.length > 0);
}
