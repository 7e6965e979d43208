/**
 * Excel's own number separators, which the pane uses for every number it shows or reads
 * (src/i18n/numbers.ts). Excel 1.11 and later report them: the separators Excel uses are
 * Application.decimalSeparator and thousandsSeparator (the system culture's while "Use system
 * separators" is on, else the ones set in Excel's options); older hosts fall back to the
 * separators of `Office.context.contentLanguage` (the editing language), which is what Microsoft's
 * localization guidance offers for data ("Localization for Office Add-ins",
 * https://learn.microsoft.com/office/dev/add-ins/develop/localization).
 *
 * Formulas are never affected: the add-in writes them through Range.formulas in en-US syntax,
 * never through formulasLocal (test/i18n/formulas-invariant.test.ts).
 */
import { EN_US_SEPARATORS, separatorsOfLocale, type NumberSeparators } from "../i18n/numbers";
import { requirementSupported } from "../shared/requirements";

/**
 * Excel's decimal and group separators, read in one sync where ExcelApi 1.11 exists; else those
 * of `contentLanguage` (en-US when it is unknown).
 */
export async function readExcelSeparators(
  context: Excel.RequestContext,
  contentLanguage?: string,
): Promise<NumberSeparators> {
  if (!requirementSupported("ExcelApi", "1.11"))
    return contentLanguage ? separatorsOfLocale(contentLanguage) : EN_US_SEPARATORS;
  const application = context.workbook.application;
  application.load("decimalSeparator,thousandsSeparator");
  await context.sync();
  const decimal = application.decimalSeparator;
  const group = application.thousandsSeparator;
  // A host that answers with nothing usable keeps the editing language's separators.
  if (!decimal || decimal === group) return contentLanguage ? separatorsOfLocale(contentLanguage) : EN_US_SEPARATORS;
  return { decimal, group };
}
