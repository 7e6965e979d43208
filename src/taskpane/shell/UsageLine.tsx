import { Text } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { EngineProgress, EngineStats } from "../../functions/engine/engine";
import { defaultEngine } from "../../functions/engine/default-engine";
import { duration } from "../../shaping/duration";
import { usePaneStyles } from "../ui/styles";
import { useI18n } from "../ui/i18n";
import { englishTranslator, type Translator } from "../../i18n/translator";
import { TEST_IDS } from "../ui/test-ids";

/** How often the line re-reads the engine's counters (they have no change event). */
const EVERY_MS = 2_000;
/** How often while many loads are pending, so done / total moves visibly. */
const BUSY_EVERY_MS = 500;
/** From this many pending loads on, the line shows the progress (fewer settle before anyone reads it). */
export const MANY_PENDING = 20;

/**
 * "RISK cells: 1,200 / 5,000 loaded · about 40 s left" while many loads are pending, else null.
 * The estimate is the engine's: the pending loads at the present pace (see engine.progress()).
 */
export function progressText(
  progress: Pick<EngineProgress, "pending" | "done" | "total" | "estimateMs">,
  i18n: Translator = englishTranslator,
): string | null {
  if (progress.pending < MANY_PENDING) return null;
  const left =
    progress.estimateMs === undefined
      ? i18n.t("usage.left.estimating")
      : i18n.t("usage.left.about", { duration: duration(progress.estimateMs) });
  return i18n.t("usage.progress", { done: progress.done, total: progress.total, left });
}

/** "12 requests sent · 340 answered from cache · 1 failed": the RISK functions' counters since start. */
export function usageText(
  stats: Pick<EngineStats, "requests" | "cacheHits" | "failures">,
  i18n: Translator = englishTranslator,
): string {
  return i18n.t("usage.since", { requests: stats.requests, hits: stats.cacheHits, failures: stats.failures });
}

/**
 * A small usage line for analysts on metered plans: requests the RISK functions sent, calls
 * answered from the cache, and loads that failed, since the add-in started; while many loads are
 * pending, how many are done of how many and the time left.
 */
export function UsageLine(props: {
  read?: () => Pick<EngineStats, "requests" | "cacheHits" | "failures">;
  readProgress?: () => EngineProgress;
}) {
  const read = props.read ?? (() => defaultEngine().stats());
  const readProgress = props.readProgress ?? (() => defaultEngine().progress());
  const i18n = useI18n();
  const [stats, setStats] = useState(read);
  const [progress, setProgress] = useState(readProgress);
  const busy = progressText(progress, i18n) !== null;
  useEffect(() => {
    const timer = setInterval(
      () => {
        setStats(read());
        setProgress(readProgress());
      },
      busy ? BUSY_EVERY_MS : EVERY_MS,
    );
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [busy]);
  const pending = progressText(progress, i18n);
  const css = usePaneStyles();
  return (
    <div className={css.column}>
      {pending ? (
        <Text
          size={100}
          className={css.muted}
          data-testid={TEST_IDS.shell.usageProgress}
          data-done={progress.done}
          data-total={progress.total}
          aria-live="polite"
        >
          {pending}
        </Text>
      ) : null}
      <Text
        size={100}
        className={css.faint}
        data-testid={TEST_IDS.shell.usageLine}
        data-requests={stats.requests}
        data-cache-hits={stats.cacheHits}
        data-failures={stats.failures}
      >
        {usageText(stats, i18n)}
      </Text>
    </div>
  );
}
