import { FEATURE_GROUPS } from "../../../src/taskpane/features";
import { filterSections } from "../../../src/taskpane/shell/sections";
import { createTranslator, englishTranslator, loadCatalog } from "../../../src/i18n/translator";

const ids = (query: string) => filterSections(FEATURE_GROUPS, query).flatMap((g) => g.features.map((s) => s.id));

test("every section of the pane is in exactly one group, with the connection first", () => {
  const all = FEATURE_GROUPS.flatMap((g) => g.features.map((s) => s.id));
  expect(new Set(all).size).toBe(all.length);
  expect(all).toHaveLength(21);
  expect(all[0]).toBe("connection");
});

test("searching narrows the pane to the sections whose title or words start with what was typed", () => {
  expect(ids("")).toHaveLength(21);
  expect(ids("stale")).toEqual(["last-good"]);
  expect(ids("refresh")).toEqual(["changes", "refresh", "scoped-refresh", "pasted"]);
  expect(ids("Refresh SEL")).toEqual(["scoped-refresh"]);
  expect(ids("map")).toEqual(["visual"]);
  expect(ids("sub-project")).toEqual(["nature"]);
  // Word starts only: "ap" finds "API key" and "Applied", not the "ap" inside "map".
  expect(ids("ap")).toEqual(["connection", "layer"]);
  expect(ids("nothing like this")).toEqual([]);
});

test("a search keeps the groups' headings for what it found and drops empty groups", () => {
  const groups = filterSections(FEATURE_GROUPS, "delete");
  expect(groups.map((g) => englishTranslator.t(g.title))).toEqual(["Portfolios and layers"]);
  expect(groups[0].features.map((s) => s.id)).toEqual(["portfolios"]);
});

test("a German pane searches the German titles and words, and the English words still work", async () => {
  const german = createTranslator("de", await loadCatalog("de"));
  const found = (query: string) =>
    filterSections(FEATURE_GROUPS, query, german).flatMap((g) => g.features.map((s) => s.id));
  expect(found("veraltet")).toEqual(["last-good"]);
  expect(found("stale")).toEqual(["last-good"]);
  expect(found("Offenlegung")).toEqual(["disclosure"]);
  expect(found("Wesentliches")).toEqual(["disclosure"]);
  expect(filterSections(FEATURE_GROUPS, "löschen", german).map((g) => german.t(g.title))).toEqual([
    "Portfolios und Layer",
  ]);
});
