/**
 * The ICU MessageFormat engine behind every translator: FormatJS's intl-messageformat over a
 * catalog, plurals by the language's rules, numbers with Excel's separators. It imports no catalog,
 * so whoever bundles it chooses which messages ride along: the pane takes whole catalogs
 * (./translator.ts), the functions runtime only the cells' messages (./cell-catalogs.ts).
 */
import { IntlMessageFormat } from "intl-messageformat";
import { catalogLanguage, PSEUDO_LANGUAGE, type DisplayLanguage } from "./languages";
import type { Message, MessageId, MessageValue } from "./messages";
import { EN_US_SEPARATORS, formatNumber, type NumberSeparators } from "./numbers";

/** A catalog: every message id to its ICU MessageFormat text. */
export type Catalog = Readonly<Record<MessageId, string>>;

/** Formats messages in one language. */
export interface Translator<Id extends MessageId = MessageId> {
  readonly language: DisplayLanguage;
  readonly separators: NumberSeparators;
  /** The message `id` with `values`, in this language. */
  t(id: Id, values?: Readonly<Record<string, MessageValue>>): string;
  /** A message a lower layer returned. */
  format(message: Message<Id>): string;
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
 * A translator for `language` over `catalog`, with `fallback` (English) for an id the catalog
 * lacks. `separators` are Excel's (numbers in messages follow them, as every number the pane shows
 * does); plural rules follow the language.
 */
export function createFormatter<Id extends MessageId>(
  language: DisplayLanguage,
  catalog: Readonly<Record<Id, string>>,
  fallback: Readonly<Record<Id, string>>,
  separators: NumberSeparators = EN_US_SEPARATORS,
): Translator<Id> {
  const locale = catalogLanguage(language);
  const compiled = new Map<Id, IntlMessageFormat>();
  // intl-messageformat formats `{n, number}` and plural `#` through this: Excel's separators, not the locale's.
  const getNumberFormat = (_locales?: string | string[], options?: Intl.NumberFormatOptions) =>
    ({ format: (value: number | bigint) => formatNumber(Number(value), separators, options) }) as Intl.NumberFormat;
  const t = (id: Id, values?: Readonly<Record<string, MessageValue>>): string => {
    let format = compiled.get(id);
    if (!format) {
      // A catalog the test (test/i18n/catalogs.test.ts) let through without this id cannot ship;
      // English stands in rather than an id on screen.
      const source = catalog[id] ?? fallback[id];
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
      Object.entries(values).map(([name, value]) => [name, isMessage(value) ? t(value.id as Id, value.values) : value]),
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
