import { useI18n } from "../../ui/i18n";
import {
  Button,
  Checkbox,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Textarea,
  makeStyles,
} from "@fluentui/react-components";
import { useState } from "react";
import { pageCommands } from "../../../commands/page";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { useLoader } from "../../ui/hooks/use-loader";
import { useServices } from "../../ui/services";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: "8px" },
  buttons: { display: "flex", gap: "8px", flexWrap: "wrap", alignItems: "center" },
  report: { width: "100%" },
  reportText: {
    fontFamily: "Consolas, 'Cascadia Mono', monospace",
    fontSize: "11px",
    lineHeight: "15px",
    minHeight: "320px",
    whiteSpace: "pre",
  },
});

/**
 * "Check the add-in": runs the check when the section opens (and again on request), and shows the
 * report as text to copy into a support request. The API key is never in it. Evaluating a RISK
 * formula is asked for separately: it adds a scratch sheet and removes it again.
 */
export function CheckPanel() {
  const styles = useStyles();
  const css = usePaneStyles();
  const { run } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const [withFormula, setWithFormula] = useState(false);
  const [request, setRequest] = useState({ serial: 0, formula: false });
  const [copied, setCopied] = useState(false);
  const check = useLoader(async () => {
    // The check's code is a chunk of its own: nothing of it loads until someone asks.
    const { runHealthCheck } = await import(/* webpackChunkName: "health-check" */ "../../../commands/health-gather");
    return runHealthCheck({
      run,
      evaluateFormula: request.formula,
      ribbon: pageCommands.state,
      associatedCommands: pageCommands.runtime?.associated ?? [],
      i18n,
    });
  }, [request.serial]);
  const copy = async () => {
    if (!check.data) return;
    try {
      await navigator.clipboard.writeText(check.data.report);
      setCopied(true);
    } catch {
      // The clipboard is not available to the pane in some hosts: the text below can be selected.
      setCopied(false);
    }
  };
  return (
    <div className={styles.root} data-testid={TEST_IDS.check.panel}>
      <Text size={200}>{t("check.intro")}</Text>
      <Checkbox
        label={t("check.withFormula")}
        checked={withFormula}
        onChange={(_, data) => setWithFormula(data.checked === true)}
        data-testid={TEST_IDS.check.withFormula}
      />
      <div className={styles.buttons}>
        <Button
          appearance="primary"
          disabled={check.loading}
          onClick={() => {
            setCopied(false);
            setRequest({ serial: request.serial + 1, formula: withFormula });
          }}
          data-testid={TEST_IDS.check.run}
        >
          {t("check.run")}
        </Button>
        <Button disabled={!check.data} onClick={() => void copy()} data-testid={TEST_IDS.check.copy}>
          {copied ? t("check.copied") : t("check.copy")}
        </Button>
        {check.loading ? <Spinner size="tiny" label={t("check.running")} data-testid={TEST_IDS.check.running} /> : null}
      </div>
      {check.error ? <ErrorNotice error={check.error} testId={TEST_IDS.check.error} /> : null}
      {check.data && check.data.unanswered.length > 0 ? (
        <MessageBar intent="error" layout="multiline" data-testid={TEST_IDS.check.noAnswer}>
          <MessageBarBody>
            <MessageBarTitle>{t("check.noAnswer")}</MessageBarTitle>
            {check.data.unanswered.map((line) => (
              <div key={line} className={css.breakWord}>
                {line}
              </div>
            ))}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {check.data ? (
        <Textarea
          className={styles.report}
          textarea={{ className: styles.reportText }}
          value={check.data.report}
          readOnly
          resize="vertical"
          aria-label={t("check.report")}
          data-testid={TEST_IDS.check.report}
        />
      ) : null}
    </div>
  );
}
