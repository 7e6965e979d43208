/**
 * Provenance of pasted sheets, the pure part: what a paste records about how it was made, how a
 * record is kept as text in the workbook, the rows of the visible "Sources" sheet, and the
 * fingerprint that tells whether the user edited a pasted table since it was written.
 *
 * The API key is never part of a record: only the service's base URL, project and the filters.
 */
import type { RecordedRowKey } from "./row-keys";
import type { CellValue } from "./types";
import { message, type Message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** The operations of the task pane that paste a table and can re-run it. */
export type PasteOperation =
  | "timeseries"
  | "summary"
  | "extended-summary"
  | "applied-layer"
  | "export"
  | "nature-summary"
  | "risk-matrix"
  | "label-counts"
  | "scenario-comparison"
  | "financial-impact"
  | "disclosure-data"
  | "disclosure-significant";

/** How a pasted sheet was made; the caller fills it, the writer adds where and when. */
export interface PasteProvenance {
  operation: PasteOperation;
  /** Service base URL (never the key). */
  baseUrl: string;
  project?: string;
  portfolio?: string;
  /** Every filter the operation ran with, by its service name (e.g. hazard, scenario, start_date). */
  filters: Record<string, string | number | boolean>;
  /** The dataset's `version` and `sha256_digest` from `GET .../datasets/physical`, when one exists. */
  dataset?: { version?: string; sha256_digest?: string };
  /** Version of the add-in that wrote the sheet. */
  addinVersion: string;
}

/** A provenance record as kept in the workbook: the provenance plus where and when it was written. */
export interface ProvenanceRecord extends PasteProvenance {
  /** Worksheet id (survives renames; a renamed sheet is detected by name). */
  sheetId: string;
  /** The sheet's name when written. */
  sheetName: string;
  tableName: string;
  /** Sheet-local address of the table, header included ("A1:H41"). */
  tableAddress: string;
  header: string[];
  /** Data rows written, header excluded. */
  rows: number;
  /** UTC time of the paste or last refresh, ISO 8601. */
  writtenAt: string;
  /** Fingerprint of the table's values as written; differs when the user edited the table. */
  fingerprint: string;
  /** Set when the table's formulas were converted to values: UTC time of that static copy. */
  staticCopyAt?: string;
  /**
   * The documented row key of the table (src/shaping/row-keys.ts ROW_KEYS) and how its assets were
   * told apart when it was written; absent when its rows could not be keyed (see `rowKeyProblem`)
   * or it was pasted before tables were keyed (then it refreshes by position).
   */
  rowKey?: RecordedRowKey;
  /** Why the rows could not be keyed at the last write (assets that collide...). */
  rowKeyProblem?: string;
  /**
   * The very hidden sheet holding the record of what the add-in wrote into each row (key and a
   * digest per cell, src/excel/written-store.ts), from which the analyst's edits are found.
   */
  writtenStore?: string;
  /** Cells the analyst changed in the add-in's columns that a refresh kept, awaiting their choice. */
  pendingEdits?: number;
  /**
   * Tables of formulas over this one, by table name, brought in line after each refresh
   * (src/excel/formula-followers.ts): the financial impact's per-asset losses and roll-up.
   */
  followers?: { mirror: string; summary: string; store?: string };
  /**
   * Columns of the table the service no longer returns (a refresh by key keeps them where they are,
   * with their content, and no longer writes them).
   */
  unservedColumns?: string[];
  /** The analyst's last choice about their changed cells: when, which, and how many cells. */
  editChoice?: { choice: "keep-mine" | "take-service"; cells: number; at: string };
  /**
   * Set when the last "Refresh pasted sheets" that took the sheet up left it as it was (refused or
   * failed): when (UTC, ISO 8601) and why, so the Sources sheet says its figures are older than the
   * other sheets'. A refresh of the sheet that succeeds drops it.
   */
  notRefreshed?: { at: string; reason: Message };
}

/** Name of the very hidden sheet that keeps the records (one per row: sheet id, JSON). */
export const PROVENANCE_STORE_SHEET = "_ClimateRiskProvenance";
/** Name of the very hidden sheet that keeps formulas replaced by a static copy (see src/excel/static-copies.ts). */
export const FORMULA_STORE_SHEET = "_ClimateRiskFormulas";
/** Name of the very hidden sheet that keeps where portfolios' assets are (see src/excel/asset-sources.ts). */
export const ASSET_SOURCES_STORE_SHEET = "_ClimateRiskAssetSources";
/**
 * Name of the very hidden sheet that keeps the currency the analyst stated for a portfolio's value
 * column (src/excel/value-currencies.ts).
 */
export const VALUE_CURRENCY_STORE_SHEET = "_ClimateRiskValueCurrencies";
/** Name of the visible sheet listing every pasted sheet for a reader. */
export const SOURCES_SHEET = "Climate Risk sources";

/** Header of the Sources sheet. */
export const SOURCES_HEADER = [
  "Sheet",
  "Table",
  "Operation",
  "Service",
  "Project",
  "Portfolio",
  "Filters",
  "Dataset version",
  "Dataset sha256",
  "Rows",
  "Written (UTC)",
  "Add-in version",
  "Static copy (UTC)",
  "Not refreshed (UTC)",
  "Why not refreshed",
];

/**
 * English names of the operations, for the pane's sections (which are not translated yet). The
 * Sources sheet words them in the pane's language through {@link operationMessage}; the English
 * catalog's `sheet.operation.*` equal these (test/i18n/sheet-language.test.ts).
 */
export const OPERATION_LABELS: Record<PasteOperation, string> = {
  timeseries: "Timeseries",
  summary: "Summary",
  "extended-summary": "Extended summary",
  "applied-layer": "Applied layer",
  export: "Export ZIP file",
  "nature-summary": "Nature sub-project summary",
  "risk-matrix": "Risk matrix",
  "label-counts": "Assets per label and hazard",
  "scenario-comparison": "Scenario comparison",
  "financial-impact": "Financial impact data",
  "disclosure-data": "Disclosure data",
  "disclosure-significant": "Disclosure: significant assets (E1-9 66(c))",
};

/** The name of an operation as a reader sees it on the Sources sheet, a catalog message. */
export function operationMessage(operation: PasteOperation): Message {
  return message(`sheet.operation.${operation}`);
}

/**
 * "hazard=floods; scenario=ssp585" (sorted by name): filter names and values are the service's
 * identifiers, never translated. No filter at all is `words`' "(none)".
 */
export function describeFilters(
  filters: Record<string, string | number | boolean>,
  words: (said: Message) => string,
): string {
  const parts = Object.keys(filters)
    .sort()
    .map((k) => `${k}=${String(filters[k])}`);
  return parts.length === 0 ? words(message("sheet.sources.noFilters")) : parts.join("; ");
}

/**
 * One row of the Sources sheet for a record, its operation and "(none)" worded by `words` (the
 * pane's language); every other cell is a name or identifier, the same in every language.
 */
export function sourcesRow(record: ProvenanceRecord, words: (said: Message) => string): CellValue[] {
  const known = (OPERATION_LABELS as Record<string, string | undefined>)[record.operation] !== undefined;
  return [
    record.sheetName,
    record.tableName,
    known ? words(operationMessage(record.operation)) : record.operation,
    record.baseUrl,
    record.project ?? "",
    record.portfolio ?? "",
    describeFilters(record.filters, words),
    record.dataset?.version ?? "",
    record.dataset?.sha256_digest ?? "",
    record.rows,
    record.writtenAt,
    record.addinVersion,
    record.staticCopyAt ?? "",
    record.notRefreshed?.at ?? "",
    record.notRefreshed ? words(record.notRefreshed.reason) : "",
  ];
}

/** Record → text for the store. */
export function serializeRecord(record: ProvenanceRecord): string {
  return JSON.stringify(record);
}

/**
 * Text from the store → record, or a MessageError naming the store's `row` (1-based, as Excel
 * numbers it) when it is not one.
 */
export function parseRecord(text: unknown, row: number): ProvenanceRecord {
  if (typeof text !== "string" || text.trim() === "")
    throw new MessageError(message("excel.provenance.deleted", { row }));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MessageError(message("excel.provenance.edited", { row }));
  }
  const r = value as Partial<ProvenanceRecord>;
  if (
    !r ||
    typeof r !== "object" ||
    typeof r.sheetId !== "string" ||
    typeof r.operation !== "string" ||
    !Array.isArray(r.header) ||
    typeof r.tableAddress !== "string"
  ) {
    throw new MessageError(message("excel.provenance.edited", { row }));
  }
  return { ...r, filters: r.filters ?? {} } as ProvenanceRecord;
}

