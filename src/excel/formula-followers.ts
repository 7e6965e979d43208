/**
 * Tables of formulas that follow a keyed pasted table (the financial impact's per-asset losses and
 * roll-up, over its data sheet), brought in line after the keyed table was refreshed by key:
 *
 *  - the mirror: each row is about one asset of the keyed table and finds it by key, live: its
 *    first column holds, as a value, what the keyed table's first column holds for the asset (its
 *    lookup key, the financial impact's portfolio_index), and its formulas look the row holding it
 *    up (`MATCH`, then `INDEX`). Excel's sort moves values, not references ("references from
 *    elsewhere into the sorted range are not changed", the rule testing/fake-excel/shift.ts
 *    follows), so a row reading a place would show another asset after the analyst sorts the keyed
 *    table; a row that looks its asset up does not. At a refresh the mirror is kept by key, the way
 *    keyed-replace.ts keeps the keyed table: its rows stay where they are, beside the analyst's
 *    cells, and each gets its asset's lookup key anew when it changed ({@link checkFollowers} says
 *    which asset each row is about); a row whose asset is gone is deleted with Excel's own
 *    deletion, its analyst's cells kept in a "Removed at refresh on …" block; rows are appended for
 *    new assets. A record of which asset each row is about (a written store) tells, at the next
 *    refresh, notes that stayed beside their row from notes moved by a sort of the mirror itself
 *    (a table's sort moves its own columns, not the analyst's cells beside it).
 *  - the summary: its totals run over whole columns of the mirror, and its groups may change, so
 *    its formulas are written anew over its body, which grows or shrinks by rows inserted or
 *    deleted at its end.
 *
 * They run after the keyed table's refresh, whose row deletion cannot be undone; everything that
 * could refuse is checked before it ({@link checkFollowers}).
 */
import { parseA1, qualify, rangeA1 } from "../shaping/a1";
import { changedColumns, rowDigest, type WrittenRow } from "../shaping/keyed-diff";
import type { ProvenanceRecord } from "../shaping/paste-provenance";
import { describeKey } from "../shaping/row-keys";
import type { CellValue } from "../shaping/types";
import { DEFAULT_MAX_REQUEST_BYTES, OPERATION_OVERHEAD_BYTES, planRowChunks, rowBytes } from "./chunks";
import { isItemNotFound, queueRead, readBlock, readBlocks, type CellBlock } from "./read-range";
import { queueTableRowKeys, runs, writeRemovedBlock, type TableRowKeys } from "./keyed-replace";
import { PastedSheetChangedError, queueWritable, refuseUnchangeable } from "./replace-table";
import { deleteWrittenStore, queueWrittenStoreParts, writeWrittenStore } from "./written-store";
import { deleteVeryHiddenSheet } from "./store-sheets";
import { requirementSupported } from "../shared/requirements";
import { message } from "../i18n/messages";

const GROW_UNSUPPORTED = "this version of Excel cannot grow a table (it needs Excel 2102 or Mac 16.50 or later)";

/** The follower tables of a keyed table, by table name (a table keeps its name when its sheet is renamed). */
export interface FollowerTables {
  /** Row n reads row n of the keyed table. */
  mirror: string;
  /** Totals over the mirror's columns. */
  summary: string;
  /**
   * The record of which asset each mirror row is about, with a digest of the analyst's cells beside
   * it (a written store, src/excel/written-store.ts), from the paste on.
   */
  store?: string;
}

/** The followers' current sheet names, which their formulas name. */
export interface FollowerSheetNames {
  keyed: string;
  mirror: string;
  summary: string;
}

/** The followers' formulas, once their sheets' names are known. */
export interface FollowerFormulas {
  /**
   * The mirror's row at a 1-based sheet row for the asset whose lookup key (what the keyed table's
   * first column holds for it) is `lookup`: that key first, as a value, then formulas that find
   * the asset's row of the keyed table by it.
   */
  mirrorRowAt(sheetRow: number, lookup: CellValue): CellValue[];
  /** The summary's rows over a keyed table of `rows` body rows. */
  summaryRows(rows: number): CellValue[][];
}

