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

/**
 * Snapshot a range of RISK cells, refresh (Refresh all, or anything else), then
 * compare: label flips, score moves beyond a threshold, dataset version changes.
 */
export function ChangesPanel() {
  const css = usePaneStyles();
  const { client, run } = useServices();
  const [threshold, setThreshold] = useState("0.01");
  const [snapshot, setSnapshot] = useState<ChangeSnapshot | null>(null);
  const snap = useTask<ChangeSnapshot>();
  const compare = useTask<ChangeReport>();
  const amount = Number(threshold);
  const badThreshold = !(Number.isFinite(amount) && amount >= 0);
  return (
    <Stack>
      <Text size={200}>Select RISK cells (or pasted scores), take a snapshot, refresh, then compare.</Text>
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
        Take snapshot of the selection
      </Button>
      <TaskStatus
        task={snap}
        testId={TEST_IDS.changes.snapshot.id}
        success={(s) => `Snapshot of ${s.cells.length} cells in ${s.address}.`}
      />
      <TextField
        label="Report score moves larger than"
        validationMessage={badThreshold ? "A number from 0" : undefined}
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
        Compare with snapshot
      </Button>
      <TaskStatus
        task={compare}
        testId={TEST_IDS.changes.task.id}
        success={(r) => (
          <ul className={css.summaryList} data-testid={TEST_IDS.changes.summary}>
            {[...r.summary, ...r.datasetChanges].map((line, i) => (
              <li key={i}>{line}</li>
            ))}
            {r.sheet ? <li>Listed in “{r.sheet.sheetName}”.</li> : null}
          </ul>
        )}
      />
    </Stack>
  );
}