/**
 * A fingerprint of a table's values built row by row, for a table streamed in pages whose header
 * is known only at the end. Trailing empty cells of a row do not count, so a row written narrower
 * than the final header hashes as its padded read-back does.
 */
export class FingerprintBuilder {
  private hash = FNV_OFFSET;
  private count = 0;

  /** Feeds rows in table order. */
  addRows(rows: readonly (readonly CellValue[])[]): void {
    for (const row of rows) this.hash = hashRowWords(this.hash, row);
    this.count += rows.length;
  }

  /** The fingerprint of the header and every row fed so far. */
  finish(header: readonly CellValue[]): string {
    const head = hashRowWords(FNV_OFFSET, header);
    return `${WORDS_PREFIX}${hex(head)}${hex(this.hash)}:${this.count}`;
  }
}

/**
 * FNV-1a (32-bit) over the header and values, cheap, synchronous and enough to notice a changed
 * cell: each step is a bijection of the hash, so one number changed to another always changes it
 * (other changes but for a chance in 2³²). Not a security measure. Numbers are compared as Excel
 * gives them back.
 */
export function tableFingerprint(header: readonly CellValue[], rows: readonly (readonly CellValue[])[]): string {
  const builder = new FingerprintBuilder();
  builder.addRows(rows);
  return builder.finish(header);
}

