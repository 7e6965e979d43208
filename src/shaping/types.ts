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
