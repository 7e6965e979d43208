import type { Feature } from "../feature";
import { ImpactPanel } from "./ImpactPanel";

/** The "Financial impact → new sheets" section of the pane. */
export const impactFeature: Feature = {
  id: "impact",
  group: "pull",
  title: "Financial impact → new sheets",
  keywords: "money loss damage value at risk",
  Panel: ImpactPanel,
};
