/**
 * The pane's language and number separators, chosen once when the UI mounts: the words follow
 * Office's display language (`Office.context.displayLanguage`, matched to the nearest catalog:
 * de-CH → de, es-US → en), the numbers follow Excel's separators (src/excel/culture.ts). Outside
 * Office (the browser harness) the language is the page's `<html lang>`, which the harness sets
 * from its `?lang=`.
 */
import { readExcelSeparators } from "../../excel/culture";
import { catalogLanguage, matchLanguage } from "../../i18n/languages";
import { EN_US_SEPARATORS, type NumberSeparators } from "../../i18n/numbers";
import { createTranslator, ENGLISH, loadCatalog, type Translator } from "../../i18n/translator";
import type { ExcelRunner } from "../ui/pane-types";

/** Office's display and editing languages, or undefined where there is no Office host. */
function officeLanguages(host: Office.HostType | null): { display?: string; content?: string } {
  if (!host) return {};
  const context = (globalThis as { Office?: { context?: { displayLanguage?: string; contentLanguage?: string } } })
    .Office?.context;
  return { display: context?.displayLanguage, content: context?.contentLanguage };
}

/**
 * The translator for this pane. Sets `<html lang>` to the language shown, so screen readers and
 * hyphenation follow it. Never fails: without a workbook or a readable culture, en-US separators
 * (or the editing language's) stand in.
 */
export async function paneTranslator(host: Office.HostType | null, run: ExcelRunner | null): Promise<Translator> {
  const { display, content } = officeLanguages(host);
  let language = matchLanguage(display ?? document.documentElement.lang);
  let catalog = ENGLISH;
  try {
    catalog = await loadCatalog(catalogLanguage(language));
  } catch {
    // The catalog's chunk did not load (a dropped connection to the add-in's host): English.
    language = "en";
  }
  let separators: NumberSeparators = EN_US_SEPARATORS;
  if (run) {
    try {
      separators = await run((context) => readExcelSeparators(context, content));
    } catch {
      // No workbook to ask now (a closing workbook, a host error): en-US separators, as before.
    }
  }
  document.documentElement.lang = catalogLanguage(language);
  return createTranslator(language, catalog, separators);
}
