/**
 * "What changed since last refresh": a snapshot of a range of RISK cells (or a
 * pasted score block) taken before a refresh, compared after it. Label flips, scores that moved
 * by more than a chosen amount and cells that became errors go to a new "Changes" sheet (address,
 * before, after) and a summary for the pane; a dataset `version` or `sha256_digest` that changed
 * between the two readings, for the portfolios the formulas name, is reported too (a new
 * methodology moves numbers).
 */
import type { RiskClient } from "../../../api/client";
import {
  queueFormulasAndValues,
  readFormulasAndValues,
  readReferencedValues,
  type FormulasAndValues,
} from "../../../excel/cells-by-address";
import { readTableRowKeys } from "../../../excel/keyed-replace";
import { readProvenance } from "../../../excel/provenance-sheets";
import type { ProvenanceRecord } from "../../../shaping/paste-provenance";
import { queueWorkbookNames, writeSheetsAtomically, type NewSheetSpec } from "../../../excel/write-sheets";
import { callFacts, callReferences, scoreCall, type FormulaFacts } from "../../../functions/formula-facts";
import { labelOfScore } from "../../../shared/vocabulary";
import { cellA1, parseA1, qualify } from "../../../shaping/a1";
import { compareReadings, summarizeChanges, type CellChange, type ReadCell } from "./model/value-changes";
import type { ExcelRunner, PastedSheet } from "../../ui/pane-types";
import { sheetWords } from "../../../excel/sheet-words";
import { message, type Message } from "../../../i18n/messages";
import { MessageError } from "../../../i18n/message-error";

/** A dataset's identity at a reading. */
export interface DatasetStamp {
  version: string;
  sha256?: string;
}

/** What was read before the refresh. */
export interface ChangeSnapshot {
  address: string;
  cells: ReadCell[];
  /** portfolio → its dataset's version and digest (portfolios the formulas name). */
  datasets: Record<string, DatasetStamp>;
}

/** What the comparison found. */
export interface ChangeReport {
  changes: CellChange[];
  /** Sentences for the pane, e.g. "14 assets flipped to HIGH for flood_potential under ssp585". */
  summary: Message[];
  /** e.g. "demo-portfolio: dataset version 2024.1 → 2024.2" (also on the "Changes" sheet, in the pane's language). */
  datasetChanges: Message[];
  /** The "Changes" sheet, when something changed. */
  sheet?: PastedSheet;
}

const LABELS = new Set(["LOW", "MEDIUM", "HIGH"]);

/** The label a value stands for: a label cell's own, or a score's by the thresholds of its hazard. */
function labelFor(value: unknown, facts: FormulaFacts | undefined): ReadCell["label"] {
  if (typeof value === "string" && LABELS.has(value)) return value as ReadCell["label"];
  if (typeof value !== "number" || !facts?.hazard) return undefined;
  // The search labels LOW and HIGH only.
  if (facts.fn === "SEARCH") return value < facts.hazard.thresholds.low ? "LOW" : "HIGH";
  if (facts.fn === "SUMMARY" || (facts.fn === "METRIC" && facts.metric?.startsWith("summary_score_")))
    return labelOfScore(facts.hazard, value);
  return undefined;
}

/** Reads the range: each cell with the formula that governs it (its own, or the spilling one above it in the range). */
async function readCells(run: ExcelRunner, address?: string): Promise<{ address: string; cells: ReadCell[] }> {
  return run((context) => readCellsIn(context, address, true));
}

/**
 * {@link readCells} in a batch of the caller's: with `byKey`, the cells of keyed pasted tables get
 * their row keys (the provenance is read for them: a request more); without, none do.
 */
