/**
 * The geocoder setting: none preset; https unless this machine; the public Nominatim held to its
 * usage policy; kept by the connection store (its storage, not the workbook) with its key.
 */
import { ConfigurationError } from "../../../../src/api/errors";
import { memoryStorage, useConnectionStorage } from "../../../../src/shared/connection";
import {
  bulkProblem,
  checkGeocoderSettings,
  forgetGeocoder,
  loadGeocoder,
  saveGeocoder,
  type GeocoderSettings,
} from "../../../../src/shared/geocoder-connection";

const base: GeocoderSettings = { kind: "pelias", url: "https://geo.example.com/", perSecond: 10, concurrency: 4 };

afterEach(() => useConnectionStorage(undefined));

test("https required, plain http only for this machine", () => {
  expect(checkGeocoderSettings(base).url).toBe("https://geo.example.com");
  expect(checkGeocoderSettings({ ...base, url: "http://127.0.0.1:4020" }).url).toBe("http://127.0.0.1:4020");
  expect(() => checkGeocoderSettings({ ...base, url: "http://geo.example.com" })).toThrow(
    /Geocoder URL must use https:\/\/ for geo.example.com/,
  );
  expect(() => checkGeocoderSettings({ ...base, url: "geo" })).toThrow(ConfigurationError);
  expect(() => checkGeocoderSettings({ ...base, concurrency: 0 })).toThrow(/at once must be 1 to 50/);
});

test("the public Nominatim: its format, an email, one at a time, at most one a second", () => {
  const publicOne = { ...base, url: "https://nominatim.openstreetmap.org", perSecond: 5, concurrency: 4 };
  expect(() => checkGeocoderSettings(publicOne)).toThrow(/speaks the Nominatim format/);
  expect(() => checkGeocoderSettings({ ...publicOne, kind: "nominatim" })).toThrow(/asks for a contact email/);
  expect(checkGeocoderSettings({ ...publicOne, kind: "nominatim", email: "ops@example.com" })).toMatchObject({
    perSecond: 1,
    concurrency: 1,
    email: "ops@example.com",
  });
});

test("at most 100 addresses a run to the public Nominatim; any number to another", () => {
  expect(bulkProblem({ url: "https://nominatim.openstreetmap.org" }, 100)).toBeUndefined();
  expect(bulkProblem({ url: "https://nominatim.openstreetmap.org" }, 101)).toMatch(
    /allows no bulk geocoding .* at most 100 addresses. Use your organisation's own geocoder for 101/,
  );
  expect(bulkProblem({ url: "https://nominatim.example.org" }, 5000)).toBeUndefined();
});

test("none preset; saved with its key in the connection store's storage; forgotten on request", async () => {
  const storage = memoryStorage();
  useConnectionStorage(storage);
  expect(await loadGeocoder()).toBeUndefined();
  await saveGeocoder({ ...base, apiKey: " k-123 " });
  expect(await loadGeocoder()).toMatchObject({ url: "https://geo.example.com", apiKey: "k-123" });
  expect(await storage.getItem("climate-risk.geocoder")).toContain("k-123");
  await forgetGeocoder();
  expect(await loadGeocoder()).toBeUndefined();
});
