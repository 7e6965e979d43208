/**
 * The add-in "as an older Excel would run it": the Excel fake is set to the requirement sets of a
 * real build (EXCEL_BUILDS, from Microsoft's requirement-set tables), refuses what that build
 * lacks as office.js does (ApiNotFound, thrown at the call), and `Office.context.requirements`
 * answers for it. A sync from a selection is run end to end against the emulator over HTTP at
 * Windows Version 2101 (no ExcelApi 1.13) and 2102 (ExcelApi 1.13), with and without merged cells.
 */
import {
  EXCEL_BUILDS,
  createFakeExcel,
  installFakeOffice,
  type FakeExcel,
  type RequirementLevel,
} from "../../testing/fake-excel";
import { requirementSupported } from "../../src/shared/requirements";
import { readSelection } from "../../src/excel/read-range";
import { countRequests, syncSelection, usePaneTestService, userSheetsOf } from "../taskpane/support";
import { emulatorStats } from "../support/emulator";
import { englishTranslator } from "../../src/i18n/translator";

/** A fake Excel at `level` whose Office.context.requirements is installed globally until the test ends. */
function excelAt(level: RequirementLevel | undefined): FakeExcel {
  const fake = createFakeExcel({ firstSheetName: "Sites", requirements: level });
  restore.push(installFakeOffice(globalThis as unknown as Record<string, unknown>, fake.requirements));
  return fake;
}
const restore: Array<() => void> = [];
afterEach(() => {
  while (restore.length > 0) restore.pop()!();
});

describe("the Excel fake at a requirement level", () => {
  it("throws ApiNotFound, as office.js does, for a method above the level, at the call", async () => {
    const fake = excelAt(EXCEL_BUILDS.windows2101);
    await fake.run(async (context) => {
      const range = context.workbook.worksheets.getItem("Sites").getRange("A1:B2");
      let thrown: unknown;
      try {
        range.getMergedAreasOrNullObject();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        code: "ApiNotFound",
        message:
          "The method or property Range.getMergedAreasOrNullObject is part of the ExcelApi 1.13 requirement set, which is not available in your version of Excel.",
      });
    });
  });

  it("runs the same call where the level has the set", async () => {
    const fake = excelAt(EXCEL_BUILDS.windows2102);
    fake.merge("Sites", "A1:B1");
    const address = await fake.run(async (context) => {
      const areas = context.workbook.worksheets.getItem("Sites").getRange("A1:C3").getMergedAreasOrNullObject();
      areas.load("address");
      await context.sync();
      return areas.address;
    });
    expect(address).toBe("Sites!A1:B1");
  });

  it("refuses older sets too (getRangeByIndexes is ExcelApi 1.7; autofitColumns 1.2) but keeps 1.1 (getCell)", async () => {
    const fake = excelAt({ ExcelApi: "1.1" });
    await fake.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sites");
      expect(() => sheet.getRangeByIndexes(0, 0, 1, 1)).toThrow(
        /Worksheet.getRangeByIndexes is part of the ExcelApi 1.7 requirement set/,
      );
      expect(() => sheet.getRange("A1").format.autofitColumns()).toThrow(
        /RangeFormat.autofitColumns is part of the ExcelApi 1.2/,
      );
      const cell = sheet.getCell(0, 0);
      cell.load("address");
      await context.sync();
      expect(cell.address).toBe("Sites!A1");
    });
  });

  it("answers Office.context.requirements.isSetSupported for its level, and the add-in's check follows", () => {
    const fake = excelAt(EXCEL_BUILDS.windows2101);
    expect(fake.requirements.isSetSupported("ExcelApi", "1.12")).toBe(true);
    expect(fake.requirements.isSetSupported("ExcelApi", "1.13")).toBe(false);
    expect(fake.requirements.isSetSupported("CustomFunctionsRuntime", "1.4")).toBe(false);
    expect(requirementSupported("ExcelApi", "1.13")).toBe(false);
    fake.setRequirementLevel(EXCEL_BUILDS.windows2102);
    expect(requirementSupported("ExcelApi", "1.13")).toBe(true);
    fake.setRequirementLevel(undefined);
    expect(requirementSupported("CustomFunctionsRuntime", "1.5")).toBe(true);
  });
});

