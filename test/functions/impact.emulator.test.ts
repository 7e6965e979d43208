import * as TypedRISK from "../../src/functions/functions";
import { column, inv, one, shown, useColumnSuite } from "./support/column-suite";
import { asExcelCalls } from "./support/excel-calls";

/**
 * RISK.IMPACT: the structural damage fraction of the extended summary, against
 * the emulator over HTTP, checked against the extended summary the client reads itself.
 */

const RISK = asExcelCalls(TypedRISK);
const suite = useColumnSuite();

test("a column of indexes and entity_ids gives structural_damage_<period> and its bounds from one extended-summary load", async () => {
  const items = await suite.fixture.client.datasets.extendedSummary("demo-portfolio", { scenario: "ssp585" }).all();
  await suite.fixture.resetStats();
  const byIndex = new Map(items.map((item) => [item.portfolio_index, item]));
  const id2 = byIndex.get(2)!.entity_id;
  const flood = (i: number) => byIndex.get(i)!.scenario_analytics!.ssp585!.flood!;

  const central = await RISK.impact(
    one("demo-portfolio"),
    column(0, 1, id2),
    one("floods"),
    one("ssp585"),
    one("2050"),
    null,
    inv(),
  );
  expect(central).toEqual([
    [flood(0).structural_damage_2050],
    [flood(1).structural_damage_2050],
    [flood(2).structural_damage_2050],
  ]);
  // Bounds across a row; periods down a column; a numeric period works.
  const grid = await RISK.impact(
    one("demo-portfolio"),
    one(0),
    one("flood"),
    one("ssp585"),
    column("baseline", 2080),
    [["lower", "central", "upper"]],
    inv(),
  );
  expect(grid).toEqual([
    [
      flood(0).structural_damage_baseline_lbd,
      flood(0).structural_damage_baseline,
      flood(0).structural_damage_baseline_ubd,
    ],
    [flood(0).structural_damage_2080_lbd, flood(0).structural_damage_2080, flood(0).structural_damage_2080_ubd],
  ]);
  for (const value of grid.flat()) expect(typeof value).toBe("number");
  expect(await suite.fixture.routes()).toEqual({ "GET /api/portfolios/:portfolio_name/datasets/physical/summary": 1 });
});

test("bad arguments and missing data are errors in their own rows, never 0", async () => {
  const result = shown(
    await RISK.impact(
      one("demo-portfolio"),
      column(0, 99_999, "no-such-id", 0),
      column("flood", "flood", "flood", "tsunami"),
      one("ssp585"),
      one("2050"),
      null,
      inv(),
    ),
  );
  expect(typeof result[0]![0]).toBe("number");
  expect(result[1]![0]).toMatchObject({ code: "#N/A", message: expect.stringContaining("99999") });
  expect(result[2]![0]).toMatchObject({ code: "#N/A", message: expect.stringContaining("no-such-id") });
  expect(result[3]![0]).toMatchObject({ code: "#N/A", message: expect.stringContaining("tsunami") });
  // A single cell shows its error itself (the call rejects, as Excel's single-cell form).
  await expect(
    RISK.impact(one("demo-portfolio"), one(0), one("flood"), one("ssp585"), one("2040"), null, inv()),
  ).rejects.toMatchObject({
    message: expect.stringContaining("period must be baseline, 2030, 2050, or 2080"),
  });
  await expect(
    RISK.impact(one("demo-portfolio"), one(0), one("flood"), one("ssp585"), one("2050"), one("middle"), inv()),
  ).rejects.toMatchObject({
    message: expect.stringContaining("bound must be central, lower, or upper"),
  });
});
