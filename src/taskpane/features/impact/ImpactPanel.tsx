import { Button, Link, MessageBar, MessageBarBody, MessageBarTitle } from "@fluentui/react-components";
import { useState } from "react";
import { pasteFinancialImpact, type FinancialImpactResult } from "./impact-actions";
import { ALL_DAMAGE_HAZARDS, ALL_DAMAGE_HAZARDS_TITLE, CurrencyNeededError } from "./model/financial-impact";
import { selectProblemCell } from "../sync";
import { EXTENDED_HAZARDS } from "../../../shared/vocabulary";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField, ScenarioChoice, type Choice } from "../../ui/ChoiceField";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

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
  const { t, format } = useI18n();
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
        label={t("impact.hazard")}
        value={hazard}
        onChange={setHazard}
        choices={HAZARD_CHOICES}
        testId={TEST_IDS.impact.hazard}
      />
      <ScenarioChoice
        label={t("impact.scenario")}
        value={scenario}
        onChange={setScenario}
        allLabel={t("impact.allScenarios")}
        testId={TEST_IDS.impact.scenario}
      />
      {(
        [
          ["value", valueColumn, setValueColumn, "label:price"],
          ["currency", currency, setCurrency, t("impact.currency.placeholder")],
          ["rollup", rollup, setRollup, "country"],
        ] as const
      ).map(([key, text, setText, placeholder]) => (
        <TextField
          key={key}
          label={t(`impact.${key}`)}
          // The currency is asked for when the values' currency is not known.
          validationState={key === "currency" && askCurrency ? "warning" : "none"}
          validationMessage={key === "currency" && askCurrency ? t("impact.currency.needed") : undefined}
          hint={t(`impact.${key}.hint`)}
          value={text}
          onChange={setText}
          placeholder={placeholder}
          testId={TEST_IDS.impact[key]}
        />
      ))}
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
        {t("impact.start")}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.impact.task.id}
        success={(r) =>
          t("impact.done", {
            sheets: r.sheets.map((s) => `“${s.sheetName}”`).join(", "),
            assets: r.assetCount,
            source: r.valueSource,
            currency: r.currency,
          })
        }
      />
      {result && result.problems.length > 0 ? (
        <MessageBar intent="warning" layout="multiline" data-testid={TEST_IDS.impact.problems}>
          <MessageBarBody>
            <MessageBarTitle>{t("impact.problems", { count: result.problems.length })}</MessageBarTitle>
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
                  {`: ${format(problem.message)}`}
                </li>
              ))}
              {result.problems.length > SHOWN_PROBLEMS ? (
                <li>{t("impact.problems.more", { count: result.problems.length - SHOWN_PROBLEMS })}</li>
              ) : null}
            </ul>
          </MessageBarBody>
        </MessageBar>
      ) : null}
    </Stack>
  );
}
