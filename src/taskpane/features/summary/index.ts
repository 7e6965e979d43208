import type { Feature } from "../feature";
import { SummaryPanel } from "./SummaryPanel";

/** The "Summary → new sheet" section of the pane. */
export const summaryFeature: Feature = {
  id: "summary",
  group: "pull",
  title: "Summary → new sheet",
  keywords: "paste scores classes extended scenario",
  Panel: SummaryPanel,
};
