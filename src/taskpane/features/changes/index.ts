import type { Feature } from "../feature";
import { ChangesPanel } from "./ChangesPanel";

/** The "What changed since last refresh" section of the pane. */
export const changesFeature: Feature = {
  id: "changes",
  group: "formulas",
  title: "feature.changes.title",
  keywords: "feature.changes.keywords",
  Panel: ChangesPanel,
};
