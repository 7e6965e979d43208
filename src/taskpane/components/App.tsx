import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  MessageBar,
  MessageBarBody,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import type { ReactNode } from "react";
import { invalidateFunctions } from "../../functions/engine/default-engine";
import { dataChangeMatcher } from "../../functions/data-loaders";
import type { ForgetChange } from "../actions/data-change";
import type { ExcelRunner } from "../actions/types";
import { TaskpaneContext } from "../context";
import { useConnection } from "../hooks/useConnection";
import { AppliedLayerPanel } from "./AppliedLayerPanel";
import { CompositionsPanel } from "./CompositionsPanel";
import { ConnectionPanel } from "./ConnectionPanel";
import { ErrorNotice } from "./ErrorNotice";
import { ExportPanel } from "./ExportPanel";
import { LastGoodPanel } from "./LastGoodPanel";
import { NaturePanel } from "./NaturePanel";
import { PortfoliosPanel } from "./PortfoliosPanel";
import { RefreshPanel } from "./RefreshPanel";
import { ChangesPanel } from "./ChangesPanel";
import { ExplainPanel } from "./ExplainPanel";
import { ImpactPanel } from "./ImpactPanel";
import { SummaryPanel } from "./SummaryPanel";
import { SyncPanel } from "./SyncPanel";
import { TimeseriesPanel } from "./TimeseriesPanel";
import { VisualSection } from "./VisualSection";
import { FormulaBuilderPanel } from "./FormulaBuilderPanel";
import { PastedSheetsPanel } from "./PastedSheetsPanel";
import { ScopedRefreshPanel } from "./ScopedRefreshPanel";
import { StaticCopyPanel } from "./StaticCopyPanel";
import { UsageLine } from "./UsageLine";
import { NotConnectedError } from "../../api/errors";
import { connectionRequired } from "../../shared/connection";

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
  panel: { padding: "4px 4px 12px" },
  sub: { color: tokens.colorNeutralForeground3 },
});

/** The default `forget`: the RISK.* functions' engine in this page drops what a change made stale. */
const forgetInFunctions: ForgetChange = (change) => invalidateFunctions(dataChangeMatcher(change));

/** One collapsible capability: the header is a button (keyboard: Tab, Enter/Space). */
interface Section {
  id: string;
  title: string;
  content: ReactNode;
}

/** The task pane: a header with the connection status and one collapsible section per capability. */
export function App(props: {
  run: ExcelRunner | null;
  emptyCache: () => void;
  forget?: ForgetChange;
  host: Office.HostType | null;
}) {
  const styles = useStyles();
  const connection = useConnection();
  const sections: Section[] = [
    { id: "connection", title: "Connection", content: <ConnectionPanel /> },
    { id: "builder", title: "Formula builder", content: <FormulaBuilderPanel /> },
    { id: "sync", title: "Sync a range to a portfolio", content: <SyncPanel /> },
    { id: "timeseries", title: "Timeseries → new sheet", content: <TimeseriesPanel /> },
    { id: "layer", title: "Applied layer → new sheet", content: <AppliedLayerPanel /> },
    { id: "summary", title: "Summary → new sheet", content: <SummaryPanel /> },
    { id: "impact", title: "Financial impact → new sheets", content: <ImpactPanel /> },
    { id: "explain", title: "Explain a number", content: <ExplainPanel /> },
    { id: "changes", title: "What changed since last refresh", content: <ChangesPanel /> },
    { id: "visual", title: "Map, risk matrix and scenarios", content: <VisualSection /> },
    { id: "export", title: "Export ZIP → sheets", content: <ExportPanel /> },
    { id: "portfolios", title: "Portfolios: assets, delete", content: <PortfoliosPanel /> },
    { id: "compositions", title: "Compositions", content: <CompositionsPanel /> },
    { id: "nature", title: "Nature projects", content: <NaturePanel /> },
    { id: "refresh", title: "Refresh all", content: <RefreshPanel /> },
    { id: "last-good", title: "Last good values", content: <LastGoodPanel /> },
    { id: "scoped-refresh", title: "Refresh selection / sheet / workbook", content: <ScopedRefreshPanel /> },
    { id: "pasted", title: "Pasted sheets & sources", content: <PastedSheetsPanel /> },
    { id: "static", title: "Static copy (values only)", content: <StaticCopyPanel /> },
  ];
  return (
    <TaskpaneContext.Provider
      value={{ ...connection, run: props.run, emptyCache: props.emptyCache, forget: props.forget ?? forgetInFunctions }}
    >
      <main className={styles.root} data-testid="taskpane">
        <header className={styles.header}>
          <Text as="h1" size={500} weight="semibold" style={{ margin: 0 }}>
            Climate Risk
          </Text>
          <Text size={200} className={styles.sub} data-testid="connection-summary">
            {connection.isDefault
              ? connectionRequired()
                ? "Not connected"
                : "Demo emulator"
              : connection.config.baseUrl}{" "}
            · project {connection.config.project ?? "(none)"}
          </Text>
          <UsageLine />
        </header>
        {props.run ? null : (
          <MessageBar intent="warning" data-testid="no-workbook-notice">
            <MessageBarBody>
              No workbook is available: open this add-in in Excel to read and write sheets.
            </MessageBarBody>
          </MessageBar>
        )}
        {connection.client || connection.clientError instanceof NotConnectedError ? null : (
          <ErrorNotice error={connection.clientError} testId="connection-unusable" />
        )}
        <Accordion multiple collapsible defaultOpenItems={["connection"]}>
          {sections.map((section) => (
            <AccordionItem key={section.id} value={section.id} data-testid={`section-${section.id}`}>
              <AccordionHeader button={{ "data-testid": `section-${section.id}-header` } as Record<string, string>}>
                {section.title}
              </AccordionHeader>
              <AccordionPanel className={styles.panel}>{section.content}</AccordionPanel>
            </AccordionItem>
          ))}
        </Accordion>
      </main>
    </TaskpaneContext.Provider>
  );
}
