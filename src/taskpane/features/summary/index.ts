import type { Feature } from "../feature";
import { SummaryPanel } from "./SummaryPanel";

/** The "Summary → new sheet" section of the pane. */
export const summaryFeature: Feature = {
  id: "summary",
  group: "pull",
  title: "feature.summary.title",
  keywords: "feature.summary.keywords",
  Panel: SummaryPanel,
};
