import type { Feature } from "../feature";
import { AppliedLayerPanel } from "./AppliedLayerPanel";

/** The "Applied layer → new sheet" section of the pane. */
export const appliedLayerFeature: Feature = {
  id: "layer",
  group: "pull",
  title: "feature.layer.title",
  keywords: "feature.layer.keywords",
  Panel: AppliedLayerPanel,
};
