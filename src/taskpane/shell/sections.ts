/**
 * The task pane's table of contents: its sections, grouped by what an analyst is doing, and the
 * search that narrows them. Pure data and logic (no React), so the grouping and the matching are
 * tested without a browser; components/App.tsx renders it.
 */

/** One capability of the pane: its id (test ids `section-<id>`, `section-<id>-header`) and words. */
export interface SectionEntry {
  id: string;
  title: string;
  /** Other words an analyst may search for (e.g. "stale" for last good values). */
  keywords: string;
}

/** A group of sections under one heading. */
export interface SectionGroup {
  id: string;
  title: string;
  sections: readonly SectionEntry[];
}

/**
 * The pane's sections in four groups plus the connection. The order inside a group is the order
 * of the work: build, read, refresh; pull, look, keep; send, manage.
 */
export const SECTION_GROUPS: readonly SectionGroup[] = [
  {
    id: "setup",
    title: "Set up",
    sections: [{ id: "connection", title: "Connection", keywords: "api key project service url emulator connect" }],
  },
  {
    id: "formulas",
    title: "Formulas",
    sections: [
      { id: "builder", title: "Formula builder", keywords: "insert write RISK function arguments column" },
      { id: "explain", title: "Explain a number", keywords: "why meaning threshold label score cell" },
      { id: "changes", title: "What changed since last refresh", keywords: "difference compare report audit" },
      { id: "refresh", title: "Refresh all", keywords: "recalculate update workbook" },
      {
        id: "scoped-refresh",
        title: "Refresh selection / sheet / workbook",
        keywords: "recalculate update errors only scope",
      },
      { id: "last-good", title: "Last good values", keywords: "stale cache offline retry failed clear" },
      { id: "static", title: "Static copy (values only)", keywords: "freeze snapshot send values restore formulas" },
    ],
  },
  {
    id: "pull",
    title: "Pull data into sheets",
    sections: [
      { id: "summary", title: "Summary → new sheet", keywords: "paste scores classes extended scenario" },
      { id: "timeseries", title: "Timeseries → new sheet", keywords: "paste series years projected observed" },
      { id: "layer", title: "Applied layer → new sheet", keywords: "paste vector apply composition csv" },
      { id: "impact", title: "Financial impact → new sheets", keywords: "money loss damage value at risk" },
      { id: "visual", title: "Map, risk matrix and scenarios", keywords: "chart compare heat matrix portfolio map" },
      { id: "export", title: "Export ZIP → sheets", keywords: "download physical export zip csv" },
      { id: "pasted", title: "Pasted sheets & sources", keywords: "provenance refresh in place sources audit" },
    ],
  },
  {
    id: "portfolios",
    title: "Portfolios and layers",
    sections: [
      { id: "sync", title: "Sync a range to a portfolio", keywords: "upload assets import diff push sheet" },
      { id: "portfolios", title: "Portfolios: assets, delete", keywords: "list assets delete remove download" },
      { id: "compositions", title: "Compositions", keywords: "vector layer udf jq geojson upload" },
      { id: "nature", title: "Nature projects", keywords: "biodiversity sub-project nature" },
    ],
  },
];

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
export function filterSections(groups: readonly SectionGroup[], query: string): SectionGroup[] {
  const words = fold(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return [...groups];
  const matches = (section: SectionEntry) => {
    const haystack = ` ${fold(`${section.title} ${section.keywords}`).replace(/[^\p{L}\p{N}]+/gu, " ")}`;
    return words.every((word) => haystack.includes(` ${word}`));
  };
  return groups
    .map((group) => ({ ...group, sections: group.sections.filter(matches) }))
    .filter((group) => group.sections.length > 0);
}
