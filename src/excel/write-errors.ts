/** Errors of the workbook layer. */

/**
 * Thrown when an operation failed (or was cancelled) and the sheets it had created could not all
 * be removed afterwards. `cause` is the original failure; `leftSheets` names what remains.
 */
export class IncompleteCleanupError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly leftSheets: string[],
    readonly cleanupError: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `${reason} The new sheet(s) ${leftSheets.map((s) => `"${s}"`).join(", ")} could not be removed: delete them by hand.`,
    );
    this.name = "IncompleteCleanupError";
  }
}

/** Thrown before any change when the data to write is malformed; says which row and column. */
export class TableShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TableShapeError";
  }
}
