import { Button, Field, Select } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import type { VectorRecord } from "../../../api/types";
import { pasteAppliedLayer } from "./applied-layer-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { PortfolioSelect } from "../../ui/PortfolioSelect";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** Apply a vector layer to a portfolio and write the resulting CSV into a new sheet. */
export function AppliedLayerPanel() {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client, run } = useServices();
  const [portfolio, setPortfolio] = useState("");
  const [vectorId, setVectorId] = useState("");
  const load = useCallback((signal: AbortSignal) => client!.compositions.listVectors({ signal }), [client]);
  const vectors = useLoader<VectorRecord[]>(client ? load : null, [client]);
  const task = useTask<PastedSheet>();
  const chosen = vectors.data?.find((v) => String(v.id) === vectorId) ?? vectors.data?.[0];
  return (
    <Stack>
      <Row gap={4} alignEnd>
        <Field label={t("layer.vector")} className={css.grow}>
          <Select
            value={chosen ? String(chosen.id) : ""}
            onChange={(_, d) => setVectorId(d.value)}
            data-testid={TEST_IDS.layer.vector}
            disabled={!vectors.data?.length}
          >
            {!vectors.data?.length ? (
              <option value="">{vectors.loading ? t("layer.vector.loading") : t("layer.vector.none")}</option>
            ) : null}
            {(vectors.data ?? []).map((v) => (
              <option key={String(v.id)} value={String(v.id)}>
                {v.name} ({v.status})
              </option>
            ))}
          </Select>
        </Field>
        <Button
          onClick={vectors.reload}
          aria-label={t("layer.vector.reload")}
          title={t("layer.vector.reload")}
          data-testid={TEST_IDS.layer.vectorReload}
        >
          ↻
        </Button>
      </Row>
      {vectors.error ? <ErrorNotice error={vectors.error} testId={TEST_IDS.layer.vectorError} /> : null}
      <PortfolioSelect value={portfolio} onChange={setPortfolio} testId={TEST_IDS.layer.portfolio.id} />
      <Button
        appearance="primary"
        disabled={!client || !run || !portfolio || !chosen || task.running}
        data-testid={TEST_IDS.layer.start}
        onClick={() =>
          client &&
          run &&
          chosen &&
          task.start((signal, onProgress) =>
            pasteAppliedLayer({
              client,
              run,
              vectorId: chosen.id,
              vectorName: chosen.name,
              portfolio,
              signal,
              onProgress,
            }),
          )
        }
      >
        {t("layer.start")}
      </Button>
      <TaskStatus
        task={task}
        testId={TEST_IDS.layer.task.id}
        success={(r) => t("layer.done", { rows: r.rowCount, columns: r.columnCount, sheet: r.sheetName })}
      />
    </Stack>
  );
}
