import { Checkbox } from "@fluentui/react-components";
import { useState } from "react";
import { DEFAULT_EXTENDED_SCENARIO, downloadSummary, pasteSummary } from "./summary-actions";
import { SCENARIOS } from "../../../shared/vocabulary";
import type { PastedSheet } from "../../ui/pane-types";
import { TaskButton } from "../../ui/TaskButton";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField } from "../../ui/ChoiceField";
import { DownloadButton } from "../../ui/DownloadButton";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";

/** Default and extended summaries flattened into new sheets, labels coloured. */
export function SummaryPanel() {
  const { client } = useServices();
  const [portfolio, setPortfolio] = useState("");
  const [scenario, setScenario] = useState("");
  const [extended, setExtended] = useState(true);
  const [extendedScenario, setExtendedScenario] = useState<string>(DEFAULT_EXTENDED_SCENARIO);
  const task = useTask<PastedSheet[]>();
  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.summary.portfolio.id} />
      <ChoiceField
        label="Scenario"
        value={scenario}
        onChange={setScenario}
        choices={SCENARIOS}
        emptyLabel="All scenarios"
        testId={TEST_IDS.summary.scenario}
      />
      <Checkbox
        label="Also the extended summary (metrics per hazard)"
        checked={extended}
        onChange={(_, d) => setExtended(d.checked === true)}
        data-testid={TEST_IDS.summary.extended}
      />
      {extended && !scenario ? (
        <ChoiceField
          label="Extended summary scenario"
          hint="One scenario at a time: it has about 250 columns per asset."
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
        Pull summary into new sheets
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
        success={(sheets) => `Wrote ${sheets.map((s) => `“${s.sheetName}” (${s.rowCount} rows)`).join(" and ")}.`}
      />
    </Stack>
  );
}
