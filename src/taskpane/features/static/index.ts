import type { Feature } from "../feature";
import { StaticCopyPanel } from "./StaticCopyPanel";

/** The "Static copy (values only)" section of the pane. */
export const staticCopyFeature: Feature = {
  id: "static",
  group: "formulas",
  title: "Static copy (values only)",
  keywords: "freeze snapshot send values restore formulas",
  Panel: StaticCopyPanel,
};