/** What the followers' refresh did. */
export interface FollowersReport {
  /** Rows of the mirror deleted (their asset is gone) and appended (for new assets). */
  mirrorRemoved: number;
  mirrorAdded: number;
  /** Rows of the summary now. */
  summaryRows: number;
  /** Where the analyst's cells beside the mirror's removed rows were kept ("Sheet!A52:C55"), if any held something. */
  removedBlock?: string;
  /**
   * Keys (as the pane shows them) of mirror rows whose analyst's cells, untouched since the last
   * refresh, were beside another asset because the mirror was sorted since (its sort moves its own
   * columns, not the cells beside it): the row reads their asset again.
   */
  followedBack: string[];
  /**
   * Keys of mirror rows whose analyst's cells were typed or changed since the last refresh while
   * the mirror's order had changed: kept with the asset shown beside them then.
   */
  keptAsShown: string[];
  /** The new record of which asset each mirror row is (src/excel/written-store.ts), for the provenance. */
  store: string;
  /**
   * Set when the last request failed after the old record's deletion was applied: everything of the
   * followers before it was too (a request applies in order), so they are in line and the new record
   * is whole, but the caller's writes queued after it (`beforeLastRequest`) may be in part and are
   * to be written again.
   */
  lastRequestFailed?: true;
}

/** How far right of a table the analyst's columns beside it are looked for (as keyed-replace.ts). */
const BESIDE_SCAN = 16;

/**
 * The mirror as it was before the keyed table's refresh: the asset each of its rows is about
 * (`owners`, raw keys; undefined when not known) and the analyst's cells of each row (their
 * columns inside the mirror table and beside it, formulas as typed), with their header.
 */
export interface FollowersBefore {
  owners: Array<string | undefined>;
  cells: CellValue[][];
  header: string[];
  /** 0-based first column of the analyst's cells, and how many. */
  from: number;
  width: number;
  followedBack: string[];
  keptAsShown: string[];
  /**
   * The keyed table's record of what was written, as read here: the keyed refresh that follows in
   * the same batch (nothing writes it in between) takes it instead of reading it again.
   */
  keyedWritten?: Map<string, WrittenRow>;
  /**
   * A follower table the analyst filtered: Excel cannot add or delete its rows, so the keyed
   * refresh refuses to add or remove rows (KeyedRefreshOptions.filteredFollower) before writing.
   */
  filtered?: { sheet: string; table: string };
}

/**
 * The keyed table's rows now, by the lookup key of each (what its first column holds: the mirror's
 * rows find their asset by it): `keyOf` gives the asset's key (through the table's record of what
 * was written, keyed-replace.ts queueTableRowKeys), `lookupOf` the other way.
 */
function lookupKeys(
  shown: TableRowKeys | null,
): { keyOf: Map<string, string>; lookupOf: Map<string, CellValue> } | null {
  if (!shown) return null;
  const keyOf = new Map<string, string>();
  const lookupOf = new Map<string, CellValue>();
  // The first column came with the keys' read (a round trip fewer).
  for (const [row, key] of shown.keys) {
    const lookup = shown.firstColumn.get(row) ?? "";
    keyOf.set(String(lookup), key);
    lookupOf.set(key, lookup);
  }
  return { keyOf, lookupOf };
}

/**
 * Checks, changing nothing, that the keyed table sits at A1 of its sheet (the followers' formulas
 * find its rows by sheet row) and that both follower tables exist, and finds which asset each row
 * of the mirror is about, by key:
 *  - the asset it shows now (the one whose lookup key its first column holds);
 *  - the asset it was written for at the last refresh (the mirror's own record, `followers.store`).
 * They differ when the mirror itself was sorted since: a table's sort moves its own columns, not
 * the analyst's cells beside it, so a mirror row then shows another asset beside the analyst's
 * notes. The notes are about the asset they were written beside: the recorded one when they are
 * as they were at the last refresh (their digests match), the one shown now when they were typed
 * or changed since.
 * Throws PastedSheetChangedError.
 */
