import { MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import type { CommandOutcome, PaneChannel } from "../../commands/pane-channel";
import { ENGLISH } from "../../i18n/translator";
import type { MessageId } from "../../i18n/messages";
import { useI18n } from "../ui/i18n";
import { TEST_IDS } from "../ui/test-ids";

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
  const i18n = useI18n();
  const latest: CommandOutcome | undefined = useSyncExternalStore(
    (listener) => props.channel.subscribe(listener),
    () => props.channel.outcomes[0],
    // Rendered to a string (tests), the page has run no command yet.
    () => undefined,
  );
  if (!latest) return null;
  const source = i18n.t(`outcome.source.${latest.trigger}`);
  // The button's label in the pane's language (the catalogue's English label for a command the catalogs lack).
  const labelId = `ribbon.command.${latest.command}.label`;
  const label = labelId in ENGLISH ? i18n.t(labelId as MessageId) : latest.label;
  if (latest.status === "done")
    return (
      <Text size={100} className={styles.line} data-testid={TEST_IDS.shell.commandOutcome} data-status="done">
        {i18n.t("outcome.line", { label, source, message: latest.message })}
      </Text>
    );
  return (
    <MessageBar intent={INTENT[latest.status]} data-testid={TEST_IDS.shell.commandOutcome} data-status={latest.status}>
      <MessageBarBody>
        <MessageBarTitle>{i18n.t("outcome.title", { label, source })}</MessageBarTitle>
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
