/** A problem found in a sheet range, pointing at the cell a user must fix. */
import type { Message } from "../i18n/messages";

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
  /** What is wrong and what to do, naming the cell: worded by the pane in its language. */
  message: Message;
}
