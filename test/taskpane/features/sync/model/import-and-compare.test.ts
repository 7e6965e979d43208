/** The import CSV and the "already holds exactly these assets" check. */
import Papa from "papaparse";
import type { Asset } from "../../../../../src/shaping/types";
import { buildImportCsv } from "../../../../../src/taskpane/features/sync/model/import-csv";
import { portfolioHoldsExactly } from "../../../../../src/taskpane/features/sync/model/same-assets";
import { validateAssetRange } from "../../../../../src/taskpane/features/sync/model/validate-assets";

const rows = validateAssetRange({
  values: [
    ["id", "name", "lat", "lng", "Country", "Note"],
    ["a,1", 'The "HQ"', 47.5, 8.25, "CH", '=HYPERLINK("http://evil")'],
    ["b", "Line\nbreak", -33.9, 151.2, "AU", "+cmd"],
    ["c", "東京 – Ōta", 35.6, 139.7, "", "@SUM(1)"],
  ],
  address: "A1:F4",
});

describe("buildImportCsv", () => {
  it("writes the service's import header and quotes what needs quoting, keeping values as typed", () => {
    expect(rows.problems).toEqual([]);
    const csv = buildImportCsv(rows.assets, rows.labelKeys);
    expect(csv.split("\r\n")[0]).toBe("entity_id,entity_name,lat,lng,label:country,label:note");
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ["entity_id", "entity_name", "lat", "lng", "label:country", "label:note"],
      ["a,1", 'The "HQ"', "47.5", "8.25", "CH", '=HYPERLINK("http://evil")'],
      ["b", "Line\nbreak", "-33.9", "151.2", "AU", "+cmd"],
      ["c", "東京 – Ōta", "35.6", "139.7", "", "@SUM(1)"],
    ]);
    expect(csv).toContain('"The ""HQ"""');
    expect(csv).not.toContain("'=HYPERLINK");
  });
});

describe("portfolioHoldsExactly", () => {
  const asAssets = (): Asset[] =>
    rows.assets.map((a, i) => ({
      portfolio_name: "p",
      portfolio_index: i,
      entity_id: a.entity_id,
      entity_name: a.entity_name,
      lat: a.lat,
      lng: a.lng,
      labels: Object.fromEntries(Object.entries(a.labels).filter(([, v]) => v !== "")),
    }));

  it("is true for the same assets in any listing order", () => {
    expect(portfolioHoldsExactly(asAssets().reverse(), rows.assets)).toBe(true);
  });

  it("is false when anything differs", () => {
    const changed = (f: (a: Asset[]) => void): boolean => {
      const list = asAssets();
      f(list);
      return portfolioHoldsExactly(list, rows.assets);
    };
    expect(changed((l) => (l[1].lat += 0.001))).toBe(false);
    expect(changed((l) => (l[0].entity_name = "other"))).toBe(false);
    expect(changed((l) => (l[2].labels = { country: "JP", note: "@SUM(1)" }))).toBe(false);
    expect(changed((l) => l.pop())).toBe(false);
    expect(changed((l) => ([l[0].portfolio_index, l[1].portfolio_index] = [1, 0]))).toBe(false);
    expect(portfolioHoldsExactly([], [])).toBe(true);
  });
});
