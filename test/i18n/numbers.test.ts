/**
 * Numbers typed and shown in the pane follow Excel's separators: what a German Excel reads as
 * 1234,5 the pane reads as 1234.5, and what Excel would not take for a number the pane refuses.
 */
import { formatNumber, parseNumber, separatorsOfLocale, EN_US_SEPARATORS } from "../../src/i18n/numbers";

const GERMAN = { decimal: ",", group: "." };
const SWISS = { decimal: ".", group: "’" };
const FRENCH = { decimal: ",", group: "\u202f" };

describe("parseNumber: as Excel reads what is typed", () => {
  it.each([
    ["0,5", 0.5],
    ["1234,5", 1234.5],
    ["1.234,5", 1234.5],
    ["1.234.567", 1234567],
    ["1 234,5", 1234.5],
    ["1\u00a0234,5", 1234.5],
    ["1\u202f234,5", 1234.5],
    ["1’234,5", 1234.5],
    ["-2,75", -2.75],
    ["\u22122,75", -2.75],
    ["  42  ", 42],
    ["1,5E3", 1500],
    [",5", 0.5],
  ])("German Excel reads %j as %d", (typed, value) => {
    expect(parseNumber(typed, GERMAN)).toBe(value);
  });

  it.each(["1.5", "1,2,3", "12.34", "1.234.5", "abc", "", "1,", "1 23,4", "--1"])(
    "German Excel does not read %j as a number",
    (typed) => {
      expect(parseNumber(typed, GERMAN)).toBeUndefined();
    },
  );

  it("reads English, Swiss and French input with their own separators", () => {
    expect(parseNumber("1,234.5", EN_US_SEPARATORS)).toBe(1234.5);
    expect(parseNumber("0.5", EN_US_SEPARATORS)).toBe(0.5);
    expect(parseNumber("1.234,5", EN_US_SEPARATORS)).toBeUndefined();
    expect(parseNumber("1’234.5", SWISS)).toBe(1234.5);
    expect(parseNumber("1'234.5", SWISS)).toBe(1234.5);
    expect(parseNumber("1 234,5", FRENCH)).toBe(1234.5);
    expect(parseNumber("1\u202f234,5", FRENCH)).toBe(1234.5);
  });
});

describe("formatNumber: as Excel shows it", () => {
  it("writes Excel's separators, whatever the language of the words", () => {
    expect(formatNumber(1234567.5, GERMAN)).toBe("1.234.567,5");
    expect(formatNumber(1234567.5, SWISS)).toBe("1’234’567.5");
    expect(formatNumber(1234567.5, EN_US_SEPARATORS)).toBe("1,234,567.5");
    expect(formatNumber(0.125, GERMAN, { maximumFractionDigits: 2 })).toBe("0,13");
  });

  it("round-trips through parseNumber", () => {
    for (const separators of [GERMAN, SWISS, FRENCH, EN_US_SEPARATORS])
      for (const value of [0, 1, -1.5, 1234.56, 9876543.21])
        expect(parseNumber(formatNumber(value, separators), separators)).toBe(value);
  });

  it("takes a locale's separators from the platform (the contentLanguage fallback)", () => {
    expect(separatorsOfLocale("de-DE")).toEqual(GERMAN);
    expect(separatorsOfLocale("en-US")).toEqual(EN_US_SEPARATORS);
    expect(separatorsOfLocale("fr-FR").decimal).toBe(",");
    expect(separatorsOfLocale("not a locale")).toEqual(EN_US_SEPARATORS);
  });
});
