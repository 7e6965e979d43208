import type { ComponentType } from "react";

/**
 * The pane's headings, in the order of the work: set up, write formulas, pull data into sheets,
 * manage portfolios and layers.
 */
export type FeatureGroupId = "setup" | "formulas" | "pull" | "portfolios";

/**
 * One section of the task pane: what the registry (features/index.ts) lists and the shell renders.
 * `id` names its test ids (`section-<id>`, `section-<id>-header`); `keywords` are the other words
 * an analyst may search for (e.g. "stale" for last good values).
 */
export interface Feature {
  id: string;
  group: FeatureGroupId;
  title: string;
  keywords: string;
  /** The section's content, mounted when the section is first opened. */
  Panel: ComponentType;
}
