/**
 * Refresh by key, the pure part: what a pasted table's rows become when the service answers again
 * (kept, removed, added, deleted by hand), and the record of what the add-in wrote into each cell,
 * from which the cells the analyst changed are found. No Excel, no HTTP.
 *
 * The record keeps, per row written, a digest of every cell: a 24-bit FNV-1a hash of the value (its
 * 64 bits for a number, its characters for text), in 4 base64url characters. A cell whose value no
 * longer hashes to its digest was changed by the analyst; a change that happens to hash alike is
 * missed once in 16.7 million. The digest is not a security measure.
 */
import type { CellValue } from "./types";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Characters of one cell's digest. */
export const CELL_DIGEST_CHARS = 4;

/** A value as the workbook gives it back: an empty cell reads as "". */
function normalise(value: CellValue | null | undefined): CellValue {
  return value === null || value === undefined ? "" : value;
}

const FLOAT = new Float64Array(1);
const WORDS = new Uint32Array(FLOAT.buffer);
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64URL.length; i++) DECODE[BASE64URL.charCodeAt(i)] = i;

/**
 * The 24-bit hash of one cell's value. Numbers are hashed by their 64 bits, text by its
 * characters, each with its type, so 1 and "1" differ (a cell that became text is an edit).
 */
export function cellHash(value: CellValue | null | undefined): number {
  const v = normalise(value);
  // -0 (a service may send "-0.0") is hashed as 0: Excel holds no negative zero, and reads it back as 0.
  return typeof v === "number" ? numberHash(v === 0 ? 0 : v) : textHash(v);
}

/**
 * What versions before issue 41 recorded for a -0 the service sent, which Excel shows as 0: a cell
 * showing 0 against it is no edit ({@link changedColumns}).
 */
const NEGATIVE_ZERO_HASH = numberHash(-0);

/** A number's hash, by its 64 bits. */
function numberHash(v: number): number {
  FLOAT[0] = v;
  let hash = Math.imul(0x811c9dc5 ^ 0x6e, 0x01000193);
  hash = Math.imul(hash ^ WORDS[0], 0x01000193);
  hash = Math.imul(hash ^ WORDS[1], 0x01000193) >>> 0;
  return fold(hash);
}

/** Text's (or a boolean's) hash, by its characters. */
function textHash(v: string | boolean): number {
  const text = typeof v === "boolean" ? (v ? "\u0001true" : "\u0001false") : v;
  let hash = Math.imul(0x811c9dc5 ^ 0x73, 0x01000193);
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return fold(hash >>> 0);
}

/** A 32-bit hash folded to the digest's 24 bits. */
function fold(hash: number): number {
  return (hash ^ (hash >>> 24)) & 0xffffff;
}

/** The 4-character digest of one cell's value ({@link cellHash} in base64url). */
export function cellDigest(value: CellValue | null | undefined): string {
  const h = cellHash(value);
  return BASE64URL[h >>> 18] + BASE64URL[(h >>> 12) & 63] + BASE64URL[(h >>> 6) & 63] + BASE64URL[h & 63];
}

const EMPTY_HASH = cellHash("");

/** The hash recorded for column `c` of a row's digest (an empty cell's past its end). */
export function digestAt(digest: string, c: number): number {
  const at = c * CELL_DIGEST_CHARS;
  if (at + CELL_DIGEST_CHARS > digest.length) return EMPTY_HASH;
  return (
    (DECODE[digest.charCodeAt(at)] << 18) |
    (DECODE[digest.charCodeAt(at + 1)] << 12) |
    (DECODE[digest.charCodeAt(at + 2)] << 6) |
    DECODE[digest.charCodeAt(at + 3)]
  );
}

/** Character codes of base64url, for building digests without a string per character. */
const BASE64URL_CODES = Uint8Array.from(BASE64URL, (ch) => ch.charCodeAt(0));
/** Cells per String.fromCharCode call: well under any engine's limit on arguments. */
const DIGEST_CELLS_PER_CALL = 2_048;
const DIGEST_CODES = new Uint16Array(DIGEST_CELLS_PER_CALL * CELL_DIGEST_CHARS);

/**
 * The digests of a row's cells, concatenated (a cell past the row's end is an empty cell). Built
 * from character codes into one flat string: a paste digests every cell it writes, and joining a
 * string per cell (made of one per character) took twice as long for a wide table.
 */
export function rowDigest(row: readonly CellValue[], width = row.length): string {
  let out = "";
  for (let from = 0; from < width; from += DIGEST_CELLS_PER_CALL) {
    const to = Math.min(width, from + DIGEST_CELLS_PER_CALL);
    const codes = DIGEST_CODES;
    let at = 0;
    for (let c = from; c < to; c++) {
      const h = cellHash(row[c]);
      codes[at++] = BASE64URL_CODES[h >>> 18];
      codes[at++] = BASE64URL_CODES[(h >>> 12) & 63];
      codes[at++] = BASE64URL_CODES[(h >>> 6) & 63];
      codes[at++] = BASE64URL_CODES[h & 63];
    }
    const part = String.fromCharCode.apply(null, codes.subarray(0, at) as unknown as number[]);
    out = from === 0 ? part : out + part;
  }
  return out;
}

