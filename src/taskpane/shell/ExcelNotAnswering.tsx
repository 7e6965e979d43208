import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import type { SyncWatchdog } from "../../excel/sync-watchdog";

/**
 * What the pane says while Excel has not answered a sync for the watch's time (src/excel/sync-watchdog.ts),
 * whether the batch came from a section of the pane or from the ribbon: Excel is not answering, with
 * Wait (ask again after another period) and Cancel (stop waiting; whole or absent either way). Once
 * cancelled batches still wait for Excel, one line says so until Excel answers and they are undone.
 * Test ids: `excel-not-answering`, `excel-not-answering-wait`, `excel-not-answering-cancel`,
 * `excel-cancelled-waiting`.
 */
export function ExcelNotAnswering(props: { watchdog: SyncWatchdog }) {
  const { watchdog } = props;
  const state = useSyncExternalStore(
    (listener) => watchdog.subscribe(listener),
    () => watchdog.current,
    () => watchdog.current,
  );
  if (state.stall) {
    const seconds = Math.round(watchdog.stallMs / 1000);
    return (
      <MessageBar intent="warning" layout="multiline" data-testid="excel-not-answering">
        <MessageBarBody>
          <MessageBarTitle>Excel is not answering</MessageBarTitle>
          It has not answered the add-in for {seconds > 0 ? `${seconds} seconds` : "a while"} (Excel on the web does
          this while it is busy, for example just after a large workbook opens). Wait, or cancel: the task is then
          undone when Excel answers, never left half-done.
        </MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={() => watchdog.wait()} data-testid="excel-not-answering-wait">
            Wait
          </Button>
          <Button size="small" onClick={() => watchdog.cancel()} data-testid="excel-not-answering-cancel">
            Cancel
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (state.cancelledWaiting > 0)
    return (
      <MessageBar intent="info" layout="multiline" data-testid="excel-cancelled-waiting">
        <MessageBarBody>
          {state.cancelledWaiting === 1 ? "A cancelled task waits" : `${state.cancelledWaiting} cancelled tasks wait`}{" "}
          for Excel to answer, to undo what it started. If Excel never answers, close the workbook without saving.
        </MessageBarBody>
      </MessageBar>
    );
  return null;
}
