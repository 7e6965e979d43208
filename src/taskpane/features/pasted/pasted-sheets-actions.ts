import type { RiskClient } from "../../../api/client";
import { AbortedError, NotFoundError } from "../../../api/errors";
import { readProvenance, recordProvenance } from "../../../excel/provenance-sheets";
import { PastedSheetChangedError, replaceTableInPlace } from "../../../excel/replace-table";
import { parseCsvTable } from "../../../shaping/csv-table";
import { unzipCsvFiles } from "../../../shaping/export-zip";
import { flattenExtendedSummary, flattenSummary } from "../../../shaping/flatten-summary";
import {
  buildRiskMatrix,
  buildScenarioComparison,
  itemsFor,
  labelCountsByHazard,
  labelCountsTable,
} from "../../../shaping/risk-views";
import { TidyTimeseriesBuilder, type SeriesKind } from "../../../shaping/tidy-timeseries";
import {
  OPERATION_LABELS,
  type PasteOperation,
  type PasteProvenance,
  type ProvenanceRecord,
} from "../../../shaping/paste-provenance";
import type { CellValue } from "../../../shaping/types";
import { ADDIN_VERSION } from "../../../shared/version";
import { CancelledError, throwIfCancelled, formatCount, type ExcelRunner, type LongRunning } from "../../ui/pane-types";

/** Operations whose data is a portfolio's physical dataset (which has a version and a digest). */
const DATASET_OPERATIONS: ReadonlySet<PasteOperation> = new Set([
  "timeseries",
  "summary",
  "extended-summary",
  "export",
  "risk-matrix",
  "label-counts",
  "scenario-comparison",
]);

/**
 * The provenance of a paste: the client's base URL and project (never its key), the operation and
 * its filters, the add-in version, and for a portfolio's dataset its `version` and `sha256_digest`
 * from `GET .../datasets/physical` (left out when the portfolio has none: 404). Any other failure
 * of that read fails the paste before anything is written: a paste is whole, provenance included.
 */
export async function provenanceOf(
  client: RiskClient,
  operation: PasteOperation,
  portfolio: string | undefined,
  filters: Record<string, string | number | boolean | undefined>,
  signal?: AbortSignal,
): Promise<PasteProvenance> {
  const kept: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== "") kept[name] = value;
  let dataset: PasteProvenance["dataset"];
  if (portfolio && DATASET_OPERATIONS.has(operation)) {
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
    operation,
    baseUrl: connection.baseUrl,
    project: connection.project,
    portfolio,
    filters: kept,
    ...(dataset ? { dataset } : {}),
    addinVersion: ADDIN_VERSION,
  };
}

/** A table to write: header and rows. */
export interface FetchedTable {
  header: string[];
  rows: CellValue[][];
}

/**
 * Runs the operation of a record again with its recorded filters and shapes the result as the
 * paste did (the same flatteners), so the refreshed table has the paste's columns.
 */
