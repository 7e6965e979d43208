import type { RiskClient } from "../../../api/client";
import { AbortedError, NotFoundError } from "../../../api/errors";
import {
  KeyKindChangedError,
  RefreshInterruptedError,
  sortPastedTableAgain,
  refreshTableByKey,
  queueTableHead,
  answerBytesPerCell,
  type EditChoice,
  type KeyedRefreshDone,
  type KeyedRefreshReport,
} from "../../../excel/keyed-replace";
import {
  checkFollowers,
  refreshFollowers,
  type FollowerTables,
  type FollowersBefore,
} from "../../../excel/formula-followers";
import {
  queueRecordProvenanceAgain,
  readProvenance,
  recordProvenance,
  recordProvenanceAgain,
  rewriteProvenance,
  snapshotProvenance,
  utcNow,
} from "../../../excel/provenance-sheets";
import { PastedSheetChangedError, replaceTableInPlace } from "../../../excel/replace-table";
import { queueManualCalculation, recalculateChanged } from "../../../excel/risk-cells";
import { queueRead } from "../../../excel/read-range";
import {
  OPERATION_LABELS,
  operationMessage,
  type PasteOperation,
  type PasteProvenance,
  type ProvenanceRecord,
} from "../../../shaping/paste-provenance";
import { RowKeyError, keyRows } from "../../../shaping/row-keys";
import type { CellValue } from "../../../shaping/types";
import { ADDIN_VERSION } from "../../../shared/version";
import { CancelledError, throwIfCancelled, listSome, type ExcelRunner, type PasteOptions } from "../../ui/pane-types";
import {
  pasteKind,
  rowKeysFor,
  type AfterRefreshReads,
  type FetchedTable,
  type PasteKind,
  type RefreshFollowUp,
} from "./paste-kind";
import { RequestSlots } from "../../../api/pagination";
import { SharedReads } from "../../../api/shared-reads";
import { message, type Message } from "../../../i18n/messages";
import { MessageError, reasonOf } from "../../../i18n/message-error";

/**
 * Pages in flight at most over every list one "Refresh pasted sheets" reads (three sheets' reads
 * at once), the sheet written next first: each list may take every slot the others leave free, so
 * the longest (the default summary of every scenario, 180 pages at 5,000 assets) is not read a few
 * pages at a time while the slots of the shorter lists, long finished, stand idle. 8 keeps the wire
 * full at a production latency (300 ms): the weekly refresh's step took 13.6 s against a bound of
 * 11.1 s at 8 at once. At 16 it took 11.3 s, but at 40 ms it took 7.2–8.7 s instead of
 * 5.4–6.3 s: there the step is bound by this thread's parsing and writing, and twice the answers
 * arriving at once doubled its garbage collection. 8 is also a quarter of a service's cap of 32
 * requests at once per key, leaving room for the RISK cells recalculating meanwhile.
 */
export const REFRESH_PAGES_IN_FLIGHT = 8;

/**
 * The provenance of a paste: the client's base URL and project (never its key), the operation and
 * its filters, the add-in version, and for a portfolio's dataset its `version` and `sha256_digest`
 * from `GET .../datasets/physical` (left out when the portfolio has none: 404). Any other failure
 * of that read fails the paste before anything is written: a paste is whole, provenance included.
 */
export async function provenanceOf(
  client: RiskClient,
  kind: Pick<PasteKind, "operation" | "dataset">,
  portfolio: string | undefined,
  filters: Record<string, string | number | boolean | undefined>,
  signal?: AbortSignal,
): Promise<PasteProvenance> {
  const kept: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== "") kept[name] = value;
  let dataset: PasteProvenance["dataset"];
  if (portfolio && kind.dataset) {
    try {
      const meta = await client.datasets.metadata(portfolio, { signal });
      dataset = { version: meta.version, sha256_digest: meta.sha256_digest };
    } catch (error) {
      throwIfCancelled(signal);
      if (!(error instanceof NotFoundError)) throw error;
      dataset = undefined;
    }
  }
  const connection = client.connection;
  return {
    operation: kind.operation,
    baseUrl: connection.baseUrl,
    project: connection.project,
    portfolio,
    filters: kept,
    ...(dataset ? { dataset } : {}),
    addinVersion: ADDIN_VERSION,
  };
}

