/**
 * Office-free shaping logic shared by the layers above: A1 addresses, problems, limits, headers,
 * CSV, flattening, names, safe cells.
 */
export * from "./types";
export * from "./a1";
export * from "./problems";
export * from "./limits";
export * from "./headers";
export * from "./sheet-names";
export * from "./safe-cells";
export * from "./flatten-timeseries";
export * from "./flatten-summary";
export * from "./csv-table";
export * from "./export-zip";
export * from "./duration";
