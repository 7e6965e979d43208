import { matchLanguage, catalogLanguage } from "../../src/i18n/languages";

describe("the display language from Office's tag", () => {
  it.each([
    ["de-DE", "de"],
    ["de-CH", "de"],
    ["de-AT", "de"],
    ["fr-FR", "fr"],
    ["fr-CA", "fr"],
    ["fr-BE", "fr"],
    ["FR-ch", "fr"],
    ["en-US", "en"],
    ["en-GB", "en"],
    ["es-US", "en"],
    ["it-IT", "en"],
    ["de", "de"],
    ["de_DE", "de"],
    ["", "en"],
    [undefined, "en"],
  ])("%s → %s", (tag, language) => {
    expect(matchLanguage(tag)).toBe(language);
  });

  it("knows the pseudo-locale, which stretches the English catalog", () => {
    expect(matchLanguage("en-XA")).toBe("en-XA");
    expect(catalogLanguage("en-XA")).toBe("en");
  });
});
