import { Divider } from "@fluentui/react-components";
import { useState } from "react";
import { SCENARIOS, STRESS_SCENARIO } from "../../../shared/vocabulary";
import { WINDOW_CHOICES } from "./risk-views-actions";
import { ChoiceField } from "../../ui/ChoiceField";
import { MapPanel, type SummaryChoice } from "./MapPanel";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { RiskSheetsPanel } from "./RiskSheetsPanel";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/**
 * Look before reading: one choice of portfolio, scenario, window and hazard drives the map and the
 * risk matrix / scenario comparison sheets below it.
 */
export function VisualPanel() {
  const css = usePaneStyles();
  const { t } = useI18n();
  const [choice, setChoice] = useState<SummaryChoice>({
    portfolio: "",
    scenario: STRESS_SCENARIO,
    window: 30,
    hazard: "",
  });
  const [hazards, setHazards] = useState<string[]>([]);
  const set = (patch: Partial<SummaryChoice>) => setChoice((c) => ({ ...c, ...patch }));
  const onHazards = (found: string[]) => {
    setHazards(found);
    setChoice((c) =>
      c.hazard && found.includes(c.hazard)
        ? c
        : { ...c, hazard: found.includes("flood_potential") ? "flood_potential" : (found[0] ?? "") },
    );
  };
  return (
    <Stack>
      <PortfolioSelect
        value={choice.portfolio}
        onChange={(portfolio) => set({ portfolio })}
        testId={TEST_IDS.visual.visualPortfolio.id}
      />
      <Row wrap>
        <ChoiceField
          label={t("visual.scenario")}
          value={choice.scenario}
          onChange={(scenario) => set({ scenario })}
          choices={SCENARIOS}
          testId={TEST_IDS.visual.visualScenario}
          className={css.tile}
        />
        <ChoiceField
          label={t("visual.window")}
          value={String(choice.window)}
          onChange={(w) => set({ window: Number(w) })}
          choices={WINDOW_CHOICES.map((w) => ({ value: w, label: t("visual.window.years", { years: Number(w) }) }))}
          testId={TEST_IDS.visual.visualWindow}
          className={css.tile}
        />
      </Row>
      <ChoiceField
        label={t("visual.colourBy")}
        value={choice.hazard}
        onChange={(hazard) => set({ hazard })}
        choices={hazards}
        testId={TEST_IDS.visual.visualHazard}
      />
      <MapPanel choice={choice} onHazards={onHazards} />
      <Divider />
      <RiskSheetsPanel choice={choice} />
    </Stack>
  );
}
