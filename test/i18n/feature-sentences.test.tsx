/**
 * The sentences the features' actions and models build reach the analyst in the pane's language
 * (issue 40): an error an action throws, shown by the pane's error notice, and the outcome lines a
 * panel formats, in German; what they quote (portfolio, sheet and label names, service
 * identifiers) as it is.
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import type { Asset } from "../../src/api/types";
import { createTranslator, loadCatalog, type Translator } from "../../src/i18n/translator";
import { summarizeChanges } from "../../src/taskpane/features/changes/model/value-changes";
import { buildDisclosureData } from "../../src/taskpane/features/disclosure/model/disclosure";
import { upgradedSentence } from "../../src/taskpane/features/disclosure/disclosure-after-refresh";
import { LIMITATIONS } from "../../src/taskpane/features/disclosure/model/disclosure-tables";
import { ErrorNotice } from "../../src/taskpane/ui/ErrorNotice";
import { I18nContext } from "../../src/taskpane/ui/i18n";
import { SCENARIO_REPEATS_NOTE } from "../../src/shared/vocabulary";
import { ENGLISH } from "../../src/i18n/translator";
import { CurrencyNeededError } from "../../src/taskpane/features/impact/model/financial-impact";
import { describeLayer, uploadVectorFile } from "../../src/taskpane/features/compositions/compositions-actions";
import { createSubprojectFromFile } from "../../src/taskpane/features/nature/nature-actions";
import { usePaneTestService } from "../taskpane/support";

const service = usePaneTestService();

let german: Translator;
beforeAll(async () => {
  german = createTranslator("de", await loadCatalog("de"), { decimal: ",", group: "." });
});

/** What the pane's error notice shows for `error`, in `i18n`'s language. */
function notice(error: unknown, i18n: Translator): string {
  return renderToString(
    <FluentProvider theme={webLightTheme}>
      <I18nContext.Provider value={i18n}>
        <ErrorNotice error={error} testId="notice" />
      </I18nContext.Provider>
    </FluentProvider>,
  );
}

/** One asset of the portfolio "werk" with `labels`. */
function plant(labels: Record<string, string>): Asset {
  return { portfolio_name: "werk", portfolio_index: 0, entity_id: "A0", entity_name: "Werk A", lat: 1, lng: 2, labels };
}

/** The error `work` rejects with. */
async function rejected(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => {
      throw new Error("nothing was thrown");
    },
    (error: unknown) => error,
  );
}

/** The error `work` throws. */
function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

test("disclosure: an input error the model throws is shown in German, its English message kept for logs", () => {
  const error = thrown(() => buildDisclosureData([], [plant({ value: "7" })], { currency: "euro" }, "werk"));
  expect((error as Error).message).toBe('"euro" is not a currency code: write three letters, e.g. EUR.');
  expect(notice(error, german)).toContain(
    "„euro“ ist kein Währungscode: Schreiben Sie drei Buchstaben, z.\u00a0B. EUR.",
  );
  const noAssets = thrown(() => buildDisclosureData([], [], {}, "werk"));
  expect(notice(noAssets, german)).toContain("werk hat keine Vermögenswerte.");
});

test("disclosure: a value that is not an amount, and the upgrade's outcome, are worded in German", () => {
  const data = buildDisclosureData([], [plant({ price: "€1.2m" })], {}, "werk");
  expect(data.problems.map(german.format)).toEqual([
    "label:price von A0 ist „€1.2m“, kein Betrag: zählt als ohne Wert.",
  ]);
  expect(german.format(upgradedSentence(["E1-9 werk"]))).toMatch(/^"E1-9 werk" auf die neue Fassung gebracht: /);
  expect(german.format(upgradedSentence([]))).toMatch(/^Keine Offenlegungstabelle liest feste Bereiche/);
});

test("disclosure: the scenario note says what the vocabulary's repetitions are, and every limitation is in each catalog", () => {
  // The catalogs spell the repetitions out (one sentence each language): a change of the data must change them.
  expect(ENGLISH["disclosure.sheet.scenario"]).toBe(`Empty it to leave the scenario out. ${SCENARIO_REPEATS_NOTE}`);
  for (const id of LIMITATIONS) expect(german.t(id)).not.toBe(ENGLISH[id]);
});

test("What changed: the summary lines in German, plurals and Excel's decimal comma", () => {
  const flip = (address: string) => ({
    address,
    kind: "label" as const,
    before: "LOW",
    after: "HIGH",
    labelBefore: "LOW",
    labelAfter: "HIGH",
    hazard: "flood_potential",
    scenario: "ssp585",
  });
  const lines = summarizeChanges(
    [
      flip("S!B2"),
      flip("S!B3"),
      { address: "S!C2", kind: "score", before: 0.1, after: 0.3, delta: 0.2 },
      { address: "S!C4", kind: "error", before: 1, after: "#N/A" },
    ],
    0.05,
  );
  expect(lines.map(german.format)).toEqual([
    "2 Vermögenswerte auf HIGH gewechselt, flood_potential, Szenario ssp585",
    "1 Score hat sich um mehr als 0,05 verändert",
    "1 Zelle ist zum Fehler geworden oder keiner mehr",
  ]);
  expect(summarizeChanges([], 0.5).map(german.format)).toEqual(["Keine Veränderung über 0,5"]);
});

test("financial impact: the currency the pane asks for is asked in German", () => {
  expect(notice(new CurrencyNeededError("label:value"), german)).toContain(
    "label:value enthält Werte in einer Währung, die der Dienst nicht festlegt (nur label:price ist USD): Nennen Sie die Währung, z.\u00a0B. EUR.",
  );
});

test("compositions and nature: the refusals of an empty name and a layer's description in German", async () => {
  const noName = await rejected(() =>
    uploadVectorFile(service.client, {
      name: " ",
      fileName: "a.geojson",
      text: '{"type":"FeatureCollection","features":[]}',
    }),
  );
  expect(notice(noName, german)).toContain("Der Layername ist leer: Geben Sie einen Namen für den neuen Layer ein");
  const noSuperproject = await rejected(() =>
    createSubprojectFromFile(service.client, { superproject: "", fileName: "a.geojson", text: "{}" }),
  );
  expect(notice(noSuperproject, german)).toContain("Wählen Sie zuerst ein Oberprojekt");
  const layer = { type: "FeatureCollection", features: [{ properties: { loss_flood_bsln: 1 } }, { properties: {} }] };
  expect(german.format(describeLayer(layer))).toBe("2 Features; Eigenschaften: loss_flood_bsln");
});
