/**
 * Reading an asset range for a sync: the selection or a named table, with its address, values
 * and merged areas. Whole-column selections are cut to the used range, and large ranges are read
 * in row blocks so no response passes Excel on the web's 5 MB limit.
 */
import { splitAreas } from "../shaping/a1";
import { estimateJsonBytes } from "./chunks";
import { requirementSupported } from "../shared/requirements";
import { MAX_ASSETS } from "../shaping/limits";
import type { CellValue } from "../shaping/types";
import { message } from "../i18n/messages";
import { MessageError } from "../i18n/message-error";

/** What was read. */
export interface RangeSnapshot {
  /** Sheet-qualified address of what was read, e.g. "'Site list'!A1:F120". */
  address: string;
  sheetName: string;
  /** Values, header row first. Empty when the selection holds nothing. */
  values: CellValue[][];
  /**
   * Merged areas inside the range (sheet-qualified addresses); null where this Excel cannot tell
   * (before ExcelApi 1.13: Windows before Version 2102, Mac before 16.50).
   */
  mergedAreas: string[] | null;
  /** Rows the range has; more than values.length when reading stopped at `maxRows`. */
  totalRows: number;
}

/** Options of a read. */
export interface ReadOptions {
  /** Read at most this many rows (header included). Default: 5,000 assets + header + 100. */
  maxRows?: number;
  /** Cells per read request. Default 200,000 (well under 5 MB for typical asset data). */
  cellsPerRead?: number;
}

const DEFAULT_MAX_ROWS = MAX_ASSETS + 101;

/** Sheet name from a sheet-qualified address ("Sites" from "'Sites'!A1"); "" when it names none. */
export function sheetOf(address: string): string {
  const bang = address.lastIndexOf("!");
  let sheet = bang < 0 ? "" : address.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return sheet;
}

/** Read a range: cut to the used range when it is larger, then values in row blocks. */
async function readRange(
  context: Excel.RequestContext,
  range: Excel.Range,
  options: ReadOptions,
): Promise<RangeSnapshot> {
  range.load("address, rowCount, columnCount");
  const used = range.worksheet.getUsedRangeOrNullObject(true);
  used.load("address, rowIndex, rowCount, columnIndex, columnCount");
  await context.sync();
  let target = range;
  if (used.isNullObject) {
    return { address: range.address, sheetName: sheetOf(range.address), values: [], mergedAreas: [], totalRows: 0 };
  }
  // Cut a selection such as "A:F" down to where data is.
  const part = range.getIntersectionOrNullObject(used);
  part.load("address, rowCount, columnCount");
  await context.sync();
  if (part.isNullObject) {
    return { address: range.address, sheetName: sheetOf(range.address), values: [], mergedAreas: [], totalRows: 0 };
  }
  if (part.rowCount < range.rowCount && range.rowCount > DEFAULT_MAX_ROWS) target = part;
  const rowCount = target === part ? part.rowCount : range.rowCount;
  const columnCount = target === part ? part.columnCount : range.columnCount;
  const address = target === part ? part.address : range.address;

  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  const rowsToRead = Math.min(rowCount, maxRows);
  const block = Math.max(1, Math.floor((options.cellsPerRead ?? 200_000) / Math.max(1, columnCount)));
  const values: CellValue[][] = [];
  for (let start = 0; start < rowsToRead; start += block) {
    const n = Math.min(block, rowsToRead - start);
    const piece = target.getCell(start, 0).getResizedRange(n - 1, columnCount - 1);
    piece.load("values");
    await context.sync();
    for (const row of piece.values) values.push(row as CellValue[]);
  }
  return {
    address,
    sheetName: sheetOf(address),
    values,
    mergedAreas: await mergedAreas(context, target),
    totalRows: rowCount,
  };
}

/**
 * Merged areas in a range, or null where the host lacks ExcelApi 1.13. office.js defines
 * getMergedAreasOrNullObject on every host and throws ApiNotFound where the set is missing, so
 * only isSetSupported tells; no older API reports merges without changing the sheet, so the
 * caller gets null and decides (a sync then asks for every cell a merge could hide to be filled).
 */
async function mergedAreas(context: Excel.RequestContext, range: Excel.Range): Promise<string[] | null> {
  if (!requirementSupported("ExcelApi", "1.13")) return null;
  const areas = range.getMergedAreasOrNullObject();
  areas.load("address");
  await context.sync();
  return areas.isNullObject ? [] : splitAreas(areas.address);
}