export async function checkFollowers(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  followers: FollowerTables,
  build: (names: FollowerSheetNames) => FollowerFormulas,
): Promise<FollowersBefore> {
  const at = parseA1(record.tableAddress);
  if (at.row !== 0 || at.col !== 0)
    throw new PastedSheetChangedError(
      message("excel.refresh.movedFromA1", { sheet: record.sheetName, address: record.tableAddress }),
    );
  // The keyed table's rows by key are read in the followers' own requests (a round trip fewer each).
  // Everything is asked at once, through getItem (a round trip fewer): when a table, sheet or
  // record is gone Excel fails that read-only request (ItemNotFound), and they are asked again
  // through null objects, to say which.
  // Whether the losses sheet's record is there goes with the same request (a round trip fewer).
  const recordedStoreOf = () =>
    followers.store ? context.workbook.worksheets.getItemOrNullObject(followers.store) : undefined;
  let found: FollowersFound;
  try {
    const keyedRead = queueTableRowKeys(context, record, { atOnce: true });
    const tables = [followers.mirror, followers.summary].map((name) => locateTable(context, name));
    const recordedStore = recordedStoreOf();
    await context.sync();
    found = { keyedRead, tables, recordedStore };
  } catch (error) {
    if (!isItemNotFound(error)) throw error;
    const keyedRead = queueTableRowKeys(context, record);
    const tables = await findFollowers(context, record, followers);
    keyedRead.located();
    const recordedStore = recordedStoreOf();
    await context.sync();
    found = { keyedRead, tables, recordedStore };
  }
  const {
    keyedRead,
    tables: [mirror, summary],
    recordedStore,
  } = found;
  for (const { sheet, table, writable } of [mirror, summary]) refuseUnchangeable(sheet.name, table.name, writable());
  const filtered = [mirror, summary].find((t) => t.writable().filtered);
  const keyedBlock = keyedRead.block();
  const m = mirror.range;
  const body = m.rowCount - 1;
  const names = { keyed: record.sheetName, mirror: mirror.sheet.name, summary: summary.sheet.name };
  const formulaWidth = Math.min(m.columnCount, build(names).mirrorRowAt(2, "").length);
  const from = m.columnIndex + formulaWidth;
  const inside = m.columnCount - formulaWidth;
  // The columns right of the table that may hold the analyst's (BESIDE_SCAN of them) are read with
  // the analyst's columns inside it, and the mirror's record with both (a round trip fewer each).
  const scan = Math.max(0, Math.min(BESIDE_SCAN, 16_384 - (m.columnIndex + m.columnCount)));
  const recordedRead =
    recordedStore && !recordedStore.isNullObject ? queueWrittenStoreParts(context, recordedStore) : undefined;
  // The analyst's columns and the lookups in as few requests as their answers allow (readBlocks),
  // the rest of both records (beyond their first rows, which go with the first request) packed with
  // them once that request said how long they are (a round trip fewer each).
  // A constant reads back the same as a value or as a formula; a formula in the lookups is a mirror
  // written by an earlier version, whose rows read data rows by place (and lack the `data row` column).
  const rests: Array<CellBlock | undefined> = [];
  const more = async () => {
    rests.push(await keyedRead.rest(), await recordedRead?.rest());
    return rests.filter((b) => b !== undefined);
  };
  const blocks = await readBlocks(
    context,
    [
      {
        sheet: mirror.sheet,
        row: m.rowIndex,
        col: from,
        rows: inside + scan > 0 ? body + 1 : 0,
        cols: inside + scan,
        properties: ["formulas"],
      },
      { sheet: mirror.sheet, row: m.rowIndex + 1, col: m.columnIndex, rows: body, cols: 1, properties: ["formulas"] },
      ...(keyedBlock ? [{ ...keyedBlock, properties: ["values"] as const }] : []),
    ],
    { more },
  );
  const [mineRead, lookupsRead] = blocks;
  const keyedValues = keyedBlock ? blocks[2] : undefined;
  // The records' rests, in the order `more` gave them, after the first blocks.
  let nextRest = keyedBlock ? 3 : 2;
  const [keyedRest, recordedRest] = rests.map((b) => (b ? blocks[nextRest++].values : undefined));
  const width = inside + besideWidth(mineRead.formulas!, inside);
  const mine = width > 0 ? mineRead.formulas!.map((line) => line.slice(0, width)) : [];
  const lookups = lookupsRead.formulas!;
  if (lookups.some(([lookup]) => typeof lookup === "string" && lookup.startsWith("=")))
    throw new PastedSheetChangedError(message("excel.refresh.mirrorByPlace", { sheet: names.mirror }));
  const shownKeys = keyedBlock ? await keyedRead.keysOf(keyedValues!.values!, keyedRest) : null;
  const shown = lookupKeys(shownKeys);
  const recorded = recordedRead ? await recordedRead.complete(recordedRest) : null;
  const before: FollowersBefore = {
    keyedWritten: shownKeys?.written,
    owners: [],
    cells: mine.slice(1),
    header: (mine[0] ?? []).map((h, i) => (h === "" ? `(column ${i + 1})` : String(h))),
    from,
    width,
    followedBack: [],
    keptAsShown: [],
    ...(filtered ? { filtered: { sheet: filtered.sheet.name, table: filtered.table.name } } : {}),
  };
  lookups.forEach(([lookup], i) => {
    const now = shown?.keyOf.get(String(lookup));
    const then = recorded?.get(String(i));
    const cells = before.cells[i] ?? [];
    const typed = cells.some((v) => v !== "");
    const untouched = then !== undefined && changedColumns(cells, then.digest, width).length === 0;
    let owner = now;
    if (then && then.key !== now && (untouched || now === undefined)) {
      owner = then.key;
      if (typed) before.followedBack.push(describeKey(then.key));
    } else if (then && then.key !== now && typed && now !== undefined) before.keptAsShown.push(describeKey(now));
    before.owners.push(owner);
  });
  return before;
}

