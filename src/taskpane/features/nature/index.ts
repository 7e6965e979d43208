import type { Feature } from "../feature";
import { NaturePanel } from "./NaturePanel";

/** The "Nature projects" section of the pane. */
export const natureFeature: Feature = {
  id: "nature",
  group: "portfolios",
  title: "Nature projects",
  keywords: "biodiversity sub-project nature",
  Panel: NaturePanel,
};
