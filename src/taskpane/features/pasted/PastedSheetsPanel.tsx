import { Button, MessageBar, MessageBarBody, Spinner, Text, mergeClasses } from "@fluentui/react-components";
import { useCallback, type ComponentType } from "react";
import {
  listPastedSheets,
  refreshPastedSheets,
  sortPastedSheetAgain,
  type PastedRefreshResult,
  type RefreshChoices,
  type SheetRefreshOutcome,
} from "./pasted-sheets-actions";
import type { PasteKind, RefreshFollowUp } from "./paste-kind";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { listSome } from "../../ui/pane-types";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n, wordsOf } from "../../ui/i18n";
import type { Message } from "../../../i18n/messages";

/** The panel for the kinds of `kinds` (every paste kind, handed over by the registry, features/index.ts). */
export function pastedSheetsPanelFor(kinds: readonly PasteKind[]): ComponentType {
  return function PastedSheets() {
    return <PastedSheetsPanel kinds={kinds} />;
  };
}

/**
 * The sheets this pane pasted (from the workbook's provenance store) and "Refresh
 * pasted sheets", which re-runs each with its recorded filters (its kind's, in `kinds`) and
 * replaces its table in place.
 */
export function PastedSheetsPanel({ kinds }: { kinds: readonly PasteKind[] }) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const { client, run } = useServices();
  const load = useCallback(() => listPastedSheets(run!), [run]);
  const list = useLoader(run ? load : null, [run]);
  const task = useTask<PastedRefreshResult>();
  const sortTask = useTask<void>();
  const offerTask = useTask<string>();
  const sheets = list.data?.sheets ?? [];
  // The refresh, or a follow-up of one sheet with the analyst's answer (edits, restore, key kind).
  const refresh = (choices: RefreshChoices & { sheetIds?: string[] } = {}) =>
    client &&
    run &&
    task.start(
      (signal, onProgress) => refreshPastedSheets({ client, run, kinds, signal, onProgress, ...choices }),
      () => list.reload(),
    );

  return (
    <Stack>
      <Text size={200}>{t("pasted.intro")}</Text>
      {list.loading ? <Spinner size="tiny" label={t("pasted.reading")} /> : null}
      {list.error ? <ErrorNotice error={list.error} testId={TEST_IDS.pasted.listError} /> : null}
      {list.data && sheets.length === 0 ? (
        <Text size={200} data-testid={TEST_IDS.pasted.none}>
          {list.data.storeFound ? t("pasted.none.onRecord") : t("pasted.none.yet")}
        </Text>
      ) : null}
      {sheets.length > 0 ? (
        <ul data-testid={TEST_IDS.pasted.list} className={css.smallList}>
          {sheets.map((s) => (
            <li key={s.sheetId} data-testid={TEST_IDS.pasted.item}>
              <b>{s.sheetName}</b> · {i18n.format(s.label)}
              {s.portfolio ? ` · ${s.portfolio}` : ""} · {t("pasted.item.rows", { rows: s.rows })} · {s.writtenAt}
              {s.staticCopyAt ? ` · ${t("pasted.item.staticCopy", { at: s.staticCopyAt })}` : ""}
              {s.notRefreshedAt ? (
                <>
                  {" · "}
                  <b data-testid={TEST_IDS.pasted.notRefreshed}>
                    {t("pasted.item.notRefreshed", { at: s.notRefreshedAt })}
                  </b>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {(list.data?.problems ?? []).map((p, i) => (
        <MessageBar key={i} intent="warning" data-testid={TEST_IDS.pasted.problem}>
          <MessageBarBody>{i18n.format(p)}</MessageBarBody>
        </MessageBar>
      ))}
      <Row>
        <Button
          appearance="primary"
          disabled={!client || !run || task.running || sheets.length === 0}
          data-testid={TEST_IDS.pasted.refresh}
          onClick={() => refresh()}
        >
          {t("pasted.refresh")}
        </Button>
        <Button disabled={!run || list.loading} onClick={list.reload} data-testid={TEST_IDS.pasted.reload}>
          {t("pasted.reload")}
        </Button>
      </Row>
      {task.state.status === "done" ? (
        <RefreshOutcome
          result={task.state.result}
          onAnswer={(sheetId, choices) => refresh({ ...choices, sheetIds: [sheetId] })}
          onSortAgain={(sheetId) => run && sortTask.start(() => sortPastedSheetAgain(run, sheetId))}
          onOffer={(offer) => run && offerTask.start(() => offer.work(run))}
        />
      ) : (
        <TaskStatus task={task} testId={TEST_IDS.pasted.task.id} success={() => null} />
      )}
      <TaskStatus
        task={sortTask}
        testId={TEST_IDS.pasted.sort.id}
        success={() => <Text size={200}>{t("pasted.sortedAgain")}</Text>}
      />
      <TaskStatus
        task={offerTask}
        testId={TEST_IDS.pasted.offer.id}
        success={(sentence) => <Text size={200}>{sentence}</Text>}
      />
    </Stack>
  );
}

/** What the refresh did, sheet by sheet: green when every sheet was refreshed, amber when one was left alone. */
function RefreshOutcome(props: {
  result: PastedRefreshResult;
  onAnswer: (sheetId: string, choices: RefreshChoices) => void;
  onSortAgain: (sheetId: string) => void;
  onOffer: (offer: NonNullable<RefreshFollowUp["offer"]>) => void;
}) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const r = props.result;
  const questions = r.outcomes.some(
    (o) => (o.keyed?.edited.length ?? 0) > 0 || (o.keyed?.deletedByHand.length ?? 0) > 0,
  );
  return (
    <MessageBar
      intent={r.refused > 0 || questions || r.followUps.length > 0 ? "warning" : "success"}
      layout="multiline"
      data-testid={TEST_IDS.pasted.result}
    >
      <MessageBarBody>
        <div data-testid={TEST_IDS.pasted.summary}>
          {t("pasted.summary", { refreshed: r.refreshed, refused: r.refused })}
        </div>
        <ul className={css.bulletList}>
          {r.outcomes.map((o, i) => (
            <li key={i} data-testid={TEST_IDS.pasted.outcome} data-ok={o.ok}>
              <SheetOutcome outcome={o} onAnswer={props.onAnswer} onSortAgain={props.onSortAgain} />
            </li>
          ))}
        </ul>
        {r.followUps.map((f, i) => (
          <div key={i} data-testid={TEST_IDS.pasted.followUp}>
            {f.messages.map((said) => wordsOf(i18n, said)).join(" ")}
            {f.offer ? (
              <div>
                <Button size="small" data-testid={TEST_IDS.pasted.offer.id} onClick={() => props.onOffer(f.offer!)}>
                  {f.offer.label}
                </Button>
              </div>
            ) : null}
          </div>
        ))}
      </MessageBarBody>
    </MessageBar>
  );
}

/** Keys listed in full up to this many, then "and N more". */
const LISTED = 8;

function listed(items: readonly string[]): Message {
  return listSome(items, LISTED);
}

/**
 * One sheet's outcome. A refresh by key says what it did by row (updated, added at the end,
 * removed, where the removed rows' notes are kept) and asks what only the analyst can answer: their
 * changed cells (keep mine / take the service's), rows they deleted by hand (restore), a change of
 * the assets' key kind (refresh anyway).
 */
function SheetOutcome(props: {
  outcome: SheetRefreshOutcome;
  onAnswer: (sheetId: string, choices: RefreshChoices) => void;
  onSortAgain: (sheetId: string) => void;
}) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const o = props.outcome;
  const id = o.sheetId;
  if (!o.ok)
    return (
      <>
        {o.message ? i18n.format(o.message) : null}
        {o.keyKindChanged && id ? (
          <div>
            <Button
              size="small"
              data-testid={TEST_IDS.pasted.acceptKey}
              onClick={() => props.onAnswer(id, { acceptKeyKindChange: [id] })}
            >
              {t("pasted.refreshAnyway")}
            </Button>
          </div>
        ) : null}
      </>
    );
  const k = o.keyed;
  if (!k) return <>{t("pasted.outcome.rows", { sheet: o.sheetName, rows: o.rows ?? 0 })}</>;
  return (
    <div data-testid={TEST_IDS.pasted.keyed} className={css.column}>
      <span>
        {t("pasted.outcome.keyed", {
          sheet: o.sheetName,
          updated: k.updated,
          cells: k.cellsChanged,
          added: k.added.length,
          removed: k.removed.length,
        })}
      </span>
      {k.added.length > 0 && id ? (
        <span data-testid={TEST_IDS.pasted.added}>
          {t("pasted.outcome.added", { keys: listed(k.added) })}{" "}
          <Button size="small" data-testid={TEST_IDS.pasted.sortAgain} onClick={() => props.onSortAgain(id)}>
            {t("pasted.sortAgain")}
          </Button>
        </span>
      ) : null}
      {k.removed.length > 0 ? (
        <span data-testid={TEST_IDS.pasted.removed}>
          {k.removedBlock
            ? t("pasted.outcome.removedKept", { keys: listed(k.removed), block: k.removedBlock })
            : t("pasted.outcome.removed", { keys: listed(k.removed) })}
        </span>
      ) : null}
      {k.columnsAdded.length > 0 ? (
        <span data-testid={TEST_IDS.pasted.columnsAdded}>
          {k.columnsAddedAt
            ? t("pasted.outcome.columnsAddedAt", { columns: listed(k.columnsAdded), at: k.columnsAddedAt })
            : t("pasted.outcome.columnsAdded", { columns: listed(k.columnsAdded) })}
        </span>
      ) : null}
      {k.columnsNoLongerServed.length > 0 ? (
        <span data-testid={TEST_IDS.pasted.columnsUnserved}>
          {t("pasted.outcome.columnsUnserved", { columns: listed(k.columnsNoLongerServed) })}
        </span>
      ) : null}
      {o.followers ? (
        <span data-testid={TEST_IDS.pasted.followers}>
          {o.followers.messages.map((said) => i18n.format(said)).join(" ")}
        </span>
      ) : null}
      {k.unknownRows.length > 0 ? (
        <span>{t("pasted.outcome.unknownRows", { count: k.unknownRows.length, keys: listed(k.unknownRows) })}</span>
      ) : null}
      {k.keptByEarlierChoice > 0 ? (
        <span>{t("pasted.outcome.keptByChoice", { count: k.keptByEarlierChoice })}</span>
      ) : null}
      {k.deletedByHand.length > 0 && id ? (
        <span data-testid={TEST_IDS.pasted.deletedByHand}>
          {t("pasted.outcome.deletedByHand", { keys: listed(k.deletedByHand.map((d) => d.label)) })}{" "}
          <Button
            size="small"
            data-testid={TEST_IDS.pasted.restore}
            onClick={() => props.onAnswer(id, { restoreKeys: { [id]: k.deletedByHand.map((d) => d.key) } })}
          >
            {t("pasted.restoreRows")}
          </Button>
        </span>
      ) : null}
      {k.edited.length > 0 && id ? (
        <div data-testid={TEST_IDS.pasted.edited}>
          {t("pasted.outcome.edited", { count: k.edited.length })}
          <table className={css.sampleTable}>
            <thead>
              <tr>
                <th align="left">{t("pasted.edited.cell")}</th>
                <th align="left">{t("pasted.edited.row")}</th>
                <th align="left">{t("pasted.edited.yours")}</th>
                <th align="left">{t("pasted.edited.service")}</th>
              </tr>
            </thead>
            <tbody>
              {k.edited.slice(0, 50).map((e) => (
                <tr key={e.address} data-testid={TEST_IDS.pasted.editedCell}>
                  <td>{e.address}</td>
                  <td>{e.key}</td>
                  <td>{String(e.mine)}</td>
                  <td>{String(e.service)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {k.edited.length > 50 ? <span>{t("pasted.edited.more", { count: k.edited.length - 50 })}</span> : null}
          <div className={mergeClasses(css.buttons, css.above4)}>
            <Button
              size="small"
              data-testid={TEST_IDS.pasted.keepMine}
              onClick={() => props.onAnswer(id, { edits: { [id]: "keep-mine" } })}
            >
              {t("pasted.keepMine")}
            </Button>
            <Button
              size="small"
              data-testid={TEST_IDS.pasted.takeService}
              onClick={() => props.onAnswer(id, { edits: { [id]: "take-service" } })}
            >
              {t("pasted.takeService")}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
