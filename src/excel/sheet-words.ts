import type { Message } from "../i18n/messages";
import { englishTranslator } from "../i18n/translator";

/**
 * The words src/excel writes for a reader into sheets (the Sources sheet's operation column, a
 * link's tip) in the pane's language. src/excel and src/shaping build {@link Message}s; the pane
 * hands its formatter here once its language is known (src/taskpane/shell/mount.tsx), so every
 * writer, also those a ribbon command runs, words them alike. English until then.
 *
 * Only words nothing reads back go through here: sheet, table and header names, store keys and
 * service identifiers stay as they are in every language (docs/i18n.md, "What never changes").
 */
export type SheetWords = (message: Message) => string;

let current: SheetWords = (message) => englishTranslator.format(message);

/** Words later writes in `words` (the pane's translator's `format`). */
export function setSheetWords(words: SheetWords): void {
  current = words;
}

/** A message in the language sheets are written in now. */
export function sheetText(message: Message): string {
  return current(message);
}
