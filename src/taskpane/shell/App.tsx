import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  type AccordionPanelProps,
  MessageBar,
  MessageBarBody,
  SearchBox,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { paneChannel } from "../../commands/pane-channel";
import { invalidateFunctions } from "../../functions/engine/default-engine";
import { dataChangeMatcher } from "../../functions/data-loaders";
import type { ForgetChange } from "../ui/data-change";
import type { ExcelRunner } from "../ui/pane-types";
import { TaskpaneContext } from "../ui/services";
import { useConnection } from "./use-connection";
import { ErrorNotice } from "../ui/ErrorNotice";
import { UsageLine } from "./UsageLine";
import { NotConnectedError } from "../../api/errors";
import { connectionRequired } from "../../shared/connection";
import { FEATURE_GROUPS } from "../features";
import { filterSections } from "./sections";
import { CommandOutcomes } from "./CommandOutcomes";
import { useI18n } from "../ui/i18n";
import type { SyncWatchdog } from "../../excel/sync-watchdog";
import { ExcelNotAnswering } from "./ExcelNotAnswering";
import { excelWatchdog } from "./excel-runner";
import { TEST_IDS } from "../ui/test-ids";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: "8px",
    padding: "8px",
    minWidth: "280px",
    boxSizing: "border-box",
  },
  header: { display: "flex", flexDirection: "column", gap: "2px", padding: "4px 4px 0" },
  title: { margin: 0 },
  panel: { padding: "4px 4px 12px" },
  sub: { color: tokens.colorNeutralForeground3 },
  group: {
    margin: "12px 4px 2px",
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground3,
    textTransform: "uppercase",
    letterSpacing: "0.04em",
  },
});

/** The panel's collapse motion with its content kept mounted when closed (Fluent's slot render function). */
const keepMounted: AccordionPanelProps["collapseMotion"] = {
  children: (Motion, props) => <Motion {...props} unmountOnExit={false} />,
};

/** The default `forget`: the RISK.* functions' engine in this page drops what a change made stale. */
const forgetInFunctions: ForgetChange = (change) => invalidateFunctions(dataChangeMatcher(change));

/**
 * The task pane: a header with the connection status, a search over the sections, and one
 * collapsible section per capability under four group headings (the registry, features/index.ts), so the pane stays
 * usable at Excel's narrowest task pane width (320 px).
 */
