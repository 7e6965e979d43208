import type { RiskClient } from "../../../api/client";
import { AbortedError, ConflictError, NotFoundError } from "../../../api/errors";
import type { Asset } from "../../../api/types";
import { waitForRiskData } from "../../../api/risk-data";
import { buildImportCsv } from "./model/import-csv";
import { portfolioNameProblem } from "./model/portfolio-name";
import type { RangeProblem } from "../../../shaping/problems";
import { portfolioHoldsExactly } from "./model/same-assets";
import { diffAssets, type SyncDiff } from "./model/sync-diff";
import {
  validateAssetRange,
  type AssetRangeInput,
  type AssetRow,
  type AssetValidation,
  type CellConversion,
} from "./model/validate-assets";
import type { ColumnMapping } from "../../../shaping/headers";
import { addAssetTypeDropdown, applyCellChanges, type DropdownOutcome } from "../../../excel/asset-cells";
import { identityFinding, type IdentityFinding } from "./model/asset-ids";
import { checkRangeCountries, type CountryFindings } from "./country-check-actions";
import type { CountryFinding } from "./model/country-check";
import { MAX_ASSETS } from "../../../shaping/limits";
import { numberedPortfolioNames } from "./model/portfolio-name";
import {
  listTables,
  readAddress,
  readSelection,
  readTable,
  type RangeSnapshot,
  type TableInfo,
} from "../../../excel/read-range";
import { selectCell } from "../../../excel/select-cell";
import { rememberAssetSource } from "../../ui/asset-source-actions";
import { refreshAfterChange, type ForgetChange } from "../../ui/data-change";
import {
  CancelledError,
  StepError,
  throwIfCancelled,
  type ExcelRunner,
  type LongRunning,
  type Progress,
} from "../../ui/pane-types";
import { message, type Message, type MessageId } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** The steps of a sync; a failure names the one that failed. */
export type SyncStep = "check" | "create" | "upload" | "poll";

const STEP_LABELS: Record<SyncStep, MessageId> = {
  check: "sync.run.step.check",
  create: "sync.run.step.create",
  upload: "sync.run.step.upload",
  poll: "sync.run.step.poll",
};

/** What the user is asked before a non-empty portfolio's assets are replaced. */
export interface ReplaceQuestion {
  portfolio: string;
  /** Assets the portfolio holds now. */
  existingCount: number;
  /** Assets about to replace them. */
  newCount: number;
  /** What changes, asset by asset (added, removed, moved, relabelled, unchanged). */
  diff: SyncDiff;
}

/** Options of a sync. */
export interface SyncOptions extends LongRunning {
  client: RiskClient;
  portfolio: string;
  /** Asked only when the portfolio holds other assets; resolve false to stop before uploading. */
  confirmReplace: (question: ReplaceQuestion) => Promise<boolean>;
  /** Pause between status reads (default 1 s). */
  pollIntervalMs?: number;
  /** Give up waiting for risk data after this long (default 15 min). */
  pollTimeoutMs?: number;
  /**
   * Asked before anything is sent when a header was read as a synonym of a name or a label the
   * service reads ("Site" → entity_name, "Type" → label:type): resolve false to send nothing.
   */
  confirmMapping?: (review: MappingReview) => Promise<boolean>;
  /**
   * Asked before anything is sent when points lie more than the check's tolerance outside the
   * country their row names (a swapped or unsigned coordinate, most often): true sends them as
   * they are. Without it such points are sent, and listed with the outcome.
   */
  confirmOutside?: (outside: readonly CountryFinding[]) => Promise<boolean>;
  /**
   * Drops the RISK.* functions' cached results of the portfolio: called once the upload is
   * accepted (nothing answers from the old assets meanwhile) and again when risk data is available.
   */
  forget?: ForgetChange;
  /** The range is a named table (the pane does not offer a new entity_id column beside one). */
  fromTable?: boolean;
}

/** What the analyst sees before anything is sent: how each header is read, and the warnings. */
export interface MappingReview {
  columns: ColumnMapping[];
  warnings: RangeProblem[];
}

/**
 * What the validation found besides problems: the pane shows them with the outcome. The points
 * checked against their countries come with a check, and with a sync that reached the service or
 * stopped at a problem.
 */
