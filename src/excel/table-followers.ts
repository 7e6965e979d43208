/**
 * What follows a pasted table when a refresh changes its size: the conditional formats laid over
 * its columns and the series of charts drawn from it. Excel keeps the ranges these were made with
 * when Table.resize grows or shrinks a table, so a grown risk matrix would be coloured only down to
 * its old last row and a label-count chart would miss a new hazard. Each is re-pointed at the same
 * column (found by header name) over the new rows; what cannot be matched is left as it was.
 *
 * Reading a series' source is ExcelApi 1.15 (ChartSeries.getDimensionDataSourceString) and moving a
 * conditional format is ExcelApi 1.17 (ConditionalFormat.setRanges): on older builds the ones the
 * build cannot move keep their ranges, as before.
 */
import { requirementSupported } from "../shared/requirements";
import { parseA1, rangeA1 } from "../shaping/a1";

/** A table's place before and after a refresh; rows count the header, columns the user's too. */
export interface TableGeometry {
  /** 0-based first row (the header) and column. */
  row: number;
  col: number;
  /** Body rows before and after. */
  oldBody: number;
  newBody: number;
  /** The table's columns before and after (data columns then the user's). */
  oldCols: number;
  newCols: number;
  /** New column (relative to the table) of each old one, or undefined when it is gone. */
  columnOf: (oldColumn: number) => number | undefined;
  /** The last data column before and after (relative): a series ending there ends there again. */
  oldLastData: number;
  newLastData: number;
}

/** One re-pointed range, with how to put it back. */
interface Moved {
  restore: () => void;
}

/** The followers moved by {@link followTable}: `restore()` queues them back (sync after). */
export interface FollowedTable {
  restore(): void;
}

