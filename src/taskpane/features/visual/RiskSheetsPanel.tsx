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
import { useI18n } from "../../ui/i18n";
import { listOf } from "../../ui/list-format";

/**
 * The risk matrix (assets × hazards, labels or scores, coloured by conditional formats, with a
 * chart of label counts per hazard) and the scenario comparison of the chosen hazard, as new sheets.
 */
export function RiskSheetsPanel(props: { choice: SummaryChoice }) {
  const { choice } = props;
  const i18n = useI18n();
  const { t } = i18n;
  const [cells, setCells] = useState<"label" | "score">("label");
  const matrix = useTask<PastedSheet[]>();
  const compare = useTask<PastedSheet[]>();
  const wrote = (sheets: PastedSheet[]) =>
    t("visual.wrote", {
      sheets: listOf(
        i18n,
        sheets.map((s) => t("visual.wrote.sheet", { sheet: s.sheetName, rows: s.rowCount })),
      ),
    });
  return (
    <Stack>
      <Field label={t("visual.matrixCells")}>
        <RadioGroup
          layout="horizontal"
          value={cells}
          onChange={(_, d) => setCells(d.value as "label" | "score")}
          data-testid={TEST_IDS.visual.matrixCells}
        >
          <Radio value="label" label={t("visual.matrixCells.labels")} />
          <Radio value="score" label={t("visual.matrixCells.scores")} />
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
        {t("visual.matrix")}
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
        {choice.hazard ? t("visual.compare", { hazard: choice.hazard }) : t("visual.compare.noHazard")}
      </TaskButton>
      <TaskStatus task={compare} testId={TEST_IDS.visual.compare.id} success={wrote} />
    </Stack>
  );
}
