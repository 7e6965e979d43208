import type { Feature } from "../feature";
import { NaturePanel } from "./NaturePanel";

/** The "Nature projects" section of the pane. */
export const natureFeature: Feature = {
  id: "nature",
  group: "portfolios",
  title: "feature.nature.title",
  keywords: "feature.nature.keywords",
  Panel: NaturePanel,
};
