/**
 * Which rows a geocoder is asked about, and what is sent: only rows without coordinates, only the
 * address columns, free text or structured parts restricted to the row's country; empty or
 * unreadable addresses and countries listed with their cells.
 */
import { addressRows, normalisedQuery } from "../../../../../../src/taskpane/features/sync/model/geocode/address-rows";
import {
  estimateMs,
  formatEstimate,
  retryDelayMs,
} from "../../../../../../src/taskpane/features/sync/model/geocode/pace";
import {
  hazardCellsKm,
  hazardsTooCoarseFor,
  placeFlags,
} from "../../../../../../src/taskpane/features/sync/model/geocode/preview";
import type { FoundPlace } from "../../../../../../src/taskpane/features/sync/model/geocode/found-place";
import { english } from "../../../../../support/english";

describe("rows to geocode", () => {
  test("free text from an Address column, restricted to the row's country; rows with coordinates left alone", () => {
    const found = addressRows(
      [
        ["Site", "Address", "Country", "lat", "lng", "Owner"],
        ["A", "10 Downing Street, London", "UK", "", "", "Ann"],
        ["B", "Rue de Rivoli, Paris", "", 48.86, 2.34, "Bob"],
        ["C", "Unter den Linden 77, Berlin", "Deutschland", "", "", "Cy"],
      ],
      "'Sites'!B2:G5",
    );
    expect(found.rows.map((r) => [r.sheetRow, r.query])).toEqual([
      [3, { text: "10 Downing Street, London", country: "GB" }],
      [5, { text: "Unter den Linden 77, Berlin", country: "DE" }],
    ]);
    expect(found.withCoordinates).toBe(1);
    expect(found.sentColumns).toEqual(["Address", "Country"]);
    expect(found.latColumn).toBe(3);
    expect(found.problems).toEqual([]);
  });

  test("split columns make a structured search; the Owner column is never sent", () => {
    const found = addressRows(
      [
        ["Street", "Postcode", "City", "Country", "Owner"],
        ["Unter den Linden 77", "10117", "Berlin", "DE", "Ann"],
      ],
      "A1:E2",
    );
    expect(found.rows[0]!.query).toEqual({
      parts: { street: "Unter den Linden 77", postcode: "10117", city: "Berlin" },
      country: "DE",
    });
    expect(found.sentColumns).toEqual(["Street", "Postcode", "City", "Country"]);
  });

  test("empty and unreadable addresses and countries are listed with their cells", () => {
    const found = addressRows(
      [
        ["Address", "Country", "Owner"],
        ["", "FR", "Ann"],
        ["#N/A", "", ""],
        ["---", "", ""],
        ["1 Main St, Springfield", "Atlantis", ""],
      ],
      "'Sites'!A1:C5",
    );
    expect(found.rows).toEqual([]);
    expect(found.problems.map((p) => [p.address, english(p.message).slice(0, 30)])).toEqual([
      ["Sites!A2", "No address and no coordinates:"],
      ["Sites!A3", "“#N/A” is not an address: writ"],
      ["Sites!A4", "“---” is not an address: write"],
      ["Sites!B5", "“Atlantis” is not a country th"],
    ]);
  });

  test("a range without address columns asks nothing", () => {
    expect(
      addressRows(
        [
          ["entity_id", "lat", "lng"],
          ["a", "", ""],
        ],
        "A1:C2",
      ).rows,
    ).toEqual([]);
  });

  test("the cache key ignores case, spacing and punctuation runs, not the country", () => {
    expect(normalisedQuery({ text: "10  Downing St., LONDON" })).toBe(
      normalisedQuery({ text: "10 downing st london" }),
    );
    expect(normalisedQuery({ text: "Paris", country: "FR" })).not.toBe(
      normalisedQuery({ text: "Paris", country: "US" }),
    );
  });
});

describe("the pace said before starting", () => {
  test("the binding limit sets the time: the rate, or the concurrency", () => {
    expect(estimateMs(60, { perSecond: 1, concurrency: 1, latencyMs: 100 })).toBe(59_100);
    expect(estimateMs(1000, { perSecond: 20, concurrency: 4, latencyMs: 50 })).toBe(49_950 + 50);
    expect(estimateMs(5000, { perSecond: 1000, concurrency: 20, latencyMs: 100 })).toBe(
      25_019, // the first 20 start 1 ms apart
    );
    expect(estimateMs(0, { perSecond: 1, concurrency: 1, latencyMs: 100 })).toBe(0);
    expect(formatEstimate(59_100)).toBe("about 59 s");
    expect(formatEstimate(125_000)).toBe("about 2 min 5 s");
  });

  test("Retry-After in seconds or as a date where readable; else exponential back-off", () => {
    expect(retryDelayMs("3", 0)).toBe(3000);
    expect(retryDelayMs(new Date(10_000).toUTCString(), 0, 4_000)).toBe(6000);
    expect(retryDelayMs(null, 0)).toBe(1000);
    expect(retryDelayMs(null, 3)).toBe(8000);
    expect(retryDelayMs("soon", 10)).toBe(60_000);
  });
});

describe("the preview's flags", () => {
  const place = (over: Partial<FoundPlace>): FoundPlace => ({
    lat: 39.78,
    lng: -89.65,
    label: "Springfield",
    precision: "address",
    source: "g",
    ...over,
  });

  test("ambiguous when another place as likely lies elsewhere; low confidence; coarser than street", () => {
    expect(placeFlags([place({})])).toEqual([]);
    expect(
      placeFlags([
        place({ precision: "city", confidence: 0.6 }),
        place({ precision: "city", lat: 42.1, lng: -72.59, confidence: 0.6 }),
      ]),
    ).toEqual(["ambiguous", "low confidence", "coarser than street"]);
    // The same place twice (within a kilometre) is not ambiguous; a much less likely one neither.
    expect(placeFlags([place({}), place({ lat: 39.781 })])).toEqual([]);
    expect(placeFlags([place({ confidence: 0.95 }), place({ lat: 42.1, confidence: 0.5 })])).toEqual([]);
    expect(placeFlags([place({ precision: "street" })])).toEqual([]);
    expect(placeFlags([place({ precision: "postcode" })])).toEqual(["coarser than street"]);
  });

  test("the hazards whose grid cell is finer than the point's precision", () => {
    const cells = hazardCellsKm([
      { hazard: "flood", indicator: "a", unit: "m", value_min: 0, value_max: 1, spatial_resolution: 0.001 },
      { hazard: "flood", indicator: "b", unit: "m", value_min: 0, value_max: 1, spatial_resolution: 0.01 },
      { hazard: "heat", indicator: "c", unit: "C", value_min: 0, value_max: 1, spatial_resolution: 0.25 },
    ]);
    expect(hazardsTooCoarseFor("address", cells)).toEqual([]);
    expect(hazardsTooCoarseFor("street", cells)).toEqual(["flood"]);
    expect(hazardsTooCoarseFor("city", cells)).toEqual(["flood"]);
    expect(hazardsTooCoarseFor("region", cells)).toEqual(["flood", "heat"]);
  });
});
