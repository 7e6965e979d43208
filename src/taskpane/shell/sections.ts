/**
 * The search that narrows the task pane to the sections an analyst asks for. Pure logic (no React),
 * so the matching is tested without a browser; the sections and their headings are the registry's
 * (features/index.ts) and App.tsx renders them.
 */

import type { Feature, FeatureGroup } from "../features";

/** Lower case without accents, so "Résumé" finds "resume". */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

/**
 * The groups with only the sections whose title or keywords hold every word of `query` (each word
 * as the start of a word there), empty groups left out. An empty query keeps everything.
 */
export function filterSections(groups: readonly FeatureGroup[], query: string): FeatureGroup[] {
  const words = fold(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return [...groups];
  const matches = (section: Feature) => {
    const haystack = ` ${fold(`${section.title} ${section.keywords}`).replace(/[^\p{L}\p{N}]+/gu, " ")}`;
    return words.every((word) => haystack.includes(` ${word}`));
  };
  return groups
    .map((group) => ({ ...group, features: group.features.filter(matches) }))
    .filter((group) => group.features.length > 0);
}