/** Read the current selection of the active sheet. */
export async function readSelection(context: Excel.RequestContext, options: ReadOptions = {}): Promise<RangeSnapshot> {
  return readRange(context, context.workbook.getSelectedRange(), options);
}

/** Read a named Excel table, header row included. Rejects with a clear message when it is missing. */
export async function readTable(
  context: Excel.RequestContext,
  tableName: string,
  options: ReadOptions = {},
): Promise<RangeSnapshot> {
  const table = context.workbook.tables.getItemOrNullObject(tableName);
  await context.sync();
  if (table.isNullObject) throw new MessageError(message("excel.read.noTable", { table: tableName }));
  return readRange(context, table.getRange(), options);
}

/** Read a range by its sheet-qualified address (e.g. a range synced earlier), the same way. */
export async function readAddress(
  context: Excel.RequestContext,
  address: string,
  options: ReadOptions = {},
): Promise<RangeSnapshot> {
  const bang = address.lastIndexOf("!");
  if (bang < 0) throw new MessageError(message("excel.read.noSheetInAddress", { address }));
  const sheet = context.workbook.worksheets.getItemOrNullObject(sheetOf(address));
  await context.sync();
  if (sheet.isNullObject) throw new MessageError(message("excel.read.sheetGone", { address }));
  return readRange(context, sheet.getRange(address.slice(bang + 1)), options);
}

/** A table the user can pick as a sync source. */
export interface TableInfo {
  name: string;
  sheetName: string;
}

/** Every table of the workbook, with its sheet. */
export async function listTables(context: Excel.RequestContext): Promise<TableInfo[]> {
  const tables = context.workbook.tables;
  tables.load("items/name");
  await context.sync();
  const sheets = tables.items.map((t) => {
    const ws = t.worksheet;
    ws.load("name");
    return ws;
  });
  await context.sync();
  return tables.items.map((t, i) => ({ name: t.name, sheetName: sheets[i].name }));
}

/** The names of every sheet of the workbook, hidden ones included (the names a new sheet must avoid). */
export async function listSheetNames(context: Excel.RequestContext): Promise<string[]> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  return sheets.items.map((s) => s.name);
}

/**
 * A read queued to go with the caller's next request (a round trip fewer): `queue` queues the loads
 * and returns what gives their result once synced. The function returned gives that result, and
 * reads anew when the request that was to carry it failed and was asked again without it (an
 * answer over the 5 MB limit, split by {@link readBlocks}) or none was sent: an unloaded property
 * throws, as office.js's PropertyNotLoaded does. `readAlone`, when given, is how it reads anew (a
 * read too large for one answer: in slices), instead of queuing the same loads alone.
 */
export function queueRead<T>(
  context: Excel.RequestContext,
  queue: () => () => T,
  readAlone?: () => Promise<T>,
): () => Promise<T> {
  const first = queue();
  return async () => {
    try {
      return first();
    } catch {
      if (readAlone) return readAlone();
      const again = queue();
      await context.sync();
      return again();
    }
  };
}

/** Cells of {@link readBlock}'s first read, before it knows what a row of the block weighs. */
const CELLS_PER_READ = 40_000;
/**
 * What each later read of {@link readBlock} aims at: 4 MB, under Excel on the web's 5 MB response
 * limit with room for rows heavier than those read so far ("Resource limits and performance
 * optimization for Office Add-ins": requests and responses are limited to 5 MB, a read to
 * 5,000,000 cells). Each read is a round trip to Excel, so the fewer the better.
 */
export const READ_TARGET_BYTES = 4_000_000;
/**
 * What each read of {@link readBlocks} after its first aims at: 4.2 MB. By then each block's rows
 * are sized by what its own cells weighed, and a table's rows weigh about the same, so less room is
 * kept than the first read's for rows heavier than those read: 16.4 MB of a table is read in four
 * requests, not five. Rows 12 % heavier than reckoned still pass Excel's 5 MB limit (a column of
 * numbers that grow from 4 to 5 digits, test/excel/read-range.test.ts).
 */
const LATER_READ_BYTES = 4_200_000;
/**
 * How far over LATER_READ_BYTES a last read may go rather than leave a tail to a request of its own:
 * 4.62 MB as reckoned, which is mostly more than the cells weigh (the columns beside a table,
 * reckoned at the others' weight, are mostly empty).
 */
const TAIL_ALLOWANCE = 1.1;

/** Excel's limit of cells in one read (same source). */
const MAX_CELLS_PER_READ = 5_000_000;
const RESPONSE_TOO_LARGE = "ResponsePayloadSizeLimitExceeded";

