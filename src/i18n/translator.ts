/**
 * Formats catalog messages with FormatJS's ICU MessageFormat engine (intl-messageformat): plurals
 * and values by the display language's rules, numbers with Excel's separators. Used by the pane
 * and the ribbon commands; src/excel, src/shaping and src/functions only return {@link Message}s.
 *
 * English is bundled with whoever imports this module (it is also every other catalog's
 * reference); German and French load on demand, each its own small chunk.
 */
import { IntlMessageFormat } from "intl-messageformat";
import english from "./catalogs/en.json";
import { catalogLanguage, PSEUDO_LANGUAGE, type DisplayLanguage, type Language } from "./languages";
import type { Message, MessageId, MessageValue } from "./messages";
import { setEnglishWords } from "./message-error";
import { EN_US_SEPARATORS, formatNumber, type NumberSeparators } from "./numbers";

/** A catalog: every message id to its ICU MessageFormat text. */
export type Catalog = Readonly<Record<MessageId, string>>;

/** The English catalog (bundled: the reference every other catalog must match). */
export const ENGLISH: Catalog = english;

/** The catalog of a language: English at once, German and French from their own chunks. */
export async function loadCatalog(language: Language): Promise<Catalog> {
  if (language === "en") return ENGLISH;
  const loaded = (await import(/* webpackChunkName: "catalog-[request]" */ `./catalogs/${language}.json`)) as {
    default: Catalog;
  };
  return loaded.default;
}

/** Formats messages in one language. */
export interface Translator {
  readonly language: DisplayLanguage;
  readonly separators: NumberSeparators;
  /** The message `id` with `values`, in this language. */
  t(id: MessageId, values?: Readonly<Record<string, MessageValue>>): string;
  /** A message a lower layer returned. */
  format(message: Message): string;
  /** A number with Excel's separators. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
}

/**
 * The pseudo-locale's text: every letter run kept, 40 % more characters added (as "~", in words of
 * at most 8 so that it wraps as a translation would), the whole bracketed, so a clipped end or a
 * string that bypassed the catalog both show. Placeholders and ICU syntax are left as they are
 * (only text outside braces is stretched).
 */
export function pseudoLocalize(text: string): string {
  let depth = 0;
  let plain = 0;
  for (const char of text) {
    if (char === "{") depth += 1;
    else if (char === "}") depth -= 1;
    else if (depth === 0) plain += 1;
  }
  // The padding comes in words of at most 8 "~" (a real translation's longer text wraps at its
  // spaces; one unbreakable run of 48 would widen any box it sits in past the pane).
  const padding = "~".repeat(Math.ceil(plain * 0.4)).replace(/~{8}(?=~)/g, "$& ");
  return `[${text}${padding}]`;
}

/**
 * A translator for `language` over `catalog`. `separators` are Excel's (numbers in messages follow
 * them, as every number the pane shows does); plural rules follow the language.
 */
export function createTranslator(
  language: DisplayLanguage,
  catalog: Catalog,
  separators: NumberSeparators = EN_US_SEPARATORS,
): Translator {
  const locale = catalogLanguage(language);
  const compiled = new Map<MessageId, IntlMessageFormat>();
  // intl-messageformat formats `{n, number}` and plural `#` through this: Excel's separators, not the locale's.
  const getNumberFormat = (_locales?: string | string[], options?: Intl.NumberFormatOptions) =>
    ({ format: (value: number | bigint) => formatNumber(Number(value), separators, options) }) as Intl.NumberFormat;
  const t = (id: MessageId, values?: Readonly<Record<string, MessageValue>>): string => {
    let format = compiled.get(id);
    if (!format) {
      // A catalog the test (test/i18n/catalogs.test.ts) let through without this id cannot ship;
      // English stands in rather than an id on screen.
      const source = catalog[id] ?? ENGLISH[id];
      const text = language === PSEUDO_LANGUAGE ? pseudoLocalize(source) : source;
      format = new IntlMessageFormat(text, locale, undefined, {
        formatters: {
          getNumberFormat,
          getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) =>
            new Intl.DateTimeFormat(...args),
          getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
        },
      });
      compiled.set(id, format);
    }
    return String(format.format(values && wordNested(values)));
  };
  // A value that is itself a message is worded first, in this language.
  const wordNested = (values: Readonly<Record<string, MessageValue>>): Record<string, string | number | Date> =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, isMessage(value) ? t(value.id, value.values) : value]),
    );
  return {
    language,
    separators,
    t,
    format: (message) => t(message.id, message.values),
    number: (value, options) => formatNumber(value, separators, options),
  };
}

function isMessage(value: MessageValue): value is Message {
  return typeof value === "object" && !(value instanceof Date);
}

/** English with en-US separators: for code and tests outside the pane. */
export const englishTranslator: Translator = createTranslator("en", ENGLISH);

// Errors that carry a Message (./message-error.ts) say themselves in English to logs and tests.
setEnglishWords((said) => englishTranslator.format(said));
