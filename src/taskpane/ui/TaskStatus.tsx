import { Button, MessageBar, MessageBarBody, ProgressBar, Text } from "@fluentui/react-components";
import type { ReactNode } from "react";
import type { Task } from "./hooks/use-task";
import { ErrorNotice } from "./ErrorNotice";
import { usePaneStyles } from "./styles";
import { taskStatusIds } from "./test-ids";
import { useI18n, wordsOf } from "./i18n";

/**
 * The status area under a panel's button: a progress bar with its message and Cancel while the
 * task runs, the error when it failed, and `success(result)` when it is done.
 * Test ids: `${testId}-progress`, `${testId}-cancel`, `${testId}-error`, `${testId}-result`.
 */
export function TaskStatus<T>(props: {
  task: Task<T>;
  testId: string;
  success: (result: T) => ReactNode;
  cancellable?: boolean;
}) {
  const { task, testId } = props;
  const ids = taskStatusIds(testId);
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const state = task.state;
  if (state.status === "running") {
    const fraction = state.progress?.fraction;
    const said = state.progress ? wordsOf(i18n, state.progress.message) : t("ui.task.working");
    return (
      <div data-testid={ids.progress} role="status" aria-live="polite" className={css.column}>
        <ProgressBar value={fraction} max={1} thickness="large" aria-label={said} />
        <Text size={200}>{said}</Text>
        {props.cancellable === false ? null : (
          <Button size="small" onClick={task.cancel} data-testid={ids.cancel} className={css.start}>
            {t("ui.task.cancel")}
          </Button>
        )}
      </div>
    );
  }
  if (state.status === "failed") return <ErrorNotice error={state.error} testId={ids.error} />;
  if (state.status === "done") {
    return (
      <MessageBar intent="success" data-testid={ids.result} layout="multiline">
        <MessageBarBody>{props.success(state.result)}</MessageBarBody>
      </MessageBar>
    );
  }
  return null;
}