/** One pasted sheet as the pane lists it. */
export interface PastedSheetEntry {
  sheetId: string;
  sheetName: string;
  operation: PasteOperation;
  /** The operation's name in the pane's language (an operation this version does not know: as recorded). */
  label: Message;
  portfolio?: string;
  rows: number;
  writtenAt: string;
  staticCopyAt?: string;
  /** When the last refresh that took the sheet up left it as it was (the record's `notRefreshed`). */
  notRefreshedAt?: string;
}

/** Every pasted sheet the workbook's provenance store lists, and store rows that are not records. */
export async function listPastedSheets(
  run: ExcelRunner,
): Promise<{ storeFound: boolean; sheets: PastedSheetEntry[]; problems: Message[] }> {
  const read = await run((context) => readProvenance(context));
  return {
    storeFound: read.storeFound,
    problems: read.problems,
    sheets: read.records.map((r) => ({
      sheetId: r.sheetId,
      sheetName: r.sheetName,
      operation: r.operation,
      label:
        OPERATION_LABELS[r.operation] !== undefined
          ? operationMessage(r.operation)
          : message("pasted.run.quoted", { text: r.operation }),
      portfolio: r.portfolio,
      rows: r.rows,
      writtenAt: r.writtenAt,
      staticCopyAt: r.staticCopyAt,
      notRefreshedAt: r.notRefreshed?.at,
    })),
  };
}

/** The outcome for one pasted sheet. */
export interface SheetRefreshOutcome {
  /** Absent for a store row that is not a record. */
  sheetId?: string;
  sheetName: string;
  ok: boolean;
  /** Rows now in the table (ok). */
  rows?: number;
  /** Why nothing changed (not ok), worded by the pane. */
  message?: Message;
  /** What the sheets of formulas over a refreshed table did (the financial impact's), when anything. */
  followers?: FollowersOutcome;
  /** What a refresh by key did: rows added, removed, cells the analyst changed, rows deleted by hand. */
  keyed?: KeyedRefreshReport;
  /** The assets' key kind changed since the paste: "Refresh anyway" goes on (`acceptKeyKindChange`). */
  keyKindChanged?: boolean;
}

/** What the sheets of formulas over a refreshed table did, as sentences; `failed` when they could not follow. */
export interface FollowersOutcome {
  messages: Message[];
  failed: boolean;
  /** The new record of which asset each row of the losses sheet is about (for the provenance). */
  store?: string;
}

/** The analyst's answers to a refresh's questions, by sheet id. */
export interface RefreshChoices {
  /** What to do with the cells they changed in the add-in's columns (default "ask": keep and list). */
  edits?: Record<string, EditChoice>;
  /** Keys of rows they deleted by hand to add back. */
  restoreKeys?: Record<string, string[]>;
  /** Sheets to refresh even though the assets' key kind changed. */
  acceptKeyKindChange?: string[];
}

/** Keys of a fetched table by the kind's key; RowKeyError (a sentence naming the assets) when they collide. */
function keyRowsOf(keying: Awaited<ReturnType<typeof rowKeysFor>>, table: FetchedTable) {
  return keyRows(keying.spec, table.header, table.rows, keying.assets);
}

/**
 * Brings the sheets of formulas over a refreshed keyed table in line, and records the losses
 * sheet's new record of which asset each row is about in the provenance. Runs after the table's
 * rows were deleted (which cannot be undone), so a failure here does not undo the refresh: it is
 * said, in the outcome's `followers`, with what to do. Returns the record as it ends on record.
 */
