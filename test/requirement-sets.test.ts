/**
 * Office requirement sets: every API src/ uses, as the Office.js typings tag it
 * (`[Api set: ExcelApi 1.13]`), must be either declared in manifest.xml (the add-in only loads
 * where the set is) or guarded. "Guarded" means, concretely: the module that uses the API also
 * calls `requirementSupported(set, version)` (src/shared/requirements.ts) or
 * `Office.context.requirements.isSetSupported(set, version)` with literal arguments naming that set
 * at that version or higher; what it does when the answer is false is tested with the Excel fake
 * set to a lower level (test/excel/requirement-levels.test.ts).
 *
 * Also checks that the Excel fake refuses each Excel API src/ uses above ExcelApi 1.1 below its
 * set, with the set the typings give, so tests can play older Excel builds faithfully.
 */
import path from "node:path";
import ts from "typescript";
import { REQUIREMENT_SETS } from "../src/commands/health-check";
import { FAKE_API_SETS, fakeMembers, unguardedApiSets } from "../testing/fake-excel";
import {
  compareVersions,
  excelMemberSets,
  readManifestSets,
  scanApiSets,
  type ApiUse,
  type SetCheck,
} from "./requirements/api-sets";

const root = path.resolve(__dirname, "..");
const sourceFiles = ts.sys.readDirectory(path.join(root, "src"), [".ts", ".tsx"]);

/**
 * Members the fake does not model as classes but records through a recorder object, reachable
 * only through a member FAKE_API_SETS guards (range.conditionalFormats, ExcelApi 1.6): refusing
 * that parent refuses them.
 */
const RECORDED_BEHIND_A_GUARD = new Set([
  "TextConditionalFormat",
  "ColorScaleConditionalFormat",
  "ConditionalRangeFormat",
  "ConditionalRangeFill",
  "ConditionalRangeFont",
  // The rule objects set through Range.dataValidation (ExcelApi 1.8), which is guarded.
  "DataValidationRule",
  "ListDataValidation",
]);

let uses: ApiUse[];
let checks: SetCheck[];
beforeAll(() => {
  ({ uses, checks } = scanApiSets(root, sourceFiles));
}, 60_000);

function highestPerSet(list: readonly { name: string; version: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, version } of list) {
    const known = out.get(name);
    if (known === undefined || compareVersions(version, known) > 0) out.set(name, version);
  }
  return out;
}

