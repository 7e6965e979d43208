/** A problem found in a sheet range, pointing at the cell a user must fix. */

/** One problem; `address` can be handed to selectCell. */
export interface RangeProblem {
  /** 1-based sheet row number. */
  row: number;
  /** Column letters ("C"). */
  column: string;
  /** Sheet-qualified when the sheet is known ("'Site list'!C5"), else local ("C5"). */
  address: string;
  /** Local address for display ("C5"). */
  cell: string;
  /** What is wrong and what to do, naming the cell. */
  message: string;
}
