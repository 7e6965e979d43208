/**
 * The page's ribbon commands, once the task pane bootstrap registered them: the believed button
 * state, the action ids associated, and the re-check of what the buttons depend on. One page, one
 * of each (the shared runtime); the pane's "Check the add-in" and its static-copy section read and
 * poke it through here rather than through the bootstrap.
 */
import type { CommandRuntime } from "./register";
import { RibbonState } from "./ribbon-state";

/** What the bootstrap registered (empty until it has, and outside Office). */
export const pageCommands: {
  runtime?: CommandRuntime;
  state: RibbonState;
  /** Reads again whether the workbook keeps a static copy (after a convert or a restore). */
  recheckStaticCopy: () => Promise<void>;
} = {
  state: new RibbonState(null),
  recheckStaticCopy: async () => undefined,
};

/** Says the workbook's static copies changed (convert or restore, from the pane or the ribbon). */
export function staticCopiesChanged(): void {
  void pageCommands.recheckStaticCopy();
}
