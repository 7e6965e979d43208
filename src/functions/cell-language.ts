import { ENGLISH_CELLS, loadCellCatalog, type CellMessage, type CellMessageId } from "../i18n/cell-catalogs";
import { createFormatter, type Translator } from "../i18n/formatter";
import { catalogLanguage, matchLanguage, type DisplayLanguage } from "../i18n/languages";
import { EN_US_SEPARATORS, separatorsOfLocale } from "../i18n/numbers";

/**
 * The language of the messages RISK.* cells show with their error values (`cell.*` in the
 * catalogs). The functions runtime has no pane: functions.ts hands it Office's display language
 * at start-up. Only the catalogs' `cell.*` messages reach functions.js (../i18n/cell-catalogs.ts):
 * English bundled, German and French as small chunks of their own; the panels' words stay with
 * the pane.
 */

let current: Translator<CellMessageId> = createFormatter("en", ENGLISH_CELLS, ENGLISH_CELLS);
let ready: Promise<void> = Promise.resolve();

/**
 * Speaks `displayLanguage` (a host tag such as "de-CH", matched to the nearest catalog), numbers
 * in messages with the separators of `contentLanguage` (custom functions may not ask Excel for its
 * own). Settles once the catalog is loaded; a catalog that fails to load leaves English.
 */
export function setCellLanguage(displayLanguage: string | undefined, contentLanguage?: string): Promise<void> {
  const language: DisplayLanguage = matchLanguage(displayLanguage);
  const separators = contentLanguage ? separatorsOfLocale(contentLanguage) : EN_US_SEPARATORS;
  ready = loadCellCatalog(catalogLanguage(language)).then(
    (catalog) => {
      current = createFormatter(language, catalog, ENGLISH_CELLS, separators);
    },
    () => undefined,
  );
  return ready;
}

/** Settles when the language last set is ready: a failing cell awaits it before it words its error. */
export function cellLanguageReady(): Promise<void> {
  return ready;
}

/** A message in the cells' language. */
export function cellText(message: CellMessage): string {
  return current.format(message);
}

/** The cells' language (for lists and other wording a message's values need). */
export function cellLanguage(): DisplayLanguage {
  return current.language;
}

/**
 * Takes the cells' language from Office once it is ready: its display language (and its editing
 * language's separators); outside an Office host (the browser harness) the page's `<html lang>`,
 * which the harness sets from `?lang=`. Without Office (Node: benchmarks, scripts) English stays.
 * Cells that fail before Office is ready are worded in English: `ready` does not wait on
 * `Office.onReady`, so no failing cell can wait on a host that never answers.
 */
export function startCellLanguage(): void {
  const office = (globalThis as { Office?: typeof Office }).Office;
  if (typeof office?.onReady !== "function") return;
  void office.onReady().then(
    (info) => {
      const context = info.host ? office.context : undefined;
      const page = typeof document === "undefined" ? undefined : document.documentElement.lang;
      return setCellLanguage(context?.displayLanguage ?? page, context?.contentLanguage);
    },
    () => undefined,
  );
}
