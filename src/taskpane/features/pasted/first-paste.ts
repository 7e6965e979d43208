/**
 * The first paste of a kind, through its one definition (paste-kind.ts `PasteKind`, defined by the
 * feature that owns it): the kind's fetch (or its stream), its sheet, its row key and the provenance
 * that lets "Refresh pasted sheets" run the same definition again. A paste panel says which kinds
 * and filters; nothing of how a kind is read or shaped is written twice.
 */
import type { RiskClient } from "../../../api/client";
import type { PhysicalItem } from "../../../api/types";
import type { RowKeying } from "../../../excel/written-store";
import { StreamingSheets, type StreamSheetSpec } from "../../../excel/stream-sheets";
import type { ChartSpec } from "../../../excel/table-formats";
import type { NewSheetSpec, WrittenSheet } from "../../../excel/write-sheets";
import type { PasteProvenance } from "../../../shaping/paste-provenance";
import type { CellValue } from "../../../shaping/types";
import {
  rethrowIfCancelled,
  unlessCancelled,
  type ExcelRunner,
  type LongRunning,
  type PastedSheet,
  type PasteOptions,
} from "../../ui/pane-types";
import { pastedSheet, writeNewSheets } from "../../ui/write-new-sheets";
import { SharedReads } from "../../../api/shared-reads";
import { rowKeysFor, type FetchedTable, type PasteKind, type PasteSource, type SheetLayout } from "./paste-kind";
import { provenanceOf } from "./pasted-sheets-actions";
import { streamPaste } from "./stream-paste";
import { message, type Message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** One table of a first paste: a kind and what it is read with. */
export interface KindPaste {
  /** The kind, from the feature that defines it. */
  kind: PasteKind;
  portfolio?: string;
  /** The filters it is read with, as its provenance records them (empty ones are left out). */
  filters: Record<string, string | number | boolean | undefined>;
  /** The table when already read (an export's files, from the ZIP downloaded first). */
  table?: FetchedTable;
  /** The refusal (a MessageError the pane words) when its table has no rows (default: an empty table is written). */
  ifEmpty?: Message;
  /** Left out, no sheet, when its table has no rows. */
  optional?: boolean;
}

/** The filters a provenance records: empty ones left out. */
function sourceOf(paste: { portfolio?: string; filters: KindPaste["filters"] }): PasteSource {
  const filters: PasteSource["filters"] = {};
  for (const [name, value] of Object.entries(paste.filters))
    if (value !== undefined && value !== "") filters[name] = value;
  return { portfolio: paste.portfolio, filters };
}

function withSheet(kind: PasteKind): PasteKind & { sheet: NonNullable<PasteKind["sheet"]> } {
  if (!kind.sheet) throw new Error(`${kind.label} is pasted by its own panel, not through pasteKinds.`);
  return kind as PasteKind & { sheet: NonNullable<PasteKind["sheet"]> };
}

/**
 * The provenance of each source, the dataset's version and digest read once per portfolio (the
 * kinds of one paste share it).
 */
function provenances(client: RiskClient, signal?: AbortSignal) {
  const bases = new Map<string, Promise<PasteProvenance>>();
  return (kind: PasteKind, source: PasteSource): Promise<PasteProvenance> => {
    const key = `${kind.dataset}|${source.portfolio ?? ""}`;
    const base = bases.get(key) ?? provenanceOf(client, kind, source.portfolio, {}, signal);
    bases.set(key, base);
    return base.then((p) => ({ ...p, operation: kind.operation, filters: source.filters }));
  };
}

/** The streaming writer's spec of a sheet's layout. */
const streamSpec = (layout: SheetLayout): StreamSheetSpec => ({
  sheetName: layout.sheetName,
  tableName: layout.tableName,
  title: layout.title,
  labelColumns: layout.labelColumns,
  scoreColumns: layout.scoreColumns,
  numberFormats: layout.numberFormats,
});

/**
 * Pastes whole tables of one or more kinds into new sheets, all or none: each kind's fetch (the
 * kinds of one paste read concurrently, a request they share once), then its sheet, its provenance
 * and its row key (the portfolio's assets read when the table alone cannot tell them apart), as
 * the refresh will key it. Without a client (an export unpacked from a file) nothing is recorded.
 * Sheets with a title line above their table go through the streaming writer, which writes it.
 */
export async function pasteKinds(
  options: LongRunning & { client?: RiskClient; run: ExcelRunner },
  pastes: KindPaste[],
): Promise<PastedSheet[]> {
  const { client, run, signal, onProgress } = options;
  const sources = pastes.map(sourceOf);
  // Items read by each kind, summed: the kinds that report them read the summary.
  const itemsRead = pastes.map(() => 0);
  const shared = client && new SharedReads(client, signal);
  const tables = await unlessCancelled(
    Promise.all(
      pastes.map((paste, i) => {
        if (paste.table) return paste.table;
        if (!client) throw new Error(`${paste.kind.label} is read with a client.`);
        return withSheet(paste.kind).fetch(client, sources[i], signal, run, {
          shared,
          onItemsRead: (n) => {
            itemsRead[i] = n;
            onProgress?.({
              message: message("pasted.run.progress.summaryRows", { count: itemsRead.reduce((a, b) => a + b, 0) }),
            });
          },
        });
      }),
    ),
    signal,
  );
  const provenanceOfSource = client && provenances(client, signal);
  const sheets: Array<{ layout: SheetLayout; table: FetchedTable; provenance?: PasteProvenance; rowKeys: RowKeying }> =
    [];
  for (const [i, paste] of pastes.entries()) {
    const table = tables[i];
    if (table.rows.length === 0 && paste.optional) continue;
    if (table.rows.length === 0 && paste.ifEmpty) throw new MessageError(paste.ifEmpty);
    const kind = withSheet(paste.kind);
    const layout = kind.sheet(sources[i], table);
    const source = { ...sources[i], filters: { ...sources[i].filters, ...layout.filters } };
    sheets.push({
      layout,
      table,
      provenance: await provenanceOfSource?.(kind, source),
      // Each sheet keyed by its kind's row key, so a refresh keeps the analyst's work with its row.
      rowKeys: client
        ? await rowKeysFor(client, kind, paste.portfolio, table, signal)
        : { spec: kind.rowKey(table.header) },
    });
  }
  if (sheets.some((s) => s.layout.title !== undefined || s.layout.scoreColumns !== undefined))
    return writeWhole(
      run,
      sheets.map((s) => ({ ...streamSpec(s.layout), provenance: s.provenance, rowKeys: s.rowKeys })),
      sheets.map((s) => s.table),
      sheets.map((s) => s.layout.chart),
      { signal, onProgress },
    );
  const specs = sheets.map((s): NewSheetSpec => ({
    sheetName: s.layout.sheetName,
    tableName: s.layout.tableName,
    header: s.table.header,
    rows: s.table.rows,
    conditionalLabels: s.layout.labelColumns,
    numberFormats: s.layout.numberFormats,
    chart: s.layout.chart,
    provenance: s.provenance,
    rowKeys: s.rowKeys,
  }));
  return (await writeNewSheets(run, specs, { signal, onProgress })).map(pastedSheet);
}

/** Whole tables through the one streaming writer: every sheet or none. */
async function writeWhole(
  run: ExcelRunner,
  specs: StreamSheetSpec[],
  tables: Array<{ header: string[]; rows: CellValue[][] }>,
  charts: Array<ChartSpec | undefined>,
  { signal, onProgress }: LongRunning,
): Promise<PastedSheet[]> {
  const total = tables.reduce((n, t) => n + t.rows.length, 0);
  let done = 0;
  const written = await run(async (context) => {
    const writer = await StreamingSheets.open(context, specs, {
      signal,
      onProgress: () =>
        onProgress?.({
          message: message("pasted.run.progress.writingRow", { done: Math.min(done, total), total }),
          fraction: total ? Math.min(1, done / total) : 1,
        }),
    });
    try {
      for (let i = 0; i < tables.length; i++) {
        await writer.append(i, tables[i].rows);
        done += tables[i].rows.length;
      }
    } catch (error) {
      await writer.discard(error);
      throw error;
    }
    return writer.finish(
      tables.map((t) => t.header),
      charts,
    );
  }).catch(rethrowIfCancelled(signal));
  return written.map(pastedSheet);
}

/** What a panel adds to a streamed paste: its progress, a chart, its own limits. */
export interface StreamKindOptions extends PasteOptions {
  /** Pages in flight at once (default 4). */
  readAhead?: number;
  /** Page size (default: the service's). */
  rows?: number;
  /** About how many items the read holds, when known (api/pagination.ts ReadAllOptions.expectedItems). */
  expectedItems?: number;
  /** Budget per workbook request (default 4 MB); smaller in tests to see streaming. */
  maxRequestBytes?: number;
  /** Items read so far; throwing stops the read (the paste then fails with `stopReason`). */
  onItemsRead?: (itemsRead: number) => void;
  /** Rows of a page about to be appended to sheet `sheet`, after `rowsBefore` rows. */
  onRows?: (sheet: number, rows: readonly CellValue[][], rowsBefore: number) => void;
  /** After each page is written: items in it, rows written in all. */
  onPage?: (items: number, writtenRows: number) => void;
  /** Charts of the sheets, once everything is written. */
  charts?: () => Array<ChartSpec | undefined>;
  /** Thrown instead of a cancellation when the paste stopped itself (e.g. too many rows). */
  stopReason?: () => Error | undefined;
}

/**
 * Streams a kind's pages into its new sheets as they arrive (the kind's `stream`: one read may
 * fill several sheets), each sheet named, recorded and keyed by the kind: whole or absent. Sheets
 * the read left empty are not made.
 */
export async function streamKind(
  options: StreamKindOptions,
  paste: Pick<KindPaste, "kind" | "portfolio" | "filters">,
): Promise<WrittenSheet[]> {
  const { client, run, signal } = options;
  const kind = withSheet(paste.kind);
  if (!kind.stream) throw new Error(`${kind.label} is not pasted page by page.`);
  const source = sourceOf(paste);
  const stream = kind.stream(client, source, {
    readAhead: options.readAhead,
    rows: options.rows,
    expectedItems: options.expectedItems,
    onItemsRead: options.onItemsRead,
  });
  const provenanceOfSource = provenances(client, signal);
  const empty: FetchedTable = { header: [], rows: [] };
  // The provenance's dataset version (one request for every sheet) is read while the first pages
  // are; a failure is the paste's, and streamPaste reports it.
  const specs: Promise<StreamSheetSpec[]> = Promise.all(
    stream.sheets.map(async (sheet) => ({
      ...streamSpec(kind.sheet(sheet, empty)),
      // Each sheet records its filters (and which part of the read it holds), so a refresh re-reads it.
      provenance: await provenanceOfSource(kind, sheet),
      rowKeys: { spec: kind.rowKey([]) },
    })),
  );
  specs.catch(() => undefined); // handled by streamPaste, which may take it up a moment later
  return streamPaste<PhysicalItem>({
    run,
    signal,
    maxRequestBytes: options.maxRequestBytes,
    specs,
    read: (onPage, reading) => stream.read(onPage, reading),
    consume: async (items, writer) => {
      const rows = stream.shape(items);
      for (const [k, sheetRows] of rows.entries()) {
        options.onRows?.(k, sheetRows, writer.rowCount(k));
        await writer.append(k, sheetRows);
      }
      options.onPage?.(items.length, writer.writtenRows());
    },
    finish: () => ({ headers: stream.headers(), charts: options.charts?.() }),
    stopReason: options.stopReason,
  });
}
