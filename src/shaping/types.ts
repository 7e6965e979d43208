/** Shapes of the shaping code: cell values, tables, and the service's records it flattens. */

/** A value as Excel's `range.values` holds it; "" is an empty cell. */
export type CellValue = string | number | boolean;

/** A 2-D block of cell values, row-major. */
export type CellGrid = CellValue[][];

/** The service's shapes, from the one typed client (types only: nothing of src/api runs here). */
export type {
  Asset,
  ExtendedSummaryItem,
  HazardMetrics,
  PhysicalItem,
  RiskSummaryEntry as RiskSummary,
  SummaryItem,
} from "../api/types";

/** A flattened table ready for a sheet: header texts and rows of equal length. */
export interface SheetTable {
  header: string[];
  rows: CellGrid;
}

/**
 * How the first paste formats some columns of a table, by 0-based column of its header: LOW /
 * MEDIUM / HIGH label colours, a score colour scale, a number format for numbers (text stays
 * text). A refresh that adds such a column formats it alike.
 */
export interface ColumnFormats {
  labelColumns?: number[];
  scoreColumns?: number[];
  numberFormats?: Record<number, string>;
}

/**
 * A sheet of formulas over other sheets, as the workbook writer takes it (less provenance): its
 * table's header and rows, which columns hold formulas, and their number formats.
 */
export interface FormulaSheet extends SheetTable {
  sheetName: string;
  tableName: string;
  /** 0-based columns holding formulas. */
  formulaColumns: number[];
  numberFormats: Record<number, string>;
}
