/**
 * The pane's numbers follow Excel's separators (ExcelApi 1.11), including Excel's own override of
 * the system's ("Use system separators" off); an older Excel falls back to the editing language.
 * A number typed with a decimal comma in a German pane is read as that Excel reads it.
 */
import { createFakeExcel, EXCEL_BUILDS, installFakeOffice } from "../../testing/fake-excel";
import { readExcelSeparators } from "../../src/excel/culture";
import { parseNumber } from "../../src/i18n/numbers";

const GERMAN_CULTURE = {
  name: "de-DE",
  cultureDecimal: ",",
  cultureGroup: ".",
  useSystemSeparators: true,
  customDecimal: ",",
  customThousands: ".",
};

function fakeWith(level?: Record<string, string>) {
  const fake = createFakeExcel({ requirements: level });
  const uninstall = installFakeOffice(globalThis as unknown as Record<string, unknown>, fake.requirements);
  return { fake, uninstall };
}

describe("Excel's separators", () => {
  it("reads a German Excel's separators, and a typed decimal comma as Excel does", async () => {
    const { fake, uninstall } = fakeWith();
    try {
      fake.model.culture = { ...GERMAN_CULTURE };
      const separators = await fake.run((context) => readExcelSeparators(context, "en-US"));
      expect(separators).toEqual({ decimal: ",", group: "." });
      expect(parseNumber("1.234,5", separators)).toBe(1234.5);
      expect(parseNumber("0,25", separators)).toBe(0.25);
      expect(parseNumber("0.25", separators)).toBeUndefined();
    } finally {
      uninstall();
    }
  });

  it("follows Excel's own separators when 'Use system separators' is off", async () => {
    const { fake, uninstall } = fakeWith();
    try {
      fake.model.culture = { ...GERMAN_CULTURE, useSystemSeparators: false, customDecimal: ".", customThousands: "’" };
      const separators = await fake.run((context) => readExcelSeparators(context, "de-DE"));
      expect(separators).toEqual({ decimal: ".", group: "’" });
      expect(parseNumber("1’234.5", separators)).toBe(1234.5);
    } finally {
      uninstall();
    }
  });

  it("falls back to the editing language on an Excel without ExcelApi 1.11", async () => {
    const { fake, uninstall } = fakeWith({ ...EXCEL_BUILDS.windows2008, ExcelApi: "1.10" });
    try {
      fake.model.culture = { ...GERMAN_CULTURE, name: "en-US", cultureDecimal: ".", cultureGroup: "," };
      expect(await fake.run((context) => readExcelSeparators(context, "de-DE"))).toEqual({ decimal: ",", group: "." });
      expect(await fake.run((context) => readExcelSeparators(context))).toEqual({ decimal: ".", group: "," });
      // Below 1.11 the fake refuses the members, as office.js does.
      await expect(
        fake.run(async (context) => {
          context.workbook.application.load("decimalSeparator");
          await context.sync();
          return context.workbook.application.decimalSeparator;
        }),
      ).rejects.toThrow(/ExcelApi 1.11/);
    } finally {
      uninstall();
    }
  });

  it("reads the culture's own separators through cultureInfo", async () => {
    const fake = createFakeExcel();
    fake.model.culture = { ...GERMAN_CULTURE, useSystemSeparators: false, customDecimal: ".", customThousands: "," };
    const culture = await fake.run(async (context) => {
      const info = context.workbook.application.cultureInfo;
      info.load("name");
      const numbers = info.numberFormat.load("numberDecimalSeparator,numberGroupSeparator");
      await context.sync();
      return [info.name, numbers.numberDecimalSeparator, numbers.numberGroupSeparator];
    });
    expect(culture).toEqual(["de-DE", ",", "."]);
  });
});
