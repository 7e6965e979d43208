import { Button, MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { useEffect } from "react";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { offerForSheet, syncSearchPoints, type SheetOffer } from "./search-offer-actions";
import type { SyncResult } from "./sync-actions";
import { usePaneStyles } from "../../ui/styles";
import { searchOfferIds, TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import { listSeparator } from "./format-point";

/**
 * The faster path, offered honestly: when the active sheet's RISK.SEARCH formulas ask about more
 * than a few hundred distinct points, offer to sync them as a new portfolio and read it with
 * RISK.SUMMARY, with the time of both paths and the plain caveat that the numbers will differ.
 * The sync pane shows it, and so does the formula builder where the analyst writes RISK.SEARCH
 * formulas (with its own test ids, and checking the sheet again after each insert).
 */
export function SearchPointsOffer(props: {
  /** Prefix of every test id (default `search-offer`), so two panes' offers can be told apart. */
  testId?: string;
  /** A count that, each time it grows past 0, checks the sheet again without a click (e.g. after an insert). */
  checkAfter?: number;
}) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const ids = searchOfferIds(props.testId ?? TEST_IDS.sync.searchOffer.id);
  const { client, run, forget } = useServices();
  const check = useTask<SheetOffer>();
  const sync = useTask<SyncResult>();
  const found = check.state.status === "done" ? check.state.result : undefined;
  const offer = found?.offer;
  const startCheck = () => client && run && check.start((signal) => offerForSheet(run, client, signal));
  const { checkAfter } = props;
  useEffect(() => {
    if (checkAfter) startCheck();
    // Only a new count checks again, not a new client or runner.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checkAfter]);

  return (
    <div className={css.column} data-testid={ids.id}>
      <Button
        size="small"
        onClick={startCheck}
        disabled={!client || !run || check.running || sync.running}
        data-testid={ids.check.id}
      >
        {t("sync.searchOffer.check")}
      </Button>
      {offer?.kind === "none" ? (
        <Text size={200} data-testid={ids.none}>
          {i18n.format(offer.reason)}
        </Text>
      ) : null}
      {offer?.kind === "offer" && found ? (
        <MessageBar intent="info" layout="multiline" data-testid={ids.made}>
          <MessageBarBody>
            <div data-testid={ids.timing}>{i18n.format(offer.timing)}</div>
            <div data-testid={ids.caveat} className={css.above4}>
              {i18n.format(offer.caveat)}
            </div>
            <Button
              appearance="primary"
              size="small"
              className={css.above6}
              disabled={!client || sync.running}
              onClick={() =>
                client &&
                sync.start((signal, onProgress) =>
                  syncSearchPoints({
                    client,
                    portfolio: offer.portfolioName,
                    points: found.points,
                    forget,
                    signal,
                    onProgress,
                  }),
                )
              }
              data-testid={ids.accept}
            >
              {t("sync.searchOffer.accept", { count: offer.points, portfolio: offer.portfolioName })}
            </Button>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <TaskStatus task={check} testId={ids.check.id} success={() => null} />
      <TaskStatus
        task={sync}
        testId={ids.sync.id}
        success={(r) =>
          r.outcome === "synced" ? (
            <span data-testid={ids.done}>
              {t("sync.searchOffer.done", {
                portfolio: r.portfolio,
                count: r.assetCount,
                // As the analyst types it: Excel's own list separator between the arguments.
                formula: ["=RISK.SUMMARY(" + JSON.stringify(r.portfolio), "index", '"flood_potential")'].join(
                  `${listSeparator(i18n)} `,
                ),
              })}
            </span>
          ) : r.outcome === "declined" ? (
            <span data-testid={ids.declined}>{t("sync.searchOffer.declined", { portfolio: r.portfolio })}</span>
          ) : null
        }
      />
    </div>
  );
}