/**
 * Whether a request failed because an item it asked for through `getItem` does not exist
 * (ItemNotFound): a read asked everything at once, and the caller asks again through null objects.
 */
export function isItemNotFound(error: unknown): boolean {
  return (error as { code?: unknown }).code === "ItemNotFound";
}

/** The cell properties {@link readBlock} and {@link readBlocks} read. */
export type CellProperty = "values" | "numberFormat" | "formulas";

/** A block of one sheet's cells to read (0-based), and which of their properties. */
export interface CellBlock {
  sheet: Excel.Worksheet;
  row: number;
  col: number;
  rows: number;
  cols: number;
  properties: readonly CellProperty[];
  /**
   * What a cell of it weighs in an answer, when the caller knows from an earlier read of the same
   * cells (a written store's first rows): its rows are then packed by it, not by what other
   * blocks weighed.
   */
  bytesPerCell?: number;
}

/** What {@link readBlocks} read of one block: each property asked for. */
export type BlockRead = Partial<Record<CellProperty, CellValue[][]>>;

/** Options of {@link readBlocks}. */
export interface ReadBlocksOptions {
  /**
   * Called once, after the first request was answered (with whatever the caller queued before it):
   * more blocks to read, packed with the rest (a round trip fewer than reading them after). Their
   * reads come after the others' in the answer.
   */
  more?: () => Promise<readonly CellBlock[]>;
  /**
   * The answer the first request may take, when the caller queued reads of its own to go with it
   * (their weight taken from READ_TARGET_BYTES). Default READ_TARGET_BYTES.
   */
  firstBytes?: number;
}

/**
 * Reads the properties of many blocks (a table's header, body and the columns beside it; the cells
 * a refresh is about to overwrite, row group by row group) in as few round trips as their answers
 * allow: slices of rows, of one block or of several, are loaded together up to about 4 MB of answer
 * (40,000 cells at first, then each block's rows sized by what its cells read so far weighed, or
 * what the cells of every block did; 4.2 MB after the first), one sync each, so a
 * block larger than a request shares its first and last requests with the blocks around it instead
 * of starting a request of its own ("Avoid using the context.sync method in loops",
 * https://learn.microsoft.com/office/dev/add-ins/concepts/correlated-objects-pattern). A request
 * whose answer passes Excel's limit is asked again at half its size, down to one row. Returns, per
 * block in order (those of `more` last), each of its properties' cells.
 */
