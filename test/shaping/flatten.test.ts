/** Flattening service data into sheet tables, and the safe-cell classification. */
import { zipSync, strToU8 } from "fflate";
import { flattenTimeseries } from "../../src/shaping/flatten-timeseries";
import { flattenSummary, flattenExtendedSummary } from "../../src/shaping/flatten-summary";
import { parseCsvTable, CsvParseError } from "../../src/shaping/csv-table";
import { unzipCsvFiles, sheetNameForFile } from "../../src/shaping/export-zip";
import { columnTextKinds, needsTextFormat, looksLikeFormula } from "../../src/shaping/safe-cells";
import type { PhysicalItem, SummaryItem, ExtendedSummaryItem } from "../../src/shaping/types";
import { TIMESERIES_HEADER_START } from "../support/fixtures";
import { SeriesValues } from "../../src/api/series-values";

/** A timeseries item; `exposure` is its `risk_exposure` as the service sends it. */
const item = (over: Partial<PhysicalItem>, exposure: Record<string, number> = {}): PhysicalItem => ({
  portfolio_name: "p",
  portfolio_index: 0,
  entity_id: "a",
  entity_name: "A",
  hazard: "wildfire",
  indicator: "unified_prob",
  scenario: "ssp585",
  measure: "mid",
  risk_exposure: SeriesValues.from(exposure),
  ...over,
});

describe("flattenTimeseries", () => {
  it("makes one row per item with the union of years sorted, numbers as numbers and gaps empty", () => {
    const table = flattenTimeseries([
      item({}, { "2031": 0.2, "2030": 0.1 }),
      item({ portfolio_index: 1, entity_id: "007", scenario: "ssp126" }, { "2029": 5, "2031": 0 }),
      item({ indicator: "obs_score" }, { "2019-07": 3, "2020-01": 4 }),
    ]);
    expect(table.header).toEqual([...TIMESERIES_HEADER_START, "2019-07", "2020-01", "2029", "2030", "2031"]);
    expect(table.firstYearColumn).toBe(7);
    expect(table.rows).toEqual([
      [0, "a", "A", "wildfire", "unified_prob", "ssp585", "mid", "", "", "", 0.1, 0.2],
      [1, "007", "A", "wildfire", "unified_prob", "ssp126", "mid", "", "", 5, "", 0],
      [0, "a", "A", "wildfire", "obs_score", "ssp585", "mid", 3, 4, "", "", ""],
    ]);
  });

  it("gives an empty table (header only) for no items", () => {
    expect(flattenTimeseries([]).rows).toEqual([]);
  });
});

describe("flattenSummary", () => {
  it("makes one row per asset × scenario × window with class and score per hazard", () => {
    const items: SummaryItem[] = [
      {
        portfolio_name: "p",
        portfolio_index: 0,
        entity_id: "a",
        entity_name: "A",
        window: 15,
        window_start_year: 2025,
        scenario: "ssp585",
        risk_summaries: [
          { hazard: "wildfire", risk_class: "HIGH", risk_score: 0.02 },
          { hazard: "cyclone", risk_class: "LOW", risk_score: 0.001 },
        ],
      },
      {
        portfolio_name: "p",
        portfolio_index: 0,
        entity_id: "a",
        entity_name: "A",
        window: 30,
        window_start_year: 2025,
        scenario: "ssp585",
        risk_summaries: [{ hazard: "wildfire", risk_class: "MEDIUM", risk_score: 0.005 }],
      },
    ];
    const table = flattenSummary(items);
    expect(table.header).toEqual([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "scenario",
      "window",
      "window_start_year",
      "cyclone_risk_class",
      "cyclone_risk_score",
      "wildfire_risk_class",
      "wildfire_risk_score",
    ]);
    expect(table.rows).toEqual([
      [0, "a", "A", "ssp585", 15, 2025, "LOW", 0.001, "HIGH", 0.02],
      [0, "a", "A", "ssp585", 30, 2025, "", "", "MEDIUM", 0.005],
    ]);
    expect(table.labelColumns).toEqual([6, 8]);
  });
});

