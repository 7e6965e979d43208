import { Checkbox, Spinner, Text } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import { SCENARIOS } from "../../../shared/vocabulary";
import {
  MEASURE_CHOICES,
  describeIndicator,
  downloadTimeseries,
  estimateTimeseriesTables,
  loadTimeseriesCatalog,
  pasteTimeseries,
  type TimeseriesCatalog,
  type TimeseriesFilters,
  type TimeseriesPasted,
} from "./timeseries-actions";
import { dateFilterFault, dateRangeReversed } from "./model/date-filter";
import { DEFAULT_MEASURE, STRESS_SCENARIO } from "../../../shared/vocabulary";
import { TaskButton } from "../../ui/TaskButton";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField } from "../../ui/ChoiceField";
import { DownloadButton } from "../../ui/DownloadButton";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import { listOf } from "../../ui/list-format";

/** This section's test ids. */
const IDS = TEST_IDS.timeseries;

const MAX_CHART_ASSETS = 10;

/**
 * The date filters, From and To: the filter each field sets, the catalog ids of its label, hint and
 * placeholder, and its test id.
 */
const DATE_FIELDS = [
  {
    filter: "startDate",
    label: "timeseries.from",
    hint: "timeseries.from.hint",
    placeholder: "timeseries.from.placeholder",
    testId: IDS.startDate,
  },
  {
    filter: "endDate",
    label: "timeseries.to",
    hint: "timeseries.to.hint",
    placeholder: "timeseries.to.placeholder",
    testId: IDS.endDate,
  },
] as const;

