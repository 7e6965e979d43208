import { Text, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { EngineStats } from "../../functions/engine/engine";
import { defaultEngine } from "../../functions/engine/default-engine";

/** How often the line re-reads the engine's counters (they have no change event). */
const EVERY_MS = 2_000;

/** "12 requests sent · 340 answered from cache · 1 failed": the RISK functions' counters since start. */
export function usageText(stats: Pick<EngineStats, "requests" | "cacheHits" | "failures">): string {
  const n = (value: number, one: string, many: string) =>
    `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;
  return `Since start: ${n(stats.requests, "request", "requests")} sent · ${n(stats.cacheHits, "answer", "answers")} from cache · ${n(stats.failures, "failure", "failures")}`;
}

/**
 * A small usage line for analysts on metered plans: requests the RISK functions sent,
 * calls answered from the cache, and loads that failed, since the add-in started.
 */
export function UsageLine(props: { read?: () => Pick<EngineStats, "requests" | "cacheHits" | "failures"> }) {
  const read = props.read ?? (() => defaultEngine().stats());
  const [stats, setStats] = useState(read);
  useEffect(() => {
    const timer = setInterval(() => setStats(read()), EVERY_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Text
      size={100}
      style={{ color: tokens.colorNeutralForeground3 }}
      data-testid="usage-line"
      data-requests={stats.requests}
      data-cache-hits={stats.cacheHits}
      data-failures={stats.failures}
    >
      {usageText(stats)}
    </Text>
  );
}