/** What refreshFollowers' first request reads for its deletion's request, when that deletes nothing. */
interface EarlyReads {
  formats: CellValue[][];
  summaryFormats: CellValue[][];
  holding: CellValue[][] | undefined;
}

/** What checkFollowers' first request asked: the keyed table's keys, the follower tables, the losses sheet's record. */
interface FollowersFound {
  keyedRead: ReturnType<typeof queueTableRowKeys>;
  tables: Array<ReturnType<typeof locateTable>>;
  recordedStore: Excel.Worksheet | undefined;
}

/** The follower tables, their sheets and ranges (loaded at the next sync); PastedSheetChangedError when one is gone. */
async function findFollowers(context: Excel.RequestContext, record: ProvenanceRecord, followers: FollowerTables) {
  const tables = [followers.mirror, followers.summary].map((name) => {
    const table = context.workbook.tables.getItemOrNullObject(name);
    return { name, table, sheet: table.worksheet };
  });
  await context.sync();
  const gone = tables.filter((t) => t.table.isNullObject).map((t) => t.name);
  if (gone.length > 0)
    throw new PastedSheetChangedError(
      message("excel.refresh.followerTablesGone", {
        sheet: record.sheetName,
        count: gone.length,
        tables: gone.map((n) => `"${n}"`).join(", "),
      }),
    );
  return tables.map(({ table }) => locateTable(context, table));
}

/** A table known to exist (by name, or the object), its sheet and range, loaded at the next sync. */
function locateTable(context: Excel.RequestContext, nameOrTable: string | Excel.Table) {
  const table = typeof nameOrTable === "string" ? context.workbook.tables.getItem(nameOrTable) : nameOrTable;
  const sheet = table.worksheet;
  sheet.load("name");
  const range = table.getRange();
  range.load("rowIndex, columnIndex, rowCount, columnCount");
  table.load("name");
  // Asked with the rest: protected, a total row, filtered (a filtered table's rows cannot follow).
  return { table, sheet, range, writable: queueWritable(sheet, table) };
}

/**
 * Brings the follower tables in line with the keyed table of `record` (already refreshed), by key:
 * each mirror row stays where it is, beside the analyst's cells, and gets its asset's lookup key
 * anew when it changed (its formulas find the asset by it); a row whose asset is gone (or that a second row is
 * already about, or whose asset is not known) is deleted with Excel's own deletion, with the
 * columns beside it, what the analyst's cells held kept in a "Removed at refresh on …" block (as
 * keyed-replace.ts keeps a removed row's); rows are appended for assets no row is about; the
 * summary is written anew over the mirror's rows. Then the record of which asset each mirror row
 * is about is written anew (its store name in the report, for the provenance).
 */
