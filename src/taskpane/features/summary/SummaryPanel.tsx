import { Checkbox } from "@fluentui/react-components";
import { useState } from "react";
import { DEFAULT_EXTENDED_SCENARIO, downloadSummary, pasteSummary } from "./summary-actions";
import { SCENARIOS } from "../../../shared/vocabulary";
import type { PastedSheet } from "../../ui/pane-types";
import { TaskButton } from "../../ui/TaskButton";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField, ScenarioChoice } from "../../ui/ChoiceField";
import { DownloadButton } from "../../ui/DownloadButton";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import { listOf } from "../../ui/list-format";

/** Default and extended summaries flattened into new sheets, labels coloured. */
export function SummaryPanel() {
  const { client } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const [portfolio, setPortfolio] = useState("");
  const [scenario, setScenario] = useState("");
  const [extended, setExtended] = useState(true);
  const [extendedScenario, setExtendedScenario] = useState<string>(DEFAULT_EXTENDED_SCENARIO);
  const task = useTask<PastedSheet[]>();
  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.summary.portfolio.id} />
      <ScenarioChoice
        label={t("summary.scenario")}
        value={scenario}
        onChange={setScenario}
        allLabel={t("summary.allScenarios")}
        testId={TEST_IDS.summary.scenario}
      />
      <Checkbox
        label={t("summary.extended")}
        checked={extended}
        onChange={(_, d) => setExtended(d.checked === true)}
        data-testid={TEST_IDS.summary.extended}
      />
      {extended && !scenario ? (
        <ChoiceField
          label={t("summary.extendedScenario")}
          hint={t("summary.extendedScenario.hint")}
          value={extendedScenario}
          onChange={setExtendedScenario}
          choices={SCENARIOS}
          testId={TEST_IDS.summary.extendedScenario}
        />
      ) : null}
      <TaskButton
        primary
        task={task}
        ready={Boolean(portfolio)}
        testId={TEST_IDS.summary.start}
        work={(services, signal, onProgress) =>
          pasteSummary({
            ...services,
            portfolio,
            scenario: scenario || undefined,
            extended,
            extendedScenario,
            signal,
            onProgress,
          })
        }
      >
        {t("summary.start")}
      </TaskButton>
      <DownloadButton
        testId={TEST_IDS.summary.download.id}
        disabled={!client || !portfolio}
        download={(signal, onProgress) =>
          downloadSummary({ client: client!, portfolio, scenario: scenario || undefined, signal, onProgress })
        }
      />
      <TaskStatus
        task={task}
        testId={TEST_IDS.summary.task.id}
        success={(sheets) =>
          t("summary.wrote", {
            sheets: listOf(
              i18n,
              sheets.map((s) => t("summary.wrote.sheet", { sheet: s.sheetName, rows: s.rowCount })),
            ),
          })
        }
      />
    </Stack>
  );
}
