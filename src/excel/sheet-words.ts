import type { Message } from "../i18n/messages";

/**
 * The words src/excel writes for a reader into sheets (the Sources sheet's operation column, a
 * link's tip, a note's title) in the pane's language. src/excel and src/shaping build
 * {@link Message}s; the pane hands its formatter here once its language is known
 * (src/taskpane/shell/mount.tsx), so every writer, also those a ribbon command runs, words them
 * alike. Until then English, whose formatter is imported on first use, not statically: the
 * ribbon's commands load with the add-in's first script, which stays free of the formatter.
 *
 * Only words nothing reads back go through here: sheet, table and header names, store keys and
 * service identifiers stay as they are in every language (docs/i18n.md, "Written sheets").
 */
export type SheetWords = (message: Message) => string;

let current: SheetWords | undefined;

/** Words later writes in `words` (the pane's translator's `format`). */
export function setSheetWords(words: SheetWords): void {
  current = words;
}

/** The formatter of the language sheets are written in now (English until the pane sets one). */
export async function sheetWords(): Promise<SheetWords> {
  if (current) return current;
  const { englishTranslator } = await import(/* webpackChunkName: "i18n-english" */ "../i18n/translator");
  return current ?? ((message) => englishTranslator.format(message));
}
