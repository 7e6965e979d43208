/** Workbook reading and writing on the Office API (works against the fake in harness/fake-excel). */
export * from "./chunks";
export * from "./errors";
export * from "./readRange";
export * from "./selectCell";
export * from "./writeSheets";
export * from "./streamSheets";