export interface RangeFindings extends CountryFindings {
  /** Coordinates with one reading as decimal degrees: the preview of what converting changes. */
  conversions: CellConversion[];
  /** Coordinates with fewer than 2 decimals, unpublished types, prices the service cannot read. */
  warnings: RangeProblem[];
  /** How each header is read. */
  columns: ColumnMapping[];
  /** The label:type data cells, where the pane offers the dropdown of published types. */
  typeCells?: string;
  /** Assets that cannot be told apart, and the entity_ids offered to write into the range. */
  identity?: IdentityFinding;
}

/** The findings of a validation of the range at `address`, for the pane. */
function findingsOf(validation: AssetValidation, address: string, fromTable: boolean): RangeFindings {
  const identity =
    validation.problems.length === 0
      ? identityFinding(validation.assets, validation.columns, address, fromTable)
      : undefined;
  return {
    conversions: validation.conversions,
    warnings: validation.warnings,
    columns: validation.columns,
    typeCells: validation.typeCells,
    ...(identity ? { identity } : {}),
  };
}

/**
 * The findings with the offer of a new entity_id column checked against the cells it would take:
 * when any holds something, the offer says so instead (nothing of the analyst's is overwritten).
 */
async function withIdColumnChecked<T extends Partial<RangeFindings>>(run: ExcelRunner, findings: T): Promise<T> {
  const identity = findings.identity;
  if (!identity || identity.how !== "new column" || identity.cells.length === 0) return findings;
  const first = identity.cells[0].address;
  const last = identity.cells[identity.cells.length - 1].cell;
  const column = await run((context) => readAddress(context, `${first}:${last}`));
  const held = column.values.findIndex((line) => String(line[0] ?? "") !== "");
  if (held < 0) return findings;
  return {
    ...findings,
    identity: {
      ...identity,
      cells: [],
      blocked: message("sync.run.idColumnBlocked", { column: column.address, cell: identity.cells[held].cell }),
    },
  };
}

/**
 * Writes the previewed entity_ids into the analyst's range (only when they accept them; cells
 * edited since the preview stop it, nothing written). Returns how many ids were written.
 */
export async function writeAssetIds(run: ExcelRunner, identity: IdentityFinding): Promise<number> {
  await run((context) => applyCellChanges(context, identity.cells));
  return identity.how === "new column" ? identity.cells.length - 1 : identity.cells.length;
}

/** Headers read as a synonym of something the service reads by name: asked about before sending. */
export function needsMappingReview(columns: readonly ColumnMapping[]): boolean {
  return columns.some(
    (c) =>
      c.via === "synonym" &&
      ((c.target.kind === "field" && c.target.field === "entity_name") || c.target.kind === "label"),
  );
}

/** How a sync ended (failures are thrown as StepError, cancellations as CancelledError). */
export type SyncResult =
  | ({ outcome: "invalid"; problems: RangeProblem[] } & Partial<RangeFindings>)
  | { outcome: "declined"; portfolio: string }
  /** The analyst stopped at the mapping: nothing was sent. */
  | { outcome: "mapping-declined"; portfolio: string }
  /** The analyst stopped at the points outside their country: nothing was sent; the fixes are offered. */
  | ({ outcome: "outside-declined"; portfolio: string } & Partial<RangeFindings>)
  | ({
      outcome: "synced";
      portfolio: string;
      assetCount: number;
      created: boolean;
      uploaded: boolean;
    } & Partial<RangeFindings>)
  /**
   * Over the 5,000-asset cap: nothing was sent; `parts` are the numbered portfolios a split would
   * make (or `problem` why it cannot).
   */
  | {
      outcome: "too-many";
      portfolio: string;
      rowCount: number;
      parts: string[];
      problem?: Message;
      problems: RangeProblem[];
    }
  /** A split sync: each numbered portfolio's own result, in order. */
  | {
      outcome: "split";
      portfolio: string;
      assetCount: number;
      parts: Array<Extract<SyncResult, { outcome: "synced" | "declined" }>>;
    };

