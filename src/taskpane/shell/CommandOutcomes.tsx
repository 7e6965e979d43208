import { MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import type { CommandOutcome, PaneChannel } from "../../commands/pane-channel";

const useStyles = makeStyles({
  details: { margin: "4px 0 0", paddingLeft: "18px" },
  line: { color: tokens.colorNeutralForeground3 },
});

const INTENT = { done: "success", attention: "warning", failed: "error" } as const;

/**
 * The latest outcome of a ribbon button or shortcut, under the pane's usage line: how the outcome
 * of work started outside the pane reaches the analyst (add-ins have no notification API). A
 * failure or something to look at is a message bar with each line; a success is one quiet line.
 */
export function CommandOutcomes(props: { channel: PaneChannel }) {
  const styles = useStyles();
  const latest: CommandOutcome | undefined = useSyncExternalStore(
    (listener) => props.channel.subscribe(listener),
    () => props.channel.outcomes[0],
    // Rendered to a string (tests), the page has run no command yet.
    () => undefined,
  );
  if (!latest) return null;
  const source = latest.trigger === "shortcut" ? "shortcut" : latest.trigger === "ribbon" ? "ribbon" : "pane";
  if (latest.status === "done")
    return (
      <Text size={100} className={styles.line} data-testid="command-outcome" data-status="done">
        {latest.label} ({source}): {latest.message}
      </Text>
    );
  return (
    <MessageBar intent={INTENT[latest.status]} data-testid="command-outcome" data-status={latest.status}>
      <MessageBarBody>
        <MessageBarTitle>
          {latest.label} ({source})
        </MessageBarTitle>
        {latest.message}
        {latest.details.length > 0 ? (
          <ul className={styles.details}>
            {latest.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </MessageBarBody>
    </MessageBar>
  );
}
