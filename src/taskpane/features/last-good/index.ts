import type { Feature } from "../feature";
import { LastGoodPanel } from "./LastGoodPanel";

/** The "Last good values" section of the pane. */
export const lastGoodFeature: Feature = {
  id: "last-good",
  group: "formulas",
  title: "Last good values",
  keywords: "stale cache offline retry failed clear",
  Panel: LastGoodPanel,
};
