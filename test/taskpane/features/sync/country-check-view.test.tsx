import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import { AssetFindings } from "../../../../src/taskpane/features/sync/AssetFindings";
import { checkAssetSource } from "../../../../src/taskpane/features/sync/sync-actions";
import { TaskpaneContext, type TaskpaneServices } from "../../../../src/taskpane/ui/services";
import { newWorkbook } from "../../support";
import { TEST_IDS } from "../../../../src/taskpane/ui/test-ids";

/**
 * What the analyst sees of the country check after "Check only": the summary, the points outside
 * with their cells, the preview of the fixes (every cell before and after, the original's cell
 * beside the range) with its button, the points near a border or coast and the rows not checkable.
 */

const SITES = [
  ["entity_id", "Site", "lat", "lng", "Country"],
  ["S-1", "Paris office", 2.35, 48.85, "FR"],
  ["S-2", "Miami Beach hotel", 25.79, -80.13, "US"],
  ["S-3", "Gibraltar office", 36.14, -5.35, "GI"],
  ["S-4", "Berlin plant", 52.52, 13.405, "DE"],
];

function render(findings: Parameters<typeof AssetFindings>[0]["findings"], run: TaskpaneServices["run"]): string {
  const services = {
    config: {},
    isDefault: false,
    client: null,
    clientError: null,
    run,
  } as unknown as TaskpaneServices;
  return renderToString(
    <FluentProvider theme={webLightTheme}>
      <TaskpaneContext.Provider value={services}>
        <AssetFindings findings={findings} />
      </TaskpaneContext.Provider>
    </FluentProvider>,
  ).replace(/<!-- -->/g, "");
}

/** The text of every element carrying the test id (tags stripped). */
function textsOf(html: string, testId: string): string[] {
  const texts: string[] = [];
  const pattern = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</(tr|ul|div|span)>`, "gs");
  for (const match of html.matchAll(pattern))
    texts.push(
      match[1]!
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
  return texts;
}

test("the check's findings, each with its cell, and the fix previewed before anything is written", async () => {
  const { fake, run } = newWorkbook({ firstSheetName: "Sites" });
  fake.setValues("Sites", "A1:E5", SITES);
  fake.setSelection("Sites", "A1:E5");
  const html = render(await checkAssetSource(run, { kind: "selection" }), run);
  expect(textsOf(html, TEST_IDS.sync.countrySummary)).toEqual([
    "3 points checked against their country (Natural Earth 1:50m outlines, 25 km tolerance): 1 inside, 1 outside, 1 near a border or coast.",
  ]);
  expect(html).toContain(`data-testid="${TEST_IDS.sync.countryOutside.item}" data-address="Sites!C2"`);
  expect(textsOf(html, TEST_IDS.sync.countryFixesRow)).toEqual(["C2 2.35 48.85", "D2 48.85 2.35", "F2 2.35, 48.85"]);
  expect(html).toMatch(new RegExp(`data-testid="${TEST_IDS.sync.countryFix}"[^>]*>Fix 1 point<`));
  expect(html).toContain("The original coordinates are kept in column F");
  expect(html).toContain(`data-testid="${TEST_IDS.sync.countryNear.item}" data-address="Sites!C3"`);
  expect(html).toContain(`data-testid="${TEST_IDS.sync.countryUnchecked.item}" data-address="Sites!E4"`);
});

test("when the outlines did not load, the pane says so and the rest of the findings stand", () => {
  const html = render({ countryCheckError: "Loading chunk 492 failed." }, null);
  expect(textsOf(html, TEST_IDS.sync.countryUnavailable)).toEqual([
    "The coordinates could not be checked against their countries: Loading chunk 492 failed.",
  ]);
});
