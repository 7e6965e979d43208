import { Text } from "@fluentui/react-components";
import { useState } from "react";
import {
  pasteDisclosureTables,
  refreshDisclosureTables,
  upgradeDisclosureTables,
  type DisclosureRefreshResult,
  type DisclosureResult,
} from "./disclosure-actions";
import { outdatedSentence, upgradedSentence } from "./disclosure-after-refresh";
import { TaskButton } from "../../ui/TaskButton";
import { useTask } from "../../ui/hooks/use-task";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** The inputs the tables are made with, in the order shown. */
type DisclosureInput = "value" | "currency" | "currencyColumn" | "revenue" | "adaptation";

/**
 * Each input's field: its words are the catalog's `disclosure.<key>`, `.hint` and (without a
 * placeholder here, which names a label key and is the same in every language) `.placeholder`.
 */
const DISCLOSURE_INPUTS: ReadonlyArray<{ key: DisclosureInput; placeholder?: string }> = [
  { key: "value", placeholder: "label:price" },
  { key: "currency" },
  { key: "currencyColumn" },
  { key: "revenue", placeholder: "label:revenue" },
  { key: "adaptation", placeholder: "label:adapted" },
];

/**
 * ESRS E1-9, IFRS S2 29(c) and TCFD tables as formulas over a pasted data sheet and a Methodology
 * sheet of input cells; refreshed in place with the analyst's edits kept.
 */
export function DisclosurePanel() {
  const { t, format } = useI18n();
  const [portfolio, setPortfolio] = useState("");
  const [inputs, setInputs] = useState<Record<DisclosureInput, string>>({
    value: "",
    currency: "",
    currencyColumn: "",
    revenue: "",
    adaptation: "",
  });
  const { value: valueLabel, currency, currencyColumn, revenue: revenueLabel, adaptation: adaptationLabel } = inputs;
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
      {DISCLOSURE_INPUTS.map(({ key, placeholder }) => (
        <TextField
          key={key}
          label={t(`disclosure.${key}`)}
          hint={t(`disclosure.${key}.hint`)}
          value={inputs[key]}
          onChange={(text) => setInputs((before) => ({ ...before, [key]: text }))}
          placeholder={placeholder ?? t(`disclosure.${key as "currency" | "currencyColumn"}.placeholder`)}
          testId={TEST_IDS.disclosure[key]}
        />
      ))}
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
        {t("disclosure.make")}
      </TaskButton>
      <TaskStatus
        task={make}
        testId={TEST_IDS.disclosure.task.id}
        success={(r) => (
          <>
            {t("disclosure.made", {
              sheets: r.sheets.map((s) => `“${s.sheetName}”`).join(", "),
              assets: r.assets,
              fx: r.currencies.length > 1 ? "yes" : "no",
            })}{" "}
            {r.problems.length > 0
              ? t("disclosure.made.problems", {
                  count: r.problems.length,
                  problems: r.problems.slice(0, 3).map(format).join(" "),
                })
              : ""}
          </>
        )}
      />
      <Text size={200}>{t("disclosure.refresh.hint")}</Text>
      <TaskButton
        task={refresh}
        testId={TEST_IDS.disclosure.refresh.id}
        work={(services, signal, onProgress) =>
          refreshDisclosureTables({ ...services, portfolio: portfolio || undefined, signal, onProgress })
        }
      >
        {t("disclosure.refresh")}
      </TaskButton>
      <TaskStatus
        task={refresh}
        testId={TEST_IDS.disclosure.refresh.id}
        success={(r) =>
          [
            t("disclosure.refreshed", { refreshed: r.refreshed, refused: r.refused }),
            ...r.outcomes.filter((o) => !o.ok).map((o) => o.message ?? ""),
            ...r.outcomes
              .filter((o) => o.keyed && o.keyed.edited.length > 0)
              .map((o) => t("disclosure.refreshed.kept", { sheet: o.sheetName, count: o.keyed!.edited.length })),
            ...r.outdated.map((o) => `${format(outdatedSentence(o))} ${t("disclosure.upgradeBelow")}`),
          ].join(" ")
        }
      />
      {/* Always offered: any refresh (the ribbon's, "Refresh pasted sheets") may have found tables to upgrade. */}
      <TaskButton
        task={upgrade}
        testId={TEST_IDS.disclosure.upgrade.id}
        work={(services) => upgradeDisclosureTables({ run: services.run, portfolio: portfolio || undefined })}
      >
        {t("disclosure.upgrade")}
      </TaskButton>
      <TaskStatus
        task={upgrade}
        testId={TEST_IDS.disclosure.upgrade.id}
        success={(sheets) => format(upgradedSentence(sheets))}
      />
    </Stack>
  );
}
