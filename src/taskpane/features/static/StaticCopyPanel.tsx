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

/**
 * "Convert to values" (selection, sheet or workbook) after a confirmation that says
 * how many formulas will be replaced, and "Restore formulas", which puts them back exactly.
 */
export function StaticCopyPanel() {
  const { run } = useServices();
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
      if (count === 0)
        throw new Error(
          `${scope === "selection" ? "The selection" : scope === "sheet" ? "The active sheet" : "The workbook"} has no RISK formulas: nothing to convert.`,
        );
      setPending(count);
    } catch (error) {
      setCountError(error);
    }
  };

  return (
    <Stack>
      <Text size={200}>
        Replace RISK formulas with the values they show, to send the workbook to someone without the add-in. The
        formulas are kept in the workbook.
      </Text>
      <RadioGroup
        value={scope}
        onChange={(_, d) => {
          setScope(d.value as Scope);
          setPending(null);
        }}
        layout="horizontal"
        data-testid={TEST_IDS.static.scope}
      >
        {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
          <Radio key={s} value={s} label={SCOPE_LABELS[s]} data-testid={TEST_IDS.static.scopeOption(s)} />
        ))}
      </RadioGroup>
      <Row>
        <Button
          appearance="primary"
          disabled={!run || busy || pending !== null}
          onClick={() => void ask()}
          data-testid={TEST_IDS.static.convert}
        >
          Convert to values…
        </Button>
        <Button
          disabled={!run || busy}
          onClick={() => run && restore.start(() => restoreFormulas({ run, scope }), staticCopiesChanged)}
          data-testid={TEST_IDS.static.restore}
        >
          Restore formulas
        </Button>
      </Row>
      {pending !== null ? (
        <MessageBar intent="warning" layout="multiline" data-testid={TEST_IDS.static.confirm}>
          <MessageBarBody>
            <MessageBarTitle>
              Replace {pending.toLocaleString("en-US")} RISK formula{pending === 1 ? "" : "s"} with values?
            </MessageBarTitle>
            Excel cannot undo this, but “Restore formulas” puts them back. The Climate Risk sources sheet will say when
            this static copy was taken.
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
              Convert
            </Button>
            <Button onClick={() => setPending(null)} data-testid={TEST_IDS.static.confirmNo}>
              Cancel
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
            Replaced {r.converted.toLocaleString("en-US")} formula{r.converted === 1 ? "" : "s"}
            {r.spilledCells > 0 ? ` and ${r.spilledCells.toLocaleString("en-US")} spilled cells` : ""} with values (
            {r.sheets.join(", ")}), static copy of {r.takenAt}.
          </span>
        )}
      />
      <TaskStatus
        task={restore}
        testId={TEST_IDS.static.restoreTask.id}
        cancellable={false}
        success={(r) => (
          <span data-testid={TEST_IDS.static.restoreDone} data-count={r.restored}>
            Restored {r.restored.toLocaleString("en-US")} formula{r.restored === 1 ? "" : "s"}.
            {r.skipped.length > 0
              ? ` Left ${r.skipped.length} cell${r.skipped.length === 1 ? "" : "s"} you changed since the copy: ${r.skipped.slice(0, 5).join(", ")}${r.skipped.length > 5 ? ", …" : ""}.`
              : ""}
          </span>
        )}
      />
    </Stack>
  );
}