interface Rect {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/**
 * Re-points the conditional formats over the table's body and the chart series drawn from the table
 * on `sheet` to the table's new rows and columns. Queues the changes and syncs once; the result puts
 * them back (for a refresh that fails afterwards, or when this sync fails part-way).
 */
export async function followTable(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  at: TableGeometry,
): Promise<FollowedTable> {
  const moved: Moved[] = [];
  const done: FollowedTable = {
    restore: () => {
      for (const m of moved) m.restore();
    },
  };
  const canMoveFormats = requirementSupported("ExcelApi", "1.17");
  const canReadSeries = requirementSupported("ExcelApi", "1.15");
  if (!canMoveFormats && !canReadSeries) return done;
  sheet.load("name");
  const table = sheet.getRangeByIndexes(at.row, at.col, at.oldBody + 1, at.oldCols);
  const formats = canMoveFormats ? table.conditionalFormats.load("items/type") : undefined;
  const charts = canReadSeries ? sheet.charts.load("items/name, items/chartType") : undefined;
  await context.sync();

  const formatRanges = (formats?.items ?? []).map((cf) => {
    const range = cf.getRangeOrNullObject();
    range.load("address");
    return { cf, range };
  });
  const series = (charts?.items ?? []).map((chart) => ({ chart, list: chart.series.load("items/name") }));
  await context.sync();
  const sources = series.flatMap(({ chart, list }) => {
    // Scatter and bubble charts have x values where the others have categories (ChartSeriesDimension).
    const across = /^(XYScatter|Bubble)/.test(chart.chartType) ? "XValues" : "Categories";
    return list.items.map((s) => ({
      s,
      values: s.getDimensionDataSourceString("Values"),
      categories: s.getDimensionDataSourceString(across),
    }));
  });
  await context.sync();

  const local = (rect: Rect) => rangeA1(rect.row, rect.col, rect.rows, rect.cols);
  for (const { cf, range } of formatRanges) {
    if (range.isNullObject) continue; // several areas: not one we laid over a column
    const old = onSheet(range.address, sheet.name);
    const next = old && movedFormat(old, at);
    if (!old || !next) continue;
    cf.setRanges(local(next));
    moved.push({ restore: () => cf.setRanges(local(old)) });
  }
  for (const { s, values, categories } of sources) {
    const oldValues = onSheet(values.value, sheet.name);
    const oldCategories = onSheet(categories.value, sheet.name);
    const nextValues = oldValues && movedLine(oldValues, at);
    if (!oldValues || !nextValues) continue;
    s.setValues(sheet.getRange(local(nextValues)));
    const nextCategories = oldCategories && movedLine(oldCategories, at);
    if (oldCategories && nextCategories) s.setXAxisValues(sheet.getRange(local(nextCategories)));
    moved.push({
      restore: () => {
        s.setValues(sheet.getRange(local(oldValues)));
        if (oldCategories && nextCategories) s.setXAxisValues(sheet.getRange(local(oldCategories)));
      },
    });
  }
  if (moved.length > 0) {
    try {
      await context.sync();
    } catch (error) {
      done.restore();
      throw error;
    }
  }
  return done;
}

/** The rectangle of an address on `sheetName` ("=Sheet!$B$3:$D$3" as series report it), else undefined. */
function onSheet(address: string, sheetName: string): Rect | undefined {
  const text = address.trim().replace(/^=/, "");
  if (text === "" || text.includes(",")) return undefined;
  try {
    const parsed = parseA1(text);
    if (parsed.sheet !== undefined && parsed.sheet.toLowerCase() !== sheetName.toLowerCase()) return undefined;
    return { row: parsed.row, col: parsed.col, rows: parsed.rows, cols: parsed.cols };
  } catch {
    return undefined;
  }
}

/**
 * A format over whole columns of the table's body (or of header and body): the same columns, found
 * by header name, over the new body. Undefined when it covers something else or its columns are gone.
 */
function movedFormat(old: Rect, at: TableGeometry): Rect | undefined {
  const bodyTop = at.row + 1;
  const withHeader = old.row === at.row && old.rows === at.oldBody + 1;
  if (!withHeader && !(old.row === bodyTop && old.rows === at.oldBody)) return undefined;
  const columns = columnsOf(old, at);
  if (!columns) return undefined;
  const row = withHeader ? at.row : bodyTop;
  const next = { row, col: at.col + columns.first, rows: at.newBody + (withHeader ? 1 : 0), cols: columns.count };
  return sameRect(next, old) ? undefined : next;
}

/** New first column and count of the old columns of `old`, when they are still side by side. */
function columnsOf(old: Rect, at: TableGeometry): { first: number; count: number } | undefined {
  const start = old.col - at.col;
  if (start < 0 || start + old.cols > at.oldCols) return undefined;
  const mapped = Array.from({ length: old.cols }, (_, i) => at.columnOf(start + i));
  const first = mapped[0];
  if (first === undefined || mapped.some((c, i) => c !== first + i)) return undefined;
  return { first, count: old.cols };
}

/**
 * A series' values or categories inside the table: one row (a row of the table over some columns)
 * or one column (a column over some rows). A line that ran to the table's last data column or last
 * row runs to the new last one; its own row or column keeps its place (by header name for columns).
 */
function movedLine(old: Rect, at: TableGeometry): Rect | undefined {
  const top = old.row - at.row;
  const start = old.col - at.col;
  if (top < 0 || start < 0 || top + old.rows > at.oldBody + 1 || start + old.cols > at.oldCols) return undefined;
  let next: Rect | undefined;
  if (old.rows === 1) {
    if (top > at.newBody) return undefined; // its row is gone
    const lastOld = start + old.cols - 1;
    // Its first column, or the first of its columns still in the table (a narrower result).
    const first = Array.from({ length: old.cols }, (_, i) => at.columnOf(start + i)).find((c) => c !== undefined);
    const last = lastOld === at.oldLastData ? at.newLastData : at.columnOf(lastOld);
    if (first === undefined || last === undefined || last < first) return undefined;
    next = { row: old.row, col: at.col + first, rows: 1, cols: last - first + 1 };
  } else if (old.cols === 1) {
    const column = at.columnOf(start);
    const lastOld = top + old.rows - 1;
    const last = lastOld === at.oldBody ? at.newBody : lastOld;
    if (column === undefined || last < top) return undefined;
    next = { row: old.row, col: at.col + column, rows: last - top + 1, cols: 1 };
  }
  return next && !sameRect(next, old) ? next : undefined;
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.row === b.row && a.col === b.col && a.rows === b.rows && a.cols === b.cols;
}
