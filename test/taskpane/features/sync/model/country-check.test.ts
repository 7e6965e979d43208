import { COUNTRY_TOLERANCE_KM, placeInCountry } from "../../../../../src/taskpane/features/sync/model/country-outlines";
import {
  checkCountries,
  fixCellChanges,
  ORIGINALS_HEADER,
} from "../../../../../src/taskpane/features/sync/model/country-check";
import { validateAssetRange } from "../../../../../src/taskpane/features/sync/model/validate-assets";
import { english } from "../../../../support/english";

/** Points against Natural Earth's 1:50m outlines, as the sync's check reads them. */

test("points inside their country pass", () => {
  expect(placeInCountry("FR", 48.85, 2.35)).toEqual({ kind: "inside" });
  expect(placeInCountry("DE", 52.52, 13.405)).toEqual({ kind: "inside" });
  expect(placeInCountry("US", 39.0, -98.0)).toEqual({ kind: "inside" });
});

test.each([
  ["Miami Beach", "US", 25.79, -80.13],
  ["Mumbai", "IN", 19.07, 72.87],
  ["Singapore", "SG", 1.29, 103.85],
  ["Valletta", "MT", 35.8989, 14.5146],
  ["Monaco", "MC", 43.7384, 7.4246],
  ["Hong Kong", "HK", 22.3193, 114.1694],
])("%s on the coast or in a small country is inside or near its edge, never outside", (_, country, lat, lng) => {
  const place = placeInCountry(country, lat, lng);
  expect(["inside", "near-edge"]).toContain(place.kind);
  if (place.kind === "near-edge") expect(place.distanceKm).toBeLessThanOrEqual(COUNTRY_TOLERANCE_KM);
});

test("the coarse coast: Miami Beach and Monaco lie just off the 1:50m outline, within the tolerance", () => {
  expect(placeInCountry("US", 25.79, -80.13)).toMatchObject({ kind: "near-edge" });
  expect(placeInCountry("MC", 43.7384, 7.4246)).toMatchObject({ kind: "near-edge" });
});

test("a point in the sea 60 km off the coast is outside, with no fix", () => {
  const place = placeInCountry("FR", 42.3, 5.0);
  expect(place).toEqual({ kind: "outside", nearFixes: [] });
});

test("the tolerance: off a straight coast (Landes, 44° N), about 20 km out is near the edge, 35 km out is outside", () => {
  const near = placeInCountry("FR", 44.0, -1.58);
  expect(near.kind).toBe("near-edge");
  if (near.kind === "near-edge") {
    expect(near.distanceKm).toBeGreaterThan(15);
    expect(near.distanceKm).toBeLessThanOrEqual(COUNTRY_TOLERANCE_KM);
  }
  expect(placeInCountry("FR", 44.0, -1.8).kind).toBe("outside");
});

test("Paris written as 2.35, 48.85 in France: the swap lies well inside, and is offered", () => {
  const place = placeInCountry("FR", 2.35, 48.85);
  expect(place).toMatchObject({ kind: "outside", fix: { kind: "swap", lat: 48.85, lng: 2.35 } });
});

test("Denver with a lost minus sign in the US: the sign fix is offered", () => {
  expect(placeInCountry("US", 39.74, 104.99)).toMatchObject({
    kind: "outside",
    fix: { kind: "lng-sign", lat: 39.74, lng: -104.99 },
  });
});

test("New York with a lost minus sign: the corrected point is on the coast, not well inside, so it is named but not offered", () => {
  const place = placeInCountry("US", 40.7, 74.0);
  expect(place.kind).toBe("outside");
  if (place.kind !== "outside") return;
  expect(place.fix).toBeUndefined();
  expect(place.nearFixes).toEqual([{ kind: "lng-sign", lat: 40.7, lng: -74 }]);
});

test("a country without an outline in the 1:50m map is not checkable", () => {
  expect(placeInCountry("GI", 36.14, -5.35)).toEqual({ kind: "no-outline" });
  expect(placeInCountry("TV", -8.52, 179.2)).toEqual({ kind: "no-outline" });
});

test("Kosovo, whose outline has no ISO number in world-atlas, is checked by its name", () => {
  expect(placeInCountry("XK", 42.66, 21.16)).toEqual({ kind: "inside" });
});

const RANGE = [
  ["Site", "lat", "lng", "Country"],
  ["Paris", 48.85, 2.35, "France"],
  ["Paris swapped", 2.35, 48.85, "FR"],
  ["Miami Beach", 25.79, -80.13, "USA"],
  ["Gibraltar", 36.14, -5.35, "Gibraltar"],
  ["Somewhere", 50.1, 8.6, "Europe"],
  ["No country", 10, 10, ""],
  ["Gulf of Lion", 42.3, 5.0, "Frankreich"],
];

test("a range: each finding with its cell, the fix previewed cell by cell, the original kept beside the range", () => {
  const address = "Sites!A1:D8";
  const validation = validateAssetRange({ values: RANGE, address });
  const check = checkCountries(RANGE, address, validation)!;
  expect(check.checked).toBe(4);
  expect(check.inside).toBe(1);
  expect(check.findings.map((f) => [f.kind, f.problem.cell])).toEqual([
    ["outside", "B3"],
    ["near-edge", "B4"],
    ["no-outline", "D5"],
    ["not-a-country", "D6"],
    ["outside", "B8"],
  ]);
  expect(english(check.findings[0]!.problem.message)).toMatch(
    /^B3, C3: 2.35, 48.85 lies more than 25 km outside France \(FR\) \(D3\)\. With lat and lng swapped it is 48.85, 2.35, well inside/,
  );
  expect(english(check.findings[1]!.problem.message)).toMatch(/near a border or coast, not checked/);
  expect(english(check.findings[2]!.problem.message)).toMatch(/Gibraltar \(GI\) has no outline.*not checkable/);
  expect(check.findings[4]!.fix).toBeUndefined();
  expect(fixCellChanges(check, "")).toEqual([
    { address: "Sites!E1", cell: "E1", before: "", after: ORIGINALS_HEADER },
    { address: "Sites!B3", cell: "B3", before: "2.35", after: 48.85 },
    { address: "Sites!C3", cell: "C3", before: "48.85", after: 2.35 },
    { address: "Sites!E3", cell: "E3", before: "", after: "2.35, 48.85" },
  ]);
  // A header already there (an earlier fix) is not written again.
  expect(fixCellChanges(check, ORIGINALS_HEADER).map((c) => c.cell)).toEqual(["B3", "C3", "E3"]);
});

test("a range without a country column is not checked", () => {
  const values = RANGE.map((row) => row.slice(0, 3));
  expect(checkCountries(values, "A1:C8", validateAssetRange({ values, address: "A1:C8" }))).toBeUndefined();
});
