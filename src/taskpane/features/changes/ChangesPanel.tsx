import { Button, Text } from "@fluentui/react-components";
import { useState } from "react";
import { compareWithSnapshot, takeChangeSnapshot, type ChangeReport, type ChangeSnapshot } from "./changes-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import { parseNumber } from "../../../i18n/numbers";

/**
 * Snapshot a range of RISK cells, refresh (Refresh all, or anything else), then
 * compare: label flips, score moves beyond a threshold, dataset version changes.
 */
export function ChangesPanel() {
  const css = usePaneStyles();
  const { t, format, number, separators } = useI18n();
  const { client, run } = useServices();
  // Typed and shown with Excel's separators: 0,01 in a German Excel.
  const [threshold, setThreshold] = useState(() => number(0.01));
  const [snapshot, setSnapshot] = useState<ChangeSnapshot | null>(null);
  const snap = useTask<ChangeSnapshot>();
  const compare = useTask<ChangeReport>();
  const parsed = parseNumber(threshold, separators);
  const amount = parsed ?? NaN;
  const thresholdProblem =
    parsed === undefined
      ? t("number.invalid", { text: threshold, example: number(0.01) })
      : parsed < 0
        ? t("changes.threshold.negative")
        : undefined;
  const badThreshold = thresholdProblem !== undefined;
  return (
    <Stack>
      <Text size={200}>{t("changes.hint")}</Text>
      <Button
        disabled={!client || !run || snap.running}
        data-testid={TEST_IDS.changes.snapshot.id}
        onClick={() =>
          client &&
          run &&
          snap.start(async (signal) => {
            const taken = await takeChangeSnapshot({ client, run, signal });
            setSnapshot(taken);
            return taken;
          })
        }
      >
        {t("changes.snapshot")}
      </Button>
      <TaskStatus
        task={snap}
        testId={TEST_IDS.changes.snapshot.id}
        success={(s) => t("changes.snapshot.done", { count: s.cells.length, address: s.address })}
      />
      <TextField
        label={t("changes.threshold")}
        validationMessage={thresholdProblem}
        value={threshold}
        onChange={setThreshold}
        testId={TEST_IDS.changes.threshold}
      />
      <Button
        appearance="primary"
        disabled={!client || !run || !snapshot || badThreshold || compare.running}
        data-testid={TEST_IDS.changes.compare}
        onClick={() =>
          client &&
          run &&
          snapshot &&
          compare.start((signal) => compareWithSnapshot({ client, run, snapshot, threshold: amount, signal }))
        }
      >
        {t("changes.compare")}
      </Button>
      <TaskStatus
        task={compare}
        testId={TEST_IDS.changes.task.id}
        success={(r) => (
          <ul className={css.summaryList} data-testid={TEST_IDS.changes.summary}>
            {[...r.summary, ...r.datasetChanges].map(format).map((line, i) => (
              <li key={i}>{line}</li>
            ))}
            {r.sheet ? <li>{t("changes.listedIn", { sheet: r.sheet.sheetName })}</li> : null}
          </ul>
        )}
      />
    </Stack>
  );
}
