/**
 * What every layer may say to the analyst without formatting it: a message id of the catalogs and
 * its values. Types only (erased at build time), so src/excel, src/shaping and src/functions can
 * return a {@link Message} without bundling the catalogs or the formatter; the pane, the ribbon
 * commands and the functions format it (./translator.ts) in the display language.
 */
import type english from "./catalogs/en.json";

/** Every message id: the keys of the English catalog, which the German and French ones must match (test/i18n). */
export type MessageId = keyof typeof english;

/**
 * A value a message may interpolate: ICU MessageFormat formats numbers and dates by the display
 * language; a {@link Message} is worded first, in the same language (a status line inside a frame
 * such as "part 2 of 3: …", never the pieces of one sentence).
 */
export type MessageValue = string | number | Date | Message;

/** A message to show: its catalog id and the values its placeholders take. */
export interface Message<Id extends MessageId = MessageId> {
  readonly id: Id;
  readonly values?: Readonly<Record<string, MessageValue>>;
}

/** The ids of the messages a `RISK.*` cell shows: the only ones functions.js carries (./cell-catalogs.ts). */
export type CellMessageId = Extract<MessageId, `cell.${string}`>;

/**
 * A {@link Message} (a helper so call sites read `message("app.noWorkbook")`). A cell's message
 * keeps its id's type, so the functions can only say what their catalogs carry; any other is a
 * plain `Message`, so messages of one feature share a type.
 */
export function message<Id extends CellMessageId>(id: Id, values?: Readonly<Record<string, MessageValue>>): Message<Id>;
export function message(id: MessageId, values?: Readonly<Record<string, MessageValue>>): Message;
export function message(id: MessageId, values?: Readonly<Record<string, MessageValue>>): Message {
  return values ? { id, values } : { id };
}