export async function refreshFollowers(
  context: Excel.RequestContext,
  record: ProvenanceRecord,
  followers: FollowerTables,
  before: FollowersBefore,
  build: (names: FollowerSheetNames) => FollowerFormulas,
  options: {
    maxRequestBytes?: number;
    now?: Date;
    /**
     * The keyed table's record of what was written as its refresh in this batch just wrote it
     * (refreshTableByKey's `written`): not read back (a round trip fewer).
     */
    keyedWritten?: Map<string, WrittenRow>;
    /**
     * Queues the caller's writes to go last in the last request, given the new record's store name
     * (the provenance naming it: a round trip fewer). When that request fails they may have applied
     * in part: the caller writes them again as they should be.
     */
    beforeLastRequest?: (store: string) => Promise<void>;
  } = {},
): Promise<FollowersReport> {
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  // checkFollowers found both tables in this batch, before the keyed table's refresh (which leaves
  // them be): they are asked for directly, with the sheets' names the new record must avoid and
  // whether the old record is there, in one request.
  // The keyed table's rows by key again, where its refresh just left them (`record`), read in the
  // same requests (asked anew when the request that was to carry them was asked again without).
  // With them, what the deletion's request reads when it deletes no mirror row (most refreshes,
  // the request then having nothing else): the first body rows' number formats and the lookup keys
  // the mirror's rows hold, through the tables' own ranges (their places are not known yet).
  const locating = queueRead(context, () => {
    const tables = [followers.mirror, followers.summary].map((name) => locateTable(context, name));
    const sheets = context.workbook.worksheets.load("items/name");
    const store = followers.store ? context.workbook.worksheets.getItemOrNullObject(followers.store) : undefined;
    const [mirrorBody, summaryBody] = tables.map((t) => t.table.getDataBodyRange());
    const formats = mirrorBody.getRow(0).load("numberFormat");
    const summaryFormats = summaryBody.getRow(0).load("numberFormat");
    const rows = before.owners.length;
    const holding = rows > 0 && rows <= QUEUED_CELLS ? mirrorBody.getColumn(0).load("values") : undefined;
    return () => {
      // Each read once here, so an unloaded one throws here (queueRead then asks again).
      for (const t of tables) void [t.sheet.name, t.range.rowCount];
      void store?.isNullObject;
      const early: EarlyReads = {
        formats: formats.numberFormat as CellValue[][],
        summaryFormats: summaryFormats.numberFormat as CellValue[][],
        holding: holding?.values as CellValue[][] | undefined,
      };
      return { tables, names: sheets.items.map((sheet) => sheet.name), oldStore: store, early };
    };
  });
  const keyedRead = queueTableRowKeys(context, record, { justWritten: true, written: options.keyedWritten });
  const keyedBlock = keyedRead.block();
  const keyedValues = keyedBlock
    ? (await readBlocks(context, [{ ...keyedBlock, properties: ["values"] }]))[0]
    : undefined;
  const {
    tables: [mirror, summary],
    names: sheetNames,
    oldStore,
    early,
  } = await locating();
  const formulas = build({ keyed: record.sheetName, mirror: mirror.sheet.name, summary: summary.sheet.name });

  // ---- which mirror rows stay (their asset is still there, once), which go, which assets are new ----
  const m = mirror.range;
  const top = m.rowIndex;
  const left = m.columnIndex;
  const cols = m.columnCount;
  const body = m.rowCount - 1;
  if (body !== before.owners.length)
    throw new Error(
      `the sheet "${mirror.sheet.name}" changed during the refresh (${body} rows, ${before.owners.length} before)`,
    );
  const now = lookupKeys(keyedBlock ? await keyedRead.keysOf(keyedValues!.values!) : null);
  if (!now) throw new Error(`the table of "${record.sheetName}" could not be read again`);
  const { lookupOf } = now;
  const kept: Array<{ position: number; key: string }> = [];
  const removed: Array<{ position: number; label: string }> = [];
  const claimed = new Set<string>();
  before.owners.forEach((key, position) => {
    if (key !== undefined && lookupOf.has(key) && !claimed.has(key)) {
      claimed.add(key);
      kept.push({ position, key });
    } else {
      const label =
        key === undefined
          ? `row ${top + 2 + position} (its asset is not known)`
          : claimed.has(key)
            ? `${describeKey(key)} (a second row about it)`
            : describeKey(key);
      removed.push({ position, label });
    }
  });
  // In the keyed table's order (lookupOf was filled from its rows, top down).
  const added = [...lookupOf.keys()].filter((key) => !claimed.has(key));
  // Excel keeps a table's header and one row: with no row left, the first is kept and re-used for a new asset.
  let reused: number | undefined;
  if (kept.length === 0 && removed.length > 0 && added.length > 0) reused = removed[0].position;
  const removedLines = removed
    .map((r) => ({ key: r.label, cells: before.cells[r.position] ?? [] }))
    .filter((line) => line.cells.some((v) => v !== ""));

  // ---- delete the rows that go (bottom run first), keep what their analyst's cells held ----
  const besideRight = before.from + before.width; // one past the analyst's last column
  const span = Math.max(cols, besideRight - left);
  const gone = removed.map((r) => r.position).filter((p) => p !== reused);
  for (const run of runs(gone).reverse())
    mirror.sheet
      .getRangeByIndexes(top + 1 + run.start, left, run.count, span)
      .delete("Up" as Excel.DeleteShiftDirection);
  // Read in the deletion's request, after it (a request applies in order: they read what they
  // would read after it): the number formats of the mirror's and the summary's first body rows,
  // and the lookup keys the kept rows hold now (when few enough to need no slicing).
  const present = body - gone.length;
  const s = summary.range;
  // Nothing deleted: read with the first request already.
  const asked = gone.length === 0 && (early.holding !== undefined || present > QUEUED_CELLS);
  const formatsRead = asked ? () => early.formats : queueCells(mirror.sheet, top + 1, left, 1, cols, "numberFormat");
  const summaryFormatsRead = asked
    ? () => early.summaryFormats
    : queueCells(summary.sheet, s.rowIndex + 1, s.columnIndex, 1, s.columnCount, "numberFormat");
  const holdingRead =
    present > 0 && present <= QUEUED_CELLS
      ? asked
        ? () => early.holding!
        : queueCells(mirror.sheet, top + 1, left, present, 1, "values")
      : undefined;
  if (!asked) await context.sync();
  const placeOf = (position: number) => position - gone.filter((p) => p < position).length;
  if (reused !== undefined && before.width > 0)
    mirror.sheet
      .getRangeByIndexes(top + 1 + placeOf(reused), before.from, 1, before.width)
      .clear("Contents" as Excel.ClearApplyTo);

  // ---- each row reads its asset's data row; rows appended for new assets ----
  const lines = kept.map((k) => ({ place: placeOf(k.position), key: k.key, cells: before.cells[k.position] ?? [] }));
  const toAdd = added;
  if (reused !== undefined) lines.push({ place: placeOf(reused), key: toAdd.shift()!, cells: [] });
  const formats = formatsRead()[0];
  if (toAdd.length > 0) {
    // Growing a table needs ExcelApi 1.13; without it the sheets cannot follow (the outcome says so).
    if (!requirementSupported("ExcelApi", "1.13")) throw new Error(GROW_UNSUPPORTED);
    mirror.sheet
      .getRangeByIndexes(top + 1 + present, left, toAdd.length, span)
      .insert("Down" as Excel.InsertShiftDirection);
    mirror.table.resize(rangeA1(top, left, present + toAdd.length + 1, cols));
    await context.sync();
    toAdd.forEach((key, i) => lines.push({ place: present + i, key, cells: [] }));
  }
  lines.sort((a, b) => a.place - b.place);
  // A kept row's formulas find its asset wherever it is: only its lookup key is written, and only
  // when it changed (an asset above left the portfolio and the indexes shifted). Appended rows
  // get the whole row.
  const holding = holdingRead
    ? holdingRead()
    : present > 0
      ? await readBlock(context, mirror.sheet, top + 1, left, present, 1, "values")
      : [];
  const keyAt = new Map(
    lines
      .filter((l) => l.place < present && String(holding[l.place]?.[0] ?? "") !== String(lookupOf.get(l.key)))
      .map((l) => [top + 2 + l.place, [lookupOf.get(l.key)!]]),
  );
  const rowAt = new Map(
    lines
      .filter((l) => l.place >= present)
      .map((l) => [top + 2 + l.place, formulas.mirrorRowAt(top + 2 + l.place, lookupOf.get(l.key)!)]),
  );
  // The kept rows' keys and the appended rows in the same requests (the kept rows are above).
  const mirrorWrites = new Map([...keyAt, ...rowAt]);
  await writeFormulas(context, mirror.sheet, left, [...mirrorWrites.keys()], (n) => mirrorWrites.get(n)!, formats, {
    maxRequestBytes,
  });
  const mirrorRows = present + toAdd.length;
  // Below everything, once the rows are appended (an insertion would move it).
  let removedBlock: string | undefined;
  if (removedLines.length > 0) {
    const at = await writeRemovedBlock(context, mirror.sheet, left, before.header, removedLines, options.now);
    removedBlock = rangeA1(at.row, left, at.rows, at.cols);
  }

  // ---- the summary: its rows anew ----
  const next = formulas.summaryRows(mirrorRows);
  const old = s.rowCount - 1;
  const summaryFormats = summaryFormatsRead()[0];
  // Its rows deleted or inserted in its first write's request (a request applies in order).
  if (next.length < old) {
    summary.sheet
      .getRangeByIndexes(s.rowIndex + 1 + next.length, s.columnIndex, old - next.length, s.columnCount)
      .delete("Up" as Excel.DeleteShiftDirection);
  } else if (next.length > old) {
    if (!requirementSupported("ExcelApi", "1.13")) throw new Error(GROW_UNSUPPORTED);
    summary.sheet
      .getRangeByIndexes(s.rowIndex + 1 + old, s.columnIndex, next.length - old, s.columnCount)
      .insert("Down" as Excel.InsertShiftDirection);
    summary.table.resize(rangeA1(s.rowIndex, s.columnIndex, next.length + 1, s.columnCount));
  }
  // Its last request, when small, goes with the new record's first (a round trip fewer).
  const summaryWaiting = await writeFormulas(
    context,
    summary.sheet,
    s.columnIndex,
    next.map((_, i) => s.rowIndex + 2 + i),
    (sheetRow) => next[sheetRow - s.rowIndex - 2],
    summaryFormats,
    { maxRequestBytes, queuedBytes: next.length === old ? 0 : OPERATION_OVERHEAD_BYTES * 3, lastMayWait: true },
  );

  // ---- the record of which asset each mirror row is about, with its analyst's cells' digests ----
  // Its name avoids the sheets' names read above (no sheet was added since); the old record is
  // deleted in the request of the new one's last chunk, and the new one with it when that fails.
  const store = await writeWrittenStore(
    context,
    lines.map((l) => ({ locator: String(l.place), key: l.key, digest: rowDigest(l.cells, before.width), kept: [] })),
    maxRequestBytes,
    sheetNames,
    { lastChunkMayWait: true, queuedBytes: summaryWaiting },
  );
  const replacing = oldStore && !oldStore.isNullObject ? followers.store : undefined;
  if (replacing) deleteVeryHiddenSheet(oldStore!);
  await options.beforeLastRequest?.(store);
  let lastRequestFailed = false;
  try {
    await context.sync();
  } catch (error) {
    await keepNewRecordOrThrow(context, store, replacing, error);
    lastRequestFailed = true;
  }
  return {
    ...(lastRequestFailed ? { lastRequestFailed } : {}),
    mirrorRemoved: removed.length,
    mirrorAdded: toAdd.length + (reused === undefined ? 0 : 1),
    summaryRows: next.length,
    ...(removedBlock ? { removedBlock: qualify(mirror.sheet.name, removedBlock) } : {}),
    followedBack: before.followedBack,
    keptAsShown: before.keptAsShown,
    store,
  };
}

