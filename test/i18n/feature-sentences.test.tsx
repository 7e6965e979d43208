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
import { validateAssetRange } from "../../src/taskpane/features/sync/model/validate-assets";
import { checkCountries } from "../../src/taskpane/features/sync/model/country-check";
import { addressRows } from "../../src/taskpane/features/sync/model/geocode/address-rows";
import { readNominatimAnswer } from "../../src/taskpane/features/sync/model/geocode/answers";
import { portfolioOffer } from "../../src/taskpane/features/sync/model/search-offer";
import { BUILDER_FUNCTIONS, problemsOf } from "../../src/taskpane/features/builder/formula-builder-actions";

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

test("sync: the range's problems and warnings, and the coordinate readings they quote, in German with Excel's decimal comma", () => {
  const values = [
    ["entity_id", "lat", "lng", "label:type"],
    ["a", `48°51'24"N`, 2.35, "Multi-family dwelling"],
    ["a", 91.5, "12.5N", "Retail Trade"],
    ["b", 51.5, 0, "Retail Trade"],
  ];
  const checked = validateAssetRange({ values, address: "Sites!A1:D4" });
  expect(checked.problems.map((p) => `${p.cell}: ${german.format(p.message)}`)).toEqual([
    "B2: Breitengrad in B2 ist „48°51'24\"N“ (Grad, Minuten, Sekunden): In 48,856667 umrechnen (der Aufgabenbereich bietet es an) oder von Hand korrigieren.",
    "B3: Breitengrad in B3 ist 91,5: Er muss zwischen -90 und 90 liegen (Dezimalgrad).",
    "C3: Längengrad in C3 ist „12.5N“, keine Zahl: „N“ gehört zum Breitengrad, steht aber in einer Spalte für den Längengrad.",
    "A3: entity_id „a“ in A3 wiederholt A2: IDs müssen eindeutig sein.",
  ]);
  expect(checked.warnings.map((w) => german.format(w.message))).toEqual([
    "Breitengrad in B4 ist 51,5, mit 1 Nachkommastelle: Der Dienst verlangt mindestens 2 (etwa 1 km); prüfen Sie, ob der Vermögenswert dort liegt, wo Sie meinen.",
    "Längengrad in C4 ist 0, ohne Nachkommastellen: Der Dienst verlangt mindestens 2 (etwa 1 km); prüfen Sie, ob der Vermögenswert dort liegt, wo Sie meinen.",
    "label:type „Multi-family dwelling“ (D2) steht nicht in der veröffentlichten Typenliste des Dienstes, daher gilt eine Standard-Schadenskurve. Nächster veröffentlichter Typ: „Multifamily Dwelling“.",
  ]);
});

test("sync: the country check's findings and geocoding's problems and failures in German", () => {
  const values = [
    ["Site", "lat", "lng", "Country"],
    ["Paris swapped", 2.35, 48.85, "FR"],
    ["Somewhere", 50.1, 8.6, "Europe"],
  ];
  const address = "Sites!A1:D3";
  const check = checkCountries(values, address, validateAssetRange({ values, address }))!;
  expect(check.findings.map((f) => german.format(f.problem.message))).toEqual([
    "B2, C2: 2,35 / 48,85 liegt mehr als 25 km außerhalb von France (FR) (D2). Mit vertauschtem lat und lng liegt er bei 48,85 / 2,35, deutlich innerhalb: Der Aufgabenbereich bietet diese Korrektur an.",
    "D3: „Europe“ nennt kein Land (ISO-Code oder Name auf Englisch, Deutsch oder Französisch), daher wird der Punkt in B3, C3 nicht geprüft.",
  ]);
  const rows = addressRows(
    [
      ["Address", "Country"],
      ["#N/A", ""],
      ["1 Main St", "Atlantis"],
    ],
    "Sites!A1:B3",
  );
  expect(rows.problems.map((p) => german.format(p.message))).toEqual([
    "„#N/A“ ist keine Adresse: Schreiben Sie die Adresse oder die Koordinaten in lat und lng.",
    "„Atlantis“ ist kein Land, das das Add-in liest (ISO-Code oder Name auf Englisch, Deutsch oder Französisch).",
  ]);
  const failure = thrown(() => readNominatimAnswer({ error: "nope" }, "geo.example"));
  expect((failure as Error).message).toBe("geo.example did not answer as a Nominatim geocoder (not a list of places)");
  expect(notice(failure, german)).toContain(
    "geo.example hat nicht wie ein Nominatim-Geocoder geantwortet (keine Liste von Orten)",
  );
});

test("the faster-path offer and the formula builder's labels and problems in German", () => {
  const pace = { latencyMs: 300, concurrency: 6, readAhead: 4, rows: 250 };
  const tooMany = portfolioOffer(5_001, "Sites", [], pace);
  expect(tooMany.kind === "none" && german.format(tooMany.reason)).toBe(
    "5.001 eindeutige Punkte: Ein Portfolio fasst höchstens 5.000 Vermögenswerte.",
  );
  const offer = portfolioOffer(5_000, "Sites", [], pace);
  expect(offer.kind === "offer" && german.format(offer.timing)).toMatch(
    /^5\.000 Punkte suchen: etwa 4 min 10 s beim jetzigen Tempo\. Als Portfolio „Sites_points“: etwa 2 s /,
  );
  expect(german.format(BUILDER_FUNCTIONS.ASSETS.label)).toBe(
    "RISK.ASSETS – alle Vermögenswerte eines Portfolios (läuft über)",
  );
  expect(BUILDER_FUNCTIONS.SEARCH.params.map((p) => german.format(p.label))).toEqual([
    "Breitengrad",
    "Längengrad",
    "Gefahr",
    "Horizont",
    "Umkreis",
    "Feld",
  ]);
  expect(
    problemsOf("SEARCH", {
      lat: { kind: "value", value: "91" },
      lng: { kind: "value", value: "abc" },
      hazard: { kind: "value", value: "flood" },
    }).map(german.format),
  ).toEqual([
    "Breitengrad: muss zwischen -90 und 90 liegen.",
    "Längengrad: „abc“ ist keine Zahl.",
    expect.stringMatching(/^Gefahr: „flood“ ist keiner der Werte floods, cyclones, .+\.$/),
    "Horizont: Wählen Sie einen Wert oder eine Zelle.",
  ]);
});
