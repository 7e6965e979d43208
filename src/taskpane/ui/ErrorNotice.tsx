import { MessageBar, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { describeError } from "./describe-error";
import { StepError } from "./pane-types";
import { usePaneStyles } from "./styles";
import { useI18n, wordsOf } from "./i18n";

/**
 * Shows a failure: a headline chosen by the error's class, the failed step when there was one,
 * and the service's own strings as plain text (React escapes them; nothing is interpreted).
 */
export function ErrorNotice(props: { error: unknown; testId: string }) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const step = props.error instanceof StepError ? props.error : undefined;
  const described = describeError(step ? step.cause : props.error, i18n);
  return (
    <MessageBar
      intent={described.cancelled ? "info" : "error"}
      data-testid={props.testId}
      data-step={step?.step}
      layout="multiline"
    >
      <MessageBarBody>
        {step && !described.cancelled ? (
          <MessageBarTitle>{i18n.t("ui.error.stepFailed", { step: wordsOf(i18n, step.stepLabel) })}</MessageBarTitle>
        ) : null}
        <div>{described.title}</div>
        {described.details.length > 0 ? (
          <ul className={css.bulletList}>
            {described.details.map((detail, i) => (
              <li key={i} className={css.breakWord}>
                {detail}
              </li>
            ))}
          </ul>
        ) : null}
      </MessageBarBody>
    </MessageBar>
  );
}