/** A digest with some columns' digests replaced (the cells written), padded to `width` cells. */
export function replaceDigests(digest: string, cells: ReadonlyMap<number, CellValue>, width: number): string {
  const full = width * CELL_DIGEST_CHARS;
  let base = digest.length >= full ? digest.slice(0, full) : digest + cellDigest("").repeat(width - digest.length / 4);
  if (cells.size === 0) return base;
  // Splice the changed cells in: slices between them, not one piece per cell.
  let out = "";
  let from = 0;
  for (const c of [...cells.keys()].sort((a, b) => a - b)) {
    out += base.slice(from, c * CELL_DIGEST_CHARS) + cellDigest(cells.get(c));
    from = (c + 1) * CELL_DIGEST_CHARS;
  }
  base = out + base.slice(from);
  return base;
}

/** Columns (0-based, below `width`) of `row` whose values differ from what `digest` records. */
export function changedColumns(row: readonly CellValue[], digest: string, width = row.length): number[] {
  const out: number[] = [];
  for (let c = 0; c < width; c++) {
    const recorded = digestAt(digest, c);
    if (cellHash(row[c]) !== recorded && !(row[c] === 0 && recorded === NEGATIVE_ZERO_HASH)) out.push(c);
  }
  return out;
}

/** What a refresh by key does to each row. */
export interface KeyedPlan {
  /** Table rows (0-based body positions, current order) that stay, and the new row each takes. */
  kept: Array<{ position: number; newRow: number }>;
  /** Table rows whose key the service no longer returns: removed, their analyst's cells kept elsewhere. */
  removed: number[];
  /** New rows (indexes into the service's rows) appended at the end, in the service's order. */
  added: number[];
  /** New rows the analyst deleted by hand since the last write: not added back unless asked. */
  deletedByHand: number[];
  /** Table rows without a known key (typed by the analyst, or a key cell changed): left as they are. */
  unknown: number[];
}

/**
 * Plans a refresh: `current` are the keys of the table's rows in their present order (undefined
 * where a row is not one the add-in wrote), `written` the keys of every row it wrote last time,
 * `fresh` the keys of the service's rows now. Rows deleted by hand are restored only when their key
 * is in `restore`.
 */
export function planKeyedRefresh(
  current: ReadonlyArray<string | undefined>,
  written: ReadonlySet<string>,
  fresh: readonly string[],
  restore: ReadonlySet<string> = new Set(),
): KeyedPlan {
  const freshAt = new Map(fresh.map((k, i) => [k, i]));
  const present = new Set<string>();
  const plan: KeyedPlan = { kept: [], removed: [], added: [], deletedByHand: [], unknown: [] };
  current.forEach((key, position) => {
    if (key === undefined || present.has(key)) {
      plan.unknown.push(position);
      return;
    }
    present.add(key);
    const newRow = freshAt.get(key);
    if (newRow === undefined) plan.removed.push(position);
    else plan.kept.push({ position, newRow });
  });
  fresh.forEach((key, i) => {
    if (present.has(key)) return;
    if (written.has(key) && !restore.has(key)) plan.deletedByHand.push(i);
    else plan.added.push(i);
  });
  return plan;
}

/**
 * The columns that find a written row again in the table as it is now (sorted, filtered, moved):
 * portfolio_index (for asset rows; unique within one write) and the key's own columns. They hold
 * what the add-in wrote; an analyst who types over one makes the row unknown (left as it is).
 */
export function locatorColumns(
  spec: { asset: boolean; columns: readonly string[] },
  header: readonly string[],
): number[] {
  const names = spec.asset ? ["portfolio_index", ...spec.columns] : [...spec.columns];
  return names.map((n) => header.indexOf(n));
}

/** A row's locator: its values in the locator columns, as text. */
export function locatorOf(row: readonly CellValue[], columns: readonly number[]): string {
  return JSON.stringify(columns.map((c) => (c < 0 ? "" : String(normalise(row[c])).trim())));
}

/** One row of the record of what was written: how to find it, its key, its digest, the columns the analyst keeps. */
export interface WrittenRow {
  locator: string;
  key: string;
  digest: string;
  /** Columns (0-based, data columns) whose analyst's value was kept by choice: never overwritten. */
  kept: number[];
  /**
   * Its line in the store sheet (0-based, below the header), when read from there or written in
   * place by a refresh: where a refresh writes its next state (src/excel/written-store.ts).
   */
  line?: number;
}
