/**
 * Asset data as the service writes it and as analysts have it: prices in the service's USD forms,
 * coordinates in degrees-minutes-seconds, with hemisphere letters or decimal commas, header
 * synonyms, and label:type against the published list. Read, listed, converted or refused, never guessed.
 */
import { ASSET_TYPES, closestAssetType, isPublishedAssetType } from "../../../../../src/shared/vocabulary";
import { readCoordinate } from "../../../../../src/shaping/coordinates";
import { mapHeaders } from "../../../../../src/shaping/headers";
import { normalizeCurrency, readMoney } from "../../../../../src/shaping/money";
import type { CellValue } from "../../../../../src/shaping/types";
import { validateAssetRange } from "../../../../../src/taskpane/features/sync/model/validate-assets";
import { english } from "../../../../support/english";

describe("prices", () => {
  it.each([
    ["12345.00", 12345],
    ["12,345.00", 12345],
    ["$12,345.00", 12345],
    ["$3,950,000.00", 3950000],
    [" 950000 ", 950000],
    ["-$1,000", -1000],
    [4200.5, 4200.5],
  ])("reads %p as %p", (raw, value) => {
    expect(readMoney(raw)).toEqual({ kind: "number", value });
  });

  it.each(["1.234,56", "€1.2m", "n/a", "12,34.00", "1,2345", "$", "USD 12", "12 345"])(
    "lists %p as text, never a number",
    (raw) => {
      expect(readMoney(raw)).toEqual({ kind: "text", text: raw });
    },
  );

  it("reads blank as blank and currencies as three letters", () => {
    expect(readMoney("  ")).toEqual({ kind: "blank" });
    expect(readMoney("")).toEqual({ kind: "blank" });
    expect(normalizeCurrency(" eur ")).toBe("EUR");
    expect(normalizeCurrency("euro")).toBeUndefined();
  });
});

describe("coordinates", () => {
  it.each([
    [`48°51'24"N`, "lat", 48.856667, "degrees, minutes, seconds"],
    [`2° 21' 8" E`, "lng", 2.352222, "degrees, minutes, seconds"],
    [`33°52′04″S`, "lat", -33.867778, "degrees, minutes, seconds"],
    ["41.9N", "lat", 41.9, "hemisphere letter"],
    ["12.5W", "lng", -12.5, "hemisphere letter"],
    ["S 23.55", "lat", -23.55, "hemisphere letter"],
    ["51,5074", "lat", 51.5074, "decimal comma"],
    ["-0,1278", "lng", -0.1278, "decimal comma"],
  ] as const)("converts %p in a %s column to %p (%s)", (raw, axis, value, form) => {
    expect(readCoordinate(raw, axis)).toEqual({ kind: "convertible", value, form });
  });

  it.each([
    ["12.5W", "lat", /longitude hemisphere in a latitude column/],
    ["-41.9N", "lat", /both a minus sign and "N"/],
    ["1.234,56", "lat", /decimal mark is unclear/],
    ["48.85, 2.35", "lat", /two numbers/],
    [`48°61'N`, "lat", /below 60/],
    ["north", "lat", /write decimal degrees/],
    ["41.9X", "lat", /not a hemisphere/],
  ] as const)("leaves %p in a %s column a problem: %p", (raw, axis, reason) => {
    const reading = readCoordinate(raw, axis);
    expect(reading.kind).toBe("unreadable");
    expect(reading.kind === "unreadable" && english(reading.reason)).toMatch(reason);
  });

  it("counts the decimals as written", () => {
    expect(readCoordinate("51.50", "lat")).toEqual({ kind: "number", value: 51.5, decimals: 2 });
    expect(readCoordinate(51.5, "lat")).toEqual({ kind: "number", value: 51.5, decimals: 1 });
    expect(readCoordinate(51, "lat")).toEqual({ kind: "number", value: 51, decimals: 0 });
  });
});

describe("the published asset types", () => {
  it("holds the 33 published labels, two spaces in Manuf.  Housing included", () => {
    expect(ASSET_TYPES).toHaveLength(33);
    expect(isPublishedAssetType("Manuf.  Housing")).toBe(true);
    expect(isPublishedAssetType("Manuf. Housing")).toBe(false);
    expect(isPublishedAssetType("retail trade")).toBe(false);
    // More than the 255 characters a typed validation list may hold: the dropdown needs a range.
    expect(ASSET_TYPES.join(",").length).toBeGreaterThan(255);
  });

  it.each([
    ["retail trade", "Retail Trade"],
    ["Manuf. Housing", "Manuf.  Housing"],
    ["school", "Grade Schools"],
    ["Hospitl", "Hospital"],
    ["Office", "Medical Office/Clinic"],
  ])("suggests for %p the closest published type %p", (text, type) => {
    expect(closestAssetType(text)).toBe(type);
  });
});

