/**
 * The sentences the features' actions build reach the analyst in the pane's language (issue 40):
 * a sync's, a refresh's, a static copy's and an export's errors, progress and outcome lines are catalog
 * messages, worded by the pane. German here, rendered as the pane renders them (ErrorNotice,
 * TaskStatus, the pasted sheets' outcome) or worded as the ribbon's outcome line words them.
 * Emulator over HTTP on 127.0.0.1, fake workbook.
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { renderToString } from "react-dom/server";
import type { ReactElement } from "react";
import { createTranslator, loadCatalog, type Translator } from "../../src/i18n/translator";
import { PASTE_KINDS } from "../../src/taskpane/features/paste-kinds";
import { refreshPastedSheets } from "../../src/taskpane/features/pasted/pasted-sheets-actions";
import { refreshPastedSheetsFromRibbon } from "../../src/taskpane/features/pasted/ribbon-refresh";
import { refreshScope, type FreshPassSource } from "../../src/taskpane/features/refresh/scoped-refresh-actions";
import { convertToValues } from "../../src/taskpane/features/static/static-copy-actions";
import { pasteSummary } from "../../src/taskpane/features/summary/summary-actions";
import { portfolioNameProblem } from "../../src/taskpane/features/sync/model/portfolio-name";
import { syncRangeToPortfolio } from "../../src/taskpane/features/sync/sync-actions";
import { ErrorNotice } from "../../src/taskpane/ui/ErrorNotice";
import { I18nContext } from "../../src/taskpane/ui/i18n";
import { StepError } from "../../src/taskpane/ui/pane-types";
import { TaskStatus } from "../../src/taskpane/ui/TaskStatus";
import { importPortfolio } from "../functions/support/emulator";
import { newWorkbook, usePaneTestService } from "../taskpane/support";
import { english } from "../support/english";
import { unzipCsvFiles } from "../../src/shaping/export-zip";
import { selectCell } from "../../src/excel/select-cell";
import { timeseriesQuery } from "../../src/taskpane/features/timeseries/timeseries-actions";
import { listPastedSheets } from "../../src/taskpane/features/pasted/pasted-sheets-actions";
import { listSome } from "../../src/taskpane/ui/pane-types";
import { readTable } from "../../src/excel/read-range";
import { checkShape } from "../../src/excel/write-sheets";
import { IncompleteCleanupError } from "../../src/excel/write-errors";
import { PROVENANCE_STORE_SHEET } from "../../src/shaping/paste-provenance";

const service = usePaneTestService();

let german: Translator;
beforeAll(async () => {
  german = createTranslator("de", await loadCatalog("de"), { decimal: ",", group: "." });
});

/** What the pane shows of `element` in German, as text (tags dropped, entities read). */
function inGerman(element: ReactElement): string {
  const html = renderToString(
    <FluentProvider theme={webLightTheme}>
      <I18nContext.Provider value={german}>{element}</I18nContext.Provider>
    </FluentProvider>,
  );
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** What `work` threw. */
async function thrown(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

test("a sync's errors, failed step and status line are German in a German pane", async () => {
  const { run } = newWorkbook();
  const empty = await thrown(
    syncRangeToPortfolio({
      client: service.client,
      run,
      source: { kind: "selection" },
      portfolio: "leer",
      confirmReplace: async () => false,
    }),
  );
  // English stays what logs and the English pane read.
  expect((empty as Error).message).toMatch(/^The selection is empty/);
  expect(inGerman(<ErrorNotice error={empty} testId="e" />)).toContain(
    "Die Auswahl ist leer: Markieren Sie die Zeilen der Vermögenswerte mit ihrer Kopfzeile, oder wählen Sie eine Tabelle.",
  );

  const step = new StepError("upload", { id: "sync.run.step.upload" }, new Error("boom"));
  expect(step.message).toBe("Uploading the assets failed: boom");
  expect(inGerman(<ErrorNotice error={step} testId="e" />)).toContain("Hochladen der Vermögenswerte fehlgeschlagen.");

  const running = {
    state: {
      status: "running" as const,
      progress: { message: { id: "sync.run.progress.upload" as const, values: { count: 1234, portfolio: "werke" } } },
    },
    running: true,
    start: () => undefined,
    cancel: () => undefined,
    reset: () => undefined,
  };
  // Numbers with Excel's separators (a German Excel: 1.234).
  expect(inGerman(<TaskStatus task={running as never} testId="t" success={() => null} />)).toContain(
    "1.234 Vermögenswerte werden in werke hochgeladen…",
  );
  expect(german.format(portfolioNameProblem("ab")!)).toBe(
    "Der Portfolioname „ab“ hat 2 Zeichen: erlaubt sind 3 bis 30.",
  );
});

test("a pasted sheet's refusal is German in the pane and on the ribbon's outcome line", async () => {
  await importPortfolio(service.client, "umbenannt", "entity_id,entity_name,lat,lng\nA1,Werk,48.137,11.575");
  const { run } = newWorkbook();
  const [pasted] = await pasteSummary({ client: service.client, run, portfolio: "umbenannt", scenario: "ssp245" });
  await run(async (context) => {
    context.workbook.worksheets.getItem(pasted!.sheetName).name = "Umbenannt";
    await context.sync();
  });
  const result = await refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run });
  expect(result.outcomes[0]).toMatchObject({ ok: false });
  expect(english(result.outcomes[0]!.message)).toMatch(/was renamed to "Umbenannt": rename it back/);
  expect(german.format(result.outcomes[0]!.message!)).toBe(
    `Das Blatt „${pasted!.sheetName}“ wurde in „Umbenannt“ umbenannt: Benennen Sie es zum Aktualisieren zurück oder fügen Sie es neu ein. Es wurde nichts geändert.`,
  );

  // The ribbon's outcome line (the shell words it with the pane's formatter): one sheet of the two left alone.
  const ribbon = await refreshPastedSheetsFromRibbon({ client: service.client, run, kinds: PASTE_KINDS });
  expect(german.format(ribbon.message)).toBe("1 von 2 eingefügten Blättern aktualisiert; 1 unverändert gelassen.");
  expect(ribbon.attention.map((said) => (typeof said === "string" ? said : german.format(said)))).toEqual([
    expect.stringContaining("wurde in „Umbenannt“ umbenannt"),
  ]);
});

