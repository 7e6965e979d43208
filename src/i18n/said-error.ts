import type { Message } from "./messages";
import { englishTranslator } from "./translator";

/**
 * An error whose words a user reads: it carries its {@link Message} (id and values), which the pane
 * formats in its language (src/taskpane/ui/describe-error.ts); its `message` is the English text,
 * for logs and for code and tests outside the pane.
 */
export class SaidError extends Error {
  /** What to say, in the reader's language; absent when `message` passes on words not yet in the catalogs. */
  readonly said?: Message;

  constructor(said: Message | string, options?: ErrorOptions) {
    super(typeof said === "string" ? said : englishTranslator.format(said), options);
    this.name = "SaidError";
    if (typeof said !== "string") this.said = said;
  }
}
