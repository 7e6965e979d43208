/** Errors of the workbook layer: catalog messages (src/i18n), worded where they are shown. */
import { message, type Message } from "../i18n/messages";
import { MessageError, reasonOf } from "../i18n/message-error";

/**
 * Thrown when an operation failed (or was cancelled) and the sheets it had created could not all
 * be removed afterwards. `cause` is the original failure; `leftSheets` names what remains.
 */
export class IncompleteCleanupError extends MessageError {
  constructor(
    override readonly cause: unknown,
    readonly leftSheets: string[],
    readonly cleanupError: unknown,
  ) {
    super(
      message("excel.cleanupFailed", {
        reason: reasonOf(cause),
        count: leftSheets.length,
        sheets: leftSheets.map((s) => `"${s}"`).join(", "),
      }),
      { cause },
    );
    this.name = "IncompleteCleanupError";
  }
}

/** Thrown before any change when the data to write is malformed; says which row and column. */
export class TableShapeError extends MessageError {
  constructor(said: Message) {
    super(said);
    this.name = "TableShapeError";
  }
}
