/**
 * The shared readers the sync's coordinate check, the geocoding and the disclosure tables rely on:
 * a country written any usual way is one ISO code, and the headers of address, country, money and
 * adaptation columns map to the labels those features read.
 */
import { alpha3Code, countryCode, countryName } from "../../src/shaping/countries";
import { ADDRESS_PART_LABELS, mapHeaders } from "../../src/shaping/headers";

describe("countryCode", () => {
  it.each([
    ["DE", "DE"],
    ["de", "DE"],
    ["DEU", "DE"],
    ["276", "DE"],
    ["Germany", "DE"],
    ["Deutschland", "DE"],
    ["Allemagne", "DE"],
    ["  germany ", "DE"],
    ["UK", "GB"],
    ["United Kingdom", "GB"],
    ["Vereinigtes Königreich", "GB"],
    ["Royaume-Uni", "GB"],
    ["England", "GB"],
    ["EL", "GR"],
    ["Côte d’Ivoire", "CI"],
    ["Cote d'Ivoire", "CI"],
    ["Elfenbeinküste", "CI"],
    ["USA", "US"],
    ["United States of America", "US"],
    ["Vereinigte Staaten", "US"],
    ["États-Unis", "US"],
    ["Etats Unis", "US"],
    ["Singapore", "SG"],
    ["Schweiz", "CH"],
    ["Suisse", "CH"],
    ["Hong Kong", "HK"],
  ])("reads %p as %p", (written, code) => {
    expect(countryCode(written)).toBe(code);
  });

  it("reads a numeric code given as a number", () => {
    expect(countryCode(250)).toBe("FR");
  });

  it.each(["", "   ", "Europe", "Germny", "XX", "ZZZ", "999", true, null])("names no country for %p", (written) => {
    expect(countryCode(written)).toBeUndefined();
  });

  it("gives alpha-3 codes and names in the three languages", () => {
    expect(alpha3Code("DE")).toBe("DEU");
    expect(countryName("DE", "en")).toBe("Germany");
    expect(countryName("DE", "de")).toBe("Deutschland");
    expect(countryName("DE", "fr")).toBe("Allemagne");
    expect(countryName("QQ")).toBe("QQ");
  });
});

describe("address, country, money and adaptation headers", () => {
  it("maps each part of an address to the label the geocoding reads, in English, German and French", () => {
    const columns = mapHeaders(["Address", "Street", "PLZ", "Ville", "State", "Land", "Postal code", "Pays"]);
    expect(columns.map((c) => (c.target.kind === "label" ? c.target.key : c.target.kind))).toEqual([
      "address",
      "street",
      "postcode",
      "city",
      "region",
      "country",
      "postcode",
      "country",
    ]);
    for (const c of columns)
      if (c.target.kind === "label") expect(ADDRESS_PART_LABELS as readonly string[]).toContain(c.target.key);
  });

  it("reads a header that is already the label's key as written, and asks only about other spellings", () => {
    const [country, land, currency, ccy, adapted, adaptation] = mapHeaders([
      "Country",
      "Land",
      "Currency",
      "CCY",
      "adapted",
      "Adaptation",
    ]);
    expect(country.via).toBe("new label");
    expect(land).toMatchObject({ target: { kind: "label", key: "country" }, via: "synonym" });
    expect(currency.via).toBe("new label");
    expect(ccy).toMatchObject({ target: { kind: "label", key: "currency" }, via: "synonym" });
    expect(adapted.via).toBe("new label");
    expect(adaptation).toMatchObject({ target: { kind: "label", key: "adapted" }, via: "synonym" });
  });

  it("maps revenue and turnover to label:revenue", () => {
    const columns = mapHeaders(["Revenue", "Turnover", "Umsatz", "Chiffre d'affaires"]);
    expect(columns.map((c) => c.target)).toEqual(Array(4).fill({ kind: "label", key: "revenue" }));
  });
});
