/**
 * The cells' messages (`cell.*`) of each catalog, for the functions runtime: functions.js carries
 * the English ones, German and French load as small chunks of their own. They are not copies: the
 * `?cell` query has webpack keep only the `cell.*` keys of the catalog file itself
 * (scripts/catalog-subset-loader.js), so each language keeps one file translators edit and the
 * panels' words stay out of functions.js. Under jest the query is dropped (jest.config.js) and the
 * whole catalog stands in; the types below still let only `cell.*` ids through.
 */
import englishCells from "./catalogs/en.json?cell";
import type { Language } from "./languages";
import type { CellMessageId, Message } from "./messages";

export type { CellMessageId } from "./messages";

/** A {@link Message} a cell shows. */
export type CellMessage = Message<CellMessageId>;

/** A catalog's cells' messages. */
export type CellCatalog = Readonly<Record<CellMessageId, string>>;

/** The English cells' messages (bundled: cells that fail before Office is ready are worded in English). */
export const ENGLISH_CELLS: CellCatalog = englishCells;

/** The cells' messages of a language: English at once, German and French from their own chunks. */
export async function loadCellCatalog(language: Language): Promise<CellCatalog> {
  if (language === "en") return ENGLISH_CELLS;
  const loaded = (await import(
    /* webpackChunkName: "cell-catalog-[request]" */ `./catalogs/${language}.json?cell`
  )) as { default: CellCatalog };
  return loaded.default;
}
