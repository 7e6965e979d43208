import { StaleCells } from "../../src/functions/engine/stale-cells";

const FAILED = { showing: "error" as const, reason: "Cannot reach the risk service" };

test("the pane's list of stale cells is in reading order, whatever order the loads failed in", () => {
  const stale = new StaleCells();
  // Loads fail concurrently: this is one order they may fail in.
  for (const cell of ["Sheet10!A1", "Sheet2!C4", "Sheet2!AA2", "Sheet2!C3", "'My assets'!B2", "Sheet2!B3"])
    stale.record(cell, `search:${cell}`, FAILED);
  expect(stale.list().map((line) => line.address)).toEqual([
    "'My assets'!B2",
    "Sheet2!AA2",
    "Sheet2!B3",
    "Sheet2!C3",
    "Sheet2!C4",
    "Sheet10!A1",
  ]);
});

test("the same failures recorded in another order give the same list", () => {
  const cells = ["Sheet1!C4", "Sheet1!C2", "Sheet1!C3"];
  const lists = [cells, [...cells].reverse()].map((order) => {
    const stale = new StaleCells();
    for (const cell of order) stale.record(cell, `search:${cell}`, FAILED);
    return stale.list().map((line) => line.address);
  });
  expect(lists[0]).toEqual(["Sheet1!C2", "Sheet1!C3", "Sheet1!C4"]);
  expect(lists[1]).toEqual(lists[0]);
});