describe("flattenExtendedSummary", () => {
  it("makes one row per asset × scenario with labels, coordinates and every metric", () => {
    const items: ExtendedSummaryItem[] = [
      {
        portfolio_name: "p",
        portfolio_index: 3,
        entity_id: "a",
        entity_name: "A",
        geometry: { type: "Point", coordinates: [8.5, 47.4] },
        labels: { country: "CH" },
        scenario_analytics: {
          ssp585: {
            flood: {
              summary_score_15yr: 0.02,
              summary_label_15yr: "MEDIUM",
              indicator_2050: 0.03,
              indicator_2050_lbd: 0.01,
            },
          },
          ssp126: { flood: { summary_score_15yr: 0.01, summary_label_15yr: "LOW", indicator_2050: 0.02 } },
        },
      },
    ];
    const table = flattenExtendedSummary(items);
    expect(table.header).toEqual([
      "portfolio_index",
      "entity_id",
      "entity_name",
      "lat",
      "lng",
      "label:country",
      "scenario",
      "flood_summary_label_15yr",
      "flood_summary_score_15yr",
      "flood_indicator_2050",
      "flood_indicator_2050_lbd",
    ]);
    expect(table.rows).toEqual([
      [3, "a", "A", 47.4, 8.5, "CH", "ssp126", "LOW", 0.01, 0.02, ""],
      [3, "a", "A", 47.4, 8.5, "CH", "ssp585", "MEDIUM", 0.02, 0.03, 0.01],
    ]);
    expect(table.labelColumns).toEqual([7]);
  });
});

describe("parseCsvTable", () => {
  it("parses numbers only in wholly numeric columns and keeps ids and leading zeros as text", () => {
    const csv =
      '\ufeffentity_id,score,zip,name,mixed\r\n1,0.5,0042,"Smith, J",3\r\n2,1e-3,0100,=HYPERLINK("x"),n/a\r\n3,,0200,"multi\nline",4\r\n';
    expect(parseCsvTable(csv)).toEqual({
      header: ["entity_id", "score", "zip", "name", "mixed"],
      rows: [
        ["1", 0.5, "0042", "Smith, J", "3"],
        ["2", 0.001, "0100", '=HYPERLINK("x")', "n/a"],
        ["3", "", "0200", "multi\nline", "4"],
      ],
    });
  });

  it("pads ragged rows, names blank headers and skips blank lines", () => {
    expect(parseCsvTable("a,,c\n1,2\n\n4,5,6,7\n")).toEqual({
      header: ["a", "column_2", "c", "column_4"],
      rows: [
        [1, 2, "", ""],
        [4, 5, 6, 7],
      ],
    });
    expect(parseCsvTable("")).toEqual({ header: [], rows: [] });
  });

  it("rejects a broken quote with the record number", () => {
    expect(() => parseCsvTable('a,b\n1,"unclosed\n', "layer.csv")).toThrow(CsvParseError);
    expect(() => parseCsvTable('a,b\n1,"unclosed\n', "layer.csv")).toThrow(/layer.csv/);
  });
});

describe("unzipCsvFiles", () => {
  it("returns every CSV in the archive as a table, sorted, skipping other files", () => {
    const zip = zipSync({
      "ssp585/summary.csv": strToU8("entity_id,score\nA1,0.2\n"),
      "exposure.csv": strToU8("entity_id,2030\n007,1.5\n"),
      "readme.txt": strToU8("hello"),
      "__MACOSX/._exposure.csv": strToU8("junk"),
    });
    const files = unzipCsvFiles(zip);
    expect(files).toEqual([
      { fileName: "exposure.csv", header: ["entity_id", "2030"], rows: [["007", 1.5]] },
      { fileName: "ssp585/summary.csv", header: ["entity_id", "score"], rows: [["A1", 0.2]] },
    ]);
    expect(sheetNameForFile("ssp585/summary.csv")).toBe("summary");
  });

  it("says clearly when the data is not a ZIP archive", () => {
    expect(() => unzipCsvFiles(strToU8('{"errors":["nope"]}'))).toThrow(/not a readable ZIP archive/);
  });
});

describe("safe cells", () => {
  it("writes every non-empty string as text and classifies columns", () => {
    expect(["=1", "+1", "-x", "@a", "\tx", "\rx"].every(looksLikeFormula)).toBe(true);
    expect(looksLikeFormula("plain")).toBe(false);
    expect([needsTextFormat("007"), needsTextFormat(""), needsTextFormat(7), needsTextFormat(true)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(
      columnTextKinds(
        [
          ["a", 1, "", 2],
          ["b", "x", "", 3],
        ],
        4,
      ),
    ).toEqual(["text", "mixed", "none", "none"]);
  });
});
