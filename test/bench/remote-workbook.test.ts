import { HarnessCustomFunctionError } from "../../harness/custom-functions-registry";
import { RemoteWorkbook } from "../../bench/workbook-worker/remote-excel";
import { refreshPastedSheetsWithoutPane } from "../../src/taskpane/features/pasted";
import { PASTE_KINDS } from "../../src/taskpane/features/paste-kinds";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import type { ExcelRunner } from "../../src/excel/runner";
import { newWorkbook, usePaneTestService } from "../taskpane/support";

/**
 * The weekly refresh's benchmark runs Excel (the fake workbook and its calculation) in a worker
 * thread and the add-in's batches reach it as JSON (bench/workbook-worker). Its figures are only
 * worth something if the add-in there does exactly what it does against the fake in its own
 * thread: these tests run the same work on both and compare what the analyst would see.
 */
const service = usePaneTestService();
const PORTFOLIO = "demo-portfolio";

let remote: RemoteWorkbook;
const functions = {
  DOUBLE: async (x: unknown) => Number(x) * 2,
  MISSING: async () => {
    throw new HarnessCustomFunctionError("#N/A", "no such asset");
  },
  TABLE: async (n: unknown) => Array.from({ length: Number(n) }, (_, i) => [i, `row ${i}`]),
};
beforeAll(async () => {
  remote = await RemoteWorkbook.start(
    Object.fromEntries(
      Object.entries(functions).map(([name, fn]) => [
        name,
        // Declared parameters, then the invocation: the engine passes as many as the function declares.
        Object.defineProperty((...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args), "length", {
          value: 2,
        }),
      ]),
    ),
  );
}, 30_000);
afterAll(() => remote.close());

/**
 * Every sheet's cells, but those holding times or random locators (the sources sheet, the written
 * stores); of the provenance store, which sheets it has a record for.
 */
async function comparableCells(
  names: string[],
  read: (sheet: string, address: string) => unknown[][] | Promise<unknown[][]>,
  used: (sheet: string) => string | null | Promise<string | null>,
): Promise<Record<string, unknown[][]>> {
  const cells: Record<string, unknown[][]> = {};
  for (const name of names) {
    if (/^(_ClimateRiskWritten|Climate Risk sources)/.test(name)) continue;
    const address = await used(name);
    const rows = address ? await read(name, address.split("!")[1]) : [];
    cells[name] = name === "_ClimateRiskProvenance" ? rows.map((row) => [row[0]]) : rows;
  }
  return cells;
}

test("a paste, the analyst's sort and a refresh by key leave the same sheets in the worker as in the thread", async () => {
  const local = newWorkbook();
  const both: Array<{ run: ExcelRunner }> = [local, remote];
  const outcomes: unknown[] = [];
  for (const { run } of both) {
    await pasteSummary({ client: service.client, run, portfolio: PORTFOLIO, scenario: "ssp585" });
    await run(async (context) => {
      context.workbook.worksheets
        .getActiveWorksheet()
        .tables.getItemAt(0)
        .sort.apply([{ key: 2, ascending: false }]);
    });
    const refreshed = await refreshPastedSheetsWithoutPane({ kinds: PASTE_KINDS, client: service.client, run });
    outcomes.push({ refreshed: refreshed.refreshed, refused: refreshed.refused });
  }
  expect(outcomes[1]).toEqual(outcomes[0]);
  expect(outcomes[0]).toMatchObject({ refused: 0, refreshed: expect.any(Number) });
  expect((outcomes[0] as { refreshed: number }).refreshed).toBeGreaterThan(0);
  const inThread = await comparableCells(
    local.fake.sheetNames(),
    (s, a) => local.fake.read(s, a),
    (s) => local.fake.usedAddress(s),
  );
  const inWorker = await comparableCells(await remote.sheetNames(), remote.read, remote.usedAddress);
  expect(Object.keys(inWorker)).toEqual(Object.keys(inThread));
  // Both records (the summary's sheet and the extended summary's) survive the refresh.
  expect(inWorker._ClimateRiskProvenance).toHaveLength(3);
  expect(Object.values(inThread).flat().length).toBeGreaterThan(10);
  expect(inWorker).toEqual(inThread);
});

test("Excel's answers cross as they are: loaded values, null objects, counts, collections and errors", async () => {
  const local = newWorkbook();
  const batch = async (context: Excel.RequestContext) => {
    const sheets = context.workbook.worksheets;
    const sheet = sheets.add("Crossing");
    sheet.getRange("A1:B2").values = [
      [1, "one"],
      [2, "two"],
    ];
    const read = sheet.getRange("A1:B2").load("values, address");
    const missing = sheets.getItemOrNullObject("No such sheet");
    const count = sheets.getCount();
    sheets.load("items/name");
    await context.sync();
    const names = sheets.items.map((s) => s.name);
    sheets.items[names.indexOf("Crossing")].getRange("C1").values = [["from an item"]];
    const c1 = sheet.getRange("C1").load("values");
    await context.sync();
    return {
      values: read.values,
      address: read.address,
      missing: missing.isNullObject,
      count: count.value,
      names,
      c1: c1.values,
    };
  };
  const inThread = await local.run(batch);
  const inWorker = await remote.run(batch);
  // The worker's workbook also holds the first test's sheets: the collection is compared by its end.
  const comparable = ({ names, count, ...rest }: Awaited<ReturnType<typeof batch>>) => ({
    ...rest,
    last: names.at(-1),
    countsEveryItem: count === names.length,
  });
  expect(comparable(inWorker)).toEqual(comparable(inThread));
  expect(comparable(inWorker)).toMatchObject({
    missing: true,
    c1: [["from an item"]],
    last: "Crossing",
    countsEveryItem: true,
  });

  const fails = (run: ExcelRunner) =>
    run(async (context) => {
      context.workbook.worksheets.getItem("Nowhere").getRange("A1").values = [[1]];
      await context.sync();
    }).then(
      () => undefined,
      (error: { code?: string }) => error.code,
    );
  expect(await fails(remote.run)).toBe(await fails(local.run));
  expect(await fails(remote.run)).toBe("ItemNotFound");
});

test("formulas calculate in the worker with the RISK functions run on this side, errors and spills included", async () => {
  await remote.addSheet("Formulas");
  await remote.setValues("Formulas", "A1:C1", [["=RISK.DOUBLE(21)", '=RISK.MISSING("x")', "=RISK.TABLE(3)"]]);
  await remote.calculated();
  expect(await remote.read("Formulas", "A1:D3")).toEqual([
    [42, "#N/A", 0, "row 0"],
    ["", "", 1, "row 1"],
    ["", "", 2, "row 2"],
  ]);
});

test("a property a failed request was to load throws PropertyNotLoaded, as Excel's does (the add-in reads it again)", async () => {
  const local = newWorkbook();
  const batch = async (context: Excel.RequestContext) => {
    const used = context.workbook.worksheets.getItem("Sheet1").getUsedRangeOrNullObject(true);
    used.load("values");
    context.workbook.worksheets.getItem("Not there").getRange("A1").values = [[1]];
    await context.sync().catch(() => undefined);
    const read = (name: "isNullObject" | "values") => {
      try {
        return used[name];
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    return { isNullObject: read("isNullObject"), values: read("values") };
  };
  expect(await remote.run(batch)).toEqual(await local.run(batch));
  expect(await remote.run(batch)).toEqual({ isNullObject: "PropertyNotLoaded", values: "PropertyNotLoaded" });
});
