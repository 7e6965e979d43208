/** Workbook reading and writing on the Office API (works against the fake in testing/fake-excel). */
export * from "./chunks";
export * from "./errors";
export * from "./readRange";
export * from "./selectCell";
export * from "./writeSheets";
export * from "./streamSheets";
export * from "./riskCells";
export * from "./runner";
export * from "./selection";
export * from "./cellsByAddress";