/**
 * After refreshFollowers' last request failed with `error`: with the old record (`replacing`)
 * deleted, the new one (`store`) is the only record left and stays (the report's
 * `lastRequestFailed`); otherwise the old one still stands, the new one is deleted and `error`
 * thrown. Whether the old one is gone is asked (a round trip); not known, it is taken to stand.
 */
async function keepNewRecordOrThrow(
  context: Excel.RequestContext,
  store: string,
  replacing: string | undefined,
  error: unknown,
): Promise<void> {
  let oldGone = false;
  if (replacing) {
    const old = context.workbook.worksheets.getItemOrNullObject(replacing);
    try {
      await context.sync();
      oldGone = old.isNullObject;
    } catch {
      // Not known: as if it stood.
    }
  }
  if (oldGone) return;
  await deleteWrittenStore(context, store);
  throw error;
}

/**
 * Columns right of a table holding anything in its rows (the analyst's), within the BESIDE_SCAN
 * read after its first `inside` columns (the table's own) in `lines`.
 */
function besideWidth(lines: readonly CellValue[][], inside: number): number {
  let width = 0;
  for (const line of lines)
    for (let c = inside + width; c < line.length; c++) if (line[c] !== "") width = c - inside + 1;
  return width;
}

/**
 * Writes formulas at 1-based sheet rows, ascending (`rowAt(sheetRow)`, rows of any width from the
 * table's first column), with the number formats of the table's first body row (`formats`),
 * consecutive rows of one width together, in requests under the budget (`queuedBytes`: writes the
 * caller left queued, which go with the first request). With `lastMayWait`, a last request of at
 * most half the budget is left queued to go with the caller's next one (a round trip fewer), whose
 * own writes must then stay under the other half; returns its bytes (0 when nothing waits).
 */