async function bringFollowersInLine(
  context: Excel.RequestContext,
  followers: { tables: FollowerTables; build: NonNullable<FetchedTable["followers"]> },
  before: FollowersBefore,
  /** The keyed table's refresh just done: its record, its record of what was written, the provenance it read. */
  done: KeyedRefreshDone,
  recordAs: (record: ProvenanceRecord) => ProvenanceRecord,
): Promise<{ next: ProvenanceRecord; followed: FollowersOutcome }> {
  const refreshed = done.record;
  const provenanceBefore = done.provenanceBefore;
  const withStore = (store: string): ProvenanceRecord =>
    refreshed.followers ? { ...refreshed, followers: { ...refreshed.followers, store } } : refreshed;
  // The new record of the losses sheet is on record in its last request, from what the keyed
  // refresh read of the provenance (a round trip fewer).
  const reading = provenanceBefore?.reading;
  let queued = false;
  let next = refreshed;
  let followed: FollowersOutcome;
  try {
    const report = await refreshFollowers(context, refreshed, followers.tables, before, followers.build, {
      keyedWritten: done.written,
      beforeLastRequest:
        reading && refreshed.followers
          ? async (store) => {
              queued = true;
              await queueRecordProvenanceAgain(context, [recordAs(withStore(store))], reading);
            }
          : undefined,
    });
    followed = { failed: false, messages: followersSaid(report), store: report.store };
    // Its last request failed after the followers' writes: the provenance queued in it is written again.
    if (report.lastRequestFailed) queued = false;
  } catch (error) {
    followed = { failed: true, messages: [message("pasted.run.followers.failed", { reason: reasonOf(error) })] };
  }
  try {
    if (followed.store && refreshed.followers) {
      next = withStore(followed.store);
      if (!queued) {
        if (provenanceBefore) await recordProvenanceAgain(context, [recordAs(next)], provenanceBefore);
        else await recordProvenance(context, [recordAs(next)]);
      }
    } else if (queued && provenanceBefore) {
      // That request failed, the provenance's writes in it perhaps in part: as the keyed refresh left it.
      await recordProvenanceAgain(context, [recordAs(refreshed)], provenanceBefore);
    }
  } catch (error) {
    followed = {
      failed: true,
      messages: [
        ...(followed.failed ? followed.messages : []),
        message("pasted.run.followers.recordFailed", { reason: reasonOf(error) }),
      ],
    };
  }
  return { next, followed };
}

/** What the pane says of the formula sheets brought in line (nothing when nothing moved). */
function followersSaid(done: Awaited<ReturnType<typeof refreshFollowers>>): Message[] {
  const parts: Message[] = [];
  if (done.mirrorRemoved + done.mirrorAdded > 0)
    parts.push(message("pasted.run.followers.mirror", { removed: done.mirrorRemoved, added: done.mirrorAdded }));
  if (done.removedBlock) parts.push(message("pasted.run.followers.removedBlock", { address: done.removedBlock }));
  if (done.followedBack.length > 0)
    parts.push(
      message("pasted.run.followers.followedBack", {
        count: done.followedBack.length,
        rows: listSome(done.followedBack, 5),
      }),
    );
  if (done.keptAsShown.length > 0)
    parts.push(message("pasted.run.followers.keptAsShown", { rows: listSome(done.keptAsShown, 5) }));
  return parts;
}

/**
 * A sheet's first rows from the parts of them read with the sheet before's requests, in order: as
 * far as they were read (a part lost leaves the rest unused), undefined when none was.
 */
function headOf(parts: ReadonlyArray<{ read: () => CellValue[][] | undefined }>): CellValue[][] | undefined {
  const rows: CellValue[][] = [];
  for (const part of parts) {
    const read = part.read();
    if (read === undefined) break;
    for (const line of read) rows.push(line);
  }
  return rows.length > 0 ? rows : undefined;
}

/** How many pasted sheets are read at once: the one being written and the next ones. */
const SHEETS_READ_AT_ONCE = 3;

/** A promise's outcome, held until its turn comes (a rejection waiting for its turn is not unhandled). */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** What a sheet's refresh writes, read and keyed before its turn to write comes. */
interface PreparedRefresh {
  table: FetchedTable;
  dataset: PasteProvenance["dataset"];
  keys: ReturnType<typeof keyRowsOf> | undefined;
  followers: { tables: FollowerTables; build: NonNullable<FetchedTable["followers"]> } | undefined;
}

/**
 * Reads a recorded sheet's table again, the dataset's version and digest, and keys its rows:
 * everything of its refresh that does not touch the sheet (nothing is written). Throws
 * PastedSheetChangedError or RowKeyError when the sheet cannot be refreshed by key.
 */