describe("requirement sets used by src/", () => {
  it("finds the APIs the add-in is known to use, with their typings' sets", () => {
    const at = (api: string) => uses.find((u) => u.api === api);
    expect(at("Excel.Range.getMergedAreasOrNullObject")).toMatchObject({
      name: "ExcelApi",
      version: "1.13",
      file: "src/excel/read-range.ts",
    });
    expect(at("CustomFunctions.Error")).toMatchObject({ name: "CustomFunctionsRuntime", version: "1.2" });
    expect(at("CustomFunctions.ErrorCode.invalidValue")).toMatchObject({
      name: "CustomFunctionsRuntime",
      version: "1.3",
    });
    expect(at("Excel.Worksheet.getRangeByIndexes")).toMatchObject({ name: "ExcelApi", version: "1.7" });
  });

  it("are each declared in manifest.xml or guarded by a literal isSetSupported check in the same module", () => {
    const declared = highestPerSet(readManifestSets(root));
    const uncovered = uses.filter((use) => {
      const min = declared.get(use.name);
      if (min !== undefined && compareVersions(min, use.version) >= 0) return false;
      return !checks.some(
        (c) => c.file === use.file && c.name === use.name && compareVersions(c.version, use.version) >= 0,
      );
    });
    const report = [...new Set(uncovered.map((u) => `${u.name} ${u.version}: ${u.api} at ${u.file}:${u.line}`))];
    // Declare the set in manifest.xml (dropping the builds without it) or check
    // requirementSupported("<set>", "<version>") in that module, with a fallback; see docs/deploying.md.
    expect(report).toEqual([]);
  });

  it("lists the sets in use: declared ones and guarded ones", () => {
    const used = highestPerSet(uses);
    const guarded = highestPerSet(checks);
    const summary = Object.fromEntries(
      [...used]
        .sort()
        .map(([name, version]) => [name, { highestUsed: version, guardedUpTo: guarded.get(name) ?? null }]),
    );
    // The one place the list is written down for a reader of the test output.
    process.stdout.write(`Requirement sets used by src/: ${JSON.stringify(summary)}\n`);
    expect(summary.ExcelApi).toEqual({ highestUsed: "1.17", guardedUpTo: "1.17" });
    expect(readManifestSets(root)).toEqual(
      expect.arrayContaining([
        { name: "SharedRuntime", version: "1.1" },
        { name: "CustomFunctionsRuntime", version: "1.3" },
        { name: "ExcelApi", version: "1.9" },
      ]),
    );
  });

  it("covers the ribbon and shortcut APIs: RibbonApi and KeyboardShortcuts guarded at run time, SharedRuntime declared", () => {
    const at = (api: string) => uses.find((u) => u.api === api);
    expect(at("Office.Ribbon.requestUpdate")).toMatchObject({
      name: "RibbonApi",
      version: "1.1",
      file: "src/commands/office.ts",
    });
    expect(at("Office.Actions.getShortcuts")).toMatchObject({ name: "KeyboardShortcuts", version: "1.1" });
    expect(at("Office.Addin.showAsTaskpane")).toMatchObject({ name: "SharedRuntime", version: "1.1" });
    expect(at("Office.Addin.onVisibilityModeChanged")).toMatchObject({ name: "SharedRuntime", version: "1.1" });
    for (const name of ["RibbonApi", "KeyboardShortcuts"])
      expect(checks).toContainEqual(expect.objectContaining({ name, version: "1.1", file: "src/commands/office.ts" }));
    // The same scan refuses a ribbon update nobody checked for.
    const probe = path.join(root, "src", "__ribbon-probe__.ts");
    const unguarded = scanApiSets(root, [], new Map([[probe, "void Office.ribbon.requestUpdate({ tabs: [] });"]]));
    expect(unguarded.uses).toContainEqual(expect.objectContaining({ name: "RibbonApi", version: "1.1" }));
    expect(unguarded.checks).toEqual([]);
  });

  it("are each listed by Check the add-in with what stops working without them", () => {
    for (const [name, version] of highestPerSet(uses))
      expect(REQUIREMENT_SETS.some((set) => set.name === name && compareVersions(set.version, version) >= 0)).toBe(
        true,
      );
  });

  it("no guard checks a set above what the code then uses without declaring it (guards are not dead)", () => {
    for (const check of checks) {
      expect(uses.some((u) => u.file === check.file && u.name === check.name)).toBe(true);
    }
  });
});

describe("the Excel fake's requirement table", () => {
  it("names each member with the set the Office.js typings give it, and misses none the fake implements", () => {
    const listed = Object.keys(FAKE_API_SETS);
    const sets = excelMemberSets(root, [...new Set([...listed, ...fakeMembers()])]);
    const wrong = Object.entries(FAKE_API_SETS)
      .filter(([api, [name, version]]) => sets.get(api)?.name !== name || sets.get(api)?.version !== version)
      .map(
        ([api, [name, version]]) =>
          `${api}: fake says ${name} ${version}, typings say ${JSON.stringify(sets.get(api))}`,
      );
    expect(wrong).toEqual([]);
    expect(unguardedApiSets()).toEqual([]);
    // Every member of the fake's classes that Excel tags above ExcelApi 1.1 must refuse below its set.
    const unlisted = [...sets]
      .filter(([api, set]) => set && set.version !== "1.1" && !(api in FAKE_API_SETS))
      .map(([api, set]) => `${api} (${set!.name} ${set!.version})`);
    expect(unlisted).toEqual([]);
  }, 60_000);

  it("covers every Excel API above ExcelApi 1.1 that src/ uses, so a lower level refuses it", () => {
    const missing = [
      ...new Set(
        uses
          .filter((u) => u.name === "ExcelApi" && u.version !== "1.1" && u.api.startsWith("Excel."))
          .map((u) => u.api.replace(/^Excel\./, ""))
          .filter((api) => !(api in FAKE_API_SETS) && !RECORDED_BEHIND_A_GUARD.has(api.split(".")[0])),
      ),
    ];
    // Add each to FAKE_API_SETS in testing/fake-excel/requirements.ts (and register its fake class).
    expect(missing).toEqual([]);
  });
});
