import { Text } from "@fluentui/react-components";
import { useState } from "react";
import {
  pasteDisclosureTables,
  refreshDisclosureTables,
  upgradeDisclosureTables,
  type DisclosureRefreshResult,
  type DisclosureResult,
} from "./disclosure-actions";
import { UPGRADE_LABEL, outdatedSentence, upgradedSentence } from "./disclosure-after-refresh";
import { TaskButton } from "../../ui/TaskButton";
import { useTask } from "../../ui/hooks/use-task";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";

/**
 * ESRS E1-9, IFRS S2 29(c) and TCFD tables as formulas over a pasted data sheet and a Methodology
 * sheet of input cells; refreshed in place with the analyst's edits kept.
 */
export function DisclosurePanel() {
  const [portfolio, setPortfolio] = useState("");
  const [valueLabel, setValueLabel] = useState("");
  const [currency, setCurrency] = useState("");
  const [currencyColumn, setCurrencyColumn] = useState("");
  const [revenueLabel, setRevenueLabel] = useState("");
  const [adaptationLabel, setAdaptationLabel] = useState("");
  const make = useTask<DisclosureResult>();
  const refresh = useTask<DisclosureRefreshResult>();
  const upgrade = useTask<string[]>();
  // As the financial impact reads its value: `label:<key>` is an asset label, other text a column
  // header of the range synced to the portfolio.
  const label = (text: string) => (text.trim().startsWith("label:") ? text.trim().slice(6).trim() : undefined);
  const column = (text: string) => (text.trim().startsWith("label:") ? undefined : text.trim() || undefined);
  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.disclosure.portfolio.id} />
      <TextField
        label="Asset value"
        hint="label:<key> holding each asset's value (carrying amount), or a column header of the range synced to this portfolio. Empty: label:price (USD), else label:value."
        value={valueLabel}
        onChange={setValueLabel}
        placeholder="label:price"
        testId={TEST_IDS.disclosure.value}
      />
      <TextField
        label="Currency of the values"
        hint="For values other than label:price whose asset has no label:currency, e.g. EUR."
        value={currency}
        onChange={setCurrency}
        placeholder="USD for label:price"
        testId={TEST_IDS.disclosure.currency}
      />
      <TextField
        label="Currency column (optional)"
        hint="A column header of the synced range holding each value's currency; an asset's label:currency is read where it is empty."
        value={currencyColumn}
        onChange={setCurrencyColumn}
        placeholder="Currency"
        testId={TEST_IDS.disclosure.currencyColumn}
      />
      <TextField
        label="Revenue per asset (optional)"
        hint="label:<key> or a column of the synced range holding each asset's net revenue, in its value's currency: answers E1-9 66(d)."
        value={revenueLabel}
        onChange={setRevenueLabel}
        placeholder="label:revenue"
        testId={TEST_IDS.disclosure.revenue}
      />
      <TextField
        label="Adaptation (optional)"
        hint="label:<key> or a column of the synced range saying yes or no: whether adaptation actions address the asset (66(b))."
        value={adaptationLabel}
        onChange={setAdaptationLabel}
        placeholder="label:adapted"
        testId={TEST_IDS.disclosure.adaptation}
      />
      <TaskButton
        primary
        task={make}
        ready={Boolean(portfolio)}
        testId={TEST_IDS.disclosure.start}
        work={(services, signal, onProgress) =>
          pasteDisclosureTables({
            ...services,
            portfolio,
            labels: {
              value_label: label(valueLabel),
              value_column: column(valueLabel),
              currency: currency.trim() || undefined,
              currency_column: currencyColumn.trim() || undefined,
              revenue_label: label(revenueLabel),
              revenue_column: column(revenueLabel),
              adaptation_label: label(adaptationLabel),
              adaptation_column: column(adaptationLabel),
            },
            signal,
            onProgress,
          })
        }
      >
        Make disclosure tables
      </TaskButton>
      <TaskStatus
        task={make}
        testId={TEST_IDS.disclosure.task.id}
        success={(r) => (
          <>
            {`Wrote ${r.sheets.map((s) => `“${s.sheetName}”`).join(", ")} for ${r.assets} assets. `}
            {`Enter the undertaking's total assets and net revenue${r.currencies.length > 1 ? ", and the FX rates," : ""} on the Methodology sheet; every figure follows its cells. `}
            {r.problems.length > 0
              ? `${r.problems.length} value(s) are not amounts: ${r.problems.slice(0, 3).join(" ")}`
              : ""}
          </>
        )}
      />
      <Text size={200}>
        Refresh: the data sheet by asset, scenario and window (your edits kept and listed), and the significant assets
        from the Methodology cells as they are now.
      </Text>
      <TaskButton
        task={refresh}
        testId={TEST_IDS.disclosure.refresh.id}
        work={(services, signal, onProgress) =>
          refreshDisclosureTables({ ...services, portfolio: portfolio || undefined, signal, onProgress })
        }
      >
        Refresh disclosure tables
      </TaskButton>
      <TaskStatus
        task={refresh}
        testId={TEST_IDS.disclosure.refresh.id}
        success={(r) =>
          [
            `Refreshed ${r.refreshed} sheet(s)${r.refused ? `, ${r.refused} not changed` : ""}.`,
            ...r.outcomes.filter((o) => !o.ok).map((o) => o.message ?? ""),
            ...r.outcomes
              .filter((o) => o.keyed && o.keyed.edited.length > 0)
              .map((o) => `${o.sheetName}: ${o.keyed!.edited.length} cell(s) you changed were kept.`),
            ...r.outdated.map((o) => `${outdatedSentence(o)} Upgrade them below.`),
          ].join(" ")
        }
      />
      {/* Always offered: any refresh (the ribbon's, "Refresh pasted sheets") may have found tables to upgrade. */}
      <TaskButton
        task={upgrade}
        testId={TEST_IDS.disclosure.upgrade.id}
        work={(services) => upgradeDisclosureTables({ run: services.run, portfolio: portfolio || undefined })}
      >
        {UPGRADE_LABEL}
      </TaskButton>
      <TaskStatus task={upgrade} testId={TEST_IDS.disclosure.upgrade.id} success={upgradedSentence} />
    </Stack>
  );
}