async function readCellsIn(
  context: Excel.RequestContext,
  address: string | undefined,
  byKey: boolean,
): Promise<{ address: string; cells: ReadCell[] }> {
  let range: FormulasAndValues;
  let records: ProvenanceRecord[] | undefined;
  if (byKey) {
    const queued = queueFormulasAndValues(context, address);
    // The provenance's first request carries the range's read too: one round trip fewer.
    records = (await readProvenance(context)).records;
    range = queued();
  } else range = await readFormulasAndValues(context, address);
  const top = parseA1(range.address);
  // Each formula read once, for its references and its facts (30,000 RISK cells are common).
  const calls = range.formulas.map((row) => row.map((formula) => scoreCall(String(formula))));
  // The formulas' single-cell arguments (a hazard in A12) are read so each cell knows its hazard.
  const references = calls.flatMap((row) => row.flatMap((call) => (call ? callReferences(call) : [])));
  const referenced = await readReferencedValues(context, references, range.sheetName);
  const lookup = (ref: string) => referenced.get(ref);
  const cells: ReadCell[] = [];
  const governing: Array<FormulaFacts | undefined> = [];
  const governingText: Array<string | undefined> = [];
  range.values.forEach((row, r) =>
    row.forEach((value, c) => {
      const call = calls[r]?.[c];
      if (call) {
        governing[c] = callFacts(call, lookup);
        governingText[c] = String(range.formulas[r]![c]);
      }
      const f = governing[c];
      cells.push({
        address: qualify(top.sheet, cellA1(top.row + r, top.col + c)),
        value,
        label: labelFor(value, f),
        hazard: f?.hazard?.portfolio,
        scenario: f?.scenario,
        portfolio: f?.portfolio,
        formula: governingText[c],
      });
    }),
  );
  if (records) await keyPastedCells(context, records, top.sheet ?? range.sheetName, cells);
  return { address: range.address, cells };
}

/**
 * Gives the cells that lie in the add-in's columns of a keyed pasted table their row key and
 * column, so the comparison goes by key: after a sort or a refresh by key, each asset is compared
 * with itself.
 */
async function keyPastedCells(
  context: Excel.RequestContext,
  onRecord: readonly ProvenanceRecord[],
  sheetName: string,
  cells: ReadCell[],
): Promise<void> {
  const records = onRecord.filter((r) => r.rowKey && r.sheetName.toLowerCase() === sheetName.toLowerCase());
  for (const record of records) {
    const table = await readTableRowKeys(context, record);
    if (!table) continue;
    for (const cell of cells) {
      const at = parseA1(cell.address);
      const key = table.keys.get(at.row);
      const column = table.header[at.col - table.left];
      if (key !== undefined && column !== undefined) cell.key = JSON.stringify([key, column]);
    }
  }
}

/** The portfolios the cells' formulas read (as read with the cells: not each formula parsed again). */
function portfoliosOf(cells: readonly ReadCell[]): Set<string> {
  const portfolios = new Set<string>();
  for (const cell of cells) if (cell.portfolio) portfolios.add(cell.portfolio);
  return portfolios;
}

/** The dataset stamps of the portfolios the cells' formulas name. */
function stamps(client: RiskClient, cells: readonly ReadCell[], signal?: AbortSignal) {
  return stampsOf(client, portfoliosOf(cells), signal);
}

/** Each portfolio's dataset version and digest now (a portfolio whose metadata cannot be read is left out). */
async function stampsOf(
  client: RiskClient,
  portfolios: Iterable<string>,
  signal?: AbortSignal,
): Promise<Record<string, DatasetStamp>> {
  const out: Record<string, DatasetStamp> = {};
  await Promise.all(
    [...portfolios].map(async (name) => {
      const metadata = await client.datasets.metadata(name, { signal }).catch(() => undefined);
      if (metadata) out[name] = { version: metadata.version, sha256: metadata.sha256_digest };
    }),
  );
  return out;
}

/** Reads the selected range (values, the formulas behind them) and the datasets they read: call before a refresh. */
export async function takeChangeSnapshot(options: {
  client: RiskClient;
  run: ExcelRunner;
  signal?: AbortSignal;
}): Promise<ChangeSnapshot> {
  const read = await readCells(options.run);
  if (read.cells.length === 0) throw new MessageError(message("changes.error.noSelection"));
  return { ...read, datasets: await stamps(options.client, read.cells, options.signal) };
}

