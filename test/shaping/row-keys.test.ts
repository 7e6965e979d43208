/** Row keys of pasted tables, asset identity, the per-cell record and the plan of a refresh by key. */
import {
  ROW_KEYS,
  RowKeyError,
  assetIdentity,
  describeKey,
  exportKeySpec,
  keyKindChange,
  keyRows,
} from "../../src/shaping/row-keys";
import { cellDigest, changedColumns, planKeyedRefresh, rowDigest } from "../../src/shaping/keyed-diff";

const SUMMARY_HEADER = ["portfolio_index", "entity_id", "entity_name", "scenario", "window", "flood_risk_score"];

describe("asset identity", () => {
  it("uses entity_id when every asset has a distinct one, whatever its portfolio_index", () => {
    const before = assetIdentity([
      { portfolio_index: 0, entity_id: "A" },
      { portfolio_index: 1, entity_id: "B" },
    ]);
    // The same asset B after A was removed from the import: index 0 now, same key.
    const after = assetIdentity([{ portfolio_index: 0, entity_id: "B" }]);
    expect(before.kind).toBe("entity_id");
    expect(after.kind === "entity_id" && after.keyOf.get(0)).toBe(before.kind === "entity_id" && before.keyOf.get(1));
  });

  it("falls back to name and location when ids repeat or are missing, and names the assets that still collide", () => {
    const named = assetIdentity([
      { portfolio_index: 0, entity_id: "", entity_name: "Depot", lat: 51.5, lng: -0.12 },
      { portfolio_index: 1, entity_id: "", entity_name: "Depot", lat: 48.8, lng: 2.35 },
    ]);
    expect(named.kind).toBe("name_location");
    const colliding = assetIdentity([
      { portfolio_index: 0, entity_id: "X", entity_name: "Depot", lat: 51.5, lng: -0.12 },
      { portfolio_index: 1, entity_id: "X", entity_name: "Depot", lat: 51.5, lng: -0.12 },
      { portfolio_index: 2, entity_id: "Y", entity_name: "Mill", lat: 1, lng: 2 },
    ]);
    expect(colliding).toEqual({
      kind: "colliding",
      missingIds: 0,
      collisions: [{ shared: '"Depot" at 51.5, -0.12', portfolioIndexes: [0, 1] }],
    });
  });
});

describe("keyRows", () => {
  const rows = [
    [0, "A", "North", "ssp585", 30, 0.2],
    [0, "A", "North", "ssp126", 30, 0.1],
    [1, "B", "South", "ssp585", 30, 0.5],
  ];

  it("keys a summary by asset, scenario and window", () => {
    const keyed = keyRows(ROW_KEYS.summary, SUMMARY_HEADER, rows);
    expect(keyed.assetKind).toBe("entity_id");
    expect(keyed.keys.map(describeKey)).toEqual(["id:A · ssp585 · 30", "id:A · ssp126 · 30", "id:B · ssp585 · 30"]);
  });

  it("takes coordinates from the portfolio's asset list when the table has none and ids do not tell assets apart", () => {
    const noIds = rows.map((r) => [r[0], "", ...r.slice(2)]);
    expect(() => keyRows(ROW_KEYS.summary, SUMMARY_HEADER, noIds)).toThrow(RowKeyError);
    const keyed = keyRows(ROW_KEYS.summary, SUMMARY_HEADER, noIds, [
      { portfolio_index: 0, entity_name: "North", lat: 10, lng: 20 },
      { portfolio_index: 1, entity_name: "South", lat: -10, lng: 20 },
    ]);
    expect(keyed.assetKind).toBe("name_location");
    expect(describeKey(keyed.keys[2])).toBe("South (-10, 20) · ssp585 · 30");
  });

  it("names the rows that repeat a key", () => {
    expect(() => keyRows(ROW_KEYS.summary, SUMMARY_HEADER, [rows[0], rows[0]])).toThrow(/Rows 1 and 2/);
  });

  it("keys an export file by what its header has", () => {
    expect(exportKeySpec(["portfolio_index", "entity_id", "hazard", "scenario", "value"])).toEqual({
      asset: true,
      columns: ["hazard", "scenario"],
    });
    expect(exportKeySpec(["name", "value"])).toEqual({ asset: false, columns: ["name"] });
  });

  it("says when the key kind changed since the paste", () => {
    expect(keyKindChange({ asset: true, columns: [], assetKind: "entity_id" }, "name_location")).toEqual({
      before: "entity_id",
      now: "name_location",
    });
    expect(keyKindChange({ asset: true, columns: [], assetKind: "entity_id" }, "entity_id")).toBeUndefined();
  });
});

describe("the record of what was written", () => {
  it("finds the cells whose values changed, and costs 4 characters a cell", () => {
    const written = ["A", 0.25, "", true];
    const digest = rowDigest(written);
    expect(digest).toHaveLength(16);
    expect(changedColumns(written, digest)).toEqual([]);
    expect(changedColumns(["A", 0.3, "typed", true], digest)).toEqual([1, 2]);
    expect(cellDigest(1)).not.toBe(cellDigest("1"));
  });

  it("reads a -0 the service sent as the 0 Excel shows, in records written before issue 41 too", () => {
    // Excel holds no negative zero: a "-0.0" in an answer is written, and read back, as 0.
    expect(rowDigest(["A", -0, 0.5])).toBe(rowDigest(["A", 0, 0.5]));
    expect(changedColumns(["A", 0, 0.5], rowDigest(["A", -0, 0.5]))).toEqual([]);
    // What the add-in before issue 41 recorded for that row (computed by that version's code).
    const recordedBefore = "UdHhQsJ-IsIr";
    expect(recordedBefore).not.toBe(rowDigest(["A", 0, 0.5]));
    expect(changedColumns(["A", 0, 0.5], recordedBefore)).toEqual([]);
    expect(changedColumns(["A", 0.2, 0.5], recordedBefore)).toEqual([1]);
    expect(changedColumns(["A", "0", 0.5], recordedBefore)).toEqual([1]);
  });

  it("digests a row as its cells' digests in order, the widest sheet's too, and pads to a width", () => {
    const wide = Array.from({ length: 16_384 }, (_, c) => (c % 3 === 0 ? `text ${c}` : c % 3 === 1 ? c / 7 : ""));
    const digest = rowDigest(wide);
    expect(digest).toBe(wide.map((v) => cellDigest(v)).join(""));
    expect(changedColumns(wide, digest)).toEqual([]);
    expect(rowDigest(["A"], 3)).toBe(cellDigest("A") + cellDigest("") + cellDigest(""));
  });
});

describe("planKeyedRefresh", () => {
  it("keeps rows in the analyst's order, removes what the service dropped, appends what is new, holds back rows deleted by hand", () => {
    // The analyst sorted: c, a, b; deleted d by hand; typed a row of their own (undefined key).
    const plan = planKeyedRefresh(["c", "a", undefined, "b"], new Set(["a", "b", "c", "d"]), ["b", "c", "d", "e"]);
    expect(plan).toEqual({
      kept: [
        { position: 0, newRow: 1 },
        { position: 3, newRow: 0 },
      ],
      removed: [1],
      added: [3],
      deletedByHand: [2],
      unknown: [2],
    });
    expect(planKeyedRefresh(["a"], new Set(["a", "d"]), ["a", "d"], new Set(["d"])).added).toEqual([1]);
  });
});
