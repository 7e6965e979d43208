/**
 * The pane's language: the translator the shell chose (display language, Excel's separators) for
 * every section to format messages and numbers with. Outside a provider (tests that render one
 * component) it is English with en-US separators.
 */
import { createContext, useContext } from "react";
import { englishTranslator, type Translator } from "../../i18n/translator";
import type { Message } from "../../i18n/messages";

/** The translator of the pane (set by shell/mount.tsx). */
export const I18nContext = createContext<Translator>(englishTranslator);

/** The pane's translator: `t(id, values)`, `format(message)`, `number(value)`. */
export function useI18n(): Translator {
  return useContext(I18nContext);
}

/**
 * Words an action handed the pane: a catalog message in the pane's language; a string as it is
 * (words some actions still build in English, see docs/i18n.md "Not yet").
 */
export function wordsOf(i18n: Translator, said: Message | string): string {
  return typeof said === "string" ? said : i18n.format(said);
}