export async function refetchTable(
  client: RiskClient,
  record: ProvenanceRecord,
  signal?: AbortSignal,
): Promise<FetchedTable> {
  const f = record.filters;
  const text = (name: string): string | undefined => (f[name] === undefined ? undefined : String(f[name]));
  const portfolio = record.portfolio ?? "";
  switch (record.operation) {
    case "timeseries": {
      const items = await client.datasets
        .items(portfolio, {
          hazard: text("hazard"),
          indicator: text("indicator"),
          scenario: text("scenario"),
          measure: text("measure"),
          start_date: text("start_date"),
          end_date: text("end_date"),
        })
        .all({ signal, readAhead: 4 });
      // The paste puts projected (yearly) and observed (monthly) series on sheets of their own.
      const kind: SeriesKind = text("series") === "observed" ? "observed" : "projected";
      const builder = new TidyTimeseriesBuilder();
      const rows = builder.add(items)[kind];
      const header = builder.header(kind);
      return {
        header,
        rows: rows.map((row) =>
          row.length < header.length ? [...row, ...new Array<CellValue>(header.length - row.length).fill("")] : row,
        ),
      };
    }
    case "summary": {
      const items = await client.datasets
        .summary(portfolio, text("scenario") ? { scenario: text("scenario") } : {})
        .all({ signal });
      const flat = flattenSummary(items);
      return { header: flat.header, rows: flat.rows };
    }
    case "extended-summary": {
      const items = await client.datasets
        .extendedSummary(portfolio, text("scenario") ? { scenario: text("scenario") } : {})
        .all({ signal });
      const flat = flattenExtendedSummary(items);
      return { header: flat.header, rows: flat.rows };
    }
    case "applied-layer": {
      const result = await client.compositions.applyVector(text("vector_id") ?? "", portfolio, { signal });
      const table = parseCsvTable(result.csv, `the layer applied to ${portfolio}`);
      return { header: table.header, rows: table.rows };
    }
    case "export": {
      const bytes = await client.datasets.export(portfolio, { signal });
      const file = unzipCsvFiles(bytes).find((x) => x.fileName === text("file"));
      if (!file) throw new Error(`The export of ${portfolio} no longer holds the file ${text("file")}.`);
      return { header: file.header, rows: file.rows };
    }
    case "risk-matrix":
    case "label-counts": {
      const scenario = text("scenario") ?? "";
      const window = Number(f.window);
      const items = await client.datasets.summary(portfolio, { scenario, window }).all({ signal, readAhead: 4 });
      const table =
        record.operation === "risk-matrix"
          ? buildRiskMatrix(items, scenario, window, text("cells") === "score" ? "score" : "label")
          : labelCountsTable(labelCountsByHazard(itemsFor(items, scenario, window)));
      return { header: table.header, rows: table.rows };
    }
    case "scenario-comparison": {
      const hazard = text("hazard") ?? "";
      const window = Number(f.window);
      const items = await client.datasets.summary(portfolio, { window, hazard }).all({ signal, readAhead: 4 });
      const table = buildScenarioComparison(items, hazard, window);
      return { header: table.header, rows: table.rows };
    }
    case "nature-summary": {
      const exported = await client.nature.exportSubproject(text("subproject_id") ?? "", { signal });
      return { header: ["metric", "value"], rows: natureRows(exported) };
    }
    default:
      throw new Error(`Unknown operation "${String(record.operation)}" in the provenance of "${record.sheetName}".`);
  }
}

/** The rows of a nature sub-project's export: summary numbers, then `metadata:<name>` fields. */
export function natureRows(exported: {
  summary?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const [name, value] of Object.entries(exported.summary ?? {}))
    rows.push([name, typeof value === "number" && Number.isFinite(value) ? value : String(value ?? "")]);
  for (const [name, value] of Object.entries(exported.metadata ?? {})) rows.push([`metadata:${name}`, cellOf(value)]);
  return rows;
}

function cellOf(value: unknown): CellValue {
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value);
}

/** One pasted sheet as the pane lists it. */
export interface PastedSheetEntry {
  sheetId: string;
  sheetName: string;
  operation: PasteOperation;
  label: string;
  portfolio?: string;
  rows: number;
  writtenAt: string;
  staticCopyAt?: string;
}

/** Every pasted sheet the workbook's provenance store lists, and store rows that are not records. */
export async function listPastedSheets(
  run: ExcelRunner,
): Promise<{ storeFound: boolean; sheets: PastedSheetEntry[]; problems: string[] }> {
  const read = await run((context) => readProvenance(context));
  return {
    storeFound: read.storeFound,
    problems: read.problems,
    sheets: read.records.map((r) => ({
      sheetId: r.sheetId,
      sheetName: r.sheetName,
      operation: r.operation,
      label: OPERATION_LABELS[r.operation] ?? r.operation,
      portfolio: r.portfolio,
      rows: r.rows,
      writtenAt: r.writtenAt,
      staticCopyAt: r.staticCopyAt,
    })),
  };
}

/** The outcome for one pasted sheet. */
export interface SheetRefreshOutcome {
  sheetName: string;
  ok: boolean;
  /** Rows now in the table (ok) or why nothing changed (not ok). */
  rows?: number;
  message?: string;
}

/** What "Refresh pasted sheets" did. */
export interface PastedRefreshResult {
  outcomes: SheetRefreshOutcome[];
  refreshed: number;
  refused: number;
}

