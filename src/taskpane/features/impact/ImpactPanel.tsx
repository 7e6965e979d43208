import { Button, Link, MessageBar, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { useState } from "react";
import { pasteFinancialImpact, type FinancialImpactResult } from "./impact-actions";
import { ALL_DAMAGE_HAZARDS, ALL_DAMAGE_HAZARDS_TITLE, CurrencyNeededError } from "./model/financial-impact";
import { selectProblemCell } from "../sync";
import { EXTENDED_HAZARDS, SCENARIOS } from "../../../shared/vocabulary";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField, type Choice } from "../../ui/ChoiceField";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";

/**
 * The extended summary's hazard keys (service interface, "Physical summary item (extended)"), then
 * the sum of the hazards with structural damage.
 */
const HAZARD_CHOICES: readonly Choice[] = [
  ...EXTENDED_HAZARDS,
  { value: ALL_DAMAGE_HAZARDS, label: ALL_DAMAGE_HAZARDS_TITLE },
];
const SHOWN_PROBLEMS = 50;

/**
 * Money at risk. Writes the "Impact data", "Financial impact" and roll-up sheets
 * (value × structural damage as formulas) and lists the missing values and damages by cell.
 */
export function ImpactPanel() {
  const css = usePaneStyles();
  const { client, run } = useServices();
  const [portfolio, setPortfolio] = useState("");
  const [hazard, setHazard] = useState<string>("flood");
  const [scenario, setScenario] = useState("");
  const [valueColumn, setValueColumn] = useState("");
  const [rollup, setRollup] = useState("");
  const [currency, setCurrency] = useState("");
  const task = useTask<FinancialImpactResult>();
  const value =
    valueColumn.trim() === ""
      ? undefined
      : valueColumn.trim().startsWith("label:")
        ? { label: valueColumn.trim() }
        : { column: valueColumn.trim() };
  const result = task.state.status === "done" ? task.state.result : undefined;
  const askCurrency = task.state.status === "failed" && task.state.error instanceof CurrencyNeededError;
  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.impact.portfolio.id} />
      <ChoiceField
        label="Hazard"
        value={hazard}
        onChange={setHazard}
        choices={HAZARD_CHOICES}
        testId={TEST_IDS.impact.hazard}
      />
      <ChoiceField
        label="Scenario"
        value={scenario}
        onChange={setScenario}
        choices={SCENARIOS}
        emptyLabel="All scenarios"
        testId={TEST_IDS.impact.scenario}
      />
      <TextField
        label="Asset value"
        hint="Empty: label:price, else label:value. Or label:<key>, or a column header of the range synced to this portfolio."
        value={valueColumn}
        onChange={setValueColumn}
        placeholder="label:price"
        testId={TEST_IDS.impact.value}
      />
      <TextField
        label="Currency of the values"
        validationState={askCurrency ? "warning" : "none"}
        validationMessage={
          askCurrency ? "Say the currency of these values (three letters), then write the sheets again." : undefined
        }
        hint="label:price is USD (the service's definition). Any other value: its currency, e.g. EUR; remembered for this portfolio."
        value={currency}
        onChange={setCurrency}
        placeholder="USD for label:price"
        testId={TEST_IDS.impact.currency}
      />
      <TextField
        label="Roll up by label"
        hint="e.g. country or type; empty: the total only."
        value={rollup}
        onChange={setRollup}
        placeholder="country"
        testId={TEST_IDS.impact.rollup}
      />
      <Button
        appearance="primary"
        disabled={!client || !run || !portfolio || task.running}
        data-testid={TEST_IDS.impact.start}
        onClick={() =>
          client &&
          run &&
          task.start((signal, onProgress) =>
            pasteFinancialImpact({
              client,
              run,
              portfolio,
              hazard,
              scenarios: scenario ? [scenario] : undefined,
              value,
              currency: currency.trim() || undefined,
              rollupLabel: rollup.trim().replace(/^label:/, "") || undefined,
              signal,
              onProgress,
            }),
          )
        }
      >
        Write financial impact sheets
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.impact.task.id}
        success={(r) =>
          `Wrote ${r.sheets.map((s) => `“${s.sheetName}”`).join(", ")} for ${r.assetCount} assets, values from ${r.valueSource} in ${r.currency}. Totals sum the assets with a value and a damage; beside each, the assets left out and the share covered.`
        }
      />
      {result && result.problems.length > 0 ? (
        <MessageBar intent="warning" layout="multiline" data-testid={TEST_IDS.impact.problems}>
          <MessageBarBody>
            <MessageBarTitle>
              {result.problems.length} missing or unreadable value{result.problems.length === 1 ? "" : "s"}: those
              losses are #N/A, not 0, and the totals leave them out.
            </MessageBarTitle>
            <ul className={css.shortScrollingList}>
              {result.problems.slice(0, SHOWN_PROBLEMS).map((problem, i) => (
                <li
                  key={i}
                  data-testid={TEST_IDS.impact.problemsItem}
                  data-address={problem.address}
                  className={css.breakWord}
                >
                  <Link
                    as="button"
                    onClick={() => run && void selectProblemCell(run, problem.address).catch(() => undefined)}
                  >
                    {problem.cell}
                  </Link>
                  {`: ${problem.message}`}
                </li>
              ))}
              {result.problems.length > SHOWN_PROBLEMS ? (
                <li>… and {result.problems.length - SHOWN_PROBLEMS} more.</li>
              ) : null}
            </ul>
          </MessageBarBody>
        </MessageBar>
      ) : null}
    </Stack>
  );
}
