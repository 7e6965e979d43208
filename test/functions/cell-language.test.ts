import { setCellLanguage } from "../../src/functions/cell-language";
import { MAX_MESSAGE } from "../../src/functions/formula-errors";
import { LANGUAGES } from "../../src/i18n/languages";
import type { MessageId } from "../../src/i18n/messages";
import { createTranslator, loadCatalog } from "../../src/i18n/translator";
import * as TypedRISK from "../../src/functions/functions";
import { asExcelCalls } from "./support/excel-calls";
import { createInvocation } from "../../testing/invocation";
import { cellError } from "./support/custom-functions-stub";
import { useSearchOnlyService } from "./support/search-only-service";

/**
 * The messages RISK.* cells show with `#N/A` and `#VALUE!` follow Office's display language
 * (matched to the nearest catalog: de-CH → German, fr-CA → French), numbers in them the editing
 * language's separators; what they quote (parameter names, the user's value, service identifiers)
 * stays as it is. Over real HTTP to a small service on 127.0.0.1 that answers 404 for portfolios.
 */

const RISK = asExcelCalls(TypedRISK);
useSearchOnlyService();
const inv = () => createInvocation();

afterAll(() => setCellLanguage("en-US"));

const unknownPortfolio = () => RISK.summary("north-sea_2", 0, "cyclones", "SSP585", "15yr", null as never, inv());
const unknownHazard = () => RISK.search(12, 34, "lava", "30yr", null as never, null as never, inv());
const latitudeOut = () => RISK.search(91.5, 0, "floods", "30yr", null as never, null as never, inv());
const scenarioWrong = () => RISK.summary("p", 0, "floods", "rcp85", null, null as never, inv());
const latitudeBlank = () => RISK.search(null as never, 0, "floods", "30yr", null as never, null as never, inv());

/** What each failing cell shows in a language: code and message, in the order of the calls above. */
const MESSAGES: Record<"de" | "fr", Array<[code: string, message: string]>> = {
  de: [
    ["#N/A", 'Unbekanntes Portfolio "north-sea_2"'],
    ["#N/A", 'Unbekannte Gefahr "lava": Verwenden Sie floods, cyclones, drought, heatwaves, sea_level_rise, wildfire'],
    ["#VALUE!", "lat muss zwischen -90 und 90 liegen (erhalten: 91,5)"],
    ["#VALUE!", 'scenario muss ssp126, ssp245 oder ssp585 sein (erhalten: "rcp85")'],
    ["#VALUE!", "lat muss ein Breitengrad von -90 bis 90 sein (erhalten: nichts)"],
  ],
  // French spacing: a no-break space before the colon.
  fr: [
    ["#N/A", 'Portefeuille inconnu "north-sea_2"'],
    ["#N/A", 'Aléa inconnu "lava"\u00a0: utilisez floods, cyclones, drought, heatwaves, sea_level_rise, wildfire'],
    ["#VALUE!", "lat doit être comprise entre -90 et 90 (reçu\u00a0: 91,5)"],
    ["#VALUE!", 'scenario doit être ssp126, ssp245 ou ssp585 (reçu\u00a0: "rcp85")'],
  ],
};

test.each([
  ["German (de-CH)", "de-CH", "de-DE", "de"],
  ["French (fr-CA)", "fr-CA", "fr-FR", "fr"],
] as const)(
  "%s: #N/A and #VALUE! messages from its catalog, numbers with a decimal comma",
  async (_name, display, content, language) => {
    await setCellLanguage(display, content);
    const calls = [unknownPortfolio, unknownHazard, latitudeOut, scenarioWrong, latitudeBlank];
    for (const [i, [code, message]] of MESSAGES[language].entries())
      expect(await cellError(calls[i]!())).toEqual({ code, message });
  },
);

test("a language without a catalog (es-US) and English: the English messages", async () => {
  await setCellLanguage("es-US", "es-US");
  expect(await cellError(unknownPortfolio())).toEqual({ code: "#N/A", message: 'Unknown portfolio "north-sea_2"' });
  await setCellLanguage("en-GB", "en-GB");
  expect((await cellError(scenarioWrong())).message).toBe('scenario must be ssp126, ssp245, or ssp585 (got "rcp85")');
});

test.each(LANGUAGES)(
  "%s: every cell message fits the cell's message length with long values, so none is cut",
  async (language) => {
    const catalog = await loadCatalog(language);
    const words = createTranslator(language, catalog);
    // Values as long as the functions pass them: a user's text is cut at 20 characters, a name at 40.
    const values = {
      name: "portfolio",
      kind: 'Entity "Paris"',
      blank: "false",
      got: '"abcdefghijklmnopqrst…"',
      choices: "ssp126, ssp245, or ssp585",
      example: "wildfire_ssp585_2050_mean",
      hazard: "flood_potential",
      indicators: "flood_depth, flood_extent",
      first: "portfolio",
      second: "index",
      firstSize: "30×1",
      secondSize: "20×1",
      hazards: "floods, cyclones, drought, heatwaves, sea_level_rise, wildfire",
      portfolio: '"demo-portfolio"',
      layer: '"layer-1"',
      subproject: '"Kapuas Forest Block"',
      metric: "structural_damage_2050_ubd",
      position: "12345",
      asset: 'entity_id "A-1"',
      entity: '"A-1"',
      count: 2,
      indexes: "1, 2",
      holds: "metrics",
      scenario: "ssp585",
      indicator: "flood_depth",
      horizon: "30yr",
      extent: "background",
      column: '"value"',
      columns: "a, b, c, d, e, f",
      reason: "Failed to fetch",
      origin: "https://risk-addin.contoso.com",
      status: "503",
      detail: "lat: coordinate out of bounds",
    };
    const long = Object.keys(catalog)
      .filter((id) => id.startsWith("cell."))
      .map((id) =>
        words.t(id as MessageId, id.endsWith("Range") || id.endsWith("Whole") ? { ...values, got: -123.456 } : values),
      )
      .filter((text) => text.length > MAX_MESSAGE);
    expect(long).toEqual([]);
  },
);
