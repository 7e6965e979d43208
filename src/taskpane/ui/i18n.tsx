/**
 * The pane's language: the translator the shell chose (display language, Excel's separators) for
 * every section to format messages and numbers with. Outside a provider (tests that render one
 * component) it is English with en-US separators.
 */
import { createContext, useContext } from "react";
import { englishTranslator, type Translator } from "../../i18n/translator";

/** The translator of the pane (set by shell/mount.tsx). */
export const I18nContext = createContext<Translator>(englishTranslator);

/** The pane's translator: `t(id, values)`, `format(message)`, `number(value)`. */
export function useI18n(): Translator {
  return useContext(I18nContext);
}