export function App(props: {
  run: ExcelRunner | null;
  emptyCache: () => void;
  forget?: ForgetChange;
  host: Office.HostType | null;
  /** The watch on `run`'s syncs; default the page's own (excel-runner.ts). */
  watchdog?: SyncWatchdog;
}) {
  const styles = useStyles();
  const i18n = useI18n();
  const connection = useConnection();
  const [query, setQuery] = useState("");
  const [openItems, setOpenItems] = useState<string[]>(["connection"]);
  // Sections opened once stay mounted when collapsed, so collapsing one does not cancel the paste
  // or sync it is running nor forget what was typed; sections never opened are not mounted at all.
  const [everOpened, setEverOpened] = useState<ReadonlySet<string>>(() => new Set(["connection"]));
  const open = (ids: string[]) => {
    setOpenItems(ids);
    if (ids.some((id) => !everOpened.has(id))) setEverOpened(new Set([...everOpened, ...ids]));
  };
  // A ribbon button or shortcut asked for a section (Builder, Explain, a failure's section): open it,
  // show it, and clear a search that would hide it. Read at mount too: the request may predate the UI.
  useEffect(() => {
    const follow = () => {
      const request = paneChannel.pending;
      if (!request) return;
      paneChannel.take(request.serial);
      setQuery("");
      setOpenItems((ids) => (ids.includes(request.section) ? ids : [...ids, request.section]));
      setEverOpened((ids) => (ids.has(request.section) ? ids : new Set([...ids, request.section])));
      requestAnimationFrame(() =>
        document
          .querySelector(`[data-testid="${TEST_IDS.shell.section(request.section)}"]`)
          ?.scrollIntoView({ block: "start" }),
      );
    };
    follow();
    return paneChannel.subscribe(follow);
  }, []);
  const shown = new Set(
    filterSections(FEATURE_GROUPS, query, i18n).flatMap((group) => group.features.map((x) => x.id)),
  );
  const search = (text: string) => {
    setQuery(text);
    // A search that leaves one section opens it: type "stale", get the panel.
    const found = filterSections(FEATURE_GROUPS, text, i18n).flatMap((group) => group.features);
    if (text.trim() && found.length === 1 && !openItems.includes(found[0].id)) {
      open([...openItems, found[0].id]);
    }
  };
  return (
    <TaskpaneContext.Provider
      value={{ ...connection, run: props.run, emptyCache: props.emptyCache, forget: props.forget ?? forgetInFunctions }}
    >
      <main className={styles.root} data-testid={TEST_IDS.shell.taskpane}>
        <header className={styles.header}>
          <Text as="h1" size={500} weight="semibold" className={styles.title}>
            {i18n.t("app.title")}
          </Text>
          <Text size={200} className={styles.sub} data-testid={TEST_IDS.shell.connectionSummary}>
            {i18n.t("app.connection.summary", {
              server: connection.isDefault
                ? i18n.t(connectionRequired() ? "app.connection.notConnected" : "app.connection.demo")
                : connection.config.baseUrl,
              project: connection.config.project ?? i18n.t("app.connection.noProject"),
            })}
          </Text>
          <UsageLine />
        </header>
        <ExcelNotAnswering watchdog={props.watchdog ?? excelWatchdog} />
        <CommandOutcomes channel={paneChannel} />
        {props.run ? null : (
          <MessageBar intent="warning" data-testid={TEST_IDS.shell.noWorkbookNotice}>
            <MessageBarBody>{i18n.t("app.noWorkbook")}</MessageBarBody>
          </MessageBar>
        )}
        {connection.client || connection.clientError instanceof NotConnectedError ? null : (
          <ErrorNotice error={connection.clientError} testId={TEST_IDS.shell.connectionUnusable} />
        )}
        <SearchBox
          placeholder={i18n.t("app.search.placeholder")}
          aria-label={i18n.t("app.search.label")}
          value={query}
          onChange={(_, data) => search(data.value)}
          data-testid={TEST_IDS.shell.sectionSearch}
        />
        {shown.size === 0 ? (
          <Text size={200} className={styles.sub} data-testid={TEST_IDS.shell.sectionSearchEmpty}>
            {i18n.t("app.search.empty", { query: query.trim() })}
          </Text>
        ) : null}
        <Accordion multiple collapsible openItems={openItems} onToggle={(_, data) => open(data.openItems as string[])}>
          {/* A search hides what it does not match rather than unmounting it: an open section keeps
              its state, and a task running in it (a paste, a sync) is not cancelled by typing. */}
          {FEATURE_GROUPS.map((group) => (
            <section
              key={group.id}
              aria-labelledby={`group-${group.id}`}
              data-testid={TEST_IDS.shell.group(group.id)}
              style={group.features.some((x) => shown.has(x.id)) ? undefined : { display: "none" }}
            >
              <h2 id={`group-${group.id}`} className={styles.group}>
                {i18n.t(group.title)}
              </h2>
              {group.features.map(({ id, title, Panel }) => (
                <AccordionItem
                  key={id}
                  value={id}
                  data-testid={TEST_IDS.shell.section(id)}
                  style={shown.has(id) ? undefined : { display: "none" }}
                >
                  <AccordionHeader
                    button={{ "data-testid": TEST_IDS.shell.sectionHeader(id) } as Record<string, string>}
                  >
                    {i18n.t(title)}
                  </AccordionHeader>
                  <AccordionPanel
                    className={styles.panel}
                    collapseMotion={everOpened.has(id) ? keepMounted : undefined}
                  >
                    <Panel />
                  </AccordionPanel>
                </AccordionItem>
              ))}
            </section>
          ))}
        </Accordion>
      </main>
    </TaskpaneContext.Provider>
  );
}