/**
 * "Refresh pasted sheets": for each recorded sheet (or only `sheetIds`), re-runs its operation
 * with its recorded filters and replaces its table in place, whole or not at all. A sheet that
 * was renamed, deleted or edited, or pasted from another service or project, is skipped with a
 * sentence saying why; the others go on. Cancel stops before the next sheet (the sheet being
 * written is put back as it was).
 */
export async function refreshPastedSheets(
  options: LongRunning & { client: RiskClient; run: ExcelRunner; sheetIds?: string[] },
): Promise<PastedRefreshResult> {
  const { client, run, signal, onProgress } = options;
  const read = await run((context) => readProvenance(context));
  if (!read.storeFound) {
    throw new Error(
      "This workbook has no pasted sheets on record: paste from a panel first. (If its provenance was deleted, paste the sheets anew.)",
    );
  }
  const wanted = options.sheetIds ? read.records.filter((r) => options.sheetIds!.includes(r.sheetId)) : read.records;
  if (options.sheetIds && wanted.length < options.sheetIds.length) {
    throw new Error(
      "The chosen sheet has no provenance record (it was not pasted by this pane, or its record was deleted): nothing was changed.",
    );
  }
  if (wanted.length === 0)
    throw new Error(
      read.problems.length > 0
        ? `No usable provenance records: ${read.problems.join(" ")}`
        : "This workbook has no pasted sheets on record: paste from a panel first.",
    );
  const outcomes: SheetRefreshOutcome[] = read.problems.map((message) => ({
    sheetName: "(unknown)",
    ok: false,
    message,
  }));
  const connection = client.connection;
  for (let i = 0; i < wanted.length; i++) {
    const record = wanted[i];
    if (signal?.aborted)
      throw new CancelledError(`Cancelled after ${i} of ${wanted.length} sheets; the rest were not changed.`);
    const step = (message: string, within = 0) =>
      onProgress?.({ message: `${record.sheetName}: ${message}`, fraction: (i + within) / wanted.length });
    if (record.baseUrl !== connection.baseUrl || (record.project ?? "") !== (connection.project ?? "")) {
      outcomes.push({
        sheetName: record.sheetName,
        ok: false,
        message: `Sheet "${record.sheetName}" was pasted from ${record.baseUrl} (project ${record.project ?? "(none)"}), but the pane is connected to ${connection.baseUrl} (project ${connection.project ?? "(none)"}): connect to that service to refresh it. Nothing was changed.`,
      });
      continue;
    }
    try {
      step("reading…");
      const table = await refetchTable(client, record, signal);
      // The dataset's version and digest now (the data just read is that version's).
      const dataset = (await provenanceOf(client, record.operation, record.portfolio, {}, signal)).dataset;
      step(`writing ${formatCount(table.rows.length)} rows…`, 0.5);
      const updated = await run(async (context) => {
        const next = await replaceTableInPlace(context, record, table.header, table.rows, {
          signal,
          onProgress: (done, total) =>
            step(`row ${formatCount(done)} of ${formatCount(total)}`, 0.5 + (0.5 * done) / Math.max(1, total)),
        });
        await recordProvenance(context, [{ ...next, ...(dataset ? { dataset } : {}), addinVersion: ADDIN_VERSION }]);
        return next;
      });
      outcomes.push({ sheetName: record.sheetName, ok: true, rows: updated.rows });
    } catch (error) {
      if (signal?.aborted || error instanceof AbortedError)
        throw new CancelledError(
          `Cancelled at "${record.sheetName}" (put back as it was); ${i} sheet(s) before it were refreshed.`,
        );
      if (error instanceof PastedSheetChangedError)
        outcomes.push({ sheetName: record.sheetName, ok: false, message: error.message });
      else
        outcomes.push({
          sheetName: record.sheetName,
          ok: false,
          message: `Sheet "${record.sheetName}" was not changed: ${error instanceof Error ? error.message : String(error)}`,
        });
    }
  }
  return { outcomes, refreshed: outcomes.filter((o) => o.ok).length, refused: outcomes.filter((o) => !o.ok).length };
}