describe("reading a selection for a sync", () => {
  const SITES = [
    ["entity_id", "entity_name", "lat", "lng"],
    ["S-1", "Depot", 51.5, -0.12],
    ["S-2", "Depot", 48.8, 2.35],
  ];

  it("before ExcelApi 1.13 reads the values and says merged areas are unknown (null), without failing", async () => {
    const fake = excelAt(EXCEL_BUILDS.windows2101);
    fake.setValues("Sites", "A1:D3", SITES);
    fake.merge("Sites", "B2:B3");
    fake.setSelection("Sites", "A1:D3");
    const snapshot = await fake.run((context) => readSelection(context));
    expect(snapshot.values[2]).toEqual(["S-2", "", 48.8, 2.35]);
    expect(snapshot.mergedAreas).toBeNull();
  });

  it("from ExcelApi 1.13 reports the merged areas", async () => {
    const fake = excelAt(EXCEL_BUILDS.windows2102);
    fake.setValues("Sites", "A1:D3", SITES);
    fake.merge("Sites", "B2:B3");
    fake.setSelection("Sites", "A1:D3");
    const snapshot = await fake.run((context) => readSelection(context));
    expect(snapshot.mergedAreas).toEqual(["Sites!B2:B3"]);
  });
});

describe("sync from a selection, end to end, as older Excel builds run it", () => {
  const service = usePaneTestService({ processingDelayMs: 20 });
  beforeEach(() => service.emulator.reset());

  const never = async (): Promise<boolean> => {
    throw new Error("confirmReplace must not be asked");
  };
  const SITES = [
    ["entity_id", "entity_name", "lat", "lng", "label:tier"],
    ["S-1", "London depot", 51.5074, -0.1278, "gold"],
    ["S-2", "Paris hub", 48.8566, 2.3522, "gold"],
    ["S-3", "Lagos port", 6.5244, 3.3792, "silver"],
  ];

  async function syncAt(level: RequirementLevel, prepare: (fake: FakeExcel) => void, portfolio: string) {
    const fake = excelAt(level);
    fake.setValues("Sites", "A1:E4", SITES);
    prepare(fake);
    fake.setSelection("Sites", "A1:E4");
    const before = userSheetsOf(fake);
    const result = await syncSelection(service, (batch) => fake.run(batch), {
      portfolio,
      confirmReplace: never,
    });
    expect(userSheetsOf(fake)).toEqual(before); // a sync never changes the user's sheets
    return result;
  }

  it("Windows 2101, no merged cells: the assets are synced", async () => {
    const result = await syncAt(EXCEL_BUILDS.windows2101, () => undefined, "old_excel_sites");
    expect(result).toMatchObject({ outcome: "synced", portfolio: "old_excel_sites", assetCount: 3 });
    const assets = await service.client.portfolios.assets("old_excel_sites").all();
    expect(assets.map((a) => a.entity_name)).toEqual(["London depot", "Paris hub", "Lagos port"]);
  });

  it("Windows 2101, a merged label: the empty cell it leaves is named and nothing is sent", async () => {
    const result = await syncAt(EXCEL_BUILDS.windows2101, (fake) => fake.merge("Sites", "E2:E3"), "old_excel_merged");
    expect(result.outcome).toBe("invalid");
    const problems = result.outcome === "invalid" ? result.problems : [];
    expect(problems.map((p) => ({ cell: p.cell, message: englishTranslator.format(p.message) }))).toEqual([
      expect.objectContaining({
        cell: "E3",
        message: expect.stringMatching(
          /^label:tier in E3 is empty, and this version of Excel cannot tell an empty cell from part of a merged one: fill it, or sync from Excel 2102/,
        ),
      }),
    ]);
    expect(countRequests(await emulatorStats(service.emulator), "POST ")).toBe(0);
  });

  it("Windows 2102, a merged label: the merged area itself is named and nothing is sent", async () => {
    const result = await syncAt(EXCEL_BUILDS.windows2102, (fake) => fake.merge("Sites", "E2:E3"), "new_excel_merged");
    expect(result.outcome).toBe("invalid");
    const problems =
      result.outcome === "invalid" ? result.problems.map((p) => englishTranslator.format(p.message)) : [];
    expect(problems).toEqual([expect.stringMatching(/^Merged cells at E2:E3: unmerge them/)]);
    expect(countRequests(await emulatorStats(service.emulator), "POST ")).toBe(0);
  });

  it("Windows 2102, no merged cells: the assets are synced", async () => {
    const result = await syncAt(EXCEL_BUILDS.windows2102, () => undefined, "new_excel_sites");
    expect(result).toMatchObject({ outcome: "synced", assetCount: 3 });
  });
});
