import type { Feature } from "../feature";
import { CheckPanel } from "./CheckPanel";

/** The "Check the add-in" section of the pane (also the ribbon's Setup · Check the add-in). */
export const checkFeature: Feature = {
  id: "check",
  group: "setup",
  title: "feature.check.title",
  keywords: "feature.check.keywords",
  Panel: CheckPanel,
};
