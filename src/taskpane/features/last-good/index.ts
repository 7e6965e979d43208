import type { Feature } from "../feature";
import { LastGoodPanel } from "./LastGoodPanel";

/** The "Last good values" section of the pane. */
export const lastGoodFeature: Feature = {
  id: "last-good",
  group: "formulas",
  title: "feature.last-good.title",
  keywords: "feature.last-good.keywords",
  Panel: LastGoodPanel,
};