async function writeFormulas(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  left: number,
  sheetRows: readonly number[],
  rowAt: (sheetRow: number) => CellValue[],
  formats: readonly CellValue[],
  options: { maxRequestBytes: number; queuedBytes?: number; lastMayWait?: boolean },
): Promise<number> {
  const { maxRequestBytes } = options;
  const queued = options.queuedBytes ?? 0;
  if (sheetRows.length === 0) {
    if (queued > 0 && !options.lastMayWait) await context.sync();
    return options.lastMayWait ? queued : 0;
  }
  const lines = sheetRows.map((n) => rowAt(n));
  const format = formats.map((f) => String(f ?? "General"));
  const formatOf = (line: readonly CellValue[]) => format.slice(0, line.length);
  const chunks = planRowChunks(
    lines.map((line) => rowBytes(line, formatOf(line))),
    maxRequestBytes - queued - OPERATION_OVERHEAD_BYTES * 2,
    OPERATION_OVERHEAD_BYTES * 2,
  );
  const last = chunks[chunks.length - 1];
  const lastWaits =
    options.lastMayWait === true && last.bytes + (chunks.length === 1 ? queued : 0) <= maxRequestBytes / 2;
  for (const chunk of chunks) {
    let i = chunk.start;
    while (i < chunk.end) {
      let j = i + 1;
      while (j < chunk.end && sheetRows[j] === sheetRows[j - 1] + 1 && lines[j].length === lines[i].length) j++;
      const target = sheet.getRangeByIndexes(sheetRows[i] - 1, left, j - i, lines[i].length);
      target.numberFormat = lines.slice(i, j).map(() => formatOf(lines[i]));
      target.formulas = lines.slice(i, j) as string[][];
      i = j;
    }
    if (chunk !== last || !lastWaits) await context.sync();
  }
  return lastWaits ? last.bytes + (chunks.length === 1 ? queued : 0) : 0;
}

/** Cells read in a request sent anyway, without slicing (readBlock's first read is as many). */
const QUEUED_CELLS = 40_000;

/**
 * Loads a block of cells' property to go with the caller's next request; the function returned
 * gives it once synced. For blocks of at most QUEUED_CELLS cells, whose answer needs no slicing.
 */
function queueCells(
  sheet: Excel.Worksheet,
  row: number,
  col: number,
  rows: number,
  cols: number,
  property: "values" | "numberFormat",
): () => CellValue[][] {
  const range = sheet.getRangeByIndexes(row, col, rows, cols);
  range.load(property);
  return () => range[property] as CellValue[][];
}
