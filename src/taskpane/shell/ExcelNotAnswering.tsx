import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import type { SyncWatchdog } from "../../excel/sync-watchdog";
import { useI18n } from "../ui/i18n";
import { TEST_IDS } from "../ui/test-ids";

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
  const i18n = useI18n();
  const state = useSyncExternalStore(
    (listener) => watchdog.subscribe(listener),
    () => watchdog.current,
    () => watchdog.current,
  );
  if (state.stall) {
    const seconds = Math.round(watchdog.stallMs / 1000);
    return (
      <MessageBar intent="warning" layout="multiline" data-testid={TEST_IDS.shell.excelNotAnswering}>
        <MessageBarBody>
          <MessageBarTitle>{i18n.t("excel.notAnswering.title")}</MessageBarTitle>
          {i18n.t("excel.notAnswering.body", { seconds: Math.max(0, seconds) })}
        </MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={() => watchdog.wait()} data-testid={TEST_IDS.shell.excelNotAnsweringWait}>
            {i18n.t("excel.notAnswering.wait")}
          </Button>
          <Button size="small" onClick={() => watchdog.cancel()} data-testid={TEST_IDS.shell.excelNotAnsweringCancel}>
            {i18n.t("excel.notAnswering.cancel")}
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (state.cancelledWaiting > 0)
    return (
      <MessageBar intent="info" layout="multiline" data-testid={TEST_IDS.shell.excelCancelledWaiting}>
        <MessageBarBody>{i18n.t("excel.cancelledWaiting", { count: state.cancelledWaiting })}</MessageBarBody>
      </MessageBar>
    );
  return null;
}
