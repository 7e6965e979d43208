import type { Feature } from "../feature";
import { ImpactPanel } from "./ImpactPanel";

/** The "Financial impact → new sheets" section of the pane. */
export const impactFeature: Feature = {
  id: "impact",
  group: "pull",
  title: "feature.impact.title",
  keywords: "feature.impact.keywords",
  Panel: ImpactPanel,
};
