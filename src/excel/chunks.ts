/**
 * Splitting a table into row chunks whose write requests stay under Excel on the web's 5 MB
 * request limit. Sizes are estimated from the JSON the request will carry: the values and the
 * number-format arrays written with them.
 */
import type { CellValue } from "../shaping/types";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** Default budget per request: 4 MB, leaving a fifth of the 5 MB limit for envelope overhead. */
export const DEFAULT_MAX_REQUEST_BYTES = 4_000_000;

/** Fixed allowance per operation in a request (path, method, ids). */
export const OPERATION_OVERHEAD_BYTES = 200;

/**
 * Any character outside ASCII. Testing for it is a scan V8 compiles to machine code, about seven
 * times faster than counting a character at a time (a 5,000-row timeseries paste weighs 5 MB of
 * row JSON, nearly all of it ASCII: about 8 ms against 55, measured under Node 20).
 */
const NON_ASCII = /[^\p{ASCII}]/u;

/** Characters `JSON.stringify` writes other than as themselves, or as more than one byte. */
const NOT_PLAIN_JSON = /[^\u0020-\u007f]|["\\]/;

/** UTF-8 length of a string without allocating. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length; // one byte a character
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Estimated request bytes of one row: its values' JSON plus its formats' JSON. */
export function rowBytes(row: readonly CellValue[], formats: readonly (string | null)[] | null): number {
  let bytes = utf8Length(JSON.stringify(row)) + 1;
  // A format array is sent whole: `null` where a cell keeps its format, a quoted string elsewhere.
  if (formats) for (const f of formats) bytes += f === null ? 5 : utf8Length(f) + 3;
  return bytes;
}

/**
 * UTF-8 length of `JSON.stringify(text)` without building it: the quotes, and the escapes JSON
 * writes (`\"`, `\\`, `\n` and the other short ones, `\u00XX` for other control characters and
 * `\uXXXX` for a lone surrogate).
 */
export function jsonTextBytes(text: string): number {
  if (!NOT_PLAIN_JSON.test(text)) return text.length + 2; // the quotes, and one byte a character
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code === 0x22 || code === 0x5c) bytes += 2;
      else if (code >= 0x20) bytes += 1;
      else bytes += SHORT_ESCAPES.has(code) ? 2 : 6;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else bytes += 3;
  }
  return bytes;
}

/** Cells {@link estimateJsonBytes} weighs one by one at most; below twice this it weighs them all. */
export const WEIGHED_CELLS = 2_048;

/**
 * About the UTF-8 length of `JSON.stringify(cells)` for a rectangle of cells read from Excel. A
 * read sizes its next request by it: stringifying every answer only to weigh it cost the weekly
 * refresh's reads about a second of the add-in's time and 200 MB of garbage. Exact when the
 * rectangle is small. Otherwise every text is counted by its length (a rare long note weighs what
 * it weighs), and what its JSON adds (escapes, characters of more than one byte) and how wide the
 * numbers are is learnt from at most {@link WEIGHED_CELLS} cells spread over every row and column
 * (a stride prime to the width, so no column is always skipped). A request it makes too large is
 * asked again in halves.
 */
export function estimateJsonBytes(cells: readonly (readonly unknown[])[]): number {
  const rows = cells.length;
  if (rows === 0) return 2;
  const cols = cells[0].length;
  const count = rows * cols;
  // Brackets and commas: "[" row ("," row)* "]", each row "[" cell ("," cell)* "]" ("[]" when empty).
  const frame = rows * (Math.max(cols - 1, 0) + 3) + 1;
  // Indexed loops: for-of here left an iterator result per cell behind (21 MB of garbage over the
  // weekly refresh's reads, in an allocation profile).
  if (count < 2 * WEIGHED_CELLS || cols === 0) {
    let bytes = frame;
    for (let r = 0; r < rows; r++) {
      const line = cells[r];
      for (let c = 0; c < line.length; c++) bytes += cellJsonBytes(line[c]);
    }
    return bytes;
  }
  // Texts by their length, quotes included; the other cells counted.
  let textChars = 0;
  let others = 0;
  for (let r = 0; r < rows; r++) {
    const line = cells[r];
    for (let c = 0; c < line.length; c++) {
      const cell = line[c];
      if (typeof cell === "string") textChars += cell.length + 2;
      else others++;
    }
  }
  let stride = Math.floor(count / WEIGHED_CELLS);
  while (gcd(stride, cols) !== 1) stride++;
  let sampledChars = 0;
  let sampledTextBytes = 0;
  let sampledOthers = 0;
  let sampledOtherBytes = 0;
  for (let at = Math.floor(stride / 2); at < count; at += stride) {
    const cell = cells[Math.floor(at / cols)][at % cols];
    if (typeof cell === "string") {
      sampledChars += cell.length + 2;
      sampledTextBytes += jsonTextBytes(cell);
    } else {
      sampledOthers++;
      sampledOtherBytes += cellJsonBytes(cell);
    }
  }
  const bytesPerChar = sampledChars > 0 ? sampledTextBytes / sampledChars : 1;
  // A number's JSON is at most 24 characters ("-1.2345678901234567e-100").
  const bytesPerOther = sampledOthers > 0 ? sampledOtherBytes / sampledOthers : 24;
  return frame + Math.round(textChars * bytesPerChar + others * bytesPerOther);
}

/** UTF-8 length of one cell value's JSON. */
function cellJsonBytes(cell: unknown): number {
  if (typeof cell === "string") return jsonTextBytes(cell);
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell).length : 4;
  if (typeof cell === "boolean") return cell ? 4 : 5;
  if (cell === null || cell === undefined) return 4;
  return utf8Length(JSON.stringify(cell));
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Control characters JSON escapes in two characters: \b \t \n \f \r. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** {@link rowBytes} of a row of texts without formats, without building its JSON. */
export function textRowBytes(row: readonly string[]): number {
  let bytes = row.length === 0 ? 3 : 2 + row.length; // brackets, commas, and the row's own comma
  for (const text of row) bytes += jsonTextBytes(text);
  return bytes;
}

/** A half-open row interval [start, end). */
export interface RowChunk {
  start: number;
  end: number;
  bytes: number;
}

/**
 * Group rows greedily into chunks of at most `maxBytes` (after `fixedBytes` per chunk).
 * Throws when a single row alone is over the budget, naming the row.
 */
export function planRowChunks(sizes: readonly number[], maxBytes: number, fixedBytes: number): RowChunk[] {
  const chunks: RowChunk[] = [];
  let start = 0;
  let bytes = fixedBytes;
  for (let i = 0; i < sizes.length; i++) {
    if (fixedBytes + sizes[i] > maxBytes) {
      throw new MessageError(message("excel.run.rowTooLarge", { row: i + 1, bytes: sizes[i], max: maxBytes }));
    }
    if (bytes + sizes[i] > maxBytes && i > start) {
      chunks.push({ start, end: i, bytes });
      start = i;
      bytes = fixedBytes;
    }
    bytes += sizes[i];
  }
  if (sizes.length > start) chunks.push({ start, end: sizes.length, bytes });
  return chunks;
}
