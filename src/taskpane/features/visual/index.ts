import type { Feature } from "../feature";
import { VisualSection } from "./VisualSection";

/** The "Map, risk matrix and scenarios" section of the pane. */
export const visualFeature: Feature = {
  id: "visual",
  group: "pull",
  title: "feature.visual.title",
  keywords: "feature.visual.keywords",
  Panel: VisualSection,
};