async function prepareRefresh(
  client: RiskClient,
  kinds: readonly PasteKind[],
  record: ProvenanceRecord,
  signal: AbortSignal | undefined,
  run: ExcelRunner,
  shared: SharedReads,
): Promise<PreparedRefresh> {
  // The operation run again with its recorded filters, shaped as the paste did (the kind's own fetch).
  const kind = pasteKind(kinds, record.operation, record.sheetName);
  const table = await kind.fetch(client, record, signal, run, { shared });
  // The dataset's version and digest now (the data just read is that version's).
  const dataset = (await shared.inSlot(() => provenanceOf(client, kind, record.portfolio, {}, signal))).dataset;
  const keyed = record.rowKey && record.writtenStore;
  const followers =
    record.followers && table.followers ? { tables: record.followers, build: table.followers } : undefined;
  // Sheets of formulas over a table follow it only by key (they read its rows by place).
  if (table.followers && !(keyed && record.followers))
    throw new PastedSheetChangedError(
      message("pasted.run.notKeyed", { sheet: record.sheetName, problem: record.rowKeyProblem || "none" }),
    );
  // Keyed tables: matched by row key, keyed by the kind's key (the asset list read when needed).
  const keys = keyed
    ? keyRowsOf(await rowKeysFor(client, kind, record.portfolio, table, signal, shared.reading(4)), table)
    : undefined;
  return { table, dataset, keys, followers };
}

/**
 * What a refresh of pasted sheets is given: the client and workbook, the kinds it may meet (every
 * paste kind, features/paste-kinds.ts: the caller hands them over, so this feature imports none of
 * the features that define them) and, to refresh only some sheets, their ids.
 */
export interface RefreshOptions extends PasteOptions {
  kinds: readonly PasteKind[];
  sheetIds?: string[];
}

/** What "Refresh pasted sheets" did. */
export interface PastedRefreshResult {
  outcomes: SheetRefreshOutcome[];
  refreshed: number;
  refused: number;
  /** What the kinds' steps after the refresh said (PasteKind.afterRefresh): tables to upgrade, steps that failed. */
  followUps: RefreshFollowUp[];
}

/**
 * Each kind's steps after a refresh (PasteKind.afterRefresh), in phase order, given its sheets the
 * refresh took up. A step that fails does not undo the refresh: it is said, with what to do.
 */
async function runAfterSteps(
  kinds: readonly PasteKind[],
  taken: readonly ProvenanceRecord[],
  outcomes: readonly SheetRefreshOutcome[],
  run: ExcelRunner,
): Promise<RefreshFollowUp[]> {
  const memo = new Map<string, Promise<unknown>>();
  const reads: AfterRefreshReads = {
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      if (!memo.has(key)) memo.set(key, read());
      return memo.get(key) as Promise<T>;
    },
  };
  const followUps: RefreshFollowUp[] = [];
  for (const kind of [...kinds].sort((a, b) => (a.refreshPhase ?? 0) - (b.refreshPhase ?? 0))) {
    if (!kind.afterRefresh) continue;
    const sheets = taken
      .filter((record) => record.operation === kind.operation)
      .map((record) => ({ record, ok: outcomes.some((o) => o.sheetId === record.sheetId && o.ok) }));
    if (sheets.length === 0) continue;
    try {
      const said = await kind.afterRefresh(sheets, run, reads);
      if (said) followUps.push({ ...said, operation: kind.operation });
    } catch (error) {
      followUps.push({
        operation: kind.operation,
        messages: [
          message("pasted.run.afterFailed", {
            kind: operationMessage(kind.operation),
            sheets: sheets.map((s) => `"${s.record.sheetName}"`).join(", "),
            reason: reasonOf(error),
          }),
        ],
      });
    }
  }
  return followUps;
}

/**
 * "Refresh pasted sheets": for each recorded sheet (or only `sheetIds`), re-runs its operation
 * with its recorded filters and replaces its table in place, whole or not at all. A sheet that
 * was renamed, deleted or edited, or pasted from another service or project, is skipped with a
 * sentence saying why; the others go on. The next sheets' answers are read while a sheet is
 * written (up to SHEETS_READ_AT_ONCE sheets), but sheets are written one at a time, in order, each
 * whole or not at all. Cancel stops before the next sheet (the sheet being written is put back as
 * it was; reads ahead are dropped).
 */
