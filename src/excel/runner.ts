/** How callers above the workbook layer reach the workbook. */

/**
 * Runs a batch against the workbook: `Excel.run` in Office, the fake's `run` in tests and in the
 * harness. Typed loosely on purpose so both fit. The task pane's actions hold one and hand its
 * `RequestContext` to the functions of `src/excel`, which do all the object-model work.
 */
export type ExcelRunner = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;