/**
 * Syncs validated sheet rows to a portfolio: validate (nothing is sent when a problem exists),
 * create the portfolio when missing, ask before replacing a non-empty one, skip the upload when it
 * already holds exactly these assets, upload, then follow the status until risk data is available.
 * Never writes to the workbook. Safe to retry: creating tolerates an existing portfolio, the import
 * replaces (never appends), and an identical portfolio is not uploaded again.
 */
export async function syncAssets(input: AssetRangeInput, options: SyncOptions): Promise<SyncResult> {
  const { portfolio } = options;
  const nameProblem = portfolioNameProblem(portfolio);
  if (nameProblem) throw new MessageError(nameProblem);
  const validation = validateAssetRange(input);
  // The country check runs beside the validation; points outside their country are asked about
  // before anything is sent, and every finding comes with the outcome.
  const countries = checkRangeCountries(input.values, input.address, validation);
  const findings = findingsOf(validation, input.address, options.fromTable ?? false);
  if (validation.problems.length > 0)
    return { outcome: "invalid", problems: validation.problems, ...findings, ...(await countries) };
  if (options.confirmMapping && needsMappingReview(validation.columns)) {
    const send = await options.confirmMapping({ columns: validation.columns, warnings: validation.warnings });
    if (!send) return { outcome: "mapping-declined", portfolio };
  }
  const countryFindings = await countries;
  const outside = countryFindings.countryCheck?.findings.filter((f) => f.kind === "outside") ?? [];
  if (options.confirmOutside && outside.length > 0 && !(await options.confirmOutside(outside)))
    return { outcome: "outside-declined", portfolio, ...findings, ...countryFindings };
  const result = await syncValidRows(validation.assets, validation.labelKeys, options);
  return result.outcome === "synced" ? { ...result, ...findings, ...countryFindings } : result;
}

/** Reads the source and validates it without sending anything: the "Check" button. */
export async function checkAssetSource(
  run: ExcelRunner,
  source: AssetSource,
): Promise<RangeFindings & { address: string; problems: RangeProblem[]; assetCount: number }> {
  const snapshot = await readAssetSource(run, source);
  const validation = validateAssetRange({
    values: snapshot.values,
    address: snapshot.address,
    mergedAreas: snapshot.mergedAreas,
    totalRows: snapshot.totalRows,
  });
  return withIdColumnChecked(run, {
    address: snapshot.address,
    problems: validation.problems,
    assetCount: validation.assets.length,
    ...findingsOf(validation, snapshot.address, source.kind === "table"),
    ...(await checkRangeCountries(snapshot.values, snapshot.address, validation)),
  });
}

/**
 * Writes the previewed conversions into the analyst's cells (only when they accept them; cells
 * edited since the preview stop it, nothing written). Returns how many cells were converted.
 */
export async function convertCoordinates(run: ExcelRunner, conversions: readonly CellConversion[]): Promise<number> {
  await run((context) => applyCellChanges(context, conversions));
  return conversions.length;
}

/** Adds the dropdown of published types to the type cells, when the analyst asks for it. */
export function offerTypeDropdown(run: ExcelRunner, typeCells: string): Promise<DropdownOutcome> {
  return run((context) => addAssetTypeDropdown(context, typeCells));
}