export async function refreshPastedSheets(options: RefreshOptions & RefreshChoices): Promise<PastedRefreshResult> {
  const { client, run, signal, onProgress } = options;
  // Whether calculation is manual is asked with the provenance, itself in one request when its
  // store is there (a round trip fewer); asked again when that request failed (no store).
  const { read, manual } = await run(async (context) => {
    const isManual = queueRead(context, () => queueManualCalculation(context));
    const provenance = await readProvenance(context, { atOnce: true });
    return { read: provenance, manual: await isManual() };
  });
  if (!read.storeFound) {
    throw new MessageError(message("pasted.run.noStore"));
  }
  // In phase order (PasteKind.refreshPhase): a list computed from a data sheet is written after it.
  const phaseOf = (record: ProvenanceRecord) =>
    options.kinds.find((k) => k.operation === record.operation)?.refreshPhase ?? 0;
  const wanted = (
    options.sheetIds ? read.records.filter((r) => options.sheetIds!.includes(r.sheetId)) : read.records
  ).sort((a, b) => phaseOf(a) - phaseOf(b));
  if (options.sheetIds && wanted.length < options.sheetIds.length) {
    throw new MessageError(message("pasted.run.noRecord"));
  }
  if (wanted.length === 0)
    throw new MessageError(
      read.problems.length > 0
        ? message("pasted.run.noUsableRecords", { problem: read.problems[0]!, more: read.problems.length - 1 })
        : message("pasted.run.noSheets"),
    );
  const outcomes: SheetRefreshOutcome[] = read.problems.map((problem) => ({
    sheetName: "(unknown)",
    ok: false,
    message: problem,
  }));
  const connection = client.connection;
  const elsewhere = (record: ProvenanceRecord) =>
    record.baseUrl !== connection.baseUrl || (record.project ?? "") !== (connection.project ?? "");
  // Reading a sheet's answer is mostly waiting for the service: the next sheets' reads go on while
  // a sheet is written (they share the client, and its retries on 429). Writes stay one sheet at a
  // time, in order. A read ahead of the writer holds a whole answer in memory, hence the window.
  // A list two sheets need (the extended summary of a scenario: its own sheet and the financial
  // impact's) is read once for both.
  const shared = new SharedReads(client, signal, new RequestSlots(REFRESH_PAGES_IN_FLIGHT));
  const reads: Array<Promise<Settled<PreparedRefresh>> | undefined> = new Array(wanted.length);
  // Each read ahead once it has come, and the first cells of a sheet read with the sheet's before
  // it (that sheet's backups' and last requests, which carry little of their own: a round trip
  // fewer or two).
  const ready: Array<PreparedRefresh | undefined> = new Array(wanted.length);
  const heads: Array<CellValue[][] | undefined> = new Array(wanted.length);
  /** Whether sheet i + 1's first cells may be read with sheet i's requests: keyed, here, same phase. */
  const headRides = (i: number) => {
    const next = wanted[i + 1];
    return !!next && !!next.rowKey && !!next.writtenStore && !elsewhere(next) && phaseOf(next) === phaseOf(wanted[i]);
  };
  const startRead = (j: number, writing: number) => {
    // Never ahead into a later phase: its sheets read what this phase writes.
    if (j >= wanted.length || reads[j] || elsewhere(wanted[j]) || phaseOf(wanted[j]) !== phaseOf(wanted[writing]))
      return;
    reads[j] = prepareRefresh(client, options.kinds, wanted[j], signal, run, shared.forSheet(j)).then(
      (value) => {
        ready[j] = value;
        return { ok: true as const, value };
      },
      (error: unknown) => ({ ok: false as const, error }),
    );
  };
  for (let i = 0; i < wanted.length; i++) {
    const record = wanted[i];
    for (let j = i; j < i + SHEETS_READ_AT_ONCE; j++) startRead(j, i);
    if (signal?.aborted)
      throw new CancelledError(message("pasted.run.cancelledAfter", { done: i, total: wanted.length }));
    const step = (status: Message, within = 0) =>
      onProgress?.({
        message: message("pasted.run.progress", { sheet: record.sheetName, status }),
        fraction: (i + within) / wanted.length,
      });
    if (elsewhere(record)) {
      outcomes.push({
        sheetId: record.sheetId,
        sheetName: record.sheetName,
        ok: false,
        message: message("pasted.run.elsewhere", {
          sheet: record.sheetName,
          from: record.baseUrl,
          fromProject: record.project ?? message("pasted.run.noProject"),
          to: connection.baseUrl,
          toProject: connection.project ?? message("pasted.run.noProject"),
        }),
      });
      continue;
    }
    try {
      step(message("pasted.run.progress.reading"));
      const read = await reads[i]!;
      reads[i] = undefined; // the answer is held once, by this loop
      ready[i] = undefined;
      const head = heads[i];
      heads[i] = undefined;
      if (!read.ok) throw read.error;
      const { table, dataset, keys, followers } = read.value;
      // The next sheet's first rows: some with the backups' first request, more with the last.
      let headParts: Array<ReturnType<typeof queueTableHead>> = [];
      // What the next sheet's cells weigh: its answer says, when it has come; else this sheet's, of
      // the same service. Were they much heavier, the request would be refused over Excel's limit
      // and the next sheet read its own first cells (the last request's stamp read to see it applied).
      let nextPerCell: number | undefined;
      const queueNextHead = (context: Excel.RequestContext, bytes?: number) => {
        if (!headRides(i)) return;
        const answer = ready[i + 1]?.table ?? table;
        nextPerCell ??= answerBytesPerCell(answer.rows, answer.header.length);
        const from = headParts.reduce((n, p) => n + p.rows, 0);
        headParts = [...headParts, queueTableHead(context, wanted[i + 1], nextPerCell, bytes, from)];
      };
      const onWrite = (done: number, total: number) =>
        step(message("pasted.run.progress.row", { done, total }), 0.5 + (0.5 * done) / Math.max(1, total));
      step(message("pasted.run.progress.writing", { count: table.rows.length }), 0.5);
      const updated = await run(async (context) => {
        let next: ProvenanceRecord;
        let report: KeyedRefreshReport | undefined;
        let followed: FollowersOutcome | undefined;
        const before = followers ? await checkFollowers(context, record, followers.tables, followers.build) : undefined;
        // Refreshed: no longer marked as left behind by an earlier refresh.
        const recordAs = ({ notRefreshed: _, ...r }: ProvenanceRecord): ProvenanceRecord => ({
          ...r,
          ...(dataset ? { dataset } : {}),
          addinVersion: ADDIN_VERSION,
        });
        if (keys) {
          const done = await refreshTableByKey(
            context,
            record,
            { ...table, ...keys },
            {
              signal,
              onProgress: onWrite,
              edits: options.edits?.[record.sheetId] ?? "ask",
              restoreKeys: options.restoreKeys?.[record.sheetId],
              acceptKeyKindChange: options.acceptKeyKindChange?.includes(record.sheetId),
              // On record before the removed rows are deleted, put back if anything before fails.
              recordAs,
              // Read by checkFollowers just now, in this batch: not read again.
              written: before?.keyedWritten,
              filteredFollower: before?.filtered,
              head,
              withBackups: queueNextHead,
              withLastRequest: (context) => queueNextHead(context),
            },
          );
          next = done.record;
          report = done.report;
          if (followers && before)
            ({ next, followed } = await bringFollowersInLine(context, followers, before, done, recordAs));
        } else {
          next = await replaceTableInPlace(context, record, table.header, table.rows, { signal, onProgress: onWrite });
          await recordProvenance(context, [recordAs(next)]);
        }
        return { next, report, followed };
      });
      heads[i + 1] = headOf(headParts);
      outcomes.push({
        sheetId: record.sheetId,
        sheetName: record.sheetName,
        ok: true,
        rows: updated.next.rows,
        ...(updated.report ? { keyed: updated.report } : {}),
        ...(updated.followed && updated.followed.messages.length > 0
          ? { followers: { messages: updated.followed.messages, failed: updated.followed.failed } }
          : {}),
      });
    } catch (error) {
      if (signal?.aborted || error instanceof AbortedError)
        throw new CancelledError(message("pasted.run.cancelledAt", { sheet: record.sheetName, done: i }));
      if (error instanceof RefreshInterruptedError)
        outcomes.push({ sheetId: record.sheetId, sheetName: record.sheetName, ok: false, message: saidOf(error) });
      else if (error instanceof KeyKindChangedError)
        outcomes.push({
          sheetId: record.sheetId,
          sheetName: record.sheetName,
          ok: false,
          message: saidOf(error),
          keyKindChanged: true,
        });
      else if (error instanceof PastedSheetChangedError || error instanceof RowKeyError)
        outcomes.push({ sheetId: record.sheetId, sheetName: record.sheetName, ok: false, message: saidOf(error) });
      else
        outcomes.push({
          sheetId: record.sheetId,
          sheetName: record.sheetName,
          ok: false,
          message: message("pasted.run.notChanged", { sheet: record.sheetName, reason: reasonOf(error) }),
        });
    }
  }
  const followUps = await runAfterSteps(options.kinds, wanted, outcomes, run);
  // Why each sheet the refresh took up was left as it was, by sheet id.
  const left = new Map(
    outcomes.flatMap((o) => (!o.ok && o.sheetId && o.message ? [[o.sheetId, o.message] as const] : [])),
  );
  if (left.size > 0) {
    try {
      await run((context) => markNotRefreshed(context, left));
    } catch (error) {
      followUps.push({ messages: [message("pasted.run.markFailed", { reason: reasonOf(error) })] });
    }
  }
  // In manual calculation the formulas over the refreshed sheets (financial impact, disclosure
  // tables, the analyst's own) would go on showing the old data, with only Excel's "Calculate" in
  // the status bar to say so: the refresh asks Excel to calculate them, and says it did.
  if (manual && outcomes.some((o) => o.ok)) {
    await run(recalculateChanged);
    followUps.push({ messages: [message("pasted.run.recalculated")] });
  }
  return {
    outcomes,
    refreshed: outcomes.filter((o) => o.ok).length,
    refused: outcomes.filter((o) => !o.ok).length,
    followUps,
  };
}