test("a scoped refresh's and a static copy's refusals are German", async () => {
  const { run } = newWorkbook();
  const engine: FreshPassSource = {
    beginFreshPass: () => {
      throw new Error("no cells, no pass");
    },
  };
  const refresh = await thrown(refreshScope({ run, engine, scope: "sheet", onlyErrors: true }));
  expect((refresh as Error).message).toBe(
    "The active sheet has no RISK formulas showing an error: nothing was refreshed.",
  );
  expect(inGerman(<ErrorNotice error={refresh} testId="e" />)).toContain(
    "Das aktive Blatt enthält keine RISK-Formeln, die einen Fehler anzeigen: Es wurde nichts aktualisiert.",
  );
  const convert = await thrown(convertToValues({ run, scope: "selection" }));
  expect(inGerman(<ErrorNotice error={convert} testId="e" />)).toContain(
    "Die Auswahl enthält keine RISK-Formeln: Es wurde nichts umgewandelt.",
  );
});

test("the export's and a selected cell's errors are German", async () => {
  const notZip = (() => {
    try {
      unzipCsvFiles(new Uint8Array([1, 2, 3]));
    } catch (error) {
      return error;
    }
  })();
  expect((notZip as Error).message).toMatch(/^The export is not a readable ZIP archive/);
  expect(inGerman(<ErrorNotice error={notZip} testId="e" />)).toContain("Der Export ist kein lesbares ZIP-Archiv (");
  const { run } = newWorkbook();
  const gone = await thrown(run((context) => selectCell(context, "'Weg'!A1")));
  expect(inGerman(<ErrorNotice error={gone} testId="e" />)).toContain("Das Blatt „Weg“ existiert nicht mehr.");
});

test("a timeseries' date refusal and progress line are German", () => {
  const refused = (() => {
    try {
      timeseriesQuery({ startDate: "2022", endDate: "2021-02-30" });
    } catch (error) {
      return error;
    }
  })();
  expect(inGerman(<ErrorNotice error={refused} testId="e" />)).toContain(
    "Bis „2021-02-30“ ist kein existierendes Datum.",
  );
  expect(german.t("timeseries.run.progress", { read: 1500, expected: 6000, written: 1500 })).toBe(
    "1.500 von etwa 6.000 Reihen gelesen · 1.500 Zeilen geschrieben",
  );
});

