import { Button, Text } from "@fluentui/react-components";
import { explainSelection, type Explanation } from "./explain-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/**
 * "Explain" the selected RISK cell (a spilled one as itself: its place in the
 * spill and its own arguments) or pasted score: hazard, indicator, unit, thresholds and where the
 * value sits, window, bounds, scenario, dataset version.
 */
export function ExplainPanel() {
  const css = usePaneStyles();
  const { t, format } = useI18n();
  const { client, run } = useServices();
  const task = useTask<Explanation>();
  return (
    <Stack>
      <Text size={200}>{t("explain.hint")}</Text>
      <Button
        appearance="primary"
        disabled={!client || !run || task.running}
        data-testid={TEST_IDS.explain.start}
        onClick={() => client && run && task.start((signal) => explainSelection({ client, run, signal }))}
      >
        {t("explain.start")}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.explain.task.id}
        success={(e) => (
          <Stack gap={4}>
            <Text weight="semibold" data-testid={TEST_IDS.explain.source} className={css.breakWord}>
              {e.address}: {String(e.value)} ({format(e.source)})
            </Text>
            <dl className={css.facts}>
              {e.lines.map((line, i) => (
                <div key={i} className={css.contents} data-testid={TEST_IDS.explain.line(line.key)}>
                  <dt className={css.term}>{t(line.label)}</dt>
                  <dd className={css.definition}>{format(line.text)}</dd>
                </div>
              ))}
            </dl>
          </Stack>
        )}
      />
    </Stack>
  );
}
