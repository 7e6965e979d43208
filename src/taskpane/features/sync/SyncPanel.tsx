import {
  Button,
  mergeClasses,
  Field,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Select,
  Text,
} from "@fluentui/react-components";
import { useCallback, useRef, useState } from "react";
import type { TableInfo } from "../../../excel/read-range";
import { portfolioNameProblem, suggestPortfolioName } from "./model/portfolio-name";
import {
  checkAssetSource,
  listWorkbookTables,
  selectProblemCell,
  syncRangeToPortfolio,
  type MappingReview,
  type ReplaceQuestion,
  type SyncResult,
} from "./sync-actions";
import { AssetFindings } from "./AssetFindings";
import { MappingTable } from "./CellChangesTable";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask, type Task } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { ProblemList } from "./ProblemList";
import { SearchPointsOffer } from "./SearchPointsOffer";
import { GeocodePanel } from "./GeocodePanel";
import type { CountryFinding } from "./model/country-check";
import { SyncDiffView } from "./SyncDiffView";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** The most assets one portfolio holds (the service's limit; the split proposes parts of this size). */
const PORTFOLIO_LIMIT = 5000;

/** This section's test ids. */
const IDS = TEST_IDS.sync;

/**
 * Sync the selection or a named table to a portfolio. Problems are listed with
 * clickable cell addresses; replacing a non-empty portfolio is confirmed inline; progress follows
 * the portfolio's status until risk data is available. The sheet is only read.
 */
export function SyncPanel() {
  const css = usePaneStyles();
  const { t, format } = useI18n();
  const { client, run, forget } = useServices();
  const [sourceKind, setSourceKind] = useState<SourceKind>("selection");
  const [tableName, setTableName] = useState("");
  const [portfolio, setPortfolio] = useState("");
  const replace = useQuestion<ReplaceQuestion>();
  const mapping = useQuestion<MappingReview>();
  const outside = useQuestion<readonly CountryFinding[]>();
  const [selectError, setSelectError] = useState<unknown>(undefined);
  const task = useTask<SyncResult & { address: string }>();
  const check = useTask<Awaited<ReturnType<typeof checkAssetSource>>>();

  const loadTables = useCallback(() => listWorkbookTables(run!), [run]);
  const tables = useLoader<TableInfo[]>(run && sourceKind === "table" ? loadTables : null, [run, sourceKind]);
  const nameProblem = portfolio === "" ? null : portfolioNameProblem(portfolio);
  const source = () =>
    sourceKind === "table"
      ? { kind: "table" as const, name: tableName || tables.data?.[0]?.name || "" }
      : { kind: "selection" as const };

  const sync = (split = false) => {
    if (!client || !run) return;
    const from = source();
    setSelectError(undefined);
    check.reset();
    task.start((signal, onProgress) =>
      syncRangeToPortfolio({
        client,
        run,
        source: from,
        portfolio: portfolio.trim(),
        confirmReplace: replace.ask,
        confirmMapping: mapping.ask,
        confirmOutside: outside.ask,
        forget,
        split,
        signal,
        onProgress,
      }),
    );
  };
  const result = task.state.status === "done" ? task.state.result : undefined;
  const checked = check.state.status === "done" ? check.state.result : undefined;

  return (
    <Stack>
      <Text size={200}>{t("sync.intro", { labelColumn: "label:<key>" })}</Text>
      <SourcePicker
        kind={sourceKind}
        onKind={setSourceKind}
        tables={tables.data}
        tableName={tableName}
        onTable={(name) => {
          setTableName(name);
          // Propose a valid name (3-30 characters) from the table's when none is typed yet.
          if (portfolio.trim() === "") setPortfolio(suggestPortfolioName(name));
        }}
      />
      <TextField
        label={t("sync.portfolio.label")}
        hint={t("sync.portfolio.hint")}
        validationState={nameProblem ? "error" : "none"}
        validationMessage={nameProblem ? format(nameProblem) : undefined}
        value={portfolio}
        onChange={setPortfolio}
        placeholder={t("sync.portfolio.placeholder")}
        testId={IDS.portfolio}
      />
      <div className={css.buttons}>
        <Button
          appearance="primary"
          onClick={() => sync()}
          disabled={!client || !run || task.running || portfolio.trim() === "" || nameProblem !== null}
          data-testid={IDS.start}
        >
          {t("sync.start")}
        </Button>
        <Button
          onClick={() => run && check.start(() => checkAssetSource(run, source()))}
          disabled={!run || task.running || check.running}
          data-testid={IDS.check}
        >
          {t("sync.checkOnly")}
        </Button>
      </div>
      {checked && !task.running && task.state.status !== "done" ? (
        <CheckResult
          checked={checked}
          onSelect={(address) => run && void selectProblemCell(run, address).catch(setSelectError)}
        />
      ) : null}
      {check.state.status === "failed" ? <ErrorNotice error={check.state.error} testId={IDS.checkError} /> : null}
      {mapping.pending ? <MappingConfirm review={mapping.pending} onReply={mapping.reply} /> : null}
      {outside.pending ? <OutsideConfirm outside={outside.pending} onReply={outside.reply} /> : null}
      {replace.pending ? <ReplaceConfirm question={replace.pending} onReply={replace.reply} /> : null}
      <SyncOutcome
        task={task}
        onSplit={() => sync(true)}
        onSelect={(address) => {
          if (run) selectProblemCell(run, address).then(() => setSelectError(undefined), setSelectError);
        }}
      />
      {result?.outcome === "synced" ? <AssetFindings findings={result} /> : null}
      {selectError ? <ErrorNotice error={selectError} testId={IDS.selectError} /> : null}
      <GeocodePanel source={source} portfolio={portfolio} />
      <SearchPointsOffer />
    </Stack>
  );
}

type SourceKind = "selection" | "table";

/**
 * A question the sync asks and awaits: `ask` shows it (`pending`) and settles with the answer
 * `reply` gives, which hides it.
 */
function useQuestion<Q>() {
  const [pending, setPending] = useState<Q | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);
  const ask = (question: Q) =>
    new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setPending(question);
    });
  const reply = (yes: boolean) => {
    answer.current?.(yes);
    answer.current = null;
    setPending(null);
  };
  return { pending, ask, reply };
}