export async function readBlocks(
  context: Excel.RequestContext,
  first: readonly CellBlock[],
  options: ReadBlocksOptions = {},
): Promise<BlockRead[]> {
  const blocks = [...first];
  const out: BlockRead[] = [];
  const add = (b: CellBlock) => {
    const one: BlockRead = {};
    // A block of no columns has no range to read: its rows are empty.
    for (const property of b.properties) one[property] = b.cols > 0 ? [] : Array.from({ length: b.rows }, () => []);
    out.push(one);
  };
  blocks.forEach(add);
  let more = options.more;
  const rowCells = (b: CellBlock) => b.cols * b.properties.length;
  const readable = (b: CellBlock) => b.rows > 0 && b.cols > 0 && b.properties.length > 0;
  // What each block's cells weighed so far, and all blocks' (for blocks not read yet).
  const weighed = blocks.map(() => ({ cells: 0, bytes: 0 }));
  let cellsRead = 0;
  let bytesRead = 0;
  // Before anything was read a cell is reckoned at a 40,000th of the target (40,000 cells a request).
  const cellBytes = (b: number) =>
    weighed[b].cells > 0
      ? weighed[b].bytes / weighed[b].cells
      : (blocks[b].bytesPerCell ?? (cellsRead > 0 ? bytesRead / cellsRead : READ_TARGET_BYTES / CELLS_PER_READ));
  let budgetBytes = Math.max(0, options.firstBytes ?? READ_TARGET_BYTES);
  // What the rows from row `r` of blocks[b] on are reckoned to weigh.
  const remainingBytes = (b: number, r: number) => {
    let bytes = 0;
    for (let i = b; i < blocks.length; i++)
      if (readable(blocks[i]))
        bytes += Math.max(0, blocks[i].rows - (i === b ? r : 0)) * rowCells(blocks[i]) * cellBytes(i);
    return bytes;
  };
  const takeMore = async () => {
    if (!more) return;
    const extra = await more();
    more = undefined;
    for (const e of extra) {
      blocks.push(e);
      weighed.push({ cells: 0, bytes: 0 });
      add(e);
    }
  };
  // The next row to read: row `row` of blocks[block].
  let block = 0;
  let row = 0;
  for (;;) {
    while (block < blocks.length && (!readable(blocks[block]) || row >= blocks[block].rows)) {
      block++;
      row = 0;
    }
    if (block >= blocks.length) {
      if (!more) return out;
      // Nothing of the first blocks to read: the caller's (its reads then ask for themselves).
      await takeMore();
      continue;
    }
    // One request: rows from here on, block after block, up to the budget (one row at least).
    const slices: Array<{ block: number; range: Excel.Range; cells: number }> = [];
    let budget = budgetBytes;
    let asked = 0;
    let b = block;
    let r = row;
    while (b < blocks.length) {
      const next = blocks[b];
      if (!readable(next) || r >= next.rows) {
        b++;
        r = 0;
        continue;
      }
      const rowBytes = Math.max(1e-9, rowCells(next) * cellBytes(b));
      const fit = Math.min(Math.floor(MAX_CELLS_PER_READ / next.cols), Math.floor(budget / rowBytes));
      const take = Math.min(next.rows - r, slices.length === 0 ? Math.max(1, fit) : fit);
      if (take <= 0) break;
      const range = next.sheet.getRangeByIndexes(next.row + r, next.col, take, next.cols);
      range.load([...next.properties]);
      slices.push({ block: b, range, cells: take * rowCells(next) });
      budget -= take * rowBytes;
      asked += take * rowBytes;
      r += take;
    }
    try {
      await context.sync();
    } catch (error) {
      const oneRow = slices.length === 1 && slices[0].cells === rowCells(blocks[block]);
      if ((error as { code?: unknown }).code !== RESPONSE_TOO_LARGE || oneRow) throw error;
      budgetBytes = asked / 2;
      continue;
    }
    for (const slice of slices) {
      const one = out[slice.block];
      let bytes = 0;
      for (const property of blocks[slice.block].properties) {
        const cells = slice.range[property] as CellValue[][];
        const into = one[property]!;
        for (const line of cells) into.push(line); // not push(...cells): a long slice passes the arguments' limit
        bytes += estimateJsonBytes(cells);
      }
      weighed[slice.block].cells += slice.cells;
      weighed[slice.block].bytes += bytes;
      bytesRead += bytes;
      cellsRead += slice.cells;
    }
    block = b;
    row = r;
    await takeMore();
    // What is left, when a little over one request's worth, in one (not a request for a tail).
    const left = remainingBytes(block, row);
    budgetBytes = left <= LATER_READ_BYTES * TAIL_ALLOWANCE ? left * 1.001 + 1 : LATER_READ_BYTES;
  }
}

/**
 * Reads a block of cells' `values`, `numberFormat` or `formulas` in slices of rows: the first of
 * 40,000 cells, the next sized by what the rows read so far weighed, so each answer comes near 4 MB
 * (one round trip per 4 MB, not per 40,000 cells). A slice whose answer passes Excel's payload
 * limit (a region much heavier than the rows before it) is read again in halves, down to one row.
 */
export async function readBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  row: number,
  col: number,
  rows: number,
  cols: number,
  property: CellProperty,
  /** Rows of the first read, when the caller knows its cells are heavier than most (long texts). */
  firstRows?: number,
): Promise<CellValue[][]> {
  const out: CellValue[][] = [];
  const width = Math.max(1, cols);
  const mostRows = Math.max(1, Math.floor(MAX_CELLS_PER_READ / width));
  let step = Math.max(1, firstRows ?? Math.floor(CELLS_PER_READ / width));
  let bytesRead = 0;
  for (let r = 0; r < rows;) {
    const slice = sheet.getRangeByIndexes(row + r, col, Math.min(step, rows - r), cols);
    slice.load(property);
    try {
      await context.sync();
    } catch (error) {
      if ((error as { code?: unknown }).code !== RESPONSE_TOO_LARGE || step === 1) throw error;
      step = Math.max(1, Math.floor(step / 2));
      continue;
    }
    const got = slice[property] as CellValue[][];
    out.push(...got);
    r += got.length;
    bytesRead += estimateJsonBytes(got);
    const bytesPerRow = Math.max(1, bytesRead / out.length);
    step = Math.min(mostRows, Math.max(1, Math.floor(READ_TARGET_BYTES / bytesPerRow)));
  }
  return out;
}