/**
 * Reads the snapshot's range again, compares, and writes the "Changes" sheet when anything changed:
 * in one batch of two requests (the range and the workbook's names, then the sheet) when the
 * snapshot holds no keyed cells, the datasets' stamps read meanwhile.
 */
export async function compareWithSnapshot(options: {
  client: RiskClient;
  run: ExcelRunner;
  snapshot: ChangeSnapshot;
  threshold: number;
  signal?: AbortSignal;
}): Promise<ChangeReport> {
  const { snapshot, threshold, signal } = options;
  // The dataset lines go on the sheet in the pane's language (worded before Excel is entered).
  const words = await sheetWords();
  // Only the portfolios stamped at the snapshot are compared, so only theirs are read, and while
  // Excel is read (settled here, so a failure waiting its turn is not unhandled).
  const stamped = stampsOf(options.client, Object.keys(snapshot.datasets), signal).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  // Cells are compared by key only when the snapshot's have keys (a cell without one is compared
  // by address): without them the provenance is not read.
  const byKey = snapshot.cells.some((cell) => cell.key !== undefined);
  return options.run(async (context) => {
    const names = queueWorkbookNames(context);
    const now = await readCellsIn(context, snapshot.address, byKey);
    const changes = compareReadings(snapshot.cells, now.cells, threshold);
    const settled = await stamped;
    if ("error" in settled) throw settled.error;
    const after = settled.value;
    const named = portfoliosOf(now.cells);
    const datasetChanges: Message[] = [];
    for (const [name, was] of Object.entries(snapshot.datasets)) {
      const is = after[name];
      // A portfolio the formulas no longer name is not reported.
      if (!is || !named.has(name)) continue;
      if (was.version !== is.version)
        datasetChanges.push(
          message("changes.dataset.version", { portfolio: name, before: was.version, after: is.version }),
        );
      const short = (digest: string | undefined) => `${String(digest).slice(0, 12)}…`;
      if (was.sha256 !== is.sha256)
        datasetChanges.push(
          message("changes.dataset.sha256", { portfolio: name, before: short(was.sha256), after: short(is.sha256) }),
        );
    }
    const summary = summarizeChanges(changes, threshold);
    if (changes.length === 0 && datasetChanges.length === 0) return { changes, summary, datasetChanges };
    const [written] = await writeSheetsAtomically(context, [changesSheet(changes, datasetChanges.map(words))], {
      signal,
      names: names(),
    });
    return {
      changes,
      summary,
      datasetChanges,
      sheet: { sheetName: written!.sheetName, rowCount: written!.rowCount, columnCount: written!.columnCount },
    };
  });
}

/** The "Changes" sheet: a row per changed cell (address, before, after, labels, delta, formula), then the datasets'. */
function changesSheet(changes: readonly CellChange[], datasetChanges: readonly string[]): NewSheetSpec {
  const header = [
    "address",
    "change",
    "before",
    "after",
    "label_before",
    "label_after",
    "delta",
    "hazard",
    "scenario",
    "formula",
  ];
  const text = (v: unknown) =>
    (typeof v === "number" && Number.isFinite(v)) || typeof v === "string" || typeof v === "boolean" ? v : "";
  const rows = changes.map(
    (c) =>
      [
        c.address,
        c.kind,
        text(c.before),
        text(c.after),
        c.labelBefore ?? "",
        c.labelAfter ?? "",
        c.delta ?? "",
        c.hazard ?? "",
        c.scenario ?? "",
        c.formula ?? "",
      ] as Array<string | number | boolean>,
  );
  for (const line of datasetChanges) rows.push(["", "dataset", "", "", "", "", "", "", "", line]);
  return { sheetName: "Changes", header, rows, conditionalLabels: [4, 5] };
}
