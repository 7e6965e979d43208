/** Validation of asset ranges: every problem names the cell a user must fix. */
import { mapHeader, normalizeLabelKey } from "../../../../../src/shaping/headers";
import { MAX_ASSETS } from "../../../../../src/shaping/limits";
import type { CellValue } from "../../../../../src/shaping/types";
import { validateAssetRange } from "../../../../../src/taskpane/features/sync/model/validate-assets";
import { english } from "../../../../support/english";

const header = ["Asset ID", "Name", "Latitude", "Longitude", "Country"];

function validate(rows: CellValue[][], address = "'Site list'!B3:F99", mergedAreas?: string[]) {
  return validateAssetRange({ values: [header, ...rows], address, mergedAreas });
}

function messages(rows: CellValue[][]) {
  return validate(rows).problems.map((p) => `${p.cell}: ${english(p.message)}`);
}

describe("header mapping", () => {
  it.each([
    ["Latitude", "lat"],
    ["lat", "lat"],
    ["Y", "lat"],
    ["LONGITUDE", "lng"],
    ["Long", "lng"],
    ["lon", "lng"],
    ["Lng", "lng"],
    ["x", "lng"],
    ["ID", "entity_id"],
    ["Entity ID", "entity_id"],
    ["asset_id", "entity_id"],
    ["Name", "entity_name"],
    ["Asset name", "entity_name"],
  ])("maps %s to %s", (text, field) => {
    expect(mapHeader(text)).toEqual({ kind: "field", field });
  });

  it("turns other columns into normalized labels and keeps explicit label: keys", () => {
    expect(mapHeader("Asset Type (2024)")).toEqual({ kind: "label", key: "asset_type_2024" });
    expect(mapHeader("label:Country")).toEqual({ kind: "label", key: "Country" });
    expect(mapHeader("  ")).toEqual({ kind: "ignored" });
    expect(normalizeLabelKey("Région – Île")).toBe("région_île");
  });
});

