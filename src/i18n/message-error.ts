import type { Message } from "./messages";

/**
 * Errors whose words are a catalog {@link Message}: thrown by any layer (src/excel and src/shaping
 * too, which must not bundle the formatter), worded where they are shown (the pane's
 * `describeError`, the ribbon's outcome line) in the display language.
 *
 * `message` (what logs, `String(error)` and tests read) is the English text once ./translator.ts
 * has loaded (the pane and the functions load it at start); before that, the message id. The
 * words are only looked up when `message` is read, so throwing costs no formatting.
 */
let englishWords: ((said: Message) => string) | undefined;

/** Sets how `message` words an error in English (./translator.ts calls it as it loads). */
export function setEnglishWords(words: (said: Message) => string): void {
  englishWords = words;
}

/** `said` in English (the message id until ./translator.ts has loaded). */
export function inEnglish(said: Message): string {
  return englishWords?.(said) ?? said.id;
}

/** An error the analyst reads: its `said` message is formatted in the pane's language where it is shown. */
export class MessageError extends Error {
  constructor(
    readonly said: Message,
    options?: { cause?: unknown },
  ) {
    super(said.id, options);
    this.name = "MessageError";
    // English on demand: the formatter may load after the error is made (the ribbon's first command).
    Object.defineProperty(this, "message", {
      get: () => inEnglish(said),
      configurable: true,
      enumerable: false,
    });
  }
}

/**
 * What a thrown value says, to quote inside another message: its catalog message, or its text as
 * it is (errors not in the catalogs: the service's, the browser's).
 */
export function reasonOf(error: unknown): Message | string {
  if (error instanceof MessageError) return error.said;
  return error instanceof Error ? error.message : String(error);
}

/** What a thrown value says: its message when it is a {@link MessageError}. */
export function saidBy(error: unknown): Message | undefined {
  return error instanceof MessageError ? error.said : undefined;
}
