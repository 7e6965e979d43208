import { Button, Text } from "@fluentui/react-components";
import { refreshAll } from "./refresh-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** Empty the functions' cache and recalculate every RISK.* cell (the usage line follows their loads). */
export function RefreshPanel() {
  const { run, emptyCache } = useServices();
  const { t } = useI18n();
  const task = useTask<void>();
  return (
    <Stack>
      <Text size={200}>{t("refresh.all.hint")}</Text>
      <Button
        appearance="primary"
        disabled={!run || task.running}
        onClick={() => run && task.start(() => refreshAll({ run, emptyCache }))}
        data-testid={TEST_IDS.refresh.all}
      >
        {t("refresh.all.button")}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.refresh.task.id}
        cancellable={false}
        success={() => <span data-testid={TEST_IDS.refresh.recalculating}>{t("refresh.all.recalculating")}</span>}
      />
    </Stack>
  );
}