/**
 * Marks the records of the sheets a refresh left as they were (refused or failed) with when and
 * why, which the Sources sheet shows beside their "Written (UTC)": a reader of the workbook sees
 * which sheets' figures are older than the others', not only the pane that ran the refresh. Two
 * round trips or three (the stores, the writes), only when a sheet was left; put back when it fails.
 */
async function markNotRefreshed(context: Excel.RequestContext, why: ReadonlyMap<string, Message>): Promise<void> {
  const at = utcNow();
  const before = await snapshotProvenance(context);
  if (!before.records.some((r) => why.has(r.sheetId))) return;
  // Every record in its place (the Sources sheet's order), a deleted sheet's kept as the refresh found it.
  await rewriteProvenance(
    context,
    before.records.map((r) => (why.has(r.sheetId) ? { ...r, notRefreshed: { at, reason: why.get(r.sheetId)! } } : r)),
    before,
  );
}

/**
 * "Refresh pasted sheets" without the pane (a ribbon button, a benchmark): every recorded sheet, by
 * key where it is keyed. Cells the analyst changed in the add-in's columns are kept, never
 * overwritten, and stay on record as awaiting their choice (`pendingEdits` in the provenance), for
 * the pane to ask; rows deleted by hand are not added back; a change of key kind is not accepted.
 */
export function refreshPastedSheetsWithoutPane(options: RefreshOptions): Promise<PastedRefreshResult> {
  return refreshPastedSheets({ ...options, edits: undefined, restoreKeys: undefined, acceptKeyKindChange: undefined });
}

/** "Sort again": re-applies the analyst's own sort to a pasted sheet whose refresh added rows at the end. */
export async function sortPastedSheetAgain(run: ExcelRunner, sheetId: string): Promise<void> {
  await run(async (context) => {
    const record = (await readProvenance(context)).records.find((r) => r.sheetId === sheetId);
    if (!record) throw new MessageError(message("pasted.run.sortGone"));
    await sortPastedTableAgain(context, record);
  });
}

/** A reason as a message of its own: its catalog message, or its text quoted as it is. */
function saidOf(reason: unknown): Message {
  const said = reasonOf(reason);
  return typeof said === "string" ? message("pasted.run.quoted", { text: said }) : said;
}