/**
 * Whether a table's values (`header`, `rows`, as read back) are those `recorded` was taken of, in
 * the form it was taken: a record written before issue 41 holds the JSON form ({@link JSON_PREFIX}).
 */
export function fingerprintMatches(
  recorded: string,
  header: readonly CellValue[],
  rows: readonly (readonly CellValue[])[],
): boolean {
  if (!recorded.startsWith(JSON_PREFIX)) return tableFingerprint(header, rows) === recorded;
  let hash = FNV_OFFSET;
  for (const row of rows) hash = fnv1a(hash, JSON.stringify(trimmed(row)));
  const head = fnv1a(FNV_OFFSET, JSON.stringify(trimmed(header)));
  return `${JSON_PREFIX}${hex(head)}${hex(hash)}:${rows.length}` === recorded;
}

/**
 * Fingerprints hash each value's own words: a number's 64 bits, a text's UTF-16 units. Until issue
 * 41 they hashed each row's JSON ({@link JSON_PREFIX}); turning every number into text only to hash
 * it was a tenth of a timeseries paste (605,000 numbers).
 */
const WORDS_PREFIX = "fnv1a32w:";
/** The fingerprints of records written before issue 41: FNV-1a over each trimmed row's JSON. */
const JSON_PREFIX = "fnv1a32:";
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** A number's two 32-bit words, through one shared buffer. */
const NUMBER = new Float64Array(1);
const NUMBER_WORDS = new Uint32Array(NUMBER.buffer);
/** Tags, so a value's kind counts: 1 the number and the text "1" differ, as in JSON. */
const TAG_NUMBER = 1;
const TAG_FALSE = 2;
const TAG_TRUE = 3;
const TAG_TEXT = 4;
const TAG_ROW_END = 5;

/** One 32-bit word into the hash (FNV-1a's step, a word at a time). */
function mix(hash: number, word: number): number {
  return Math.imul(hash ^ word, FNV_PRIME) >>> 0;
}

/** A row into the hash: its cells up to the last non-empty one (null and undefined read as ""). */
function hashRowWords(hash: number, row: readonly (CellValue | null | undefined)[]): number {
  let end = row.length;
  while (end > 0 && isEmpty(row[end - 1])) end--;
  for (let i = 0; i < end; i++) {
    const value = row[i];
    if (typeof value === "number") {
      // -0 reads back as 0 (and its JSON was "0").
      NUMBER[0] = value === 0 ? 0 : value;
      hash = mix(mix(mix(hash, TAG_NUMBER), NUMBER_WORDS[0]!), NUMBER_WORDS[1]!);
    } else if (typeof value === "boolean") hash = mix(hash, value ? TAG_TRUE : TAG_FALSE);
    else {
      const text = value === null || value === undefined ? "" : String(value);
      hash = mix(mix(hash, TAG_TEXT), text.length);
      for (let k = 0; k < text.length; k++) hash = mix(hash, text.charCodeAt(k));
    }
  }
  return mix(hash, TAG_ROW_END);
}

function isEmpty(value: CellValue | null | undefined): boolean {
  return value === "" || value === null || value === undefined;
}

function fnv1a(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

function hex(hash: number): string {
  return hash.toString(16).padStart(8, "0");
}

/** A row as compared: empty cells as "", trailing empty cells dropped. */
function trimmed(row: readonly (CellValue | null | undefined)[]): CellValue[] {
  const out = row.map(normalise);
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** A value as the workbook returns it: an empty cell reads back as "". */
function normalise(value: CellValue | null | undefined): CellValue {
  return value === null || value === undefined ? "" : value;
}