/** Timeseries of a portfolio into a new sheet, with filters from lists and an optional chart. */
export function TimeseriesPanel() {
  const css = usePaneStyles();
  const { client } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const [portfolio, setPortfolio] = useState("");
  const [filters, setFilters] = useState<TimeseriesFilters>({
    hazard: "",
    indicator: "",
    scenario: STRESS_SCENARIO,
    measure: DEFAULT_MEASURE,
  });
  const [chartAssets, setChartAssets] = useState<number[]>([]);
  const load = useCallback(
    (signal: AbortSignal) => loadTimeseriesCatalog(client!, portfolio, signal),
    [client, portfolio],
  );
  const catalog = useLoader<TimeseriesCatalog>(client && portfolio ? load : null, [client, portfolio]);
  const task = useTask<TimeseriesPasted>();

  const hazards = [...new Set(catalog.data?.indicators.map((i) => i.hazard) ?? [])];
  const indicators =
    catalog.data?.indicators.filter((i) => !filters.hazard || i.hazard === filters.hazard).map((i) => i.indicator) ??
    [];
  const set = (key: keyof TimeseriesFilters) => (value: string) =>
    setFilters((f) => ({ ...f, [key]: value, ...(key === "hazard" ? { indicator: "" } : {}) }));
  const estimate = catalog.data ? estimateTimeseriesTables(catalog.data, filters) : undefined;
  const dateProblem = (field: "from" | "to", text: string) => {
    const fault = dateFilterFault(text);
    if (fault === null) return null;
    return t(fault === "not a date" ? "timeseries.date.notDate" : "timeseries.date.noSuchDate", {
      field,
      value: text.trim(),
    });
  };
  const startProblem = dateProblem("from", filters.startDate ?? "");
  const endProblem =
    dateProblem("to", filters.endDate ?? "") ??
    (dateRangeReversed(filters.startDate ?? "", filters.endDate ?? "")
      ? t("timeseries.date.reversed", { start: filters.startDate ?? "" })
      : null);
  const dateProblems = { startDate: startProblem, endDate: endProblem };
  const datesOk = !startProblem && !endProblem;
  const chosen = filters.indicator
    ? catalog.data?.indicators.find(
        (i) => i.indicator === filters.indicator && (!filters.hazard || i.hazard === filters.hazard),
      )
    : undefined;

  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={IDS.portfolio.id} />
      {catalog.loading ? <Spinner size="tiny" label={t("timeseries.loadingLists")} /> : null}
      {catalog.error ? <ErrorNotice error={catalog.error} testId={IDS.catalogError} /> : null}
      <ChoiceField
        label={t("timeseries.hazard")}
        value={filters.hazard ?? ""}
        onChange={set("hazard")}
        choices={hazards}
        emptyLabel={t("timeseries.allHazards")}
        testId={IDS.hazard}
      />
      <ChoiceField
        label={t("timeseries.indicator")}
        value={filters.indicator ?? ""}
        onChange={set("indicator")}
        choices={[...new Set(indicators)]}
        emptyLabel={t("timeseries.allIndicators")}
        testId={IDS.indicator}
      />
      {chosen ? (
        <Text size={200} data-testid={IDS.indicatorInfo}>
          {describeIndicator(chosen)}
        </Text>
      ) : null}
      <Row>
        {(
          [
            ["scenario", SCENARIOS, "timeseries.allScenarios"],
            ["measure", MEASURE_CHOICES, "timeseries.allMeasures"],
          ] as const
        ).map(([filter, choices, all]) => (
          <ChoiceField
            key={filter}
            label={t(`timeseries.${filter}`)}
            value={filters[filter] ?? ""}
            onChange={set(filter)}
            choices={choices}
            // Short: two choices share a row of a 320 px pane.
            emptyLabel={t(all)}
            testId={IDS[filter]}
            className={css.grow}
          />
        ))}
      </Row>
      <Row>
        {DATE_FIELDS.map(({ filter, label, hint, placeholder, testId }) => (
          <TextField
            key={filter}
            label={t(label)}
            hint={t(hint)}
            placeholder={t(placeholder)}
            testId={testId}
            validationState={dateProblems[filter] ? "error" : "none"}
            validationMessage={dateProblems[filter] ?? undefined}
            className={css.grow}
            value={filters[filter] ?? ""}
            onChange={set(filter)}
          />
        ))}
      </Row>
      {catalog.data && catalog.data.assets.length > 0 ? (
        <details data-testid={IDS.chartAssets}>
          <summary className={css.disclosure}>
            {t("timeseries.chartAssets", { chosen: chartAssets.length, max: MAX_CHART_ASSETS })}
          </summary>
          <div className={css.checkList}>
            {catalog.data.assets.map((a) => (
              <Checkbox
                key={a.portfolio_index}
                label={`${a.entity_name || a.entity_id || `#${a.portfolio_index}`}`}
                checked={chartAssets.includes(a.portfolio_index)}
                disabled={!chartAssets.includes(a.portfolio_index) && chartAssets.length >= MAX_CHART_ASSETS}
                data-testid={IDS.chartAsset(a.portfolio_index)}
                onChange={(_, d) =>
                  setChartAssets((c) =>
                    d.checked ? [...c, a.portfolio_index] : c.filter((x) => x !== a.portfolio_index),
                  )
                }
              />
            ))}
          </div>
        </details>
      ) : null}
      {estimate !== undefined ? (
        <Text size={200} data-testid={IDS.estimate}>
          {estimate.projected.rows + estimate.observed.rows === 0
            ? t("timeseries.estimate.none")
            : t(
                estimate.observed.rows === 0
                  ? "timeseries.estimate.projected"
                  : estimate.projected.rows === 0
                    ? "timeseries.estimate.observed"
                    : "timeseries.estimate.both",
                {
                  projectedRows: estimate.projected.rows,
                  projectedColumns: estimate.projected.columns,
                  observedRows: estimate.observed.rows,
                  observedColumns: estimate.observed.columns,
                },
              )}
        </Text>
      ) : null}
      <TaskButton
        primary
        task={task}
        ready={Boolean(portfolio) && datesOk}
        testId={IDS.start}
        work={(services, signal, onProgress) =>
          pasteTimeseries({
            ...services,
            portfolio,
            filters,
            catalog: catalog.data,
            chartAssets,
            signal,
            onProgress,
          })
        }
      >
        {t("timeseries.start")}
      </TaskButton>
      <DownloadButton
        testId={IDS.download.id}
        disabled={!client || !portfolio || !datesOk}
        download={(signal, onProgress) =>
          downloadTimeseries({ client: client!, portfolio, filters, signal, onProgress })
        }
      />
      <TaskStatus
        task={task}
        testId={IDS.task.id}
        success={(r) =>
          t("timeseries.wrote", {
            sheets: listOf(
              i18n,
              r.sheets.map((s) =>
                t("timeseries.wrote.sheet", {
                  rows: s.rowCount,
                  kind: s.kind,
                  columns: s.timeColumns,
                  sheet: s.sheetName,
                }),
              ),
            ),
            chart: r.chart ? "yes" : "no",
          })
        }
      />
    </Stack>
  );
}
