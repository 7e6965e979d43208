import { Radio, RadioGroup, Field } from "@fluentui/react-components";
import { useState } from "react";
import { pasteRiskMatrix, pasteScenarioComparison } from "./risk-views-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { TaskButton } from "../../ui/TaskButton";
import { useTask } from "../../ui/hooks/use-task";
import type { SummaryChoice } from "./MapPanel";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";

/**
 * The risk matrix (assets × hazards, labels or scores, coloured by conditional formats, with a
 * chart of label counts per hazard) and the scenario comparison of the chosen hazard, as new sheets.
 */
export function RiskSheetsPanel(props: { choice: SummaryChoice }) {
  const { choice } = props;
  const [cells, setCells] = useState<"label" | "score">("label");
  const matrix = useTask<PastedSheet[]>();
  const compare = useTask<PastedSheet[]>();
  const wrote = (sheets: PastedSheet[]) =>
    `Wrote ${sheets.map((s) => `“${s.sheetName}” (${s.rowCount.toLocaleString("en-US")} rows)`).join(" and ")}.`;
  return (
    <Stack>
      <Field label="Matrix cells hold">
        <RadioGroup
          layout="horizontal"
          value={cells}
          onChange={(_, d) => setCells(d.value as "label" | "score")}
          data-testid={TEST_IDS.visual.matrixCells}
        >
          <Radio value="label" label="Labels" />
          <Radio value="score" label="Scores" />
        </RadioGroup>
      </Field>
      <TaskButton
        primary
        task={matrix}
        ready={Boolean(choice.portfolio)}
        testId={TEST_IDS.visual.matrixStart}
        work={(services, signal, onProgress) =>
          pasteRiskMatrix({
            ...services,
            portfolio: choice.portfolio,
            scenario: choice.scenario,
            window: choice.window,
            cells,
            signal,
            onProgress,
          })
        }
      >
        Risk matrix and label chart → new sheets
      </TaskButton>
      <TaskStatus task={matrix} testId={TEST_IDS.visual.matrix.id} success={wrote} />
      <TaskButton
        task={compare}
        ready={Boolean(choice.portfolio && choice.hazard)}
        testId={TEST_IDS.visual.compareStart}
        work={(services, signal, onProgress) =>
          pasteScenarioComparison({
            ...services,
            portfolio: choice.portfolio,
            hazard: choice.hazard,
            window: choice.window,
            signal,
            onProgress,
          })
        }
      >
        Compare scenarios for {choice.hazard || "a hazard"} → new sheet
      </TaskButton>
      <TaskStatus task={compare} testId={TEST_IDS.visual.compare.id} success={wrote} />
    </Stack>
  );
}
