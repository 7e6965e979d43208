/** Workbook reading and writing on the Office API (works against the fake in testing/fake-excel). */
export * from "./chunks";
export * from "./errors";
export * from "./read-range";
export * from "./select-cell";
export * from "./write-sheets";
export * from "./stream-sheets";
export * from "./risk-cells";
export * from "./runner";
export * from "./selection";
export * from "./cells-by-address";
