import type { Message } from "../../src/i18n/messages";
import { englishTranslator } from "../../src/i18n/translator";

/**
 * What the analyst reads, in English (the default language): a catalog message worded, a string
 * as it is, several joined by a space as the pane shows them.
 */
export function english(said: Message | string | readonly (Message | string)[] | undefined): string {
  if (said === undefined) return "";
  if (typeof said === "string") return said;
  if (Array.isArray(said)) return (said as readonly (Message | string)[]).map((s) => english(s)).join(" ");
  return englishTranslator.format(said as Message);
}
