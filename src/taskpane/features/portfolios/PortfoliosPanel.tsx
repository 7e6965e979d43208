import { Button, MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { useState } from "react";
import type { MessageResponse } from "../../../api/types";
import { deletePortfolio, findPortfolioUsage, pasteAssets, type PortfolioUsage } from "./portfolios-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { TaskButton } from "../../ui/TaskButton";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.portfolios;

/**
 * A portfolio's assets into a new sheet (a table a sync can read back), and deleting a portfolio
 * after a confirmation that says where the workbook uses it (RISK cells naming it, ranges synced
 * to it). A delete drops the functions' cached results of it and recalculates.
 */
export function PortfoliosPanel() {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client, run, forget } = useServices();
  const [portfolio, setPortfolio] = useState("");
  const [reloadKey, setReloadKey] = useState(0);
  const paste = useTask<PastedSheet>();
  const check = useTask<PortfolioUsage>();
  const remove = useTask<{ portfolio: string; answer: MessageResponse }>();
  const usage = check.state.status === "done" ? check.state.result : undefined;
  const asking = usage !== undefined;

  const askDelete = () => {
    remove.reset();
    check.start(async () =>
      run ? findPortfolioUsage(run, portfolio) : { riskCells: { riskCells: 0, sheets: [] }, syncedRanges: [] },
    );
  };
  const confirmDelete = () => {
    const name = portfolio;
    check.reset();
    if (!client) return;
    remove.start(
      async (signal) => ({
        portfolio: name,
        answer: await deletePortfolio({ client, run, forget, portfolio: name, signal }),
      }),
      (done) => done && setReloadKey((k) => k + 1),
    );
  };

  return (
    <Stack>
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={IDS.portfolio.id} reloadKey={reloadKey} />
      <TaskButton
        primary
        task={paste}
        ready={Boolean(portfolio)}
        testId={IDS.assets.id}
        work={(services, signal, onProgress) => pasteAssets({ ...services, portfolio, signal, onProgress })}
      >
        {t("portfolios.assets")}
      </TaskButton>
      <TaskStatus
        task={paste}
        testId={IDS.assets.id}
        success={(r) => t("portfolios.assets.done", { assets: r.rowCount, sheet: r.sheetName })}
      />
      <Button
        disabled={!client || !portfolio || check.running || remove.running || asking}
        data-testid={IDS.delete.id}
        onClick={askDelete}
      >
        {t("portfolios.delete")}
      </Button>
      {check.state.status === "failed" ? <TaskStatus task={check} testId={IDS.usage.id} success={() => null} /> : null}
      {usage ? (
        <MessageBar intent="warning" layout="multiline" data-testid={IDS.confirm}>
          <MessageBarBody>
            <div>{t("portfolios.delete.confirm", { portfolio })}</div>
            {usage.syncedRanges.length > 0 ? (
              <div data-testid={IDS.confirmSynced}>
                {t("portfolios.delete.synced", { ranges: usage.syncedRanges.join(", ") })}
              </div>
            ) : null}
            {usage.riskCells.riskCells > 0 ? (
              <div data-testid={IDS.confirmCells}>
                {t("portfolios.delete.cells", {
                  count: usage.riskCells.riskCells,
                  sheets: usage.riskCells.sheets.join(", "),
                })}
              </div>
            ) : (
              <Text size={200}>{t("portfolios.delete.noCells")}</Text>
            )}
            <Row className={css.actions}>
              <Button appearance="primary" size="small" onClick={confirmDelete} data-testid={IDS.confirmDelete}>
                {t("portfolios.delete.yes", { portfolio })}
              </Button>
              <Button size="small" onClick={check.reset} data-testid={IDS.confirmKeep}>
                {t("portfolios.delete.no")}
              </Button>
            </Row>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <TaskStatus
        task={remove}
        testId={IDS.delete.id}
        success={(r) => <span data-testid={IDS.deleted}>{r.answer.message}</span>}
      />
    </Stack>
  );
}