describe("validateAssetRange", () => {
  it("keeps a label named __proto__ as data, not as the labels' prototype", () => {
    const result = validateAssetRange({
      values: [
        ["id", "lat", "lng", "label:__proto__"],
        ["a", 1, 2, "polluted"],
      ],
      address: "Sheet1!A1:D2",
    });
    expect(result.problems).toEqual([]);
    const labels = result.assets[0].labels;
    expect(Object.getOwnPropertyDescriptor(labels, "__proto__")?.value).toBe("polluted");
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(JSON.stringify(labels)).toBe('{"__proto__":"polluted"}');
  });

  it("accepts a clean range and returns rows with sheet row numbers", () => {
    const result = validate([
      ["a1", "Zürich HQ", 47.37, "8.54", "CH"],
      [7, "東京", -35.6, 139.7, ""],
    ]);
    expect(result.problems).toEqual([]);
    expect(result.assets).toEqual([
      { entity_id: "a1", entity_name: "Zürich HQ", lat: 47.37, lng: 8.54, labels: { country: "CH" }, sheetRow: 4 },
      { entity_id: "7", entity_name: "東京", lat: -35.6, lng: 139.7, labels: { country: "" }, sheetRow: 5 },
    ]);
    expect(result.labelKeys).toEqual(["country"]);
  });

  it("flags coordinates out of range and text in number cells with their addresses", () => {
    const result = validate([
      ["a", "n", 91, 0, ""],
      ["b", "n", 0, -180.5, ""],
      ["c", "n", "north", 3, ""],
      ["d", "n", "1,5", 3, ""],
      ["e", "n", true, 3, ""],
    ]);
    expect(result.problems.map((p) => [p.address, p.row, p.column])).toEqual([
      ["'Site list'!D4", 4, "D"],
      ["'Site list'!E5", 5, "E"],
      ["'Site list'!D6", 6, "D"],
      ["'Site list'!D7", 7, "D"],
      ["'Site list'!D8", 8, "D"],
    ]);
    expect(english(result.problems[0].message)).toMatch(/Latitude in D4 is 91: it must be between -90 and 90/);
    expect(english(result.problems[1].message)).toMatch(/Longitude in E5 is -180.5/);
    expect(english(result.problems[2].message)).toMatch(/Latitude in D6 is "north", not a number/);
    expect(english(result.problems[3].message)).toMatch(/"1,5" \(decimal comma\): convert it to 1.5/);
    expect(result.conversions.map((c) => [c.address, c.before, c.after])).toEqual([["'Site list'!D7", "1,5", 1.5]]);
    expect(result.assets).toHaveLength(0);
  });

  it("flags blank required cells but allows blank ids and names", () => {
    expect(
      messages([
        ["", "", 1, 2, ""],
        ["x", "y", "", 2, ""],
        ["z", "y", 1, "  ", ""],
      ]),
    ).toEqual([
      "D5: Latitude is blank in D5: every asset needs one.",
      "E6: Longitude is blank in E6: every asset needs one.",
    ]);
  });

  it("flags duplicate entity ids at the repeat, naming the first", () => {
    const problems = validate([
      ["a", "n", 1, 1, ""],
      ["b", "n", 1, 1, ""],
      ["a", "n", 1, 1, ""],
      [" b ", "n", 1, 1, ""],
    ]).problems;
    expect(problems.map((p) => p.cell)).toEqual(["B6", "B7"]);
    expect(english(problems[0].message)).toBe('Entity id "a" in B6 repeats B4: ids must be unique.');
  });

  it("skips trailing empty rows but flags interior ones", () => {
    const result = validate([
      ["a", "n", 1, 1, ""],
      ["", "", "", "", ""],
      ["b", "n", 1, 1, ""],
      ["", "", "", "", ""],
      ["", "", "", "", ""],
    ]);
    expect(result.problems.map((p) => `${p.cell}: ${english(p.message)}`)).toEqual([
      "B5: Row 5 is empty: delete it or fill it, so the asset list has no gaps.",
    ]);
    expect(result.assets.map((a) => a.entity_id)).toEqual(["a", "b"]);
  });

  it("flags more than 5,000 rows once, at the first row over", () => {
    const rows: CellValue[][] = Array.from({ length: MAX_ASSETS + 1 }, (_, i) => [`id${i}`, "n", 1, 1, ""]);
    const problems = validate(rows).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0].cell).toBe(`B${3 + MAX_ASSETS + 1}`);
    expect(english(problems[0].message)).toMatch(/5,001 rows, but a portfolio holds at most 5,000/);
    expect(validate(rows.slice(1)).problems).toEqual([]);
  });

  it("flags a range cut short on reading that is over the limit", () => {
    const result = validateAssetRange({ values: [header, ["a", "n", 1, 1, ""]], address: "A1:E2", totalRows: 9_000 });
    expect(result.problems.map((p) => english(p.message))).toEqual([expect.stringMatching(/9,000 rows/)]);
  });

  it("requires a header row and latitude/longitude columns", () => {
    expect(
      validateAssetRange({
        values: [
          [47.1, 8.2],
          [46, 7],
        ],
        address: "A1:B2",
      }).problems.map((p) => english(p.message)),
    ).toEqual([
      "No header row: row 1 must name the columns (entity_id, entity_name, lat, lng, or labels), not hold data.",
    ]);
    const noLng = validateAssetRange({
      values: [
        ["id", "lat"],
        ["a", 1],
      ],
      address: "Sheet1!A1:B2",
    }).problems.map((p) => english(p.message));
    expect(noLng).toEqual(["No longitude column: name one lng, Longitude or Lon in the header row."]);
    expect(english(validateAssetRange({ values: [], address: "A1" }).problems[0].message)).toMatch(/range is empty/);
    expect(english(validateAssetRange({ values: [["lat", "lng"]], address: "A1:B1" }).problems[0].message)).toMatch(
      /no asset rows/,
    );
  });

  it("flags two columns meaning the same field, label: without a key and data under a blank header", () => {
    const result = validateAssetRange({
      values: [
        ["lat", "Latitude", "lng", "label:", ""],
        [1, 1, 2, "x", "stray"],
      ],
      address: "A1:E2",
    });
    expect(result.problems.map((p) => p.cell)).toEqual(["B1", "D1", "E1"]);
    expect(english(result.problems[0].message)).toMatch(/same column \(lat\) as A1/);
    expect(english(result.problems[2].message)).toMatch(/Column E has data but no header/);
  });

  it("ignores empty columns without data", () => {
    const result = validateAssetRange({
      values: [
        ["lat", "", "lng"],
        [1, "", 2],
      ],
      address: "A1:C2",
    });
    expect(result.problems).toEqual([]);
  });

  it("flags merged cells at their top-left cell", () => {
    const problems = validate([["a", "n", 1, 1, ""]], "'Site list'!B3:F4", ["'Site list'!C4:D4"]).problems;
    expect(problems.map((p) => [p.cell, english(p.message)])).toEqual([
      ["C4", "Merged cells at C4:D4: unmerge them so every value has its own cell."],
    ]);
  });

  it("flags very long names and labels but accepts long unicode within the limit", () => {
    const ok = "é".repeat(255);
    const long = "x".repeat(256);
    const problems = validate([
      [long, ok, 1, 1, ""],
      ["b", "🌍".repeat(256), 1, 1, "y".repeat(1_001)],
    ]).problems;
    expect(problems.map((p) => p.cell)).toEqual(["B4", "C5", "F5"]);
    expect(english(problems[1].message)).toBe("Entity name in C5 is 256 characters long: at most 255.");
  });

  it("keeps formula-looking text as data", () => {
    const result = validate([
      ['=HYPERLINK("http://x")', "+cmd", 1, 2, "@SUM(A1)"],
      ["-x", "=1+1", 3, 4, ""],
    ]);
    expect(result.problems).toEqual([]);
    expect(result.assets[0]).toMatchObject({
      entity_id: '=HYPERLINK("http://x")',
      entity_name: "+cmd",
      labels: { country: "@SUM(A1)" },
    });
  });

  it("lists at most 200 problems and says how many more there are", () => {
    const rows: CellValue[][] = Array.from({ length: 300 }, (_, i) => [`id${i}`, "n", "bad", 1, ""]);
    const problems = validate(rows).problems;
    expect(problems).toHaveLength(201);
    expect(english(problems[200].message)).toBe("…and 100 more problems not listed: fix these first.");
  });
});
