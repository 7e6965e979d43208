import {
  findCitiesOffline,
  OFFLINE_CITIES_SOURCE,
} from "../../../../../../src/taskpane/features/sync/model/geocode/offline-cities";

/** The offline city lookup over the real GeoNames list the package ships (no network). */

test("a city named once in its country: one city centre, flagged as such, without confidence", async () => {
  const found = await findCitiesOffline({ city: "Lyon", country: "France" });
  expect(found).toHaveLength(1);
  const [lyon] = found;
  expect(lyon).toMatchObject({ precision: "city", country: "FR", source: OFFLINE_CITIES_SOURCE });
  expect(lyon!.confidence).toBeUndefined();
  expect(lyon!.lat).toBeCloseTo(45.75, 1);
  expect(lyon!.lng).toBeCloseTo(4.85, 1);
  expect(lyon!.label).toMatch(/^Lyon, .+, FR$/);
});

test("case, diacritics and the country's spelling do not matter", async () => {
  const a = await findCitiesOffline({ city: "  zürich ", country: "CH" });
  const b = await findCitiesOffline({ city: "ZURICH", country: "Suisse" });
  expect(a.map((p) => p.label)).toEqual(b.map((p) => p.label));
  expect(a.length).toBeGreaterThanOrEqual(1);
  expect(a.every((p) => p.country === "CH")).toBe(true);
});

test("a name that repeats in the country gives every match, each with its division, so the row is flagged ambiguous", async () => {
  const found = await findCitiesOffline({ city: "Springfield", country: "US" });
  expect(found.length).toBeGreaterThan(5);
  expect(found.every((p) => p.country === "US" && p.precision === "city")).toBe(true);
  expect(found.map((p) => p.label)).toContain("Springfield, Illinois, US");
  expect(found.map((p) => p.label)).toContain("Springfield, Massachusetts, US");
  // The labels tell the matches apart for the analyst.
  expect(new Set(found.map((p) => `${p.lat},${p.lng}`)).size).toBe(found.length);
});

test("the country restricts: Paris in France is one place, without a country it is several", async () => {
  const inFrance = await findCitiesOffline({ city: "Paris", country: "FR" });
  expect(inFrance).toHaveLength(1);
  expect(inFrance[0]!.lat).toBeCloseTo(48.85, 1);
  const anywhere = await findCitiesOffline({ city: "Paris" });
  expect(anywhere.length).toBeGreaterThan(1);
  expect(anywhere.map((p) => p.country)).toEqual(expect.arrayContaining(["FR", "US"]));
});

test("an unknown city, an empty one or a country that names no country finds nothing", async () => {
  expect(await findCitiesOffline({ city: "Xyzzyville", country: "DE" })).toEqual([]);
  expect(await findCitiesOffline({ city: "   " })).toEqual([]);
  expect(await findCitiesOffline({ city: "Berlin", country: "Europe" })).toEqual([]);
  // Berlin exists, but not in Portugal.
  expect(await findCitiesOffline({ city: "Berlin", country: "PT" })).toEqual([]);
});
