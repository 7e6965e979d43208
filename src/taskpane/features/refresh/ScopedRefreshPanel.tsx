import { Button, Checkbox, Radio, RadioGroup, Spinner, Text } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import { defaultEngine } from "../../../functions/engine/default-engine";
import { countScope, refreshScope, type ScopedRefreshResult } from "./scoped-refresh-actions";
import { SCOPE_LABELS, type Scope } from "../../ui/scope";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";

/**
 * Refresh the RISK cells of the selection, the active sheet or the workbook
 * (optionally only those showing errors). Says how many cells first; only those skip the cache.
 */
export function ScopedRefreshPanel() {
  const { run } = useServices();
  const [scope, setScope] = useState<Scope>("selection");
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [generation, setGeneration] = useState(0);
  const count = useCallback(() => countScope(run!, scope, onlyErrors), [run, scope, onlyErrors]);
  const counted = useLoader(run ? count : null, [run, scope, onlyErrors, generation]);
  const task = useTask<ScopedRefreshResult>();
  const cells = counted.data?.cells;

  return (
    <Stack>
      <RadioGroup
        value={scope}
        onChange={(_, d) => setScope(d.value as Scope)}
        layout="horizontal"
        data-testid={TEST_IDS.refresh.scopeChoice}
      >
        {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
          <Radio key={s} value={s} label={SCOPE_LABELS[s]} data-testid={TEST_IDS.refresh.scopeOption(s)} />
        ))}
      </RadioGroup>
      <Checkbox
        label="Only cells showing an error"
        checked={onlyErrors}
        onChange={(_, d) => setOnlyErrors(Boolean(d.checked))}
        data-testid={TEST_IDS.refresh.scopeOnlyErrors}
      />
      <Row center>
        {counted.loading ? <Spinner size="tiny" /> : null}
        <Text size={200} data-testid={TEST_IDS.refresh.scopeCount} data-count={cells ?? ""}>
          {cells === undefined
            ? "Counting RISK cells…"
            : cells === 0
              ? `No RISK cells${onlyErrors ? " showing an error" : ""} in this scope.`
              : `${cells.toLocaleString("en-US")} RISK cell${cells === 1 ? "" : "s"} in scope (${counted.data?.sheets.join(", ")}).`}
        </Text>
        <Button
          size="small"
          appearance="subtle"
          onClick={() => setGeneration((g) => g + 1)}
          data-testid={TEST_IDS.refresh.scopeRecount}
        >
          Count again
        </Button>
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
              refreshScope({ run, engine: defaultEngine(), scope, onlyErrors, signal, onProgress }),
            () => setGeneration((g) => g + 1),
          )
        }
      >
        Refresh{" "}
        {cells ? `${cells.toLocaleString("en-US")} cell${cells === 1 ? "" : "s"}` : SCOPE_LABELS[scope].toLowerCase()}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.refresh.scope.id}
        success={(r) => (
          <span data-testid={TEST_IDS.refresh.scopeDone} data-count={r.riskCells}>
            Refreshed {r.riskCells.toLocaleString("en-US")} RISK cell{r.riskCells === 1 ? "" : "s"} (
            {r.sheets.join(", ")}); other cells kept their cached results.
          </span>
        )}
      />
    </Stack>
  );
}