/** {@link syncAssets} after validation: rows already checked, at most 5,000. */
async function syncValidRows(
  rows: AssetRow[],
  labelKeys: string[],
  options: SyncOptions,
): Promise<Extract<SyncResult, { outcome: "synced" | "declined" }>> {
  const { client, portfolio, signal, onProgress } = options;
  throwIfCancelled(signal);

  onProgress?.({ message: message("sync.run.progress.check", { portfolio }), fraction: 0.05 });
  const exists = await runStep(
    "check",
    () =>
      client.portfolios.get(portfolio, { signal }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof NotFoundError) return false;
          throw error;
        },
      ),
    () => message("sync.run.cancel.nothingSent"),
  );

  let created = false;
  // What a cancellation means depends on how far the sync got.
  let cancelledMessage: Message = message("sync.run.cancel.beforeUpload");
  const step = <T>(name: SyncStep, work: () => Promise<T>) => runStep(name, work, () => cancelledMessage);

  let existing: Asset[] = [];
  if (!exists) {
    onProgress?.({ message: message("sync.run.progress.create", { portfolio }), fraction: 0.1 });
    created = await step("create", () =>
      client.portfolios.create(portfolio, { signal }).then(
        () => true,
        (error: unknown) => {
          // Created meanwhile (e.g. a first attempt whose answer was lost): the same portfolio, go on.
          if (error instanceof ConflictError) return false;
          throw error;
        },
      ),
    );
  }
  // A portfolio that was there (or appeared meanwhile) may hold assets; a new one holds none.
  if (!created) existing = await step("check", () => client.portfolios.assets(portfolio).all({ signal }));

  const unchanged = existing.length > 0 && portfolioHoldsExactly(existing, rows);
  if (!unchanged) {
    if (existing.length > 0) {
      const replace = await options.confirmReplace({
        portfolio,
        existingCount: existing.length,
        newCount: rows.length,
        diff: diffAssets(existing, rows),
      });
      if (!replace) return { outcome: "declined", portfolio };
    }
    throwIfCancelled(signal);
    onProgress?.({ message: message("sync.run.progress.upload", { count: rows.length, portfolio }), fraction: 0.2 });
    const csv = buildImportCsv(rows, labelKeys);
    cancelledMessage = message("sync.run.cancel.upload");
    await step("upload", () => client.portfolios.importAssets(portfolio, csv, { signal }));
    options.forget?.({ kind: "portfolio", portfolio });
  }
  cancelledMessage = message("sync.run.cancel.waiting");

  onProgress?.({ message: message("sync.run.progress.wait", { portfolio }) });
  await step("poll", () =>
    waitForRiskData(client, portfolio, {
      signal,
      onProgress,
      intervalMs: options.pollIntervalMs,
      timeoutMs: options.pollTimeoutMs,
    }),
  );
  return { outcome: "synced", portfolio, assetCount: rows.length, created, uploaded: !unchanged };
}

/** Runs one step; a failure becomes a StepError naming it, a cancellation a CancelledError. */
async function runStep<T>(name: SyncStep, work: () => Promise<T>, cancelledMessage: () => Message): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    if (error instanceof AbortedError) throw new CancelledError(cancelledMessage());
    throw new StepError<SyncStep>(name, message(STEP_LABELS[name]), error);
  }
}

/** Where the assets come from: the current selection or a named Excel table (header row included). */
export type AssetSource = { kind: "selection" } | { kind: "table"; name: string };

/** Reads the source's values (read only: a sync never changes the sheet). */
export function readAssetSource(run: ExcelRunner, source: AssetSource, maxRows?: number): Promise<RangeSnapshot> {
  const options = maxRows === undefined ? {} : { maxRows };
  return run((context) =>
    source.kind === "table" ? readTable(context, source.name, options) : readSelection(context, options),
  );
}

/** Most numbered portfolios a split sync makes (100,000 assets). */
export const MAX_SPLIT_PARTS = 20;

/**
 * The whole "Sync" button: reads the selection or table, then {@link syncAssets}, then (with
 * `forget`) drops the functions' cached results of the portfolio and recalculates. The result
 * carries the address that was read, so the pane can say what was synced.
 */
