import { Button, Radio, RadioGroup, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useCallback, useId, useState, useSyncExternalStore } from "react";
import { defaultEngine, setFailurePolicy } from "../../../functions/engine/default-engine";
import type { FailurePolicy, RiskEngine } from "../../../functions/engine/engine";
import type { StaleCell } from "../../../functions/engine/stale-cells";
import { clearFunctionsCache, retryStaleCells } from "./last-good-actions";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { TaskStatus } from "../../ui/TaskStatus";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.lastGood;

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: "8px" },
  list: { margin: 0, paddingLeft: "16px", maxHeight: "160px", overflowY: "auto" },
  muted: { color: tokens.colorNeutralForeground3 },
  buttons: { display: "flex", gap: "8px", flexWrap: "wrap" },
});

/** The stale list of an engine, re-read whenever it changes. */
function useStaleCells(engine: RiskEngine): readonly StaleCell[] {
  const subscribe = useCallback((onChange: () => void) => engine.staleCells.subscribe(onChange), [engine]);
  const read = () => engine.staleCells.list();
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * Last good values: what a cell shows when a refresh fails, the cells now showing old
 * values or errors with when each value was fetched, "Retry these", and "Clear cache".
 */
export function LastGoodPanel(props: { engine?: RiskEngine }) {
  const styles = useStyles();
  const engine = props.engine ?? defaultEngine();
  const { run } = useServices();
  const { t } = useI18n();
  const cells = useStaleCells(engine);
  const [policy, setPolicy] = useState<FailurePolicy>(engine.failurePolicy);
  const retry = useTask<number>();
  const clear = useTask<void>();
  const countId = useId();
  return (
    <div className={styles.root}>
      <RadioGroup
        value={policy}
        onChange={(_event, data) => {
          const next = data.value as FailurePolicy;
          setPolicy(next);
          void setFailurePolicy(next);
        }}
        data-testid={IDS.failurePolicy}
        aria-label={t("lastGood.policy.label")}
      >
        <Text size={200}>{t("lastGood.policy.question")}</Text>
        <Radio value="show error" label={t("lastGood.policy.showError")} data-testid={IDS.failurePolicyError} />
        <Radio value="keep last good" label={t("lastGood.policy.keepLastGood")} data-testid={IDS.failurePolicyKeep} />
      </RadioGroup>
      {cells.length === 0 ? (
        <Text size={200} className={styles.muted} data-testid={IDS.staleNone}>
          {t("lastGood.fresh")}
        </Text>
      ) : (
        <>
          <Text id={countId} size={200} data-testid={IDS.staleCount} data-count={cells.length}>
            {t("lastGood.staleCount", { count: cells.length })}
          </Text>
          {/* It scrolls past 160 px: focusable, so a keyboard scrolls it too (WCAG 2.1.1); the count names it. */}
          <ul className={styles.list} data-testid={IDS.staleList} tabIndex={0} aria-labelledby={countId}>
            {cells.slice(0, 200).map((cell) => (
              <li
                key={cell.address}
                data-testid={IDS.staleCell}
                data-address={cell.address}
                data-showing={cell.showing}
              >
                <Text size={200}>
                  {t("lastGood.staleCell", {
                    address: cell.address,
                    showing: cell.showing === "old value" ? "old" : "error",
                    fetched: cell.fetchedAt === undefined ? "never" : "at",
                    at: new Date(cell.fetchedAt ?? 0),
                    reason: cell.reason,
                  })}
                </Text>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className={styles.buttons}>
        <Button
          appearance="primary"
          disabled={!run || cells.length === 0 || retry.running}
          onClick={() => run && retry.start(() => retryStaleCells({ run, engine }))}
          data-testid={IDS.staleRetry.id}
        >
          {t("lastGood.retry")}
        </Button>
        <Button
          disabled={clear.running}
          onClick={() => clear.start(() => clearFunctionsCache(engine))}
          data-testid={IDS.cacheClear.id}
        >
          {t("lastGood.clearCache")}
        </Button>
      </div>
      <TaskStatus
        task={retry}
        testId={IDS.staleRetry.id}
        cancellable={false}
        success={(n) => <span>{t("lastGood.recalculating", { count: n })}</span>}
      />
      <TaskStatus
        task={clear}
        testId={IDS.cacheClear.id}
        cancellable={false}
        success={() => <span>{t("lastGood.cleared")}</span>}
      />
    </div>
  );
}
