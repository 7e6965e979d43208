import type { ComponentType } from "react";
import type { MessageId } from "../../i18n/messages";

/**
 * The pane's headings, in the order of the work: set up, write formulas, pull data into sheets,
 * manage portfolios and layers.
 */
export type FeatureGroupId = "setup" | "formulas" | "pull" | "portfolios";

/**
 * One section of the task pane: what the registry (features/index.ts) lists and the shell renders.
 * `id` names its test ids (`section-<id>`, `section-<id>-header`); `title` and `keywords` are
 * message ids (src/i18n/catalogs, `feature.<id>.title` / `.keywords`) the shell shows and searches
 * in the display language; the keywords are the other words an analyst may search for (e.g.
 * "stale" for last good values).
 */
export interface Feature {
  id: string;
  group: FeatureGroupId;
  title: MessageId;
  keywords: MessageId;
  /** The section's content, mounted when the section is first opened. */
  Panel: ComponentType;
}
