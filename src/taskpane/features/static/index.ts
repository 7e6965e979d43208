import type { Feature } from "../feature";
import { StaticCopyPanel } from "./StaticCopyPanel";

/** The "Static copy (values only)" section of the pane. */
export const staticCopyFeature: Feature = {
  id: "static",
  group: "formulas",
  title: "feature.static.title",
  keywords: "feature.static.keywords",
  Panel: StaticCopyPanel,
};
