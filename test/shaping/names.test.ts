/** Portfolio, sheet and table names. */
import {
  portfolioNameProblem,
  isValidPortfolioName,
  suggestPortfolioName,
} from "../../src/taskpane/features/sync/model/portfolio-name";
import { makeValidSheetName, uniqueSheetName, uniqueTableName } from "../../src/shaping/sheet-names";
import { isCellReference } from "../../src/shaping/a1";
import { english } from "../support/english";

describe("portfolio names", () => {
  it("accepts letters, digits, _ and - only", () => {
    expect(isValidPortfolioName("EU_sites-2024")).toBe(true);
    expect(portfolioNameProblem("EU_sites-2024")).toBeNull();
    expect(english(portfolioNameProblem("") ?? undefined)).toBe("Enter a portfolio name.");
    expect(english(portfolioNameProblem("EU sites") ?? undefined)).toMatch(/has spaces/);
    expect(english(portfolioNameProblem("Zürich/2024") ?? undefined)).toBe(
      'Portfolio name "Zürich/2024" has "ü", "/": use letters A-Z, digits, _ and - only.',
    );
    expect(isValidPortfolioName("a.b")).toBe(false);
  });

  it("suggests a valid, untaken name from a sheet or table name", () => {
    expect(suggestPortfolioName("Sites (Zürich) 2024")).toBe("Sites_Zurich_2024");
    expect(suggestPortfolioName("東京")).toBe("portfolio");
    expect(suggestPortfolioName("Sites", ["sites", "Sites_2"])).toBe("Sites_3");
    // The service takes 3 to 30 characters: suggestions stay within.
    const long = suggestPortfolioName("x".repeat(100), ["x".repeat(30)]);
    expect(long).toHaveLength(30);
    expect(long.endsWith("_2")).toBe(true);
    expect(suggestPortfolioName("A1")).toBe("A1_portfolio");
    expect(suggestPortfolioName("Quarterly review of all sites 2024")).toBe("Quarterly_review_of_all_sites");
    for (const s of ["Sites (Zürich) 2024", "東京", "  --  ", "a/b\\c", "Q", "x".repeat(40)])
      expect(isValidPortfolioName(suggestPortfolioName(s))).toBe(true);
  });

  it("refuses names shorter than 3 or longer than 30 characters, saying how long they are", () => {
    expect(english(portfolioNameProblem("ab") ?? undefined)).toBe('Portfolio name "ab" has 2 characters: use 3 to 30.');
    expect(english(portfolioNameProblem("x".repeat(31)) ?? undefined)).toMatch(/has 31 characters: use 3 to 30/);
    expect(portfolioNameProblem("abc")).toBeNull();
    expect(portfolioNameProblem("x".repeat(30))).toBeNull();
    expect(isValidPortfolioName("ab")).toBe(false);
    expect(isValidPortfolioName("x".repeat(31))).toBe(false);
  });
});

describe("sheet names", () => {
  it("makes any text a valid sheet name", () => {
    expect(makeValidSheetName("a[b]:c*d?e/f\\g")).toBe("a_b__c_d_e_f_g");
    expect(makeValidSheetName("'quoted'")).toBe("quoted");
    expect(makeValidSheetName("   ")).toBe("Sheet");
    expect(makeValidSheetName("history")).toBe("History_");
    expect(makeValidSheetName("x".repeat(40))).toHaveLength(31);
    expect(makeValidSheetName("🌍".repeat(20)).length).toBeLessThanOrEqual(31);
    expect(makeValidSheetName("🌍".repeat(20))).toBe("🌍".repeat(15));
  });

  it("never reuses an existing name, case-insensitively, and stays within 31 characters", () => {
    expect(uniqueSheetName("Summary", ["summary"])).toBe("Summary (2)");
    expect(uniqueSheetName("Summary", ["Summary", "SUMMARY (2)"])).toBe("Summary (3)");
    const long = "L".repeat(31);
    const next = uniqueSheetName(long, [long]);
    expect(next).toBe(`${"L".repeat(27)} (2)`);
    expect(uniqueSheetName("New", ["Other"])).toBe("New");
  });

  it("makes valid unique table names", () => {
    expect(uniqueTableName("Timeseries ssp585", [])).toBe("Timeseries_ssp585");
    expect(uniqueTableName("2030 data", [])).toBe("T_2030_data");
    expect(uniqueTableName("東京", [])).toBe("Table");
    expect(uniqueTableName("A1", [])).toBe("T_A1");
    expect(uniqueTableName("R", [])).toBe("T_R");
    expect(uniqueTableName("Summary", ["summary"])).toBe("Summary_2");
  });
});

describe("cell references", () => {
  it("knows one cell's reference, on its sheet or another, from ranges, names and literals", () => {
    for (const text of ["A12", "$B$3", "Sheet1!C2", "'My sheet'!$C$2", " xfd1048576 "])
      expect(isCellReference(text) ? text : `not ${text}`).toBe(text);
    for (const text of ["B2:B20", "B:B", "Sheet1!A1:A2", "TRUE", "floods", "ABCD1", "12", '"A1"'])
      expect(isCellReference(text) ? `wrongly ${text}` : text).toBe(text);
  });
});
