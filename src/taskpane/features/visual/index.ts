import type { Feature } from "../feature";
import { VisualSection } from "./VisualSection";

/** The "Map, risk matrix and scenarios" section of the pane. */
export const visualFeature: Feature = {
  id: "visual",
  group: "pull",
  title: "Map, risk matrix and scenarios",
  keywords: "chart compare heat matrix portfolio map",
  Panel: VisualSection,
};
