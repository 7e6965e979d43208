import { Button, Checkbox, Radio, RadioGroup, Spinner, Text } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import { defaultEngine } from "../../../functions/engine/default-engine";
import {
  countScope,
  refreshScope,
  refreshWorkbookByRecalculation,
  type ScopedRefreshResult,
  type WorkbookRefreshResult,
} from "./scoped-refresh-actions";
import { SCOPE_LABELS, type Scope } from "../../ui/scope";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { usePaneStyles } from "../../ui/styles";
import type { MessageId } from "../../../i18n/messages";
import { useI18n } from "../../ui/i18n";

/** The refresh button's words while the scope's cells are not counted ("Refresh selection"). */
const REFRESH_SCOPE: Record<Scope, MessageId> = {
  selection: "refresh.scoped.refreshSelection",
  sheet: "refresh.scoped.refreshSheet",
  workbook: "refresh.scoped.refreshWorkbook",
};

/**
 * Refresh the RISK cells of the selection, the active sheet or the workbook
 * (optionally only those showing errors). Says how many cells first; only those skip the cache.
 * The whole workbook is neither counted nor found first (that reads every formula of it): Excel
 * recalculates in a fresh pass, and the calls are counted as they come.
 */
export function ScopedRefreshPanel() {
  const { run } = useServices();
  const [scope, setScope] = useState<Scope>("selection");
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [generation, setGeneration] = useState(0);
  const whole = scope === "workbook" && !onlyErrors;
  const count = useCallback(() => countScope(run!, scope, onlyErrors), [run, scope, onlyErrors]);
  const counted = useLoader(run && !whole ? count : null, [run, scope, onlyErrors, generation]);
  const { t } = useI18n();
  const css = usePaneStyles(); // the scopes wrap where their names do not fit the pane
  const task = useTask<ScopedRefreshResult | WorkbookRefreshResult>();
  const cells = counted.data?.cells;

  return (
    <Stack>
      <RadioGroup
        value={scope}
        onChange={(_, d) => setScope(d.value as Scope)}
        layout="horizontal"
        className={css.wrapCentered}
        data-testid={TEST_IDS.refresh.scopeChoice}
      >
        {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
          <Radio key={s} value={s} label={t(SCOPE_LABELS[s])} data-testid={TEST_IDS.refresh.scopeOption(s)} />
        ))}
      </RadioGroup>
      <Checkbox
        label={t("refresh.scoped.onlyErrors")}
        checked={onlyErrors}
        onChange={(_, d) => setOnlyErrors(Boolean(d.checked))}
        data-testid={TEST_IDS.refresh.scopeOnlyErrors}
      />
      <Row center>
        {counted.loading ? <Spinner size="tiny" aria-label={t("refresh.scoped.counting")} /> : null}
        <Text size={200} data-testid={TEST_IDS.refresh.scopeCount} data-count={cells ?? ""}>
          {whole
            ? t("refresh.scoped.wholeWorkbook")
            : cells === undefined
              ? t("refresh.scoped.counting")
              : cells === 0
                ? t(onlyErrors ? "refresh.scoped.noneWithError" : "refresh.scoped.none")
                : t("refresh.scoped.inScope", { count: cells, sheets: counted.data?.sheets.join(", ") ?? "" })}
        </Text>
        {whole ? null : (
          <Button
            size="small"
            appearance="subtle"
            onClick={() => setGeneration((g) => g + 1)}
            data-testid={TEST_IDS.refresh.scopeRecount}
          >
            {t("refresh.scoped.countAgain")}
          </Button>
        )}
      </Row>
      {counted.error ? <ErrorNotice error={counted.error} testId={TEST_IDS.refresh.scopeCountError} /> : null}
      <Button
        appearance="primary"
        disabled={!run || task.running}
        data-testid={TEST_IDS.refresh.scopeRefresh}
        onClick={() =>
          run &&
          task.start(
            (signal, onProgress) =>
              whole
                ? refreshWorkbookByRecalculation({ run, engine: defaultEngine(), signal, onProgress })
                : refreshScope({ run, engine: defaultEngine(), scope, onlyErrors, signal, onProgress }),
            () => setGeneration((g) => g + 1),
          )
        }
      >
        {cells ? t("refresh.scoped.refreshCells", { count: cells }) : t(REFRESH_SCOPE[scope])}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.refresh.scope.id}
        success={(r) =>
          "calls" in r ? (
            <span data-testid={TEST_IDS.refresh.scopeDone} data-count={r.calls}>
              {t("refresh.run.workbookDone", { count: r.calls, answered: r.answered })}
            </span>
          ) : (
            <span data-testid={TEST_IDS.refresh.scopeDone} data-count={r.riskCells}>
              {t("refresh.scoped.done", { count: r.riskCells, sheets: r.sheets.join(", ") })}
            </span>
          )
        }
      />
    </Stack>
  );
}
