/** Office-free shaping logic of the task pane: validation, CSV, flattening, names, safe cells. */
export * from "./types";
export * from "./a1";
export * from "./problems";
export * from "./limits";
export * from "./headers";
export * from "./validateAssets";
export * from "./importCsv";
export * from "./sameAssets";
export * from "./portfolioName";
export * from "./sheetNames";
export * from "./safeCells";
export * from "./flattenTimeseries";
export * from "./flattenSummary";
export * from "./csvTable";
export * from "./exportZip";
export * from "./dateFilter";
