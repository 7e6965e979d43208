import { createTranslator, ENGLISH, loadCatalog, pseudoLocalize } from "../../src/i18n/translator";

describe("translator", () => {
  it("formats plurals by the language and numbers by Excel's separators", async () => {
    const german = createTranslator("de", await loadCatalog("de"), { decimal: ",", group: "." });
    expect(german.t("usage.since", { requests: 1200, hits: 1, failures: 0 })).toBe(
      "Seit dem Start: 1.200 Anfragen gesendet · 1 Antwort aus dem Cache · 0 Fehler",
    );
    const english = createTranslator("en", ENGLISH);
    expect(english.t("usage.since", { requests: 1, hits: 2, failures: 1 })).toBe(
      "Since start: 1 request sent · 2 answers from cache · 1 failure",
    );
    const french = createTranslator("fr", await loadCatalog("fr"), { decimal: ",", group: "\u202f" });
    expect(french.t("usage.progress", { done: 1200, total: 5000, left: "x" })).toBe(
      "Cellules RISK\u00a0: 1\u202f200 / 5\u202f000 chargées · x",
    );
  });

  it("formats a message a lower layer returned", async () => {
    const french = createTranslator("fr", await loadCatalog("fr"));
    expect(french.format({ id: "app.search.empty", values: { query: "carte" } })).toBe(
      "Aucune section ne correspond à «\u00a0carte\u00a0».",
    );
  });

  it("pseudo-localizes: 40 % longer, bracketed, placeholders intact", () => {
    const text = pseudoLocalize("No section matches “{query}”.");
    expect(text.startsWith("[No section matches “{query}”.")).toBe(true);
    const pseudo = createTranslator("en-XA", ENGLISH);
    const shown = pseudo.t("app.search.empty", { query: "map" });
    expect(shown).toMatch(/^\[No section matches “map”\.~[~ ]*\]$/);
    // The padding wraps as words would: no run of "~" longer than 8.
    expect(shown).not.toMatch(/~{9}/);
    const plain = "No section matches “”.".length;
    expect(shown.length - "map".length - 2).toBeGreaterThanOrEqual(Math.ceil(plain * 1.4));
  });
});
