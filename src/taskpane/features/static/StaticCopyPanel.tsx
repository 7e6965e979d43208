import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Text,
} from "@fluentui/react-components";
import { useState } from "react";
import { staticCopiesChanged } from "../../../commands/page";
import { SCOPE_LABELS, type Scope } from "../../ui/scope";
import {
  convertToValues,
  countConvertible,
  restoreFormulas,
  type ConvertResult,
  type RestoreResult,
} from "./static-copy-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { usePaneStyles } from "../../ui/styles";
import { useI18n } from "../../ui/i18n";

/**
 * "Convert to values" (selection, sheet or workbook) after a confirmation that says
 * how many formulas will be replaced, and "Restore formulas", which puts them back exactly.
 */
export function StaticCopyPanel() {
  const { run } = useServices();
  const { t } = useI18n();
  const css = usePaneStyles(); // the scopes wrap where their names do not fit the pane
  const [scope, setScope] = useState<Scope>("sheet");
  const [pending, setPending] = useState<number | null>(null);
  const [countError, setCountError] = useState<unknown>(undefined);
  const convert = useTask<ConvertResult>();
  const restore = useTask<RestoreResult>();
  const busy = convert.running || restore.running;

  const ask = async () => {
    if (!run) return;
    setCountError(undefined);
    convert.reset();
    try {
      const count = await countConvertible(run, scope);
      if (count === 0) throw new Error(t("static.nothingToConvert", { scope }));
      setPending(count);
    } catch (error) {
      setCountError(error);
    }
  };

  return (
    <Stack>
      <Text size={200}>{t("static.hint")}</Text>
      <RadioGroup
        value={scope}
        onChange={(_, d) => {
          setScope(d.value as Scope);
          setPending(null);
        }}
        layout="horizontal"
        className={css.wrapCentered}
        data-testid={TEST_IDS.static.scope}
      >
        {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
          <Radio key={s} value={s} label={t(SCOPE_LABELS[s])} data-testid={TEST_IDS.static.scopeOption(s)} />
        ))}
      </RadioGroup>
      <Row>
        <Button
          appearance="primary"
          disabled={!run || busy || pending !== null}
          onClick={() => void ask()}
          data-testid={TEST_IDS.static.convert}
        >
          {t("static.convert")}
        </Button>
        <Button
          disabled={!run || busy}
          onClick={() => run && restore.start(() => restoreFormulas({ run, scope }), staticCopiesChanged)}
          data-testid={TEST_IDS.static.restore}
        >
          {t("static.restore")}
        </Button>
      </Row>
      {pending !== null ? (
        <MessageBar intent="warning" layout="multiline" data-testid={TEST_IDS.static.confirm}>
          <MessageBarBody>
            <MessageBarTitle>{t("static.confirm.title", { count: pending })}</MessageBarTitle>
            {t("static.confirm.body")}
          </MessageBarBody>
          <MessageBarActions>
            <Button
              appearance="primary"
              data-testid={TEST_IDS.static.confirmYes}
              onClick={() => {
                setPending(null);
                if (run) convert.start(() => convertToValues({ run, scope }), staticCopiesChanged);
              }}
            >
              {t("static.confirm.yes")}
            </Button>
            <Button onClick={() => setPending(null)} data-testid={TEST_IDS.static.confirmNo}>
              {t("static.confirm.no")}
            </Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {countError ? <ErrorNotice error={countError} testId={TEST_IDS.static.countError} /> : null}
      <TaskStatus
        task={convert}
        testId={TEST_IDS.static.task.id}
        cancellable={false}
        success={(r) => (
          <span data-testid={TEST_IDS.static.done} data-count={r.converted}>
            {t("static.done", {
              count: r.converted,
              spilled: r.spilledCells,
              sheets: r.sheets.join(", "),
              takenAt: r.takenAt,
            })}
          </span>
        )}
      />
      <TaskStatus
        task={restore}
        testId={TEST_IDS.static.restoreTask.id}
        cancellable={false}
        success={(r) => (
          <span data-testid={TEST_IDS.static.restoreDone} data-count={r.restored}>
            {t("static.restored", {
              count: r.restored,
              skipped: r.skipped.length,
              cells: `${r.skipped.slice(0, 5).join(", ")}${r.skipped.length > 5 ? ", …" : ""}`,
            })}
          </span>
        )}
      />
    </Stack>
  );
}
