import {
  cacheKey,
  dataKeyOfCacheKey,
  formatDataKey,
  parseDataKey,
  type DataKey,
} from "../../src/functions/engine/cache-key";

const KEYS: DataKey[] = [
  { kind: "search", lat: 51.5, lng: -0.12 },
  { kind: "summary", portfolio: "sites", scenario: "ssp585", window: 30 },
  { kind: "extended", portfolio: "sites", scenario: "ssp126" },
  {
    kind: "items",
    portfolio: "sites",
    hazard: "wildfire",
    scenario: "ssp585",
    indicator: "unified_prob",
    measure: "mid",
  },
  { kind: "assets", portfolio: "sites" },
  { kind: "projects" },
  { kind: "portfolios" },
  { kind: "layer", vector: "7", portfolio: "sites" },
  { kind: "nature-subprojects" },
  { kind: "nature-export", id: "abc" },
];

test("every data key reads back as itself", () => {
  for (const key of KEYS) expect(parseDataKey(formatDataKey(key))).toEqual(key);
});

test("the texts stay those stored by earlier versions, so persistent last good values still answer", () => {
  expect(KEYS.map(formatDataKey)).toEqual([
    "search|51.5|-0.12",
    "summary|sites|ssp585|30",
    "extended|sites|ssp126",
    "items|sites|wildfire|ssp585|unified_prob|mid",
    "assets|sites",
    "projects",
    "portfolios",
    "layer|7|sites",
    "nature|subprojects",
    "nature|export|abc",
  ]);
});

test("a | or % inside a name does not shift the fields after it", () => {
  const key: DataKey = { kind: "layer", vector: "roads|50%", portfolio: "sites" };
  expect(formatDataKey(key)).toBe("layer|roads%7C50%25|sites");
  expect(parseDataKey(formatDataKey(key))).toEqual(key);
});

test("text no loader builds names no data key", () => {
  expect(parseDataKey("k")).toBeUndefined();
  expect(parseDataKey("summary|sites")).toBeUndefined();
});

test("the connection prefix comes off whole, whatever the connection key holds", () => {
  const full = cacheKey("http://127.0.0.1:4010|http://x/nature|demo|f00d", "assets|sites");
  expect(dataKeyOfCacheKey(full)).toBe("assets|sites");
});