export async function syncRangeToPortfolio(
  options: SyncOptions & { run: ExcelRunner; source: AssetSource; split?: boolean },
): Promise<SyncResult & { address: string }> {
  options.onProgress?.({ message: message("sync.run.progress.read"), fraction: 0 });
  const snapshot = await readAssetSource(
    options.run,
    options.source,
    options.split ? MAX_SPLIT_PARTS * MAX_ASSETS + 101 : undefined,
  );
  if (snapshot.values.length === 0) {
    throw new MessageError(
      options.source.kind === "table"
        ? message("sync.run.emptyTable", { table: options.source.name })
        : message("sync.run.emptySelection"),
    );
  }
  const input: AssetRangeInput = {
    values: snapshot.values,
    address: snapshot.address,
    mergedAreas: snapshot.mergedAreas,
    totalRows: snapshot.totalRows,
  };
  const rowCount = countAssetRows(snapshot.values, snapshot.totalRows);
  if (rowCount > MAX_ASSETS && !options.split) {
    // Say so before anything is sent, with the numbered portfolios a split would make.
    const named = numberedPortfolioNames(options.portfolio, Math.ceil(rowCount / MAX_ASSETS));
    // The validation's problems come along: the first row over the cap, by its cell, and any other.
    const { problems } = validateAssetRange(input);
    return {
      outcome: "too-many",
      portfolio: options.portfolio,
      rowCount,
      parts: "names" in named ? named.names : [],
      problem: "problem" in named ? named.problem : undefined,
      problems,
      address: snapshot.address,
    };
  }
  if (rowCount > MAX_ASSETS) return { ...(await syncSplit(input, options)), address: snapshot.address };
  const result = await syncAssets(input, { ...options, fromTable: options.source.kind === "table" });
  if (result.outcome === "synced") {
    // The map selects rows here; the delete confirmation names it (kept in the workbook).
    await rememberAssetSource(options.run, result.portfolio, snapshot.address, "synced");
    // New assets (or a new portfolio): RISK cells reading it fetch again, now that risk data is there.
    if (options.forget && (result.uploaded || result.created)) {
      options.onProgress?.({ message: message("sync.run.progress.recalculate"), fraction: 1 });
      await refreshAfterChange({
        run: options.run,
        forget: options.forget,
        change: { kind: "portfolio", portfolio: result.portfolio },
      });
    }
  }
  const checked = result.outcome === "synced" ? await withIdColumnChecked(options.run, result) : result;
  return { ...checked, address: snapshot.address };
}

/** Selects the cell a problem points at (a click in the problem list). */
export function selectProblemCell(run: ExcelRunner, address: string): Promise<void> {
  return run((context) => selectCell(context, address));
}

/** The workbook's tables, for the source picker. */
export function listWorkbookTables(run: ExcelRunner): Promise<TableInfo[]> {
  return run((context) => listTables(context));
}

/** Data rows of a range read (header excluded, trailing empty rows not counted); rows not read count too. */
function countAssetRows(values: RangeSnapshot["values"], totalRows: number): number {
  let last = values.length - 1;
  const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");
  while (last > 0 && values[last]!.every(blank)) last--;
  return Math.max(0, last) + Math.max(0, totalRows - values.length);
}

/**
 * A range over the cap synced as numbered portfolios `name-1` … `name-N` of 5,000 assets each, in
 * row order: the whole range is validated first (nothing is sent when a problem exists), then each
 * part is synced as a sync of its own (asked before replacing, skipped when identical).
 */
async function syncSplit(input: AssetRangeInput, options: SyncOptions & { run: ExcelRunner }): Promise<SyncResult> {
  const validation = validateAssetRange({ ...input, maxAssets: MAX_SPLIT_PARTS * MAX_ASSETS });
  if (validation.problems.length > 0)
    return { outcome: "invalid", problems: validation.problems, ...findingsOf(validation, input.address, false) };
  const rows = validation.assets;
  const named = numberedPortfolioNames(options.portfolio, Math.ceil(rows.length / MAX_ASSETS));
  if ("problem" in named) throw new MessageError(named.problem);
  if (options.confirmMapping && needsMappingReview(validation.columns)) {
    const send = await options.confirmMapping({ columns: validation.columns, warnings: validation.warnings });
    if (!send) return { outcome: "mapping-declined", portfolio: options.portfolio };
  }
  const parts: Array<Extract<SyncResult, { outcome: "synced" | "declined" }>> = [];
  for (const [k, name] of named.names.entries()) {
    const chunk = rows.slice(k * MAX_ASSETS, (k + 1) * MAX_ASSETS);
    const onProgress =
      options.onProgress &&
      ((p: Progress) =>
        options.onProgress!({
          message: message("sync.run.part", {
            portfolio: name,
            part: k + 1,
            parts: named.names.length,
            status: p.message,
          }),
          fraction: p.fraction === undefined ? undefined : (k + p.fraction) / named.names.length,
        }));
    const result = await syncValidRows(chunk, validation.labelKeys, { ...options, portfolio: name, onProgress });
    parts.push(result);
    if (result.outcome === "synced") await rememberAssetSource(options.run, name, input.address, "synced");
  }
  return { outcome: "split", portfolio: options.portfolio, assetCount: rows.length, parts };
}
