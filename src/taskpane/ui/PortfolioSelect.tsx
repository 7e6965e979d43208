import { Button, Field, Select, Spinner } from "@fluentui/react-components";
import { useCallback, useEffect, useMemo } from "react";
import type { Portfolio } from "../../api/types";
import { useServices } from "./services";
import { useLoader } from "./hooks/use-loader";
import { ErrorNotice } from "./ErrorNotice";
import { Row, Stack } from "./layout";
import { usePaneStyles } from "./styles";
import { portfolioSelectIds } from "./test-ids";
import { useI18n } from "./i18n";

/**
 * A list of the project's portfolios with a reload button. Picks the first one when nothing is
 * chosen yet. Test ids: `${testId}` (the select), `${testId}-reload`.
 */
export function PortfolioSelect(props: {
  value: string;
  onChange: (name: string) => void;
  testId: string;
  label?: string;
  reloadKey?: unknown;
}) {
  const { client, config } = useServices();
  const css = usePaneStyles();
  const { t } = useI18n();
  const load = useCallback((signal: AbortSignal) => client!.portfolios.list({ signal }), [client]);
  const portfolios = useLoader<Portfolio[]>(client ? load : null, [client, config.project, props.reloadKey]);
  const { value, onChange } = props;
  const names = useMemo(() => portfolios.data?.map((p) => p.portfolio_name) ?? [], [portfolios.data]);

  // A listed portfolio is always chosen: the parent owns the value, so it is told after rendering.
  useEffect(() => {
    if (names.length > 0 && !names.includes(value)) onChange(names[0]);
  }, [names, value, onChange]);

  return (
    <Stack gap={4}>
      <Row gap={4} alignEnd>
        <Field label={props.label ?? t("ui.portfolio.label")} className={css.grow}>
          <Select
            value={value}
            onChange={(_, data) => onChange(data.value)}
            data-testid={props.testId}
            disabled={portfolios.loading || names.length === 0}
          >
            {names.length === 0 ? (
              <option value="">{portfolios.loading ? t("ui.list.loading") : t("ui.portfolio.none")}</option>
            ) : null}
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          onClick={portfolios.reload}
          data-testid={portfolioSelectIds(props.testId).reload}
          aria-label={t("ui.portfolio.reload")}
          title={t("ui.portfolio.reload")}
        >
          {portfolios.loading ? <Spinner size="extra-tiny" aria-label={t("ui.list.loading")} /> : "↻"}
        </Button>
      </Row>
      {portfolios.error ? (
        <ErrorNotice error={portfolios.error} testId={portfolioSelectIds(props.testId).error} />
      ) : null}
    </Stack>
  );
}
