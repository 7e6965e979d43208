import { Button, Text } from "@fluentui/react-components";
import { refreshAll, type RefreshResult } from "./refresh-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";

/** Empty the functions' cache and recalculate every RISK.* cell, saying how many. */
export function RefreshPanel() {
  const { run, emptyCache } = useServices();
  const task = useTask<RefreshResult>();
  return (
    <Stack>
      <Text size={200}>Fetches fresh data for every RISK.* cell in the workbook.</Text>
      <Button
        appearance="primary"
        disabled={!run || task.running}
        onClick={() => run && task.start(() => refreshAll({ run, emptyCache }))}
        data-testid={TEST_IDS.refresh.all}
      >
        Refresh all
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.refresh.task.id}
        cancellable={false}
        success={(r) => (
          <span data-testid={TEST_IDS.refresh.count} data-count={r.riskCells}>
            {r.riskCells === 0
              ? "No RISK.* cells found."
              : `${r.riskCells} RISK.* cell${r.riskCells === 1 ? " is" : "s are"} refreshing (${r.sheets.join(", ")}).`}
          </span>
        )}
      />
    </Stack>
  );
}