test("a pasted sheet's kind, a provenance store's edited row and a long list's remainder are German", async () => {
  await importPortfolio(service.client, "herkunft", "entity_id,entity_name,lat,lng\nA1,Werk,48.137,11.575");
  const { fake, run } = newWorkbook();
  await pasteSummary({ client: service.client, run, portfolio: "herkunft", scenario: "ssp245", extended: false });
  const listed = await listPastedSheets(run);
  expect(listed.sheets.map((s) => german.format(s.label))).toEqual(["Zusammenfassung"]);
  // The record's cell edited by hand (row 2 of the very hidden store: its header is row 1).
  fake.setValues(PROVENANCE_STORE_SHEET, "B2", [["bearbeitet"]]);
  const edited = await listPastedSheets(run);
  expect(edited.problems.map((said) => english(said))).toEqual([
    "Row 2 of the provenance store is not a provenance record (it was edited).",
  ]);
  expect(edited.problems.map((said) => german.format(said))).toEqual([
    "Zeile 2 des Herkunftsspeichers ist kein Herkunftseintrag (sie wurde bearbeitet).",
  ]);
  const refused = await thrown(refreshPastedSheets({ kinds: PASTE_KINDS, client: service.client, run }));
  expect(inGerman(<ErrorNotice error={refused} testId="e" />)).toContain(
    "Keine verwendbaren Herkunftseinträge: Zeile 2 des Herkunftsspeichers ist kein Herkunftseintrag (sie wurde bearbeitet).",
  );

  const keys = ["A1", "A2", "A3", "A4"];
  expect(english(listSome(keys, 2))).toBe("A1; A2; and 2 more");
  expect(german.format(listSome(keys, 2))).toBe("A1; A2; und 2 weitere");
  expect(german.format(listSome(keys, 8))).toBe("A1; A2; A3; A4");
});

test("the workbook's refusals (a missing table, a cell Excel cannot hold, sheets left behind) are German", async () => {
  const { run } = newWorkbook();
  const missing = await thrown(run((context) => readTable(context, "Fehlt")));
  expect((missing as Error).message).toBe('There is no table named "Fehlt" in this workbook.');
  expect(inGerman(<ErrorNotice error={missing} testId="e" />)).toContain(
    "In dieser Arbeitsmappe gibt es keine Tabelle namens „Fehlt“.",
  );
  const shape = (() => {
    try {
      checkShape({ sheetName: "Werte", header: ["Wert"], rows: [[1234.5], [Number.NaN]] }, 0);
    } catch (error) {
      return error;
    }
  })();
  expect(inGerman(<ErrorNotice error={shape} testId="e" />)).toContain(
    "Blatt „Werte“: Zeile 2, Spalte „Wert“ enthält NaN, was eine Zelle nicht aufnehmen kann.",
  );
  const left = new IncompleteCleanupError(missing, ["Neu", "Neu (2)"], new Error("Excel busy"));
  expect(left.message).toBe(
    'There is no table named "Fehlt" in this workbook. The new sheets "Neu", "Neu (2)" could not be removed: delete them by hand.',
  );
  expect(inGerman(<ErrorNotice error={left} testId="e" />)).toContain(
    'In dieser Arbeitsmappe gibt es keine Tabelle namens „Fehlt“. Die neuen Blätter "Neu", "Neu (2)" konnten nicht entfernt werden: Löschen Sie sie von Hand.',
  );
});

test("a paste's refusal of an empty answer is German", async () => {
  const { fake, run } = newWorkbook();
  const sheetsBefore = fake.snapshot().sheets.map((s) => s.name);
  // A portfolio with no assets yet: its summary is an empty list.
  await service.client.portfolios.create("ohne");
  const empty = await thrown(pasteSummary({ client: service.client, run, portfolio: "ohne", scenario: "ssp245" }));
  expect((empty as Error).message).toBe("ohne has no summary data for ssp245.");
  expect(inGerman(<ErrorNotice error={empty} testId="e" />)).toContain(
    "ohne hat keine Zusammenfassungsdaten für ssp245.",
  );
  // Refused before anything was written.
  expect(fake.snapshot().sheets.map((s) => s.name)).toEqual(sheetsBefore);
});
