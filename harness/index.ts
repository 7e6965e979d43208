/**
 * Entry of the browser harness (harness.html, development builds only): plays Excel's part so the
 * real functions bundle and the real task pane run in a plain browser against the emulator.
 *
 * Script order on the page is office.js, runtime, harness (this), functions, taskpane. So:
 *  - right now, synchronously, the CustomFunctions registry is installed: functions.js runs next and
 *    its associate calls must land in it;
 *  - when Office.onReady reports no host (a plain browser), the in-memory Excel is installed as the
 *    global `Excel` (this callback was registered before the task pane's, so it runs first), the
 *    workbook is drawn, and the task pane bootstrap mounts the real UI into #root as in Excel.
 * Inside a real Office host the harness does nothing but say so.
 */
import { installFakeExcel } from "../testing/fake-excel";
import { installFunctionRegistry } from "./custom-functions-registry";
import { FormulaEngine } from "./formula/engine";
import { MetadataIndex, loadMetadata } from "./formula/metadata";
import { WorkbookController } from "./workbook-controller";
import { WorkbookView } from "./workbook-view";
import { loadDemoWorkbook } from "./demo-workbook";
import { createHarnessApi, type HarnessApi } from "./harness-api";
import { OfficeCommandsStandIn } from "./office-commands";
import { loadRibbon, metadataUrlOf, type RibbonView } from "./ribbon-view";
import { separatorsOfLocale } from "../src/i18n/numbers";
import type { ExcelCultureModel } from "../testing/fake-excel";

declare global {
  interface Window {
    harness?: HarnessApi;
  }
}

const registry = installFunctionRegistry(window as unknown as Record<string, unknown>);
// `?lang=de` (or de-CH, fr, fr-CA, ...) plays an Excel in that UI language: the page's <html lang>
// (which the pane reads outside Office, as it reads Office.context.displayLanguage inside), the
// ribbon's and the function help's manifest Overrides, and the workbook's number separators.
const locale = harnessLocale(new URLSearchParams(location.search).get("lang"));
document.documentElement.lang = locale;
// Before the task pane bootstrap runs (it associates the ribbon's actions as the page loads).
// `?pane=hidden` starts with the pane hidden, as Excel does when a RISK cell starts the runtime.
const commands = new OfficeCommandsStandIn(
  document.getElementById("taskpane-panel"),
  new URLSearchParams(location.search).get("pane") !== "hidden",
);
commands.install(window as unknown as Record<string, unknown>);

if (typeof Office === "undefined") {
  showProblem("office.js did not load (see the browser console); the harness runs without it.");
  start();
} else {
  // The callback does the work; onReady's own promise carries nothing more.
  void Office.onReady((info) => {
    if (info.host) {
      showProblem(
        `This page runs inside ${String(info.host)}: the harness is for plain browsers only. Open taskpane.html instead.`,
      );
      return;
    }
    start();
  });
}

function start(): void {
  const fake = installFakeExcel(window as unknown as Record<string, unknown>);
  if (!fake) {
    showProblem("A real Excel API is present: the harness will not replace it.");
    return;
  }
  fake.model.culture = cultureOf(locale);
  const engine = new FormulaEngine(fake, registry, new MetadataIndex());
  fake.setFormulaEvaluator(engine.evaluator);
  fake.setSpillResolver((sheet, row, col) => engine.spillOf(sheet, row, col));
  const workbook = new WorkbookController(fake, engine);
  const container = document.getElementById("workbook");
  if (!container) throw new Error("harness.html has no #workbook element");
  const view = new WorkbookView(container, workbook);

  commands.connectSelection(window as unknown as Record<string, unknown>, fake);
  const ribbonBox = document.getElementById("ribbon");
  const ribbon: Promise<RibbonView | undefined> = ribbonBox
    ? loadRibbon(ribbonBox, commands, showProblem, locale).catch((error: unknown) => {
        showProblem(`The Climate Risk tab could not be drawn: ${(error as Error).message}`);
        return undefined;
      })
    : Promise.resolve(undefined);

  const ready = (async () => {
    await ribbon;
    const { index, problem } = await loadMetadata(await metadataUrlFor(locale));
    engine.setMetadata(index);
    if (problem) showProblem(`Function metadata unavailable (${problem}); arguments are passed by position.`);
    if (registry.ids().length === 0)
      showProblem("No RISK.* function was registered: did functions.js fail to load? See the console.");
    if (new URLSearchParams(location.search).get("demo") !== "0") await loadDemoWorkbook(fake, workbook);
    document.body.dataset.harnessReady = "true";
  })();
  ready.catch((error: unknown) => showProblem(`The harness failed to start: ${(error as Error).message}`));
  window.harness = createHarnessApi({ ready, fake, workbook, view, engine, registry, commands, ribbon });
}

/**
 * The Office locale `?lang=` names: a region-qualified tag as given ("de-CH"); a bare language as
 * Office would report it in its main region ("de" → "de-DE", "fr" → "fr-FR"); none: en-US.
 */
function harnessLocale(lang: string | null): string {
  const tag = (lang ?? "").trim();
  if (!tag) return "en-US";
  if (tag.includes("-")) return tag;
  const main: Record<string, string> = { de: "de-DE", fr: "fr-FR", en: "en-US" };
  return main[tag.toLowerCase()] ?? tag;
}

/** An Excel of that locale with system separators (Intl's separators for the locale). */
function cultureOf(localeTag: string): ExcelCultureModel {
  const { decimal, group } = separatorsOfLocale(localeTag);
  return {
    name: localeTag,
    cultureDecimal: decimal,
    cultureGroup: group,
    useSystemSeparators: true,
    customDecimal: decimal,
    customThousands: group,
  };
}

/** The metadata file the manifest names for `localeTag` (functions.json when the manifest cannot be read). */
async function metadataUrlFor(localeTag: string): Promise<string> {
  try {
    const response = await fetch("manifest.xml");
    return response.ok ? metadataUrlOf(await response.text(), localeTag) : "functions.json";
  } catch {
    return "functions.json";
  }
}

/** A line in the banner for what keeps the harness from working fully. */
function showProblem(text: string): void {
  const box = document.getElementById("harness-problems");
  if (!box) return;
  const line = document.createElement("div");
  line.textContent = text;
  box.appendChild(line);
  box.hidden = false;
  console.warn(`[harness] ${text}`);
}
