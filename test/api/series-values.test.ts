/** A timeseries item's values as the add-in holds them: what a paste or RISK.TIMESERIES reads back. */
import { SeriesShapes, SeriesValues } from "../../src/api/series-values";
import { AssetIndex } from "../../src/functions/asset-index";
import { LastGoodCache, MemoryStorage } from "../../src/functions/engine/last-good-cache";

describe("SeriesValues", () => {
  it("answers every value by key and by position, in the order the service sent them", () => {
    const monthly = SeriesValues.from({ "2019-07": 3, "2019-08": 0, "2020-01": -1.25 });
    expect(monthly.keys).toEqual(["2019-07", "2019-08", "2020-01"]);
    expect(monthly.size).toBe(3);
    expect([monthly.at(0), monthly.at(1), monthly.at(2)]).toEqual([3, 0, -1.25]);
    expect(monthly.get("2020-01")).toBe(-1.25);
    expect(monthly.get("2019-09")).toBeUndefined();

    // Year keys are array indices to JavaScript: they come in ascending order, as before.
    const yearly = SeriesValues.from({ "2031": 0.2, "2030": 0.1, "2100": 1e-9 });
    expect(yearly.keys).toEqual(["2030", "2031", "2100"]);
    expect(yearly.get("2100")).toBe(1e-9);
    expect(yearly.toRecord()).toEqual({ "2030": 0.1, "2031": 0.2, "2100": 1e-9 });
  });

  it("keeps a value that is not a number as it came (null stays null, text stays text)", () => {
    const odd = SeriesValues.from({ "2030": null, "2040": "n/a", "2050": 2 });
    expect(odd.get("2030")).toBeNull();
    expect(odd.get("2040")).toBe("n/a");
    expect(odd.get("2050")).toBe(2);
    expect(odd.toRecord()).toEqual({ "2030": null, "2040": "n/a", "2050": 2 });
  });

  it("is empty for an item without values", () => {
    for (const missing of [undefined, null, {}]) {
      const none = SeriesValues.from(missing);
      expect(none.keys).toEqual([]);
      expect(none.size).toBe(0);
      expect(none.get("2030")).toBeUndefined();
      expect(none.toRecord()).toEqual({});
    }
  });

  it("series of one read with the same keys share one key array; other keys get their own", () => {
    const shapes = new SeriesShapes();
    const a = SeriesValues.from({ "2030": 1, "2040": 2 }, shapes);
    const b = SeriesValues.from({ "2030": 3, "2040": 4 }, shapes);
    const c = SeriesValues.from({ "2030-01": 5 }, shapes);
    const d = SeriesValues.from({ "2030": 6, "2050": 7 }, shapes);
    expect(b.keys).toBe(a.keys);
    expect(c.keys).not.toBe(a.keys);
    expect(d.keys).toEqual(["2030", "2050"]);
    // Shared keys, values of their own.
    expect([a.get("2040"), b.get("2040"), d.get("2050"), d.get("2040")]).toEqual([2, 4, 7, undefined]);
  });
});

describe("RISK.TIMESERIES's series in the persistent cache", () => {
  it("read back after a restart, they answer as they did", async () => {
    const storage = new MemoryStorage();
    const index = new AssetIndex<SeriesValues>();
    index.put(0, "E0", SeriesValues.from({ "2030": 0.5, "2040": null }));
    index.put(1, "E1", SeriesValues.from({ "2019-07": 3 }));
    const before = new LastGoodCache(storage);
    before.set("series-key", index, 1_000);
    await before.flush();

    const after = await new LastGoodCache(storage).get("series-key"); // a restart: memory empty, storage not
    const read = after?.value as AssetIndex<SeriesValues>;
    expect(read).toBeInstanceOf(AssetIndex);
    expect(read.get(0)).toBeInstanceOf(SeriesValues);
    expect(read.get(0)!.keys).toEqual(["2030", "2040"]);
    expect([read.get(0)!.get("2030"), read.get(0)!.get("2040")]).toEqual([0.5, null]);
    expect(read.get(1)!.get("2019-07")).toBe(3);
    expect(read.resolve({ kind: "entity", entityId: "E1" }, "p")).toBe(1);
  });
});
