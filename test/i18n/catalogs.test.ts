/**
 * The catalogs (src/i18n/catalogs): every key of the English one in every language and no other,
 * valid ICU MessageFormat, the same placeholders (and plural/select arguments) in each language as
 * in English, and no text a translator left English by mistake where it must not be.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { LANGUAGES } from "../../src/i18n/languages";

const folder = path.resolve(__dirname, "../../src/i18n/catalogs");
const catalogs = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.parse(readFileSync(path.join(folder, `${language}.json`), "utf8")) as Record<string, string>,
  ]),
);
const english = catalogs.en;

/** Each argument of a message with its kind ("zone: argument", "n: plural"), sorted. */
function argumentsOf(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument) out.add(`${element.value}: argument`);
    else if (element.type === TYPE.number) out.add(`${element.value}: number`);
    else if (element.type === TYPE.date || element.type === TYPE.time) out.add(`${element.value}: date`);
    else if (element.type === TYPE.plural) {
      out.add(`${element.value}: plural`);
      for (const option of Object.values(element.options)) argumentsOf(option.value, out);
    } else if (element.type === TYPE.select) {
      // A select's cases are the code's values (`blank: "true"`), the same in every language; a
      // plural's are the language's own plural categories, which may differ.
      out.add(`${element.value}: select (${Object.keys(element.options).sort().join(" | ")})`);
      for (const option of Object.values(element.options)) argumentsOf(option.value, out);
    } else if (element.type === TYPE.tag) argumentsOf(element.children, out);
  }
  return out;
}

describe("message catalogs", () => {
  it("has a catalog file for each language and no other", () => {
    expect(readdirSync(folder).sort()).toEqual(LANGUAGES.map((l) => `${l}.json`).sort());
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))("%s has every English key and no other", (language) => {
    const keys = Object.keys(catalogs[language]);
    expect(Object.keys(english).filter((key) => !keys.includes(key))).toEqual([]);
    expect(keys.filter((key) => !(key in english))).toEqual([]);
  });

  it.each(LANGUAGES)("%s: every message is valid ICU MessageFormat and not empty", (language) => {
    const broken: string[] = [];
    for (const [key, text] of Object.entries(catalogs[language])) {
      try {
        parse(text);
        if (!text.trim()) broken.push(`${key}: empty`);
      } catch (error) {
        broken.push(`${key}: ${String(error)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))(
    "%s uses the same placeholders as English in every message",
    (language) => {
      const differ: string[] = [];
      for (const [key, text] of Object.entries(english)) {
        const want = [...argumentsOf(parse(text))].sort();
        const got = [...argumentsOf(parse(catalogs[language][key] ?? ""))].sort();
        if (want.join() !== got.join()) differ.push(`${key}: ${got.join(", ")} ≠ ${want.join(", ")}`);
      }
      expect(differ).toEqual([]);
    },
  );

  it("catches a select whose cases differ from English", () => {
    const english = "{name} must be x (got {blank, select, true {nothing} other {{got}}})";
    const renamed = "{name} muss x sein (erhalten: {blank, select, ja {nichts} other {{got}}})";
    expect([...argumentsOf(parse(renamed))].sort()).not.toEqual([...argumentsOf(parse(english))].sort());
  });

  it("catches a missing key and a changed placeholder (the checks above can fail)", () => {
    const broken = { ...catalogs.de, "app.search.empty": "Kein Abschnitt passt zu „{suche}“." } as Record<
      string,
      string
    >;
    delete broken["app.title"];
    expect(Object.keys(english).filter((key) => !(key in broken))).toEqual(["app.title"]);
    expect([...argumentsOf(parse(broken["app.search.empty"]))]).not.toEqual([
      ...argumentsOf(parse(english["app.search.empty"])),
    ]);
  });
});