/** Where the assets come from: the selection, or a named table of the workbook. */
function SourcePicker(props: {
  kind: SourceKind;
  onKind: (kind: SourceKind) => void;
  tables: TableInfo[] | undefined;
  tableName: string;
  onTable: (name: string) => void;
}) {
  const { tables } = props;
  const { t } = useI18n();
  return (
    <>
      <RadioGroup
        value={props.kind}
        onChange={(_, d) => props.onKind(d.value as SourceKind)}
        layout="horizontal"
        aria-label={t("sync.source.label")}
      >
        <Radio value="selection" label={t("sync.source.selection")} data-testid={IDS.sourceSelection} />
        <Radio value="table" label={t("sync.source.table")} data-testid={IDS.sourceTable} />
      </RadioGroup>
      {props.kind === "table" ? (
        <Field
          label={t("sync.table.label")}
          validationMessage={tables && tables.length === 0 ? t("sync.table.none") : undefined}
        >
          <Select
            value={props.tableName || tables?.[0]?.name || ""}
            onChange={(_, d) => props.onTable(d.value)}
            data-testid={IDS.table}
          >
            {(tables ?? []).map((table) => (
              <option key={table.name} value={table.name}>
                {t("sync.table.option", { table: table.name, sheet: table.sheetName })}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
    </>
  );
}

/** What "Check only" found: the assets ready, the problems (cells to select), the findings. */
function CheckResult(props: {
  checked: Awaited<ReturnType<typeof checkAssetSource>>;
  onSelect: (address: string) => void;
}) {
  const { checked } = props;
  const { t } = useI18n();
  return (
    <div data-testid={IDS.checkResult}>
      <Text size={200}>
        {t("sync.checked", {
          address: checked.address,
          assets: checked.assetCount,
          problems: checked.problems.length,
        })}
      </Text>
      {checked.problems.length > 0 ? (
        <ProblemList problems={checked.problems} testId={IDS.checkProblems.id} onSelect={props.onSelect} />
      ) : null}
      <AssetFindings findings={checked} showMapping />
    </div>
  );
}

/** How the headers are read, before anything is sent: Send or Stop. */
function MappingConfirm(props: { review: MappingReview; onReply: (send: boolean) => void }) {
  const css = usePaneStyles();
  const { review, onReply } = props;
  const { t } = useI18n();
  return (
    <MessageBar intent="info" layout="multiline" data-testid={IDS.mappingConfirm}>
      <MessageBarBody>
        <div>{t("sync.mapping.intro")}</div>
        <MappingTable columns={review.columns} testId={IDS.mappingConfirmTable.id} />
        {review.warnings.length > 0 ? <div>{t("sync.mapping.warnings", { count: review.warnings.length })}</div> : null}
        <div className={mergeClasses(css.buttons, css.above6)}>
          <Button appearance="primary" size="small" onClick={() => onReply(true)} data-testid={IDS.mappingSend}>
            {t("sync.mapping.send")}
          </Button>
          <Button size="small" onClick={() => onReply(false)} data-testid={IDS.mappingStop}>
            {t("sync.mapping.stop")}
          </Button>
        </div>
      </MessageBarBody>
    </MessageBar>
  );
}

/** Points outside the country their row names, before anything is sent: Send anyway or Stop. */
function OutsideConfirm(props: { outside: readonly CountryFinding[]; onReply: (send: boolean) => void }) {
  const css = usePaneStyles();
  const { outside, onReply } = props;
  const { t } = useI18n();
  const fixable = outside.filter((f) => f.fix).length;
  return (
    <MessageBar intent="warning" layout="multiline" data-testid={IDS.outsideConfirm}>
      <MessageBarBody>
        <div>
          {t("sync.outside.body", {
            count: outside.length,
            // Cell addresses are Excel's, the same in every language.
            cells: `${outside
              .slice(0, 5)
              .map((f) => f.problem.cell)
              .join(", ")}${outside.length > 5 ? ", …" : ""}`,
            fixable,
          })}
        </div>
        <div className={mergeClasses(css.buttons, css.above6)}>
          <Button appearance="primary" size="small" onClick={() => onReply(false)} data-testid={IDS.outsideStop}>
            {t("sync.outside.stop")}
          </Button>
          <Button size="small" onClick={() => onReply(true)} data-testid={IDS.outsideSend}>
            {t("sync.outside.send")}
          </Button>
        </div>
      </MessageBarBody>
    </MessageBar>
  );
}

/** Replacing a portfolio's assets, with what changes: Replace or Keep existing. */
function ReplaceConfirm(props: { question: ReplaceQuestion; onReply: (replace: boolean) => void }) {
  const css = usePaneStyles();
  const { question, onReply } = props;
  const { t } = useI18n();
  return (
    <MessageBar intent="warning" layout="multiline" data-testid={IDS.confirm}>
      <MessageBarBody>
        <div>
          {t("sync.replace.body", {
            portfolio: question.portfolio,
            existing: question.existingCount,
            count: question.newCount,
          })}
        </div>
        <SyncDiffView diff={question.diff} />
        <div className={mergeClasses(css.buttons, css.above6)}>
          <Button appearance="primary" size="small" onClick={() => onReply(true)} data-testid={IDS.confirmReplace}>
            {t("sync.replace.confirm")}
          </Button>
          <Button size="small" onClick={() => onReply(false)} data-testid={IDS.confirmKeep}>
            {t("sync.replace.keep")}
          </Button>
        </div>
      </MessageBarBody>
    </MessageBar>
  );
}

/** The sync's outcome: too many rows (offer to split), problems to fix, headers declined, or its status. */
function SyncOutcome(props: {
  task: Task<SyncResult & { address: string }>;
  onSplit: () => void;
  onSelect: (address: string) => void;
}) {
  const css = usePaneStyles();
  const { task } = props;
  const { t, format } = useI18n();
  const result = task.state.status === "done" ? task.state.result : undefined;
  if (result?.outcome === "too-many")
    return (
      <MessageBar intent="warning" layout="multiline" data-testid={IDS.tooMany}>
        <MessageBarBody>
          <div>
            {t("sync.tooMany.body", { rows: result.rowCount, address: result.address, limit: PORTFOLIO_LIMIT })}
          </div>
          {result.problem ? (
            <div>{format(result.problem)}</div>
          ) : (
            <div className={mergeClasses(css.buttons, css.above6, css.wrapCentered)}>
              <Button appearance="primary" size="small" onClick={props.onSplit} data-testid={IDS.split}>
                {t("sync.tooMany.split", { count: result.parts.length })}
              </Button>
              <Text size={200}>
                {t("sync.tooMany.parts", {
                  first: result.parts[0],
                  last: result.parts.at(-1) ?? "",
                  limit: PORTFOLIO_LIMIT,
                })}
              </Text>
            </div>
          )}
        </MessageBarBody>
      </MessageBar>
    );
  if (result?.outcome === "invalid")
    return (
      <>
        <ProblemList problems={result.problems} testId={IDS.problems.id} onSelect={props.onSelect} />
        <AssetFindings findings={result} />
      </>
    );
  if (result?.outcome === "outside-declined")
    return (
      <>
        <Text data-testid={IDS.outsideDeclined}>{t("sync.outsideDeclined")}</Text>
        <AssetFindings findings={result} />
      </>
    );
  if (result?.outcome === "mapping-declined")
    return <Text data-testid={IDS.mappingDeclined}>{t("sync.mappingDeclined")}</Text>;
  return <TaskStatus task={task} testId={IDS.task.id} success={(r) => <SyncDone result={r} />} />;
}

/** What a finished sync did: declined, synced (created, replaced or already up to date) or split. */
function SyncDone({ result: r }: { result: SyncResult & { address: string } }) {
  const { t } = useI18n();
  return r.outcome === "declined" ? (
    <span data-testid={IDS.declined}>{t("sync.declined", { portfolio: r.portfolio })}</span>
  ) : r.outcome === "synced" ? (
    <span data-testid={IDS.done}>
      {t("sync.done", {
        portfolio: r.portfolio,
        assets: r.assetCount,
        address: r.address,
        how: r.uploaded ? (r.created ? "created" : "replaced") : "unchanged",
        recalculating: r.uploaded || r.created ? "yes" : "no",
      })}
    </span>
  ) : r.outcome === "split" ? (
    <span data-testid={IDS.splitDone}>
      {t("sync.splitDone", {
        assets: r.assetCount,
        address: r.address,
        count: r.parts.length,
        parts: r.parts
          .map((p) =>
            p.outcome === "synced"
              ? t("sync.splitPart.synced", { portfolio: p.portfolio, assets: p.assetCount })
              : t("sync.splitPart.kept", { portfolio: p.portfolio }),
          )
          .join(", "),
      })}
    </span>
  ) : null;
}
