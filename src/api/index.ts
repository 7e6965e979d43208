/** Public surface of the service client. */
export { RiskClient } from "./client";
export * from "./config";
export * from "./errors";
export type { CallOptions, RetryEvent, TransportOptions } from "./http";
export { MAX_ROWS, PagedList, clampRows, readAllPages } from "./pagination";
export type { PageFetcher, ReadAllOptions } from "./pagination";
export { waitForRiskData, type WaitForRiskDataOptions } from "./risk-data";
export * from "./types";
export { describeNoAnswer, diagnoseNoAnswer, explainNoAnswer } from "./no-answer";
export type { NoAnswerCause, NoAnswerOptions } from "./no-answer";
