import { Button, MessageBar, MessageBarBody, Spinner, Text } from "@fluentui/react-components";
import { useCallback } from "react";
import { listPastedSheets, refreshPastedSheets, type PastedRefreshResult } from "./pasted-sheets-actions";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";

/**
 * The sheets this pane pasted (from the workbook's provenance store) and "Refresh
 * pasted sheets", which re-runs each with its recorded filters and replaces its table in place.
 */
export function PastedSheetsPanel() {
  const { client, run } = useServices();
  const load = useCallback(() => listPastedSheets(run!), [run]);
  const list = useLoader(run ? load : null, [run]);
  const task = useTask<PastedRefreshResult>();
  const sheets = list.data?.sheets ?? [];

  return (
    <Stack>
      <Text size={200}>
        Every sheet this pane pastes is listed on the “Climate Risk sources” sheet with how it was made. Refreshing
        re-runs each with the same filters and replaces its table in place; your columns to the right and your number
        formats stay.
      </Text>
      {list.loading ? <Spinner size="tiny" label="Reading the workbook…" /> : null}
      {list.error ? <ErrorNotice error={list.error} testId="pasted-list-error" /> : null}
      {list.data && sheets.length === 0 ? (
        <Text size={200} data-testid="pasted-none">
          {list.data.storeFound
            ? "No pasted sheets on record."
            : "No pasted sheets yet: paste from one of the panels above."}
        </Text>
      ) : null}
      {sheets.length > 0 ? (
        <ul data-testid="pasted-list" style={{ margin: 0, paddingLeft: 18, fontSize: 13 }}>
          {sheets.map((s) => (
            <li key={s.sheetId} data-testid="pasted-item">
              <b>{s.sheetName}</b> · {s.label}
              {s.portfolio ? ` · ${s.portfolio}` : ""} · {s.rows.toLocaleString("en-US")} rows · {s.writtenAt}
              {s.staticCopyAt ? ` · static copy ${s.staticCopyAt}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {(list.data?.problems ?? []).map((p, i) => (
        <MessageBar key={i} intent="warning" data-testid="pasted-problem">
          <MessageBarBody>{p}</MessageBarBody>
        </MessageBar>
      ))}
      <Row>
        <Button
          appearance="primary"
          disabled={!client || !run || task.running || sheets.length === 0}
          data-testid="pasted-refresh"
          onClick={() =>
            client &&
            run &&
            task.start(
              (signal, onProgress) => refreshPastedSheets({ client, run, signal, onProgress }),
              () => list.reload(),
            )
          }
        >
          Refresh pasted sheets
        </Button>
        <Button disabled={!run || list.loading} onClick={list.reload} data-testid="pasted-reload">
          Reload list
        </Button>
      </Row>
      {task.state.status === "done" ? (
        <RefreshOutcome result={task.state.result} />
      ) : (
        <TaskStatus task={task} testId="pasted" success={() => null} />
      )}
    </Stack>
  );
}

/** What the refresh did, sheet by sheet: green when every sheet was refreshed, amber when one was left alone. */
function RefreshOutcome(props: { result: PastedRefreshResult }) {
  const r = props.result;
  return (
    <MessageBar intent={r.refused > 0 ? "warning" : "success"} layout="multiline" data-testid="pasted-result">
      <MessageBarBody>
        <div data-testid="pasted-summary">
          {r.refreshed} sheet{r.refreshed === 1 ? "" : "s"} refreshed
          {r.refused > 0 ? `, ${r.refused} left unchanged` : ""}.
        </div>
        <ul style={{ margin: "4px 0 0", paddingLeft: 18 }}>
          {r.outcomes.map((o, i) => (
            <li key={i} data-testid="pasted-outcome" data-ok={o.ok}>
              {o.ok ? `“${o.sheetName}”: ${o.rows?.toLocaleString("en-US")} rows.` : o.message}
            </li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