describe("header synonyms", () => {
  it("maps Site, Asset name, Address, Type and Value, and says how each header was read", () => {
    const mapping = mapHeaders(["Site", "Address", "Type", "Value", "Price (USD)", "lat", "Longitude", "Tier"]);
    expect(mapping.map((m) => [m.header, m.target, m.via])).toEqual([
      ["Site", { kind: "field", field: "entity_name" }, "synonym"],
      ["Address", { kind: "label", key: "address" }, "synonym"],
      ["Type", { kind: "label", key: "type" }, "synonym"],
      ["Value", { kind: "label", key: "value" }, "synonym"],
      ["Price (USD)", { kind: "label", key: "price" }, "synonym"],
      ["lat", { kind: "field", field: "lat" }, "exact"],
      ["Longitude", { kind: "field", field: "lng" }, "synonym"],
      ["Tier", { kind: "label", key: "tier" }, "new label"],
    ]);
  });
});

describe("validating an asset range", () => {
  const header = ["Asset name", "Latitude", "Longitude", "Asset type", "label:price"];
  const validate = (rows: CellValue[][]) => validateAssetRange({ values: [header, ...rows], address: "Sites!A1:E20" });

  it("offers every convertible coordinate with its cell, before and after, and sends nothing until converted", () => {
    const result = validate([
      ["Paris", `48°51'24"N`, `2°21'8"E`, "Commercial", "$3,950,000.00"],
      ["Rome", "41.9N", "12.5E", "Commercial", "12,345.00"],
      ["London", "51,5074", "-0,1278", "Commercial", "12345.00"],
      ["Nowhere", "12.5W", "41.9N", "Commercial", ""],
    ]);
    expect(result.conversions.map((c) => [c.address, c.before, c.after])).toEqual([
      ["Sites!B2", `48°51'24"N`, 48.856667],
      ["Sites!C2", `2°21'8"E`, 2.352222],
      ["Sites!B3", "41.9N", 41.9],
      ["Sites!C3", "12.5E", 12.5],
      ["Sites!B4", "51,5074", 51.5074],
      ["Sites!C4", "-0,1278", -0.1278],
    ]);
    // Converted cells block the sync until the sheet holds numbers; the swapped hemispheres stay problems.
    expect(result.assets).toHaveLength(0);
    expect(result.problems.filter((p) => p.cell === "B5" || p.cell === "C5").map((p) => english(p.message))).toEqual([
      expect.stringMatching(/Latitude in B5 is "12.5W", not a number: "W" is a longitude hemisphere/),
      expect.stringMatching(/Longitude in C5 is "41.9N", not a number: "N" is a latitude hemisphere/),
    ]);
    expect(result.conversions.some((c) => c.cell === "B5")).toBe(false);
  });

  it("warns about coordinates with fewer than 2 decimals, unpublished types and unreadable prices, without stopping the sync", () => {
    const result = validate([
      ["Paris", 48.8566, 2.3522, "Commercial", "$3,950,000.00"],
      ["Rome", 41.9, 12, "Multi-family dwelling", "€1.2m"],
      ["Oslo", "59.91", "10.75", "retail trade", "1.234,56"],
      ["Bern", 46.95, 7.45, "Multi-family dwelling", "n/a"],
    ]);
    expect(result.problems).toEqual([]);
    expect(result.assets).toHaveLength(4);
    expect(result.typeCells).toBe("Sites!D2:D5");
    expect(result.warnings.map((w) => `${w.cell}: ${english(w.message)}`)).toEqual([
      expect.stringMatching(/^B3: Latitude in B3 is 41.9, with 1 decimal: the service asks for at least 2/),
      expect.stringMatching(/^C3: Longitude in C3 is 12, with no decimals/),
      expect.stringMatching(/^E3: label:price in E3 is "€1.2m": the service reads a price as USD/),
      expect.stringMatching(/^E4: label:price in E4 is "1.234,56"/),
      expect.stringMatching(/^E5: label:price in E5 is "n\/a"/),
      expect.stringMatching(
        /^D3: label:type "Multi-family dwelling" \(D3, D5\) is not in the service's published list.*Closest published type: "Multifamily Dwelling"/,
      ),
      expect.stringMatching(/^D4: label:type "retail trade" \(D4\).*Closest published type: "Retail Trade"/),
    ]);
  });
});
