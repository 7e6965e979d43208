import { Button, MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { offerForSheet, syncSearchPoints, type SheetOffer } from "./search-offer-actions";
import type { SyncResult } from "./sync-actions";

/**
 * The faster path, offered honestly: when the active sheet's RISK.SEARCH formulas ask about more
 * than a few hundred distinct points, offer to sync them as a new portfolio and read it with
 * RISK.SUMMARY, with the time of both paths and the plain caveat that the numbers will differ.
 */
export function SearchPointsOffer() {
  const { client, run, forget } = useServices();
  const check = useTask<SheetOffer>();
  const sync = useTask<SyncResult>();
  const found = check.state.status === "done" ? check.state.result : undefined;
  const offer = found?.offer;

  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 6 }} data-testid="search-offer">
      <Button
        size="small"
        onClick={() => client && run && check.start((signal) => offerForSheet(run, client, signal))}
        disabled={!client || !run || check.running || sync.running}
        data-testid="search-offer-check"
      >
        Many RISK.SEARCH points on this sheet? See the faster path
      </Button>
      {offer?.kind === "none" ? (
        <Text size={200} data-testid="search-offer-none">
          {offer.reason}.
        </Text>
      ) : null}
      {offer?.kind === "offer" && found ? (
        <MessageBar intent="info" layout="multiline" data-testid="search-offer-made">
          <MessageBarBody>
            <div data-testid="search-offer-timing">{offer.timing}</div>
            <div data-testid="search-offer-caveat" style={{ marginTop: 4 }}>
              {offer.caveat}
            </div>
            <Button
              appearance="primary"
              size="small"
              style={{ marginTop: 6 }}
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
              data-testid="search-offer-accept"
            >
              Sync {offer.points.toLocaleString("en-US")} points as {offer.portfolioName}
            </Button>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <TaskStatus task={check} testId="search-offer-check" success={() => null} />
      <TaskStatus
        task={sync}
        testId="search-offer-sync"
        success={(r) =>
          r.outcome === "synced" ? (
            <span data-testid="search-offer-done">
              {r.portfolio} holds the {r.assetCount.toLocaleString("en-US")} points (P1 first, asset index 0). Read them
              with =RISK.SUMMARY(&quot;{r.portfolio}&quot;, index, &quot;flood_potential&quot;).
            </span>
          ) : r.outcome === "declined" ? (
            <span data-testid="search-offer-declined">
              A portfolio named {r.portfolio} appeared meanwhile; it was left as it was. Check the sheet again.
            </span>
          ) : null
        }
      />
    </div>
  );
}
